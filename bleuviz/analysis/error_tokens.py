"""What BLEU sees of human errors: are tokens inside error spans flagged more often?

Definitions (issue 31), stated on the page and in ``bleuviz spans --help``:

* A hypothesis token (BLEU's tokenizer, placed in the line as
  ``bleuviz.bleu.spans.align_tokens`` places it) is an **error token** if its
  characters overlap a target-side span (not on the source, not an omission)
  of severity major or minor; otherwise it is an **other token** (tokens under
  neutral spans only are other tokens). Deliberately, ``critical`` (xCOMET's
  worst severity, some campaigns') counts as an error severity too: its tokens
  are no clean baseline. Every stretch of an error marked in several places
  (``ErrorSpan.continued``) marks error characters.
* A token is **flagged at order n** if no matched n-gram occurrence of order n
  covers it: the highlight's rule (``SegmentExplanation.token_statuses``), see
  :mod:`bleuviz.analysis.token_flags`.
* Per order: error tokens and how many are flagged, other tokens and how many
  are flagged; BLEU "sees" errors when the first rate exceeds the second. By
  severity and by top-level category (:mod:`bleuviz.analysis.error_categories`),
  the error side counts the tokens under a span of that severity or category
  (a token under two spans counts in both groups); the other side is the same
  baseline, the other tokens, for every group.
* **Span agreement** at order n: the runs of consecutive flagged tokens (from
  the first token's first character to the last token's end) are predicted
  spans, the error spans are gold spans, scored by MPP micro-averaged
  (:mod:`bleuviz.analysis.span_agreement`).
* **Several raters**: a token is an error token if any rater marked it, and the
  gold spans are the union of every rater's spans (spans sharing a character
  merged). With ``rater`` given, only that rater's spans count, and only the
  segments that rater rated.
* Only annotated segments count. An annotated segment whose tokens cannot be
  placed in the line (a tokenizer that rewrote characters, lowercasing that
  changed its length) is **unaligned**: counted and listed, left out of the rates.
* ``all`` sums the systems' counts and credits (every system's tokens and spans
  together, micro-averaged).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from bleuviz.analysis.error_categories import TOP_CATEGORIES, top_category
from bleuviz.analysis.span_agreement import SpanColumns, SpanCredit, columnar_credit
from bleuviz.analysis.token_flags import BoolArray, TokenFlags, token_flags
from bleuviz.arrays import IntArray
from bleuviz.bleu.config import BleuConfig
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import InputError
from bleuviz.io.error_spans import MAJOR, MINOR, ErrorAnnotations, SegmentAnnotation
from bleuviz.io.testset import TestSet

#: The severities that make error tokens, in the order tables list them.
SEVERITIES: tuple[str, ...] = (MAJOR, MINOR)
#: Worse than major (xCOMET's top severity, some MQM campaigns'): its tokens are error
#: tokens too, and ``by_severity`` lists it after the others when some token has it.
CRITICAL = "critical"
#: The name of the report summing every system.
ALL = "all"
#: A segment of a system: (system name, 0-based segment index).
SegmentRef = tuple[str, int]

# A token's groups as bits: one per severity, then one per top-level category.
_SEVERITY_GROUPS = (*SEVERITIES, CRITICAL)
#: The severities whose spans mark error characters (gold spans for span agreement).
GOLD_SEVERITIES = frozenset(_SEVERITY_GROUPS)
_GROUPS = (*_SEVERITY_GROUPS, *TOP_CATEGORIES)
_BIT = {name: 1 << i for i, name in enumerate(_GROUPS)}
_ERROR_BITS = sum(_BIT[s] for s in _SEVERITY_GROUPS)


@dataclass(frozen=True, slots=True)
class OrderCounts:
    """Error and other tokens at one order, and how many of each BLEU flags."""

    order: int
    error_tokens: int
    error_flagged: int
    other_tokens: int
    other_flagged: int

    @property
    def error_rate(self) -> float:
        """Share of error tokens flagged (NaN without error tokens)."""
        return self.error_flagged / self.error_tokens if self.error_tokens else float("nan")

    @property
    def other_rate(self) -> float:
        """Share of other tokens flagged (NaN without other tokens)."""
        return self.other_flagged / self.other_tokens if self.other_tokens else float("nan")

    @property
    def difference(self) -> float:
        """Error rate minus other rate: above 0, BLEU flags error tokens more often."""
        return self.error_rate - self.other_rate


@dataclass(frozen=True, slots=True)
class SpanAgreement:
    """MPP agreement of BLEU's flagged runs at one order with the error spans."""

    order: int
    credit: SpanCredit

    @property
    def precision(self) -> float:
        """Micro-averaged MPP precision."""
        return self.credit.precision

    @property
    def recall(self) -> float:
        """Micro-averaged MPP recall."""
        return self.credit.recall

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        return self.credit.f1


