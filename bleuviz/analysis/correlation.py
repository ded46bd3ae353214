"""How well each metric agrees with human judgements, at the system and segment level.

The statistics follow WMT's metrics task (Freitag et al., 2023; mt-metrics-eval):

* system level, over the systems with a human score: Pearson's r and Kendall's
  tau-b between the metric's corpus scores (BLEU, chrF; the mean for an imported
  score) and the human means, as ``scipy.stats.pearsonr`` and
  ``scipy.stats.kendalltau`` compute them;
* pairwise accuracy (Kocmi et al., 2021, "To Ship or Not to Ship"): the share of
  system pairs that the metric orders the same way as the humans, a tie counting
  as the same order only where both tie;
* segment level: Kendall's tau-b over every (system, segment) pair where both
  the metric and the human have a score ("no grouping" in mt-metrics-eval), and
  grouped by item and by system, with pairwise accuracy with tie calibration
  (acc_eq), as :mod:`bleuviz.analysis.meta_eval` computes them.

Human translations scored as systems (``refA``, ``refB``...) are left out by
the callers, by name (``meta_eval.is_human_reference``), unless asked to keep them.

Every score is oriented so that higher is better before comparing (TER and
MetricX are negated, as mt-metrics-eval does), so a positive correlation always
means agreement. A statistic that cannot be computed (fewer than two points, or
a constant side) is None.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from bleuviz.analysis.meta_eval import grouped_kendall, pairwise_accuracy_eq
from bleuviz.arrays import FloatArray

if TYPE_CHECKING:
    import pandas as pd

    from bleuviz.metrics.spec import MetricScores


@dataclass(frozen=True, slots=True)
class MetricView:
    """What correlation needs of one metric: corpus and sentence scores per system.

    Attributes:
        name: the metric's name.
        corpus: system -> corpus score (or mean of the scored segments).
        sentence: system -> (N,) sentence scores, NaN where a segment has none.
        higher_is_better: False for error scores (TER, MetricX).
    """

    name: str
    corpus: Mapping[str, float]
    sentence: Mapping[str, FloatArray]
    higher_is_better: bool = True


#: Above this share of tied pairs, acc_eq mostly counts the pairs the humans tie too.
MOSTLY_TIED = 0.5


@dataclass(frozen=True, slots=True)
class Correlation:
    """One metric against the human score.

    Attributes:
        segment_kendall: tau-b over every (system, segment) pair ("no grouping").
        segment_kendall_item: the mean of each segment's tau-b across systems.
        segment_kendall_system: the mean of each system's tau-b across segments.
        pairwise_accuracy_eq: acc_eq, grouped by item (Deutsch et al., 2023).
        tie_epsilon: the metric difference acc_eq counts as a tie (oriented units).
        tied_share: the share of the metric's scored pairs that ``tie_epsilon`` ties.
        n_segments: the (system, segment) pairs both scored.
    """

    name: str
    system_pearson: float | None
    system_kendall: float | None
    pairwise_accuracy: float | None
    segment_kendall: float | None
    n_systems: int
    n_segments: int
    segment_kendall_item: float | None = None
    segment_kendall_system: float | None = None
    pairwise_accuracy_eq: float | None = None
    tie_epsilon: float | None = None
    tied_share: float | None = None

    @property
    def mostly_tied(self) -> bool:
        """Whether acc_eq's ε ties more than ``MOSTLY_TIED`` of the scored pairs."""
        return (self.tied_share or 0.0) > MOSTLY_TIED

    def as_dict(self) -> dict[str, object]:
        """The fields as a plain row (None where undefined), for JSON and exports."""
        return {
            "name": self.name,
            "system_pearson": self.system_pearson,
            "system_kendall": self.system_kendall,
            "pairwise_accuracy": self.pairwise_accuracy,
            "segment_kendall": self.segment_kendall,
            "segment_kendall_item": self.segment_kendall_item,
            "segment_kendall_system": self.segment_kendall_system,
            "pairwise_accuracy_eq": self.pairwise_accuracy_eq,
            "pairwise_accuracy_eq_epsilon": self.tie_epsilon,
            "pairwise_accuracy_eq_tied": self.tied_share,
            "n_systems": self.n_systems,
            "n_segments": self.n_segments,
        }


#: The exported table's headers, by ``Correlation.as_dict`` key: the page's names, in
#: ASCII (a LaTeX table compiles without a Greek font).
EXPORT_HEADERS = {
    "name": "metric",
    "system_pearson": "system Pearson r",
    "system_kendall": "system Kendall tau",
    "pairwise_accuracy": "pairwise accuracy",
    "segment_kendall": "segment tau, no grouping",
    "segment_kendall_item": "segment tau by item",
    "segment_kendall_system": "segment tau by system",
    "pairwise_accuracy_eq": "acc_eq",
    "pairwise_accuracy_eq_epsilon": "acc_eq epsilon",
    "pairwise_accuracy_eq_tied": "acc_eq share of pairs tied",
    "n_systems": "systems",
    "n_segments": "segments",
}
#: The exported columns that are agreements with the humans (higher is better).
AGREEMENT_HEADERS = tuple(EXPORT_HEADERS[k] for k in list(EXPORT_HEADERS)[1:8])


def correlation_export(results: Collection[Correlation]) -> pd.DataFrame:
    """One row per metric, headed as the page heads it; undefined values are NaN."""
    frame = pd.DataFrame([r.as_dict() for r in results], columns=list(EXPORT_HEADERS))
    return frame.rename(columns=EXPORT_HEADERS)


