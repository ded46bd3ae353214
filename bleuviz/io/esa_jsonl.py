"""WMT24's ESA annotations (Error Span Annotation, Appraise) as JSON lines.

WMT24's human evaluation used ESA (Kocmi et al. 2024, arXiv:2406.11580): an
annotator marks error spans, each minor or major, then gives the segment a
score from 0 to 100. The public WMT24 release merges Appraise's export into one
JSON object per line and annotated segment; the keys read here are that
release's, as loaders of it spell them (e.g. ``EsaAnnotation`` in public
analysis code: ``langs, line_id, src, tgt, doc_id, domain, esa_spans,
esa_score, system``):

* ``system``: the system's name;
* ``line_id``: the segment's 0-based line in the test set (the release's line
  index into the language pair's source file);
* ``tgt``: the hypothesis; it must equal the test set's line;
* ``esa_score``: the segment's score, 0-100 (``null``: none);
* ``esa_spans``: ``[{"start_i", "end_i", "severity", "error_type"}]``, character
  offsets into ``tgt``, end exclusive (Python's slice, as Appraise's character
  spans); ``"missing"`` for both offsets marks an omission, drawn as a marker;
  ``error_type`` is usually ``null`` (ESA has no categories);
* ``annotator`` (optional): the rater; ``ESA`` when absent.

Several lines for one system and segment (several annotators) are one segment
with several raters, whose ESA score is their mean. The spans' name and their
score's is ``ESA``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from bleuviz.errors import InputError
from bleuviz.io.decode import DEFAULT_MAX_BYTES, NamedBytes, decode_lines, plural
from bleuviz.io.error_spans import HUMAN, ErrorAnnotations, ErrorSpan, SegmentAnnotation
from bleuviz.io.mqm_tsv import SEVERITIES
from bleuviz.io.strict_json import load_json
from bleuviz.io.testset import TestSet

#: The name the spans and their score get, and the rater of a line naming none.
ESA = "ESA"
#: What the release writes for both offsets of an omission.
MISSING = "missing"


@dataclass(slots=True)
class _Segment:
    """One segment's raters, spans and scores while the file is read."""

    raters: list[str] = field(default_factory=list)
    spans: list[ErrorSpan] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)


def read_esa_jsonl(
    f: NamedBytes, testset: TestSet, max_bytes: int = DEFAULT_MAX_BYTES
) -> ErrorAnnotations:
    """Read WMT24's ESA JSON lines into error spans and ESA scores on ``testset``.

    Raises:
        InputError: a line that is not such an object, a ``line_id`` past the end,
            a ``tgt`` that differs from the hypothesis, a malformed span or offsets
            outside the line, or no system of the file loaded.
    """
    per: dict[str, dict[int, _Segment]] = {}
    skipped: dict[str, None] = {}
    for n, line in enumerate(decode_lines(f, max_bytes), start=1):
        if not line.strip():
            continue
        record = load_json(f.name, line, line=n)
        where = f"{f.name}: line {n}"
        if not isinstance(record, dict) or not isinstance(record.get("system"), str):
            raise InputError(f"{where}: expected an object with system, line_id, tgt, esa_spans")
        system = record["system"]
        if system not in testset.systems:
            skipped[system] = None
            continue
        index = _line_id(where, record.get("line_id"), testset.n_segments)
        hypothesis = testset.systems[system][index]
        _check_target(f"{where}: system {system!r} segment {index + 1}", record, hypothesis)
        segment = per.setdefault(system, {}).setdefault(index, _Segment())
        _add(where, record, hypothesis, segment)
    if not per:
        raise InputError(
            f"{f.name}: no system it annotates is in the test set (it annotates "
            f"{', '.join(list(skipped)[:10]) or 'none'}; the test set has "
            f"{', '.join(testset.system_names[:10])})"
        )
    if not any(seg.scores for segments in per.values() for seg in segments.values()):
        # ESA is spans and a score; without scores its spans would be weighed as MQM's
        raise InputError(f"{f.name}: no line of a loaded system gives an esa_score")
    frozen = {s: _freeze(per[s], testset.n_segments) for s in testset.system_names if s in per}
    return ErrorAnnotations(ESA, f.name, HUMAN, frozen, tuple(skipped))


