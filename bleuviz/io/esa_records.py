"""ESA judgements (Error Span Annotation, Appraise) to error spans: the rules both layouts share.

WMT24's human evaluation used ESA (Kocmi et al. 2024, arXiv:2406.11580): an
annotator marks error spans, each minor or major, then gives the segment a
score from 0 to 100. Appraise exports one CSV row per judgement
(``bleuviz.io.appraise_csv``), and WMT24's release merges those rows into JSON
lines (``bleuviz.io.esa_jsonl``). Each reader turns a row or a line into an
:class:`EsaRecord`; :func:`esa_annotations` turns the records into one
:class:`ErrorAnnotations` named ``ESA``, as both layouts mean the same thing:

* ``line_id`` is the segment's 0-based line in the test set;
* ``esa_score`` is 0-100; the release writes it as a string (``"66"``: its
  ``merge_to_jsonl.py`` copies the CSV's field), which is read as the number it
  spells; a score outside 0-100 is refused (no ESA judgement gives one);
* ``esa_spans`` are ``{"start_i", "end_i", "severity", "error_type"}``: the first and
  the last character of the span, both included, counted in UTF-16 code units, as
  Appraise's ESA page marks them (``EvalView/static/EvalView/js/
  direct-assessment-document-mqm-esa.js``: the hypothesis is cut with JavaScript's
  ``text.split("")`` and a character is drawn in a span when ``start_i <= char_id &&
  end_i >= char_id``); they are read as Python's character offsets, end exclusive,
  so ``start_i == end_i`` is one character and an emoji counts once (of the 10,387
  spans with offsets kept from WMT24's published waves 2 and 3, 775 have
  ``start_i == end_i`` and 231 lie on a line holding an emoji; each ends inside its
  line). ``"missing"`` for both offsets marks an omission; severity ``minor``,
  ``major`` or ``undecided`` (Appraise's severity of a
  span whose annotator chose neither: 8 of the 11,217 spans kept from WMT24's
  published waves 2 and 3, 3 of them in en-cs), kept as its own severity;
* several judgements of one system and segment (several annotators) are one
  segment with several raters, whose ESA score is their mean.

A file holding several language pairs (the release holds all of them) is read
for the one pair whose records fit the test set (each line present, each ``tgt``
equal to the hypothesis where the file gives it, each span inside its line); of
several pairs that fit, the one annotating the most loaded systems; a tie is
refused, since nothing tells which pair the test set is. So is any choice among
rows that quote no ``tgt`` (Appraise's CSV): there only the spans' offsets are
checked, and the pairs of one campaign judge the same lines of systems of the
same names (WMT24's wave 2 holds en-zh rows of ONLINE-B, GPT-4 and IKUN that
fit their en-cs lines; read by the count of systems, en-zh's scores would go to
the en-cs outputs). When no pair fits (WMT24's
wave 3 holds no en-cs row), the refusal is that of the pair judging the most
lines of loaded systems, followed by the file's pairs.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bleuviz.errors import InputError
from bleuviz.io.decode import plural
from bleuviz.io.error_spans import (
    HUMAN,
    MAJOR,
    MINOR,
    UNDECIDED,
    ErrorAnnotations,
    ErrorSpan,
    SegmentAnnotation,
)
from bleuviz.io.mqm_tsv import SEVERITIES
from bleuviz.io.seg_scores import parse_score
from bleuviz.io.testset import TestSet

#: The name the spans and their score get, and the rater of a record naming none.
ESA = "ESA"
#: What ESA writes for both offsets of an omission.
MISSING = "missing"
#: ESA's severities (Appraise's ``undecided``: the annotator chose neither).
ESA_SEVERITIES = (MINOR, MAJOR, UNDECIDED)
#: Severities read: ESA's, and MQM's others (``neutral``, ``critical``) as read before.
_READ = frozenset((*ESA_SEVERITIES, *SEVERITIES))
#: ESA's score range (Kocmi et al. 2024, section 3: a 0-100 slider).
SCORE_RANGE = (0.0, 100.0)


@dataclass(frozen=True, slots=True)
class EsaRecord:
    """One annotator's judgement of one segment, as a file gives it (values unchecked).

    Attributes:
        where: the file and line, for messages (``esa.jsonl: line 3``).
        system: the system's name.
        line_id: the 0-based line as read (a number; anything else is refused).
        target: the hypothesis the file quotes, or None where it quotes none (CSV).
        score: ``esa_score`` as read: a number, a string spelling one, or None.
        spans: ``esa_spans`` as read (a list of objects).
        rater: the annotator as read, or None (then ``ESA``).
        langs: the language pair (``en-cs``, ``eng-ces``), ``""`` where not given.
    """

    where: str
    system: str
    line_id: Any
    target: str | None
    score: Any
    spans: Any
    rater: Any = None
    langs: str = ""


@dataclass(slots=True)
class _Segment:
    """One segment's raters, spans and scores while the records are read."""

    raters: list[str] = field(default_factory=list)
    spans: list[ErrorSpan] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)