@dataclass(frozen=True, slots=True)
class ErrorTokenReport:
    """What BLEU sees of the errors of one system (or of all, ``name == ALL``).

    Attributes:
        name: the system's name, or ``all``.
        segments: annotated segments counted (aligned).
        unaligned: annotated segments left out because their tokens could not be
            placed in the line, as (system, segment index).
        orders: per order 1..max order, all error tokens against other tokens.
        by_severity: severity (``major``, ``minor``) -> its rows per order.
        by_category: top-level category -> its rows per order (every category of
            ``TOP_CATEGORIES``, zero rows included).
        spans: per order, MPP agreement of the flagged runs with the error spans.
        segments_by_severity / segments_by_category: the counted segments holding an
            error token of that severity or category, as (system, segment index),
            for listing a group's segments. Do not mutate these mappings.
    """

    name: str
    segments: int
    unaligned: tuple[SegmentRef, ...]
    orders: tuple[OrderCounts, ...]
    by_severity: Mapping[str, tuple[OrderCounts, ...]]
    by_category: Mapping[str, tuple[OrderCounts, ...]]
    spans: tuple[SpanAgreement, ...]
    segments_by_severity: Mapping[str, tuple[SegmentRef, ...]]
    segments_by_category: Mapping[str, tuple[SegmentRef, ...]]


@dataclass(frozen=True, slots=True)
class ErrorTokenAnalysis:
    """The analysis of one annotation file over every system it annotates.

    Attributes:
        annotations: the annotations' name (``MQM``, ``ESA``, ``xCOMET``).
        rater: the one rater whose spans counted, or None for all raters.
        max_order: highest n-gram order.
        systems: one report per annotated system, in the test set's order.
        all: every system's counts summed.
        not_annotated: systems of the test set the annotations do not cover.
    """

    annotations: str
    rater: str | None
    max_order: int
    systems: tuple[ErrorTokenReport, ...]
    all: ErrorTokenReport
    not_annotated: tuple[str, ...]

    def system(self, name: str) -> ErrorTokenReport:
        """Return ``name``'s report (``all`` for the sum).

        Raises:
            InputError: no system of that name was analysed.
        """
        if name == ALL:
            return self.all
        for report in self.systems:
            if report.name == name:
                return report
        known = ", ".join(r.name for r in self.systems) or "none"
        raise InputError(f"spans: no annotated system {name!r} (annotated: {known})")


def what_bleu_sees(
    testset: TestSet,
    annotations: ErrorAnnotations,
    tokenize: TokenizeConfig,
    config: BleuConfig,
    rater: str | None = None,
) -> ErrorTokenAnalysis:
    """Compare BLEU's flagged tokens with the error spans of ``annotations``, per system.

    Raises:
        InputError: the annotations cover no system of the test set, or a span
            lies outside its line.
    """
    names = [name for name in testset.systems if name in annotations.segments]
    if not names:
        raise InputError(
            f"{annotations.origin}: {annotations.name} annotates no system of the test set"
        )
    refs = build_reference_index(testset.references, tokenize, config.max_order)
    tallies = []
    for name in names:
        lines = testset.systems[name]
        flags = token_flags(lines, refs)
        tallies.append(_tally(name, lines, flags, annotations, rater))
    total = _Tally.total(tallies)
    critical = bool(total.error_tokens[1 + _SEVERITY_GROUPS.index(CRITICAL)].any())
    return ErrorTokenAnalysis(
        annotations=annotations.name,
        rater=rater,
        max_order=config.max_order,
        systems=tuple(t.report(critical) for t in tallies),
        all=total.report(critical),
        not_annotated=tuple(n for n in testset.systems if n not in annotations.segments),
    )


