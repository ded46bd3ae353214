"""JSON written piece by piece: the text ``json.dumps(obj, indent=2, ensure_ascii=False)`` gives.

``score --sentence-level --format json`` on a million segments built every
segment's dict and then the whole text in memory (3 GiB peak). Here an array can
be a ``LazyArray`` whose items are made while they are written, chunk by chunk,
and the text goes out in pieces, so memory stays at the size of a chunk.

JSON has no NaN or infinity (RFC 8259, section 6): every number is written with
``allow_nan=False``, and a non-finite one is refused (``dumps``) rather than
written as ``NaN`` or ``Infinity``, which strict readers reject.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from bleuviz.errors import BleuvizError

#: Pieces gathered before one write to the stream.
_FLUSH_PIECES = 1 << 14


@dataclass(frozen=True, slots=True)
class LazyArray:
    """A JSON array whose items are made by ``items()`` only when it is written.

    Attributes:
        items: makes the items, in order.
        plain: the items hold no ``LazyArray``: each is encoded whole by ``json.dumps``
            (much faster than piece by piece for a million small items).
    """

    items: Callable[[], Iterator[Any]]
    plain: bool = False

    def __iter__(self) -> Iterator[Any]:
        """The items, made now (each iteration makes them again)."""
        return self.items()


def dumps(obj: Any, indent: int | None = 2) -> str:
    """``json.dumps(obj, indent=indent, ensure_ascii=False)``, refusing NaN and infinities.

    Raises:
        BleuvizError: a number in ``obj`` is not finite.
    """
    try:
        return json.dumps(obj, indent=indent, ensure_ascii=False, allow_nan=False)
    except ValueError:
        raise BleuvizError(
            "JSON output: a number is not finite (NaN or infinite), which JSON cannot hold"
        ) from None


def write_json(obj: Any, out: TextIO, indent: int = 2) -> None:
    """Write ``obj`` (dicts, lists, tuples, ``LazyArray``s and JSON scalars) to ``out``.

    The text is that of ``json.dumps(obj, indent=indent, ensure_ascii=False)`` with
    every ``LazyArray`` replaced by the list of its items.

    Raises:
        BleuvizError: a number is not finite (what was written before it stays).
    """
    pieces: list[str] = []

    def emit(text: str) -> None:
        pieces.append(text)
        if len(pieces) >= _FLUSH_PIECES:
            out.write("".join(pieces))
            pieces.clear()

    _write(obj, emit, 0, " " * indent)
    out.write("".join(pieces))


def _write(obj: Any, emit: Callable[[str], None], level: int, pad: str) -> None:
    """Emit one value at nesting ``level`` (json's ``indent`` layout)."""
    if isinstance(obj, dict):
        if not obj:
            emit("{}")
            return
        inner = "\n" + pad * (level + 1)
        for i, (key, value) in enumerate(obj.items()):
            emit(
                ("{" if i == 0 else ",") + inner + json.dumps(_key(key), ensure_ascii=False) + ": "
            )
            _write(value, emit, level + 1, pad)
        emit("\n" + pad * level + "}")
    elif isinstance(obj, list | tuple | LazyArray):
        inner = "\n" + pad * (level + 1)
        written = 0
        if isinstance(obj, LazyArray) and obj.plain:
            for value in obj:
                text = dumps(value, indent=len(pad))
                emit(("," if written else "[") + inner + text.replace("\n", inner))
                written += 1
        else:
            for value in obj:
                emit(("," if written else "[") + inner)
                _write(value, emit, level + 1, pad)
                written += 1
        emit("\n" + pad * level + "]" if written else "[]")
    else:
        emit(dumps(obj, indent=None))


def _key(key: object) -> str:
    """A dict key as ``json.dumps`` writes it: strings as they are, scalars converted."""
    if isinstance(key, str):
        return key
    if key is True or key is False or key is None or isinstance(key, int | float):
        return json.dumps(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")