_Collected = dict[str, dict[int, _Segment]]


def esa_annotations(name: str, records: Iterable[EsaRecord], testset: TestSet) -> ErrorAnnotations:
    """Return the ESA annotations ``records`` give on ``testset`` (``name``: the file).

    Raises:
        InputError: a record that does not fit the test set (a ``line_id`` past the
            end, a ``tgt`` other than the hypothesis, a malformed span or score), no
            system of the file loaded, no score given, or several language pairs that
            fit alike.
    """
    pairs: dict[str, list[EsaRecord]] = {}
    for record in records:
        pairs.setdefault(record.langs, []).append(record)
    per, skipped, read = _one_pair(name, pairs, testset)
    if not per:
        raise InputError(
            f"{name}: no system it annotates is in the test set (it annotates "
            f"{', '.join(skipped[:10]) or 'none'}; the test set has "
            f"{', '.join(testset.system_names[:10])})"
        )
    if not any(seg.scores for segments in per.values() for seg in segments.values()):
        # ESA is spans and a score; without scores its spans would be weighed as MQM's
        raise InputError(f"{name}: no line of a loaded system gives an esa_score")
    frozen = {s: _freeze(per[s], testset.n_segments) for s in testset.system_names if s in per}
    others = tuple(langs for langs in pairs if langs != read)
    language_pairs = (read, *others) if read and others else ()
    return ErrorAnnotations(ESA, name, HUMAN, frozen, tuple(skipped), language_pairs)


def pair_note(annotations: ErrorAnnotations) -> str:
    """One line naming the language pair read of a file holding several, or ""."""
    if not annotations.language_pairs:
        return ""
    read, *others = annotations.language_pairs
    return (
        f"{annotations.origin}: read the rows of {read}, one of its "
        f"{len(others) + 1} language pairs (also {', '.join(others)})"
    )


def _one_pair(
    name: str, pairs: dict[str, list[EsaRecord]], testset: TestSet
) -> tuple[_Collected, list[str], str]:
    """Collect the records of the one language pair that fits; return them, the skipped
    systems and the pair ("" when none is chosen among several)."""
    if len(pairs) <= 1:
        records = next(iter(pairs.values()), [])
        return _collect(records, testset), _skipped(records, testset), ""
    fits: dict[str, _Collected] = {}
    refusals: dict[str, InputError] = {}
    for langs, records in pairs.items():
        try:
            collected = _collect(records, testset)
        except InputError as exc:
            refusals[langs] = exc
            continue
        if collected:
            fits[langs] = collected
    if not fits and refusals:  # the refusal of the pair judging the most loaded systems
        closest = max(refusals, key=lambda langs: _loaded(pairs[langs], testset))
        raise InputError(
            f"{refusals[closest]} (none of the file's {len(pairs)} language pairs, "
            f"{', '.join(pairs)}, fits the test set; this is why {closest}'s rows, the "
            "closest, do not)"
        )
    if not fits:
        return {}, _skipped([r for records in pairs.values() for r in records], testset), ""
    best = max(len(c) for c in fits.values())
    chosen = [langs for langs, c in fits.items() if len(c) == best]
    if len(fits) > 1 and any(r.target is None for langs in fits for r in pairs[langs]):
        chosen = list(fits)  # without the hypotheses' text, more systems prove nothing
    if len(chosen) > 1:
        raise InputError(
            f"{name}: the rows of {len(chosen)} language pairs ({', '.join(chosen)}) fit the "
            f"test set ({plural(best, 'system')} at most); keep one pair's rows"
            + _keep_hint(name, chosen)
        )
    return fits[chosen[0]], _skipped(pairs[chosen[0]], testset), chosen[0]


def _keep_hint(name: str, pairs: list[str]) -> str:
    """How to keep one pair's rows of Appraise's CSV (``eng-ces``: ``...,TGT,eng,ces,...``)."""
    lang1, _, lang2 = pairs[0].partition("-")
    if not name.endswith(".csv") or not lang1.isalpha() or not lang2.isalpha():
        return ""
    return f" (for {pairs[0]}: grep ',{lang1},{lang2},' {name} > {pairs[0]}.csv)"


def _loaded(records: list[EsaRecord], testset: TestSet) -> int:
    """How many records judge a system of the test set."""
    return sum(record.system in testset.systems for record in records)


