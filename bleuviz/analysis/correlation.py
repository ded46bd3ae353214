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
  the metric and the human have a score ("no grouping" in mt-metrics-eval).

Every score is oriented so that higher is better before comparing (TER and
MetricX are negated, as mt-metrics-eval does), so a positive correlation always
means agreement. A statistic that cannot be computed (fewer than two points, or
a constant side) is None.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np

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


@dataclass(frozen=True, slots=True)
class Correlation:
    """One metric against the human score."""

    name: str
    system_pearson: float | None
    system_kendall: float | None
    pairwise_accuracy: float | None
    segment_kendall: float | None
    n_systems: int
    n_segments: int

    def as_dict(self) -> dict[str, object]:
        """The fields as a plain row (None where undefined), for JSON and exports."""
        return {
            "name": self.name,
            "system_pearson": self.system_pearson,
            "system_kendall": self.system_kendall,
            "pairwise_accuracy": self.pairwise_accuracy,
            "segment_kendall": self.segment_kendall,
            "n_systems": self.n_systems,
            "n_segments": self.n_segments,
        }


def scores_view(name: str, scored: Mapping[str, MetricScores]) -> MetricView:
    """A metric (BLEU included) as a correlation input; its direction is its spec's."""
    return MetricView(
        name,
        {system: s.corpus for system, s in scored.items()},
        {system: s.sentence for system, s in scored.items()},
        all(s.spec.higher_is_better for s in scored.values()),
    )


def correlate(metric: MetricView, human: MetricView) -> Correlation:
    """Correlate ``metric`` with ``human`` at the system and segment level."""
    systems = [
        s
        for s in human.corpus
        if s in metric.corpus and math.isfinite(human.corpus[s]) and math.isfinite(metric.corpus[s])
    ]
    m = np.array([_oriented(metric, metric.corpus[s]) for s in systems], dtype=np.float64)
    h = np.array([_oriented(human, human.corpus[s]) for s in systems], dtype=np.float64)
    seg_m, seg_h = _segment_pairs(metric, human, systems)
    # Imported here: scipy.stats takes most of a second to import, and every
    # command-line run loads this module with the ``correlate`` subcommand.
    from scipy import stats

    return Correlation(
        metric.name,
        _statistic(stats.pearsonr, m, h),
        _statistic(stats.kendalltau, m, h),
        pairwise_accuracy(m, h),
        _statistic(stats.kendalltau, seg_m, seg_h),
        len(systems),
        len(seg_m),
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


def _segment_pairs(
    metric: MetricView, human: MetricView, systems: list[str]
) -> tuple[FloatArray, FloatArray]:
    """Flatten the (system, segment) pairs where both sides have a score."""
    m_parts, h_parts = [], []
    for system in systems:
        if system not in metric.sentence or system not in human.sentence:
            continue
        m, h = metric.sentence[system], human.sentence[system]
        keep = ~(np.isnan(m) | np.isnan(h))
        m_parts.append(np.asarray(_oriented(metric, m[keep]), dtype=np.float64))
        h_parts.append(np.asarray(_oriented(human, h[keep]), dtype=np.float64))
    if not m_parts:
        return np.zeros(0), np.zeros(0)
    return np.concatenate(m_parts), np.concatenate(h_parts)


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


def segment_gaps(metric: MetricView, human: MetricView) -> pd.DataFrame:
    """Rank (system, segment) pairs by how far the metric and the human disagree.

    Each side's oriented scores become percentiles over the pairs both scored,
    so unlike scales compare; ``gap`` is the metric's percentile minus the
    human's (positive: the metric likes the output more than the annotators),
    largest magnitude first.
    """
    import pandas as pd  # here: the command line loads this module, rarely this function

    rows = []
    for system in human.sentence:
        if system not in metric.sentence:
            continue
        m, h = metric.sentence[system], human.sentence[system]
        for seg in np.flatnonzero(~(np.isnan(m) | np.isnan(h))):
            rows.append((system, int(seg) + 1, float(m[seg]), float(h[seg])))
    frame = pd.DataFrame(rows, columns=["system", "seg", "metric", "human"])
    frame["metric_pct"] = _percentiles(_oriented(metric, frame["metric"].to_numpy()))
    frame["human_pct"] = _percentiles(_oriented(human, frame["human"].to_numpy()))
    frame["gap"] = frame["metric_pct"] - frame["human_pct"]
    order = frame["gap"].abs().sort_values(ascending=False, kind="stable").index
    return frame.loc[order].reset_index(drop=True)


def _percentiles(values: FloatArray | float) -> FloatArray:
    """Percentile rank (0-100] of each value; ties share their average rank."""
    import pandas as pd

    series = pd.Series(np.asarray(values, dtype=np.float64))
    ranks: FloatArray = series.rank(method="average").to_numpy() / max(len(series), 1) * 100
    return ranks