@dataclass(frozen=True, slots=True, eq=False)
class _Tally:
    """One system's counts as arrays: group g (0 = any error, then ``_GROUPS``), order k."""

    name: str
    segments: int
    unaligned: tuple[SegmentRef, ...]
    error_tokens: IntArray  # (1 + len(_GROUPS), K)
    error_flagged: IntArray
    other_tokens: IntArray  # (K,)
    other_flagged: IntArray
    credits: tuple[SpanCredit, ...]
    members: tuple[tuple[SegmentRef, ...], ...]  # per group of _GROUPS

    @classmethod
    def total(cls, tallies: Sequence[_Tally]) -> _Tally:
        """Sum the systems' tallies."""
        return cls(
            ALL,
            sum(t.segments for t in tallies),
            tuple(ref for t in tallies for ref in t.unaligned),
            sum((t.error_tokens for t in tallies), np.zeros_like(tallies[0].error_tokens)),
            sum((t.error_flagged for t in tallies), np.zeros_like(tallies[0].error_flagged)),
            sum((t.other_tokens for t in tallies), np.zeros_like(tallies[0].other_tokens)),
            sum((t.other_flagged for t in tallies), np.zeros_like(tallies[0].other_flagged)),
            tuple(
                sum((t.credits[k] for t in tallies), SpanCredit())
                for k in range(len(tallies[0].credits))
            ),
            tuple(tuple(ref for t in tallies for ref in t.members[g]) for g in range(len(_GROUPS))),
        )

    def rows(self, group: int) -> tuple[OrderCounts, ...]:
        """Return group ``group``'s rows, one per order."""
        return tuple(
            OrderCounts(
                k + 1,
                int(self.error_tokens[group, k]),
                int(self.error_flagged[group, k]),
                int(self.other_tokens[k]),
                int(self.other_flagged[k]),
            )
            for k in range(self.other_tokens.shape[0])
        )

    def report(self, with_critical: bool) -> ErrorTokenReport:
        """Turn the arrays into the frozen report (with a ``critical`` row if asked)."""
        n_sev = len(_SEVERITY_GROUPS)
        severities = [
            (i, s) for i, s in enumerate(_SEVERITY_GROUPS) if with_critical or s != CRITICAL
        ]
        return ErrorTokenReport(
            name=self.name,
            segments=self.segments,
            unaligned=self.unaligned,
            orders=self.rows(0),
            by_severity={s: self.rows(1 + i) for i, s in severities},
            by_category={c: self.rows(1 + n_sev + i) for i, c in enumerate(TOP_CATEGORIES)},
            spans=tuple(SpanAgreement(k + 1, c) for k, c in enumerate(self.credits)),
            segments_by_severity={s: self.members[i] for i, s in severities},
            segments_by_category={c: self.members[n_sev + i] for i, c in enumerate(TOP_CATEGORIES)},
        )


@dataclass(frozen=True, slots=True, eq=False)
class _ErrorSpans:
    """One system's counted error spans: segment, characters (line-relative), group bits."""

    segments: IntArray
    starts: IntArray
    ends: IntArray
    bits: IntArray


def _tally(
    name: str,
    lines: Sequence[str],
    flags: TokenFlags,
    annotations: ErrorAnnotations,
    rater: str | None,
) -> _Tally:
    """Count one system's error and other tokens, flagged or not, and its span credits."""
    per_segment = annotations.segments[name]
    rated = np.fromiter((_rated(a, rater) for a in per_segment), dtype=bool, count=len(per_segment))
    counted = rated & flags.aligned
    unaligned = tuple((name, int(i)) for i in np.flatnonzero(rated & ~flags.aligned))
    spans = _error_spans(name, lines, per_segment, counted, rater, annotations.origin)
    token_segment = flags.segments
    keep = counted[token_segment]
    segment = token_segment[keep]
    starts = flags.starts[keep] + flags.line_starts[segment]
    ends = flags.ends[keep] + flags.line_starts[segment]
    flagged = flags.flagged[keep]
    bits = _token_bits(starts, ends, spans, flags.line_starts)
    error_tokens, error_flagged = _group_counts(bits, flagged)
    other = (bits & _ERROR_BITS) == 0
    return _Tally(
        name=name,
        segments=int(counted.sum()),
        unaligned=unaligned,
        error_tokens=error_tokens,
        error_flagged=error_flagged,
        other_tokens=np.full(flagged.shape[1], int(other.sum()), dtype=np.int64),
        other_flagged=np.count_nonzero(flagged[other], axis=0).astype(np.int64),
        credits=_credits(segment, starts, ends, flagged, spans, flags.line_starts),
        members=_members(name, segment, bits),
    )


def _group_counts(bits: IntArray, flagged: BoolArray) -> tuple[IntArray, IntArray]:
    """Return (groups, K) error tokens and flagged error tokens; row 0 is any error.

    Tokens are counted per bit pattern (``bits`` < 2 ** len(_GROUPS)), then each
    group adds up the patterns holding its bit.
    """
    size = 1 << len(_GROUPS)
    tokens = np.bincount(bits, minlength=size)
    marked = np.stack(
        [np.bincount(bits[flagged[:, k]], minlength=size) for k in range(flagged.shape[1])],
        axis=1,
    )
    patterns = np.arange(size)
    masks = [_ERROR_BITS, *(_BIT[g] for g in _GROUPS)]
    member = np.array([(patterns & m) != 0 for m in masks], dtype=np.int64)
    k = flagged.shape[1]
    return np.repeat((member @ tokens)[:, None], k, axis=1), member @ marked