def _skipped(records: list[EsaRecord], testset: TestSet) -> list[str]:
    """The systems the records judge that the test set does not hold, in file order."""
    return list(dict.fromkeys(r.system for r in records if r.system not in testset.systems))


def _collect(records: list[EsaRecord], testset: TestSet) -> _Collected:
    """Read each record of a loaded system into its segment.

    Raises:
        InputError: a record does not fit the test set or is malformed.
    """
    per: _Collected = {}
    for record in records:
        if record.system not in testset.systems:
            continue
        index = _line_id(record.where, record.line_id, testset.n_segments)
        hypothesis = testset.systems[record.system][index]
        where = f"{record.where}: system {record.system!r} segment {index + 1}"
        _check_target(where, record.target, hypothesis)
        segment = per.setdefault(record.system, {}).setdefault(index, _Segment())
        _add(record, hypothesis, segment)
    return per


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


def _check_target(where: str, target: str | None, hypothesis: str) -> None:
    """Refuse a ``tgt`` that is not the hypothesis (a line counted from 1, another file)."""
    if target is None:
        return
    if target != hypothesis:
        raise InputError(
            f"{where}: tgt differs from the hypothesis: {target[:60]!r} vs {hypothesis[:60]!r}"
        )


def _add(record: EsaRecord, hypothesis: str, segment: _Segment) -> None:
    """Add one annotator's rater, score and spans to ``segment``."""
    where = record.where
    rater = ESA if record.rater is None else record.rater
    if not isinstance(rater, str):
        raise InputError(f"{where}: annotator {rater!r} is not a text")
    score = esa_score(where, record.score)
    if score is not None:
        segment.scores.append(score)
    if not isinstance(record.spans, list):
        raise InputError(f"{where}: esa_spans is not a list")
    if rater not in segment.raters:
        segment.raters.append(rater)
    segment.spans += (
        _span(f"{where}: span {k}", span, rater, hypothesis)
        for k, span in enumerate(record.spans, start=1)
    )


def esa_score(where: str, value: Any) -> float | None:
    """Return an ``esa_score`` (a number, or a string spelling one) in 0-100; None if none.

    The release writes the CSV's field as a string (``"66"``); an empty string is no
    score, as ``null`` is.

    Raises:
        InputError: not a finite number, or outside 0-100 (``where`` names the line).
    """
    if value is None or value == "":
        return None
    number = value
    if isinstance(value, str):
        try:
            number = parse_score(where, value, missing=frozenset())
        except InputError:
            raise InputError(f"{where}: esa_score {value!r} is not a number") from None
    if isinstance(number, bool) or not isinstance(number, float) or not math.isfinite(number):
        raise InputError(f"{where}: esa_score {value!r} is not a number")
    low, high = SCORE_RANGE
    if not low <= number <= high:
        short = f"{number:g}"  # 150, 1e+300; repr where that drops digits: 100.0000001
        shown = (
            value if isinstance(value, str) else short if float(short) == number else repr(number)
        )
        raise InputError(f"{where}: esa_score {shown} is outside ESA's {low:g}-{high:g}")
    return number


def _span(where: str, span: Any, rater: str, hypothesis: str) -> ErrorSpan:
    """Read one ``{start_i, end_i, severity, error_type}`` (offsets as Appraise counts them)."""
    if not isinstance(span, dict):
        raise InputError(f"{where}: expected an object with start_i, end_i and severity")
    severity = span.get("severity")
    if not isinstance(severity, str) or severity.strip().lower() not in _READ:
        raise InputError(
            f"{where}: unknown severity {severity!r} (expected minor, major or undecided)"
        )
    severity = severity.strip().lower()
    category = span.get("error_type") or ""
    if not isinstance(category, str):
        raise InputError(f"{where}: error_type {category!r} is not a text")
    start, end = span.get("start_i"), span.get("end_i")
    if start == MISSING and end == MISSING:
        return ErrorSpan(0, 0, severity, category, rater, omission=True)
    first, last = _offset(where, "start_i", start), _offset(where, "end_i", end)
    units = _utf16_starts(hypothesis)
    if not first <= last < units[-1]:
        raise InputError(
            f"{where}: offsets {first}-{last} (first and last character, both included) "
            f"are outside the hypothesis ({plural(units[-1], 'UTF-16 code unit')})"
        )
    begin = bisect.bisect_right(units, first) - 1
    return ErrorSpan(begin, bisect.bisect_right(units, last), severity, category, rater)


def _utf16_starts(text: str) -> list[int]:
    """Each character's first UTF-16 code unit, then the text's length in code units."""
    starts = [0]
    for char in text:
        starts.append(starts[-1] + (2 if ord(char) > 0xFFFF else 1))
    return starts


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
