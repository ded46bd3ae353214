"""How one system's error spans become the BLOB the workspace stores, and back, exactly.

A system's annotations (``bleuviz.io.error_spans``: one ``SegmentAnnotation`` or
None per segment) are one JSON array of N entries, compressed like a stream
(``bleuviz.workspace.codec``): ``null`` for a segment not annotated, else
``[raters, spans, score]``, each span the list of its fields in ``ErrorSpan``'s
order (``start, end, severity, category, rater, on_source, ...``): a field added
to ``ErrorSpan`` later, with a default, reads as its default from older rows.
JSON keeps what these fields hold exactly: Python writes a float as the
shortest text that reads back as the same float (NaN and the infinities as
``NaN``, ``Infinity``), ints and booleans keep their types, and strings keep
every code point (lone surrogates too, by ``surrogatepass``). The encoding is
deterministic, so two equal annotations have equal payloads: a save compares
payloads to tell a repeat from a change.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from bleuviz.io.error_spans import ErrorSpan, SegmentAnnotation

_ERRORS = "surrogatepass"
#: ``ErrorSpan``'s fields, in the order a stored span lists them.
_SPAN_FIELDS = tuple(f.name for f in fields(ErrorSpan))


def spans_payload(segments: Sequence[SegmentAnnotation | None]) -> bytes:
    """Return the uncompressed JSON bytes standing for one system's ``segments``."""
    entries = [None if a is None else _annotation_entry(a) for a in segments]
    return json.dumps(entries, ensure_ascii=False, separators=(",", ":")).encode("utf-8", _ERRORS)


def spans_of(data: bytes) -> tuple[SegmentAnnotation | None, ...]:
    """Return the segments a ``spans_payload`` stands for."""
    entries = json.loads(data.decode("utf-8", _ERRORS))
    return tuple(None if e is None else _annotation(e) for e in entries)


def _annotation_entry(annotation: SegmentAnnotation) -> list[Any]:
    spans = [[getattr(span, name) for name in _SPAN_FIELDS] for span in annotation.spans]
    return [list(annotation.raters), spans, annotation.score]


def _annotation(entry: list[Any]) -> SegmentAnnotation:
    raters, spans, score = entry
    return SegmentAnnotation(
        tuple(raters),
        tuple(ErrorSpan(*values) for values in spans),
        score,
    )