def _line_id(where: str, value: Any, n_segments: int) -> int:
    """Return the 0-based line ``line_id`` names, refusing one past the end."""
    if isinstance(value, bool) or not isinstance(value, float) or not value.is_integer():
        raise InputError(f"{where}: line_id {value!r} is not a 0-based line number")
    if not 0 <= value < n_segments:
        raise InputError(
            f"{where}: line_id {int(value)} is past the test set's "
            f"{plural(n_segments, 'segment')} (line_id counts from 0)"
        )
    return int(value)


def _check_target(where: str, record: dict[str, Any], hypothesis: str) -> None:
    """Refuse a ``tgt`` that is not the hypothesis (a line counted from 1, another file)."""
    target = record.get("tgt")
    if not isinstance(target, str):
        raise InputError(f"{where}: tgt {target!r} is not a text")
    if target != hypothesis:
        raise InputError(
            f"{where}: tgt differs from the hypothesis: {target[:60]!r} vs {hypothesis[:60]!r}"
        )


def _add(where: str, record: dict[str, Any], hypothesis: str, segment: _Segment) -> None:
    """Add one annotator's rater, score and spans to ``segment``."""
    rater = record.get("annotator", ESA)
    if not isinstance(rater, str):
        raise InputError(f"{where}: annotator {rater!r} is not a text")
    score = record.get("esa_score")
    if score is not None:
        if isinstance(score, bool) or not isinstance(score, float) or not math.isfinite(score):
            raise InputError(f"{where}: esa_score {score!r} is not a number")
        segment.scores.append(score)
    spans = record.get("esa_spans", [])
    if not isinstance(spans, list):
        raise InputError(f"{where}: esa_spans is not a list")
    if rater not in segment.raters:
        segment.raters.append(rater)
    segment.spans += (
        _span(f"{where}: span {k}", span, rater, len(hypothesis))
        for k, span in enumerate(spans, start=1)
    )


def _span(where: str, span: Any, rater: str, length: int) -> ErrorSpan:
    """Read one ``{start_i, end_i, severity, error_type}``."""
    if not isinstance(span, dict):
        raise InputError(f"{where}: expected an object with start_i, end_i and severity")
    severity = span.get("severity")
    if not isinstance(severity, str) or severity.strip().lower() not in SEVERITIES:
        raise InputError(f"{where}: unknown severity {severity!r} (expected minor or major)")
    category = span.get("error_type") or ""
    if not isinstance(category, str):
        raise InputError(f"{where}: error_type {category!r} is not a text")
    start, end = span.get("start_i"), span.get("end_i")
    if start == MISSING and end == MISSING:
        return ErrorSpan(0, 0, severity.strip().lower(), category, rater, omission=True)
    first, last = _offset(where, "start_i", start), _offset(where, "end_i", end)
    if not first <= last <= length:
        raise InputError(
            f"{where}: offsets {first}-{last} are outside the hypothesis "
            f"({plural(length, 'character')})"
        )
    return ErrorSpan(first, last, severity.strip().lower(), category, rater, omission=first == last)


def _offset(where: str, key: str, value: Any) -> int:
    """Return a whole, non-negative character offset (JSON numbers are read as floats)."""
    if isinstance(value, bool) or not isinstance(value, float) or not value.is_integer():
        raise InputError(f"{where}: {key} {value!r} is not a character offset or {MISSING!r}")
    if value < 0:
        raise InputError(f"{where}: {key} {int(value)} is negative")
    return int(value)


def _freeze(segments: dict[int, _Segment], n: int) -> tuple[SegmentAnnotation | None, ...]:
    """Return one entry per line: raters, spans and the mean ESA score, or None."""
    frozen: list[SegmentAnnotation | None] = [None] * n
    for index, s in segments.items():
        score = sum(s.scores) / len(s.scores) if s.scores else None
        frozen[index] = SegmentAnnotation(tuple(s.raters), tuple(s.spans), score)
    return tuple(frozen)
