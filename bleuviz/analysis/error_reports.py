"""What BLEU sees of human errors: the result types (``bleuviz.analysis.error_tokens``).

Frozen, picklable records of counts, safe to cache; the rates are properties
computed from the counts. The definitions are stated in
:mod:`bleuviz.analysis.error_tokens`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from bleuviz.analysis.span_agreement import SpanCredit
from bleuviz.errors import InputError
from bleuviz.io.error_spans import MAJOR, MINOR

#: The severities that make error tokens, in the order tables list them.
SEVERITIES: tuple[str, ...] = (MAJOR, MINOR)
#: Worse than major (xCOMET's top severity, some MQM campaigns'): its tokens are error
#: tokens too, and ``by_severity`` lists it after the others when some token has it.
CRITICAL = "critical"
#: The severities whose spans mark error characters (gold spans for span agreement).
GOLD_SEVERITIES = frozenset((*SEVERITIES, CRITICAL))
#: The name of the report summing every system.
ALL = "all"
#: A segment of a system: (system name, 0-based segment index).
SegmentRef = tuple[str, int]


#: The normal quantile of a two-sided 95% interval.
Z_95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """Return the Wilson score interval of the proportion ``successes / n`` (NaNs if n = 0).

    Wilson (1927), "Probable inference, the law of succession, and statistical
    inference"; the interval ``scipy.stats.binomtest(...).proportion_ci(method="wilson")``
    gives (the tests' oracle). Unlike the normal approximation it stays inside
    [0, 1] and is not empty at 0 or n successes, which small groups of error tokens
    often have. It treats every token as an independent trial; tokens of one
    segment are not, so it is a lower bound on the uncertainty.
    """
    if n <= 0:
        return math.nan, math.nan
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


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
    def error_interval(self) -> tuple[float, float]:
        """Wilson 95% interval of the error rate (see ``wilson_interval``)."""
        return wilson_interval(self.error_flagged, self.error_tokens)

    @property
    def other_interval(self) -> tuple[float, float]:
        """Wilson 95% interval of the other rate."""
        return wilson_interval(self.other_flagged, self.other_tokens)

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
        by_severity: severity (``major``, ``minor``; ``critical`` and ``undecided`` when
            some token has them) -> its rows per order.
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
