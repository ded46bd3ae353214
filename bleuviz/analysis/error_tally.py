"""One system's error and other tokens, flagged or not, counted on arrays.

The counting behind :func:`bleuviz.analysis.error_tokens.what_bleu_sees`: each
token of a counted segment gets a bit per group it belongs to (a severity, a
top-level category) from the error spans its characters overlap (one sorted
search over absolute character offsets); counts per group and order are sums
over bit patterns, span agreement is MPP over the runs of flagged tokens
(:func:`bleuviz.analysis.span_agreement.columnar_credit`). Tallies add up: ``all``
is their sum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bleuviz.analysis.error_categories import TOP_CATEGORIES, top_category
from bleuviz.analysis.error_reports import (
    ALL,
    CRITICAL,
    SEVERITIES,
    ErrorTokenReport,
    OrderCounts,
    SegmentRef,
    SpanAgreement,
)
from bleuviz.analysis.span_agreement import SpanColumns, SpanCredit, columnar_credit
from bleuviz.analysis.token_flags import BoolArray, TokenFlags
from bleuviz.arrays import IntArray
from bleuviz.errors import InputError
from bleuviz.io.error_spans import UNDECIDED, ErrorAnnotations, SegmentAnnotation

# A token's groups as bits: one per severity, then one per top-level category.
_SEVERITY_GROUPS = (*SEVERITIES, CRITICAL, UNDECIDED)
#: Severities listed only when some token has them.
_OCCASIONAL = (CRITICAL, UNDECIDED)
_GROUPS = (*_SEVERITY_GROUPS, *TOP_CATEGORIES)
_BIT = {name: 1 << i for i, name in enumerate(_GROUPS)}
# Error tokens: under a major, minor or critical span. An undecided span (ESA's span
# whose annotator chose no severity) is its own group, apart: its tokens are neither
# error tokens nor other tokens, its spans no gold spans, and it sets no category.
_ERROR_BITS = sum(_BIT[s] for s in _SEVERITY_GROUPS if s != UNDECIDED)
_MARKED_BITS = _ERROR_BITS | _BIT[UNDECIDED]


@dataclass(frozen=True, slots=True, eq=False)
class SystemTally:
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
    def total(cls, tallies: Sequence[SystemTally]) -> SystemTally:
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

    @property
    def occasional(self) -> frozenset[str]:
        """The severities of ``_OCCASIONAL`` (critical, undecided) some token lies under."""
        return frozenset(
            s for s in _OCCASIONAL if self.error_tokens[1 + _SEVERITY_GROUPS.index(s)].any()
        )

    def report(self, shown: frozenset[str]) -> ErrorTokenReport:
        """Turn the arrays into the frozen report (with the occasional severities ``shown``)."""
        n_sev = len(_SEVERITY_GROUPS)
        severities = [
            (i, s) for i, s in enumerate(_SEVERITY_GROUPS) if s in shown or s not in _OCCASIONAL
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


def tally_system(
    name: str,
    lines: Sequence[str],
    flags: TokenFlags,
    annotations: ErrorAnnotations,
    rater: str | None,
) -> SystemTally:
    """Count one system's error and other tokens, flagged or not, and its span credits."""
    per_segment = annotations.segments[name]
    rated = np.fromiter((_rated(a, rater) for a in per_segment), dtype=bool, count=len(per_segment))
    counted = rated & flags.aligned
    unaligned = tuple((name, int(i)) for i in np.flatnonzero(rated & ~flags.aligned))
    spans = _error_spans(name, lines, per_segment, counted, rater, annotations.origin)
    token_segment = flags.segments
    if counted.all():  # the usual case: every segment rated and aligned, no copies
        segment, starts, ends, flagged = token_segment, flags.starts, flags.ends, flags.flagged
    else:
        keep = counted[token_segment]
        segment, flagged = token_segment[keep], flags.flagged[keep]
        starts, ends = flags.starts[keep], flags.ends[keep]
    starts = starts + flags.line_starts[segment]
    ends = ends + flags.line_starts[segment]
    bits = _token_bits(starts, ends, spans, flags.line_starts)
    error_tokens, error_flagged = _group_counts(bits, flagged)
    other = (bits & _MARKED_BITS) == 0
    return SystemTally(
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
    """Collect the target-side spans (major, minor, critical, undecided) of the counted segments.

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
            bits = _BIT[span.severity]
            if span.severity != UNDECIDED:
                bits |= _BIT[top_category(span.category)]
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
    errors = (spans.bits & _ERROR_BITS) != 0
    gold = _merged(
        _ErrorSpans(spans.segments[errors], spans.starts[errors], spans.ends[errors], spans.bits),
        line_starts,
    )
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
