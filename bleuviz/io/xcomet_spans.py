"""xCOMET's predicted error spans in COMET's JSON output, read as a metric's spans.

COMET's ``comet-score --to_json`` (Unbabel/COMET, ``comet/cli/score.py``,
commit da61b81) writes ``{hypothesis file: [record, ...]}``, one record per
line: ``{"src", "mt", "ref", "COMET": score}``, and, for an xCOMET model and a
line where it found errors, ``"errors": [{"text", "confidence", "severity",
"start", "end"}]`` (``UnifiedMetric.decode`` in
``comet/models/multitask/unified_metric.py``: character offsets of the first and
last subword into ``mt``, end exclusive; severity ``minor``, ``major`` or
``critical``). The Python API gives the same list as ``error_spans``
(``outputs.metadata.error_spans``), so a record may hold it under either key.

The system is named after the file as ``--hyp`` names it, the k-th record is
line k, and every ``mt`` must equal its line (COMET strips lines, so they are
compared stripped, and offsets are shifted onto the line as the test set holds
it). The spans are a metric's (:data:`METRIC`), rated by ``xCOMET``, and the
records' score becomes the segment score named ``xCOMET``.
"""

from __future__ import annotations

from typing import Any

from bleuviz.errors import InputError
from bleuviz.io.decode import DEFAULT_MAX_BYTES, NamedBytes, decode_text, plural
from bleuviz.io.error_spans import METRIC, ErrorAnnotations, ErrorSpan, SegmentAnnotation
from bleuviz.io.mqm_tsv import SEVERITIES
from bleuviz.io.plain import system_name_from_filename
from bleuviz.io.seg_scores import parse_score
from bleuviz.io.strict_json import load_json
from bleuviz.io.testset import TestSet

#: The name the spans, their rater and their score get.
XCOMET = "xCOMET"
#: Where a record holds its spans: the command line's key, then the Python API's.
SPAN_KEYS = ("errors", "error_spans")


def read_xcomet_spans(
    f: NamedBytes, testset: TestSet, max_bytes: int = DEFAULT_MAX_BYTES
) -> ErrorAnnotations:
    """Read COMET's ``--to_json`` output holding xCOMET's error spans.

    Raises:
        InputError: not ``{file: [records]}``, a record that is not one line's,
            a malformed span or offsets outside the line, a system with another
            number of records than the test set has segments, or no system loaded.
    """
    data = load_json(f.name, decode_text(f, max_bytes))
    if not isinstance(data, dict) or not data:
        raise InputError(f"{f.name}: expected COMET's --to_json object {{file: [records]}}")
    segments: dict[str, tuple[SegmentAnnotation | None, ...]] = {}
    skipped: list[str] = []
    for path, records in data.items():
        system = system_name_from_filename(path)
        if system not in testset.systems:
            skipped.append(system)
            continue
        if not isinstance(records, list) or len(records) != testset.n_segments:
            count = plural(len(records), "record") if isinstance(records, list) else "no list"
            raise InputError(
                f"{f.name}: {path!r} has {count} but the test set has "
                f"{plural(testset.n_segments, 'segment')}"
            )
        lines = testset.systems[system]
        segments[system] = tuple(
            _record(f"{f.name}: {path!r} record {k + 1}", record, lines[k])
            for k, record in enumerate(records)
        )
    if segments and not _holds_spans(data):
        raise InputError(
            f"{f.name}: no record holds xCOMET's error spans ('errors' or 'error_spans'); "
            "COMET's scores alone are read by --seg-scores"
        )
    if not segments:
        raise InputError(
            f"{f.name}: no system it scores is in the test set (it scores "
            f"{', '.join(skipped[:10])}; the test set has {', '.join(testset.system_names[:10])})"
        )
    ordered = {s: segments[s] for s in testset.system_names if s in segments}
    return ErrorAnnotations(XCOMET, f.name, METRIC, ordered, tuple(skipped))


def _holds_spans(data: dict[str, Any]) -> bool:
    """Return whether any record holds spans (COMET writes none for a line without errors)."""
    return any(
        isinstance(record, dict) and any(key in record for key in SPAN_KEYS)
        for records in data.values()
        if isinstance(records, list)
        for record in records
    )


def _record(where: str, record: Any, line: str) -> SegmentAnnotation:
    """Read one record: its score and spans, checking ``mt`` against ``line``."""
    if not isinstance(record, dict) or not isinstance(record.get("mt"), str):
        raise InputError(f"{where}: expected an object with an 'mt' text")
    mt = record["mt"]
    if mt.strip() != line.strip():
        raise InputError(f"{where}: its 'mt' text differs from the line: {mt[:60]!r}")
    score = record.get("COMET")
    if isinstance(score, bool) or not isinstance(score, (int, float, type(None))):
        raise InputError(f"{where}: COMET {score!r} is not a number")
    spans_key = next((key for key in SPAN_KEYS if key in record), None)
    raw = [] if spans_key is None else record[spans_key]
    if not isinstance(raw, list):
        raise InputError(f"{where}: {spans_key!r} is not a list of spans")
    shift = len(line) - len(line.lstrip())  # COMET strips the line it scores
    spans = tuple(
        _span(f"{where} span {k}", span, mt.strip(), shift) for k, span in enumerate(raw, 1)
    )
    value = None if score is None else parse_score(where, str(score))
    return SegmentAnnotation((XCOMET,), spans, value)


def _span(where: str, span: Any, mt: str, shift: int) -> ErrorSpan:
    """Read one predicted span; offsets are into the stripped ``mt``."""
    if not isinstance(span, dict):
        raise InputError(f"{where}: expected an object with start, end and severity")
    start, end = _offset(where, span, "start"), _offset(where, span, "end")
    if not start <= end <= len(mt):
        raise InputError(
            f"{where}: offsets {start}-{end} are outside the line ({plural(len(mt), 'character')})"
        )
    severity = span.get("severity")
    if not isinstance(severity, str) or severity.lower() not in SEVERITIES:
        raise InputError(f"{where}: unknown severity {severity!r}")
    confidence = span.get("confidence")
    if confidence is not None and (
        isinstance(confidence, bool) or not isinstance(confidence, float)
    ):
        raise InputError(f"{where}: confidence {confidence!r} is not a number")
    return ErrorSpan(
        start + shift,
        end + shift,
        severity.lower(),
        "",
        XCOMET,
        omission=start == end,
        confidence=confidence,
    )


def _offset(where: str, span: dict[str, Any], key: str) -> int:
    """Return a whole, non-negative character offset (JSON numbers are read as floats)."""
    value = span.get(key)
    if isinstance(value, bool) or not isinstance(value, float) or not value.is_integer():
        raise InputError(f"{where}: {key} {value!r} is not a character offset")
    if value < 0:
        raise InputError(f"{where}: {key} {int(value)} is negative")
    return int(value)
