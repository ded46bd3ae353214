"""mt-metrics-eval's ``NAME.seg.rating`` files, read into error spans.

Replicates ``ReadRatingFile`` of ``mt_metrics_eval/ratings.py``
(google-research/mt-metrics-eval, commit 68a481a): each line, stripped, is
``SYSTEM<TAB>RATING`` or ``SYSTEM<TAB>RATING<TAB>RATER``; a system's k-th line
is segment k (as in a ``.seg.score`` file); ``RATING`` is ``None`` for a segment
not rated, else the JSON of a ``Rating``: ``{"errors": [{"start", "end",
"category", "severity", "score", "is_source_error"}]}`` with character offsets
into the hypothesis (into the source for a source error), end exclusive. A line
without a rater is the file's name's rater, as ``data.py`` passes the rating's
name as ``default_rater``. The annotations, and their MQM score, are named as
``data.py``'s ``ParseHumanScoreFilename`` names them: ``en-de.mqm.seg.rating``
is ``mqm``; a file not named ``LP.NAME.seg.rating`` is named after what
precedes ``.seg.rating``.

Deliberate deviations: offsets outside their line, a severity MQM does not have
(or none), a system with another number of lines than the test set has
segments, and non-integral offsets are refused rather than read; keys an
``Error`` does not have are ignored, as ``dacite.from_dict`` ignores them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bleuviz.errors import InputError
from bleuviz.io.decode import DEFAULT_MAX_BYTES, NamedBytes, decode_lines, plural
from bleuviz.io.error_spans import HUMAN, ErrorAnnotations, ErrorSpan, SegmentAnnotation
from bleuviz.io.mqm_tsv import SEVERITIES
from bleuviz.io.seg_scores import MISSING, file_base_name
from bleuviz.io.strict_json import load_json
from bleuviz.io.testset import TestSet

#: The suffix of a segment-level rating file.
SUFFIX = ".seg.rating"
_LANGUAGE_PAIR = re.compile(r"[A-Za-z]{2,3}(?:_[A-Za-z]+)?-[A-Za-z]{2,3}(?:_[A-Za-z]+)?")


def rating_name(origin: str) -> str:
    """Return the rating's name: ``mqm`` of ``en-de.mqm.seg.rating`` or of ``mqm.seg.rating``."""
    stem = file_base_name(origin).removesuffix(SUFFIX)
    pair, dot, rest = stem.partition(".")
    return rest if dot and rest and _LANGUAGE_PAIR.fullmatch(pair) else stem


def read_mqm_ratings(
    f: NamedBytes, testset: TestSet, max_bytes: int = DEFAULT_MAX_BYTES
) -> ErrorAnnotations:
    """Read an mt-metrics-eval ``.seg.rating`` file into error spans on ``testset``.

    Raises:
        InputError: a malformed line, JSON or error, an offset outside its line,
            a system with another number of lines than the test set's segments,
            or no system of the file loaded.
    """
    name = rating_name(f.name)
    per_system: dict[str, list[SegmentAnnotation | None]] = {}
    skipped: dict[str, None] = {}
    for n, line in enumerate(decode_lines(f, max_bytes), start=1):
        cols = line.strip().split("\t")
        if len(cols) not in (2, 3) or not cols[0]:
            raise InputError(
                f"{f.name}: line {n}: expected SYSTEM<TAB>RATING[<TAB>RATER], "
                f"got {plural(len(cols), 'field')}"
            )
        system = cols[0]
        if system not in testset.systems:
            skipped[system] = None
            continue
        segments = per_system.setdefault(system, [])
        if len(segments) >= testset.n_segments:
            raise InputError(
                f"{f.name}: line {n}: system {system!r} has more lines than the test set's "
                f"{plural(testset.n_segments, 'segment')}"
            )
        rater = cols[2] if len(cols) == 3 else name
        segments.append(_rating(f.name, n, cols[1], rater, testset, (system, len(segments))))
    _check_counts(f.name, per_system, testset, list(skipped))
    frozen = {s: tuple(per_system[s]) for s in testset.system_names if s in per_system}
    return ErrorAnnotations(name, f.name, HUMAN, frozen, tuple(skipped))


def _check_counts(
    name: str,
    per_system: dict[str, list[SegmentAnnotation | None]],
    testset: TestSet,
    skipped: Sequence[str],
) -> None:
    """Refuse a file annotating no loaded system, or a system with too few lines."""
    if not per_system:
        listed = ", ".join(skipped[:10]) or "none"
        raise InputError(
            f"{name}: no system it rates is in the test set (it rates {listed}; "
            f"the test set has {', '.join(testset.system_names[:10])})"
        )
    for system, segments in per_system.items():
        if len(segments) != testset.n_segments:
            raise InputError(
                f"{name}: system {system!r} has {plural(len(segments), 'line')} but the "
                f"test set has {plural(testset.n_segments, 'segment')}"
            )


def _rating(
    name: str, n: int, text: str, rater: str, testset: TestSet, segment: tuple[str, int]
) -> SegmentAnnotation | None:
    """Parse line ``n``'s ``Rating`` JSON into the segment's annotation (None for ``None``)."""
    if text == MISSING:
        return None
    where, (system, index) = f"{name}: line {n}", segment
    data = load_json(name, text, line=n)
    if not isinstance(data, dict) or not isinstance(data.get("errors"), list):
        raise InputError(f'{where}: expected a rating {{"errors": [...]}} or {MISSING}')
    hypothesis = testset.systems[system][index]
    source = testset.source[index] if testset.source is not None else None
    spans = tuple(
        _error(f"{where}: error {k}", error, rater, hypothesis, source)
        for k, error in enumerate(data["errors"], start=1)
    )
    return SegmentAnnotation((rater,), spans)


def _error(where: str, error: Any, rater: str, hypothesis: str, source: str | None) -> ErrorSpan:
    """Parse one ``Error``, checking its offsets against its line."""
    if not isinstance(error, dict):
        raise InputError(f"{where}: expected an object with start and end")
    on_source = error.get("is_source_error", False)
    if not isinstance(on_source, bool):
        raise InputError(f"{where}: is_source_error {on_source!r} is not true or false")
    start, end = _offset(where, error, "start"), _offset(where, error, "end")
    line = source if on_source else hypothesis
    if line is not None and not start <= end <= len(line):
        side = "source" if on_source else "hypothesis"
        raise InputError(
            f"{where}: offsets {start}-{end} are outside the {side} line "
            f"({plural(len(line), 'character')})"
        )
    if end < start:
        raise InputError(f"{where}: end {end} is before start {start}")
    severity = error.get("severity")
    if not isinstance(severity, str) or severity.strip().lower() not in SEVERITIES:
        known = ", ".join(sorted(SEVERITIES))
        raise InputError(f"{where}: unknown severity {severity!r} (expected {known})")
    category = error.get("category")
    if category is not None and not isinstance(category, str):
        raise InputError(f"{where}: category {category!r} is not a text")
    return ErrorSpan(
        start,
        end,
        severity.strip().lower(),
        (category or "").strip(),
        rater,
        on_source=on_source,
        omission=start == end,
    )


def _offset(where: str, error: dict[str, Any], key: str) -> int:
    """Return a whole, non-negative character offset."""
    value = error.get(key)
    if isinstance(value, bool) or not isinstance(value, float) or not value.is_integer():
        raise InputError(f"{where}: {key} {value!r} is not a character offset")
    if value < 0:
        raise InputError(f"{where}: {key} {int(value)} is negative")
    return int(value)
