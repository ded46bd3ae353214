"""How one system's error spans become the BLOB the workspace stores, and back, exactly.

A system's annotations (``bleuviz.io.error_spans``: one ``SegmentAnnotation`` or
None per segment) are one JSON object, compressed like a stream
(``bleuviz.workspace.codec``), holding them by column, since a file of 100,000
segments has hundreds of thousands of spans and nested per-span arrays cost
twice as long to parse:

``n``: the number of segments; ``annotated``: the indices of the segments with an
annotation; for each of those, ``n_raters``, ``n_spans`` and ``scores`` (``null``
for none); ``raters``: every annotated segment's raters in a row; ``fields``:
``ErrorSpan``'s field names; ``columns``: one array per field, every span's value
in a row; a column whose values are all strings (and the raters) holds indices
into ``strings``, each distinct string once, numbered in order of appearance
(``string_columns`` names those columns).

JSON keeps what these fields hold exactly: Python writes a float as the
shortest text that reads back as the same float (NaN and the infinities as
``NaN``, ``Infinity``), ints and booleans keep their types, and strings keep
every code point (lone surrogates too, by ``surrogatepass``). A field added to
``ErrorSpan`` later, with a default, reads as its default from older rows. The
encoding is deterministic, so two equal annotations have equal payloads: a
save compares payloads to tell a repeat from a change.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields
from operator import attrgetter
from typing import Any

from bleuviz.io.error_spans import ErrorSpan, SegmentAnnotation

_ERRORS = "surrogatepass"
#: ``ErrorSpan``'s fields, in the order the columns list them.
_SPAN_FIELDS = tuple(f.name for f in fields(ErrorSpan))
_SPAN_VALUES = attrgetter(*_SPAN_FIELDS)


def spans_payload(segments: Sequence[SegmentAnnotation | None]) -> bytes:
    """Return the uncompressed JSON bytes standing for one system's ``segments``."""
    annotated = [k for k, a in enumerate(segments) if a is not None]
    kept = [a for a in segments if a is not None]
    strings: dict[str, int] = {}
    raters = [strings.setdefault(r, len(strings)) for a in kept for r in a.raters]
    rows = [_SPAN_VALUES(span) for a in kept for span in a.spans]
    columns: list[list[Any]] = [list(column) for column in zip(*rows, strict=True)] or [
        [] for _ in _SPAN_FIELDS
    ]
    text_columns = [i for i, c in enumerate(columns) if c and all(type(v) is str for v in c)]
    for i in text_columns:
        columns[i] = [strings.setdefault(v, len(strings)) for v in columns[i]]
    payload = {
        "n": len(segments),
        "annotated": annotated,
        "n_raters": [len(a.raters) for a in kept],
        "n_spans": [len(a.spans) for a in kept],
        "scores": [a.score for a in kept],
        "raters": raters,
        "fields": list(_SPAN_FIELDS),
        "columns": columns,
        "string_columns": text_columns,
        "strings": list(strings),
    }
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8", _ERRORS)


def spans_of(data: bytes) -> tuple[SegmentAnnotation | None, ...]:
    """Return the segments a ``spans_payload`` stands for."""
    p = json.loads(data.decode("utf-8", _ERRORS))
    strings: list[str] = p["strings"]
    columns: list[list[Any]] = p["columns"]
    for i in p["string_columns"]:
        columns[i] = [strings[k] for k in columns[i]]
    spans = _spans(p["fields"], columns)
    raters = [strings[k] for k in p["raters"]]
    out: list[SegmentAnnotation | None] = [None] * p["n"]
    r = s = 0
    for k, n_raters, n_spans, score in zip(
        p["annotated"], p["n_raters"], p["n_spans"], p["scores"], strict=True
    ):
        out[k] = SegmentAnnotation(
            tuple(raters[r : r + n_raters]), tuple(spans[s : s + n_spans]), score
        )
        r, s = r + n_raters, s + n_spans
    return tuple(out)


def _spans(names: list[str], columns: list[list[Any]]) -> list[ErrorSpan]:
    """Every span, from its fields' columns (by position when the fields are as stored)."""
    if tuple(names) == _SPAN_FIELDS[: len(names)]:
        return list(map(ErrorSpan, *columns))
    rows = zip(*columns, strict=True)
    return [ErrorSpan(**dict(zip(names, values, strict=True))) for values in rows]
