"""A teacher's lesson: a few sentences (and optional questions) a class opens together.

A lesson file is JSON or TSV:

* JSON: ``{"title": "...", "items": [{"hyp": "...", "refs": ["...", ...],
  "question": "...", "explanation": "..."}, ...]}`` (``title``, ``question`` and
  ``explanation`` optional; a bare list of items is accepted too);
* TSV: one item per line, ``candidate<TAB>reference[<TAB>reference ...]``;
  a line starting with ``#`` is a comment.

``encode_lesson`` packs a lesson into the text of one link parameter
(``/learn?lesson=...``): its compact JSON, zlib-compressed, in URL-safe base64;
``decode_lesson`` reads it back with the same checks as a file. Every refusal
is an ``InputError`` whose message names the file (or ``lesson``), the line or
item, and the field. Limits keep a link small and the page light for a class.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bleuviz.errors import InputError
from bleuviz.teach.examples import Example

MAX_ITEMS = 30
MAX_REFS = 4
MAX_TEXT = 500  # characters per candidate, reference, question or explanation
MAX_LINK = 16_000  # characters of the encoded link parameter
MAX_FILE = 200_000  # bytes of a lesson file


@dataclass(frozen=True, slots=True)
class Lesson:
    """A titled list of exercises (``Example``: candidate, references, explanation, question)."""

    title: str
    items: tuple[Example, ...]


def parse_lesson(data: bytes, name: str) -> Lesson:
    """Read a lesson file (JSON or TSV, UTF-8) called ``name``.

    Raises:
        InputError: the file is too large, not UTF-8, or not a valid lesson.
    """
    if len(data) > MAX_FILE:
        raise InputError(f"{name}: {len(data):,} bytes; a lesson holds at most {MAX_FILE:,}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: byte {exc.start + 1} is not UTF-8") from None
    if name.lower().endswith(".json") or text.lstrip().startswith(("{", "[")):
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"{name}: line {exc.lineno}: not JSON ({exc.msg})") from None
        return lesson_from_json(raw, name)
    return _from_tsv(text, name)


def _from_tsv(text: str, name: str) -> Lesson:
    items: list[Example] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        hyp, *refs = line.split("\t")
        where = f"{name}: line {number}"
        if not refs:
            raise InputError(f"{where}: no reference (candidate<TAB>reference expected)")
        items.append(_item(where, hyp, refs, "", "", len(items)))
    return _lesson(name, "", items)


def lesson_from_json(raw: Any, name: str) -> Lesson:
    """Check a decoded JSON lesson (an object with ``items``, or a bare list of items)."""
    title: Any = ""
    if isinstance(raw, dict):
        unknown = set(raw) - {"title", "items"}
        if unknown:
            raise InputError(f"{name}: unknown field {sorted(unknown)[0]!r} (title, items)")
        title, raw = raw.get("title", ""), raw.get("items")
    if not isinstance(raw, list):
        raise InputError(f"{name}: items: must be a list of items")
    items: list[Example] = []
    for number, entry in enumerate(raw, start=1):
        where = f"{name}: item {number}"
        if not isinstance(entry, dict):
            raise InputError(f"{where}: must be an object with hyp and refs")
        unknown = set(entry) - {"hyp", "refs", "question", "explanation"}
        if unknown:
            raise InputError(f"{where}: unknown field {sorted(unknown)[0]!r}")
        refs = entry.get("refs")
        if not isinstance(refs, list):
            raise InputError(f"{where}: refs: must be a list of references")
        items.append(
            _item(
                where,
                entry.get("hyp"),
                refs,
                entry.get("question", ""),
                entry.get("explanation", ""),
                len(items),
            )
        )
    return _lesson(name, title, items)


def _text(where: str, field: str, value: Any) -> str:
    if not isinstance(value, str):
        raise InputError(f"{where}: {field}: must be text")
    if len(value) > MAX_TEXT:
        raise InputError(f"{where}: {field}: {len(value)} characters; at most {MAX_TEXT}")
    return value


def _item(
    where: str, hyp: Any, refs: Sequence[Any], question: Any, explanation: Any, index: int
) -> Example:
    if not refs or len(refs) > MAX_REFS:
        raise InputError(f"{where}: refs: {len(refs)} references; 1 to {MAX_REFS} allowed")
    texts = tuple(_text(where, f"refs[{i}]", r) for i, r in enumerate(refs))
    return Example(
        f"lesson-{index + 1}",
        f"Lesson item {index + 1}",
        _text(where, "hyp", hyp),
        texts,
        _text(where, "explanation", explanation),
        _text(where, "question", question),
    )


def _lesson(name: str, title: Any, items: list[Example]) -> Lesson:
    if not items:
        raise InputError(f"{name}: no item")
    if len(items) > MAX_ITEMS:
        raise InputError(f"{name}: {len(items)} items; a lesson holds at most {MAX_ITEMS}")
    return Lesson(_text(name, "title", title), tuple(items))


def lesson_json(lesson: Lesson) -> dict[str, Any]:
    """The lesson as the JSON a file or a link holds (empty optional fields left out)."""
    items: list[dict[str, Any]] = []
    for item in lesson.items:
        entry: dict[str, Any] = {"hyp": item.hypothesis, "refs": list(item.references)}
        if item.question:
            entry["question"] = item.question
        if item.lesson:
            entry["explanation"] = item.lesson
        items.append(entry)
    return {"title": lesson.title, "items": items} if lesson.title else {"items": items}


def encode_lesson(lesson: Lesson) -> str:
    """Pack a lesson into one link parameter's text (URL-safe base64 of zlib'd JSON)."""
    raw = json.dumps(lesson_json(lesson), ensure_ascii=False, separators=(",", ":"))
    packed = base64.urlsafe_b64encode(zlib.compress(raw.encode("utf-8"), 9))
    return packed.decode("ascii").rstrip("=")


def decode_lesson(text: str, name: str = "lesson") -> Lesson:
    """Read a lesson back from a link parameter, with the checks of a file.

    Raises:
        InputError: too long, not base64, not compressed JSON, or not a valid lesson.
    """
    if len(text) > MAX_LINK:
        raise InputError(f"{name}: {len(text):,} characters; at most {MAX_LINK:,}")
    try:
        packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        data = zlib.decompressobj().decompress(packed, MAX_FILE + 1)
    except (binascii.Error, ValueError, zlib.error):
        raise InputError(f"{name}: not a lesson packed by bleuviz (URL-safe base64)") from None
    return parse_lesson(data, name)
