"""Parse JSON strictly: the one JSON parser of every reader in ``bleuviz.io``.

Python's ``json.loads`` is lenient where a wrong number could follow silently:
a repeated key keeps its last value, ``NaN`` and ``Infinity`` are numbers, an
integer of more than 4,300 digits raises ``ValueError``, and a deeply nested
value raises ``RecursionError``. RFC 8259 (section 4) says names "SHOULD be
unique" and leaves the rest to the parser, so bleuviz refuses each of these with
an ``InputError`` naming the file and the line:

* a key repeated in one object (the line of the object that repeats it);
* ``NaN``, ``Infinity`` and ``-Infinity``, which are not JSON (RFC 8259, section 6);
* nesting deeper than ``MAX_JSON_DEPTH`` (checked before parsing, so the parser's
  recursion is bounded);
* a lone surrogate escape (``"\\ud800"``), which is no character and cannot be
  written back as UTF-8.

Integers are read as floats: every number the readers take is a score.
"""

from __future__ import annotations

import contextlib
import json
import re
from json.decoder import JSONObject  # type: ignore[attr-defined]
from json.scanner import py_make_scanner  # type: ignore[attr-defined]
from typing import Any

import numpy as np

from bleuviz.errors import InputError

#: Deepest nesting accepted: COMET's ``--to_json`` needs 3 ({file: [{record}]}), a
#: table row 1; anything past this is no layout bleuviz reads.
MAX_JSON_DEPTH = 8

#: A JSON string token (the parser's own rule: a backslash escapes the next character).
#: An unterminated string runs to the end of the text: the closing quote is optional,
#: so a match never fails and the search never restarts inside a string (quadratic on
#: ``"\"\"\"…`` otherwise).
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_TOKEN = re.compile(_STRING.pattern + r"|[\[\]{}]", re.DOTALL)
_OPENERS = frozenset("[{")


class _DuplicateKey(Exception):
    """A key repeated in one object (raised inside the parser, turned into InputError)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class _Refused(Exception):
    """A value the parser met that JSON or bleuviz does not allow."""


def load_json(name: str, text: str, line: int | None = None) -> Any:
    """Parse ``text`` as strict JSON.

    Args:
        name: the file's name, for messages.
        text: the JSON text (a whole file, or one line of a JSON-lines file).
        line: the line ``text`` is on in its file (JSON lines); None for a whole file,
            whose messages then give the line inside ``text``.

    Raises:
        InputError: invalid JSON, a repeated key, NaN or Infinity, a lone
            surrogate, or nesting deeper than ``MAX_JSON_DEPTH``.
    """
    base = 0 if line is None else line - 1
    _check_depth(name, text, base)
    try:
        return json.loads(
            text, object_pairs_hook=_unique, parse_constant=_no_constant, parse_int=float
        )
    except json.JSONDecodeError as e:
        at = f"line {base + e.lineno}: invalid JSON ({e.msg} at column {e.colno})"
        raise InputError(f"{name}: {at}") from None
    except _DuplicateKey as e:
        where = base + _refused_line(text)
        raise InputError(
            f"{name}: line {where}: key {e.key!r} appears twice in one object"
        ) from None
    except _Refused as e:
        raise InputError(f"{name}: line {base + _refused_line(text)}: {e}") from None
    except RecursionError:  # bounded by _check_depth; kept so that no traceback escapes
        raise InputError(f"{name}: nested deeper than {MAX_JSON_DEPTH} levels") from None


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Build an object, refusing a repeated key and lone surrogates in keys or strings."""
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise _DuplicateKey(key)
        for text in (key, value) if isinstance(value, str) else (key,):
            if not text.isascii() and _has_surrogate(text):
                raise _Refused(f"{text[:40]!r} holds a lone surrogate escape (no character)")
        obj[key] = value
    return obj


def _has_surrogate(text: str) -> bool:
    """Return whether ``text`` holds a surrogate code point (a lone ``\\ud800`` escape)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _no_constant(token: str) -> float:
    """Refuse ``NaN``, ``Infinity`` and ``-Infinity``: not JSON, and no score."""
    raise _Refused(f"{token} is not a JSON number")


def _check_depth(name: str, text: str, base: int) -> None:
    """Refuse nesting deeper than ``MAX_JSON_DEPTH``, before the parser recurses into it."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text)).encode("ascii")
    steps = np.frombuffer(brackets, dtype=np.uint8)
    opens = (steps == ord("[")) | (steps == ord("{"))
    if int(np.cumsum(np.where(opens, 1, -1)).max(initial=0)) > MAX_JSON_DEPTH:
        line = base + text.count("\n", 0, _deep_position(text)) + 1
        raise InputError(f"{name}: line {line}: nested deeper than {MAX_JSON_DEPTH} levels")


def _deep_position(text: str) -> int:
    """Return where the first bracket past ``MAX_JSON_DEPTH`` opens (only on refusal)."""
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in _OPENERS:
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return match.start()
        elif token in ("]", "}"):
            depth -= 1
    return 0


def _refused_line(text: str) -> int:
    """Return the line of the object holding what was refused (only on refusal).

    The C parser does not tell its hooks where it is, so the text is parsed again
    by the pure-Python scanner, whose object parser sees where each object starts;
    the innermost object the refusal passes through names the line.
    """
    decoder = json.JSONDecoder(
        object_pairs_hook=_unique, parse_constant=_no_constant, parse_int=float
    )
    found: list[int] = []

    def parse_object(s_and_end: tuple[str, int], *args: Any) -> tuple[Any, int]:
        try:
            return JSONObject(s_and_end, *args)  # type: ignore[no-any-return]
        except (_DuplicateKey, _Refused):
            if not found:
                found.append(s_and_end[0].count("\n", 0, s_and_end[1]) + 1)
            raise

    decoder.parse_object = parse_object  # type: ignore[attr-defined]
    decoder.scan_once = py_make_scanner(decoder)  # type: ignore[attr-defined]
    with contextlib.suppress(ValueError, RecursionError, _DuplicateKey, _Refused):
        decoder.decode(text)
    return found[0] if found else 1
