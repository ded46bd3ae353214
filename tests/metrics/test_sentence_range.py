"""The metric protocol's answers for charts and notes: ``sentence_range``, ``paired_test_note``.

Computed metrics have a nominal range (0 to their scale) and read no values;
an imported score's axis spans its values and 0 (MQM penalties are never
positive, DA runs to 100), and its corpus figure is a mean tested on the
segments both systems scored. Expected numbers are the hand-made values' own
minimum, maximum and largest magnitude.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from bleuviz.arrays import FloatArray
from bleuviz.io.scores import SegmentScores
from bleuviz.metrics import METRICS, ImportedMetric
from bleuviz.metrics.spec import ScoreRange


def imported(name: str, lower_is_better: bool = False) -> ImportedMetric:
    """An imported metric of two systems' hand-made scores."""
    values = {"a": np.array([-5.0, -1.0]), "b": np.array([0.0, np.nan])}
    return ImportedMetric.of(SegmentScores(name, f"{name}.seg.score", values, lower_is_better))


def unread() -> Iterator[FloatArray]:
    """Sentence scores a metric with a nominal range must not ask for."""
    raise AssertionError("a computed metric read the sentence scores")
    yield np.zeros(0)  # pragma: no cover - makes this a generator


@pytest.mark.parametrize("label", list(METRICS))
def test_a_computed_metric_spans_its_scale_without_reading_scores(label: str) -> None:
    spec = METRICS[label]
    assert spec.sentence_range(unread()) == ScoreRange(f"sentence {label}", spec.scale, 0.0, None)
    assert spec.paired_test_note() is None


@pytest.mark.parametrize(
    ("systems", "expected"),
    [
        ([[-5.0, -1.0], [0.0, np.nan]], (5.0, -5.0, 0.0)),  # MQM: never positive, stops at 0
        ([[12.0, 66.0], [100.0, np.nan]], (100.0, 0.0, 100.0)),  # DA: 0 to its highest
        ([[-0.25, 0.5], [np.nan, np.nan]], (0.5, -0.25, 0.5)),
        ([[np.nan], [np.nan]], (1.0, 0.0, 0.0)),  # no score at all: a unit scale
    ],
)
def test_an_imported_metric_spans_its_values_and_zero(
    systems: list[list[float]], expected: tuple[float, float, float]
) -> None:
    spec = imported("MQM")
    shown = spec.sentence_range(np.array(values) for values in systems)
    assert (shown.scale, shown.floor, shown.top) == expected
    assert shown.label == "MQM (imported)"


def test_an_imported_metric_says_its_corpus_figure_is_a_mean_on_shared_segments() -> None:
    note = imported("COMET").paired_test_note()
    assert note is not None
    assert "mean over the segments both systems scored" in note