def scores_view(name: str, scored: Mapping[str, MetricScores]) -> MetricView:
    """A metric (BLEU included) as a correlation input; its direction is its spec's."""
    return MetricView(
        name,
        {system: s.corpus for system, s in scored.items()},
        {system: s.sentence for system, s in scored.items()},
        all(s.spec.higher_is_better for s in scored.values()),
    )


def correlate(
    metric: MetricView, human: MetricView, leave_out: Collection[str] = ()
) -> Correlation:
    """Correlate ``metric`` with ``human`` at the system and segment level.

    ``leave_out``: systems not counted (the human references, by default of the callers).
    """
    systems = [
        s
        for s in human.corpus
        if s in metric.corpus
        and s not in leave_out
        and math.isfinite(human.corpus[s])
        and math.isfinite(metric.corpus[s])
    ]
    m = np.array([_oriented(metric, metric.corpus[s]) for s in systems], dtype=np.float64)
    h = np.array([_oriented(human, human.corpus[s]) for s in systems], dtype=np.float64)
    seg_m, seg_h = _segment_matrices(metric, human, systems)
    tie_calibrated = pairwise_accuracy_eq(seg_m, seg_h)
    # Imported here: scipy.stats takes most of a second to import, and every
    # command-line run loads this module with the ``correlate`` subcommand.
    from scipy import stats

    return Correlation(
        metric.name,
        _statistic(stats.pearsonr, m, h),
        _statistic(stats.kendalltau, m, h),
        pairwise_accuracy(m, h),
        grouped_kendall(seg_m, seg_h, "none"),
        len(systems),
        int(np.count_nonzero(np.isfinite(seg_m) & np.isfinite(seg_h))),
        grouped_kendall(seg_m, seg_h, "item"),
        grouped_kendall(seg_m, seg_h, "sys"),
        None if tie_calibrated is None else tie_calibrated.accuracy,
        None if tie_calibrated is None else tie_calibrated.epsilon,
        None if tie_calibrated is None else tie_calibrated.tied,
    )


def pairwise_accuracy(metric: FloatArray, human: FloatArray) -> float | None:
    """Share of system pairs ordered the same way (sign of the difference) by both."""
    pairs = list(combinations(range(len(metric)), 2))
    if not pairs:
        return None
    agree = sum(np.sign(metric[i] - metric[j]) == np.sign(human[i] - human[j]) for i, j in pairs)
    return float(agree) / len(pairs)


def _oriented(view: MetricView, value: float | FloatArray) -> float | FloatArray:
    """Return ``value`` negated for a lower-is-better metric."""
    return value if view.higher_is_better else -value


def _segment_matrices(
    metric: MetricView, human: MetricView, systems: list[str]
) -> tuple[FloatArray, FloatArray]:
    """(systems, segments) oriented scores of both sides, NaN where either has none."""
    rows = [s for s in systems if s in metric.sentence and s in human.sentence]
    if not rows:
        return np.zeros((0, 0)), np.zeros((0, 0))
    m = np.array([_oriented(metric, metric.sentence[s]) for s in rows], dtype=np.float64)
    h = np.array([_oriented(human, human.sentence[s]) for s in rows], dtype=np.float64)
    missing = np.isnan(m) | np.isnan(h)
    m[missing] = np.nan
    h[missing] = np.nan
    return m, h


def _statistic(
    test: Callable[[FloatArray, FloatArray], Any], x: FloatArray, y: FloatArray
) -> float | None:
    """Run a scipy correlation; None for fewer than two points or an undefined result."""
    if len(x) < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns about small samples
        value = float(test(x, y).statistic)
    return value if math.isfinite(value) else None


#: The sides of a gap: the metric likes the output more than the humans, less, as much.
GENEROUS, HARSH, EVEN = "too generous", "too harsh", "even"


def segment_gaps(
    metric: MetricView, human: MetricView, leave_out: Collection[str] = ()
) -> pd.DataFrame:
    """Rank (system, segment) pairs by how far the metric and the human disagree.

    Each side's oriented scores become percentiles over the pairs both scored,
    so unlike scales compare; ``gap`` is the metric's percentile minus the
    human's (positive: the metric likes the output more than the annotators),
    largest magnitude first; ``side`` names its direction (``GENEROUS``, the
    metric likes it more; ``HARSH``, less; ``EVEN``). Systems in ``leave_out``
    (human references) are not ranked.
    """
    import pandas as pd  # here: the command line loads this module, rarely this function

    rows = []
    for system in human.sentence:
        if system not in metric.sentence or system in leave_out:
            continue
        m, h = metric.sentence[system], human.sentence[system]
        for seg in np.flatnonzero(~(np.isnan(m) | np.isnan(h))):
            rows.append((system, int(seg) + 1, float(m[seg]), float(h[seg])))
    frame = pd.DataFrame(rows, columns=["system", "seg", "metric", "human"])
    frame["metric_pct"] = _percentiles(_oriented(metric, frame["metric"].to_numpy()))
    frame["human_pct"] = _percentiles(_oriented(human, frame["human"].to_numpy()))
    frame["gap"] = frame["metric_pct"] - frame["human_pct"]
    sign = np.sign(frame["gap"].to_numpy()).astype(int)
    frame["side"] = np.array([EVEN, GENEROUS, HARSH])[sign]  # index -1 is the last
    order = frame["gap"].abs().sort_values(ascending=False, kind="stable").index
    return frame.loc[order].reset_index(drop=True)


def _percentiles(values: FloatArray | float) -> FloatArray:
    """Percentile rank (0-100] of each value; ties share their average rank."""
    import pandas as pd

    series = pd.Series(np.asarray(values, dtype=np.float64))
    ranks: FloatArray = series.rank(method="average").to_numpy() / max(len(series), 1) * 100
    return ranks