def _members(name: str, segment: IntArray, bits: IntArray) -> tuple[tuple[SegmentRef, ...], ...]:
    """Return, per group of ``_GROUPS``, the segments holding a token of that group."""
    if len(segment) == 0:
        return tuple(() for _ in _GROUPS)
    firsts = np.flatnonzero(np.concatenate(([True], segment[1:] != segment[:-1])))
    per_segment = np.bitwise_or.reduceat(bits, firsts)
    segments = segment[firsts]
    return tuple(
        tuple(zip([name] * len(chosen), chosen, strict=True))
        for chosen in ((segments[(per_segment & _BIT[g]) != 0]).tolist() for g in _GROUPS)
    )


def _rated(annotation: SegmentAnnotation | None, rater: str | None) -> bool:
    """Whether the segment counts: annotated (by ``rater``, when given)."""
    return annotation is not None and (rater is None or rater in annotation.raters)


def _error_spans(
    name: str,
    lines: Sequence[str],
    per_segment: Sequence[SegmentAnnotation | None],
    counted: BoolArray,
    rater: str | None,
    origin: str,
) -> _ErrorSpans:
    """Collect the target-side error spans (major, minor, critical) of the counted segments.

    Raises:
        InputError: a span ends past its line.
    """
    rows: list[tuple[int, int, int, int]] = []
    for i in np.flatnonzero(counted).tolist():
        annotation = per_segment[i]
        for span in annotation.spans if annotation is not None else ():
            if span.on_source or span.omission or span.severity not in _SEVERITY_GROUPS:
                continue
            if (rater is not None and span.rater != rater) or span.start >= span.end:
                continue
            if span.start < 0 or span.end > len(lines[i]):
                raise InputError(
                    f"{origin}: system {name!r}, segment {i + 1}: span {span.start}-{span.end} "
                    f"lies outside the line ({len(lines[i])} characters)"
                )
            bits = _BIT[span.severity] | _BIT[top_category(span.category)]
            rows.append((i, span.start, span.end, bits))
    columns = np.array(rows, dtype=np.int64).reshape(-1, 4).T
    return _ErrorSpans(*columns)


def _token_bits(
    starts: IntArray, ends: IntArray, spans: _ErrorSpans, line_starts: IntArray
) -> IntArray:
    """Return each token's group bits: those of every error span its characters overlap.

    Token and span offsets are made absolute (plus their line's start), so one
    sorted search finds the run of tokens each span overlaps.
    """
    bits = np.zeros(len(starts), dtype=np.int64)
    first_char = spans.starts + line_starts[spans.segments]
    last_end = spans.ends + line_starts[spans.segments]
    lo = np.searchsorted(ends, first_char, side="right")  # first token ending after it starts
    hi = np.searchsorted(starts, last_end, side="left")  # tokens starting before it ends
    lengths = np.maximum(hi - lo, 0)
    firsts = np.concatenate(([0], np.cumsum(lengths)))[:-1]
    tokens = np.repeat(lo - firsts, lengths) + np.arange(int(lengths.sum()))
    np.bitwise_or.at(bits, tokens, np.repeat(spans.bits, lengths))
    return bits


def _credits(
    segment: IntArray,
    starts: IntArray,
    ends: IntArray,
    flagged: BoolArray,
    spans: _ErrorSpans,
    line_starts: IntArray,
) -> tuple[SpanCredit, ...]:
    """Return, per order, the MPP credit of the flagged runs against the merged error spans."""
    gold = _merged(spans, line_starts)
    first = np.ones(len(segment), dtype=bool)
    first[1:] = segment[1:] != segment[:-1]
    last = np.ones(len(segment), dtype=bool)
    last[:-1] = first[1:]
    credits = []
    for k in range(flagged.shape[1]):
        f = flagged[:, k]
        before = np.concatenate(([False], f[:-1]))
        after = np.concatenate((f[1:], [False]))
        run_start = f & (first | ~before)
        run_end = f & (last | ~after)
        runs = SpanColumns(segment[run_start], starts[run_start], ends[run_end])
        credits.append(columnar_credit(runs, gold))
    return tuple(credits)


def _merged(spans: _ErrorSpans, line_starts: IntArray) -> SpanColumns:
    """Return the union of each segment's error spans (absolute offsets, sorted)."""
    first_char = spans.starts + line_starts[spans.segments]
    end = spans.ends + line_starts[spans.segments]
    order = np.lexsort((end, first_char))
    first_char, end, segments = first_char[order], end[order], spans.segments[order]
    reach = np.maximum.accumulate(end) if len(end) else end
    new = np.ones(len(end), dtype=bool)
    new[1:] = first_char[1:] >= reach[:-1]
    group_last = np.concatenate((np.flatnonzero(new)[1:] - 1, [len(end) - 1]))
    return SpanColumns(segments[new], first_char[new], reach[group_last[: int(new.sum())]])
