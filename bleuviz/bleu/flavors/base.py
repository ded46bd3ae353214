"""What every BLEU flavour provides: the protocol the registry holds and callers use.

A flavour replicates one implementation's BLEU. Callers never compare flavour
names: they ask the flavour for its smoothing choices, the reference length
its brevity penalty uses, its sentence-level semantics and its scores.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from bleuviz.arrays import FloatArray, IntArray
from bleuviz.bleu.result import BleuArrays

if TYPE_CHECKING:
    # Annotations only: the statistics module pulls in the tokenizers and pyarrow,
    # which a command scoring chrF alone does not need.
    from bleuviz.bleu.stats import SegmentStats


class ScoringSettings(Protocol):
    """The settings a flavour's scorer reads (``BleuConfig`` has them)."""

    @property
    def smoothing(self) -> str: ...

    @property
    def smooth_value(self) -> float | None: ...

    @property
    def effective_order(self) -> bool: ...

    @property
    def auto_reweigh(self) -> bool: ...


#: Score rows of statistics: ``(rows, last, weights, settings)``. ``last`` holds,
#: per row, the statistics of its corpus's last segment (nltk's smoothing reads it).
RowScorer = Callable[["SegmentStats", "SegmentStats", FloatArray, ScoringSettings], BleuArrays]


@dataclass(frozen=True, slots=True)
class Flavor:
    """One replicated BLEU implementation.

    Attributes:
        name: the name in URLs, on the command line and in signatures.
        replicates: the implementation and call replicated, for people.
        implementation: the signature's ``version`` field for flavours sacrebleu's
            signature cannot describe; None for sacrebleu itself.
        smoothing: smoothing names, in the order menus show them.
        default_smoothing: the implementation's default.
        smoothing_values: default value of each smoothing that takes one.
        brevity_reference: which reference length the brevity penalty uses per
            segment: the closest to the hypothesis, or the shortest.
        score: the vectorized scoring function.
        effective_order: whether the implementation has sacrebleu's effective order.
        auto_reweigh: whether it has nltk's ``auto_reweigh``.
        sentence_effective_order: whether its sentence-level call turns effective
            order on (sacrebleu's ``sentence_bleu`` does; ``BLEU.sentence_score`` not).
        smoothing_orders: orders a smoothing reads beyond ``max_order`` (nltk's
            method5 and method7 read the 5-gram precision).
        float32_resampling: whether paired tests score resampled statistics as
            float32, as sacrebleu's ``PairedTest`` does.
        floor_totals: whether each segment's n-gram denominator is ``max(1, count)``
            before the corpus sum (nltk's ``modified_precision``).
        omits_zero_precision: whether an order whose precision is still 0 after
            smoothing is left out of the weighted mean (nltk); otherwise its log 0
            makes the score 0.
    """

    name: str
    replicates: str
    implementation: str | None
    smoothing: tuple[str, ...]
    default_smoothing: str
    brevity_reference: Literal["closest", "shortest"]
    score: RowScorer
    smoothing_values: Mapping[str, float] = field(default_factory=dict)
    effective_order: bool = False
    auto_reweigh: bool = False
    sentence_effective_order: bool = False
    smoothing_orders: Mapping[str, int] = field(default_factory=dict)
    float32_resampling: bool = False
    floor_totals: bool = False
    omits_zero_precision: bool = False

    def ref_lengths(self, stats: SegmentStats) -> IntArray:
        """Return each row's reference length as this flavour's brevity penalty uses it."""
        if self.brevity_reference == "shortest":
            return stats.shortest_ref_len
        return stats.closest_ref_len

    def stats_order(self, max_order: int, smoothing: str) -> int:
        """Orders the statistics must hold to score ``max_order`` with ``smoothing``."""
        return max(max_order, self.smoothing_orders.get(smoothing, 0))
