"""All pairs from one set of draws equal one paired run per baseline (``shared_pairs``).

Oracle: ``all_pairs`` over ``paired_test`` (one run per baseline), itself held to
sacrebleu's ``PairedTest`` in test_all_pairs.py and test_by_metric.py.
"""

from __future__ import annotations

import pytest

from bleuviz.io.testset import TestSet
from bleuviz.metrics import METRICS, Settings
from bleuviz.significance import by_metric
from bleuviz.significance.all_pairs import all_pairs
from bleuviz.significance.shared_pairs import exact_sums
from tests.data import SAMPLE_REF_LINES, SAMPLE_SYSTEM_LINES

SYSTEMS = {name: tuple(lines) for name, lines in SAMPLE_SYSTEM_LINES.items()}
TWO_REFS = TestSet(SYSTEMS, tuple(tuple(stream) for stream in SAMPLE_REF_LINES))
ONE_REF = TestSet(SYSTEMS, (tuple(SAMPLE_REF_LINES[0]),))
SETTINGS = Settings()
TESTS = (200, 320, 7)


@pytest.mark.parametrize(
    ("label", "testset"), [("BLEU", TWO_REFS), ("chrF", TWO_REFS), ("TER", ONE_REF)]
)
def test_shared_draws_equal_one_run_per_baseline(label: str, testset: TestSet) -> None:
    metric = METRICS[label]
    scores = metric.score_systems(testset, SETTINGS)
    assert exact_sums([s.statistics() for s in scores.values()])  # the shared path runs
    got = by_metric.tested_pairs(metric, SETTINGS, scores, *TESTS)
    want = all_pairs(list(scores), by_metric.pair_tester(metric, SETTINGS, scores, *TESTS))
    assert got == want


def test_fractional_statistics_run_per_baseline() -> None:
    """TER against two references sums average lengths: not exact in every order."""
    metric = METRICS["TER"]
    scores = metric.score_systems(TWO_REFS, SETTINGS)
    assert not exact_sums([s.statistics() for s in scores.values()])
    got = by_metric.tested_pairs(metric, SETTINGS, scores, *TESTS)
    assert got == all_pairs(list(scores), by_metric.pair_tester(metric, SETTINGS, scores, *TESTS))
