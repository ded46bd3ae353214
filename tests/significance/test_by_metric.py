"""The one paired-test dispatcher gives each metric the test its family had before.

Oracles: ``compare_systems`` (BLEU), ``compare_systems_metric`` with sacrebleu's
``CHRF`` and ``TER`` objects, and ``compare_means`` (imported scores), each held
to sacrebleu's ``PairedTest`` in the other significance tests.
"""

from __future__ import annotations

import pytest
from sacrebleu.metrics import CHRF, TER

from bleuviz.bleu.corpus import compute_corpus_stats
from bleuviz.errors import ConfigError
from bleuviz.io.decode import read_path
from bleuviz.io.seg_scores import attach_seg_scores
from bleuviz.io.testset import TestSet
from bleuviz.metrics import METRICS, Settings, get_metric
from bleuviz.significance.bleu import compare_systems
from bleuviz.significance.by_metric import paired_test, segments_tested
from bleuviz.significance.mean import compare_means
from bleuviz.significance.sacrebleu_metrics import compare_systems_metric
from tests.data import COMET_SCORES, SAMPLE_REF_LINES, SAMPLE_SYSTEM_LINES

SAMPLE = TestSet(
    {name: tuple(lines) for name, lines in SAMPLE_SYSTEM_LINES.items()},
    tuple(tuple(stream) for stream in SAMPLE_REF_LINES),
)
TESTS = {"n_bootstrap": 200, "n_ar": 300, "seed": 7}
SETTINGS = Settings()


def test_bleu_is_tested_as_compare_systems_tests_it() -> None:
    scores = METRICS["BLEU"].score_systems(SAMPLE, SETTINGS)
    got = paired_test(METRICS["BLEU"], SETTINGS, "terse", scores, **TESTS)
    stats = compute_corpus_stats(SAMPLE, SETTINGS.tokenize).systems
    others = {name: stats[name] for name in scores if name != "terse"}
    assert got == compare_systems("terse", stats["terse"], others, SETTINGS.bleu, **TESTS)


@pytest.mark.parametrize(("label", "metric"), [("chrF", CHRF()), ("TER", TER())])
def test_sacrebleu_metrics_are_tested_with_their_own_objects(label: str, metric: object) -> None:
    scores = METRICS[label].score_systems(SAMPLE, SETTINGS)
    got = paired_test(METRICS[label], SETTINGS, "literal", scores, **TESTS)
    rows = {name: s.statistics() for name, s in scores.items() if name != "literal"}
    base = scores["literal"].statistics()
    assert got == compare_systems_metric("literal", base, rows, metric, **TESTS)  # type: ignore[arg-type]


def test_imported_scores_compare_means_on_the_segments_both_score() -> None:
    testset = attach_seg_scores(SAMPLE, [read_path(str(COMET_SCORES))])
    metric = get_metric("COMET-test", testset)
    scores = metric.score_systems(testset, SETTINGS)
    got = paired_test(metric, SETTINGS, "literal", scores, **TESTS)
    rest = {name: s.sentence for name, s in scores.items() if name != "literal"}
    want = compare_means("literal", scores["literal"].sentence, rest, **TESTS)
    assert got == [c.result for c in want]
    assert [segments_tested(metric, scores["literal"], scores[n]) for n in rest] == [
        c.n_segments for c in want[1:]
    ]


def test_a_metric_without_a_paired_test_is_refused() -> None:
    scores = METRICS["ROUGE-L"].score_systems(SAMPLE, SETTINGS)
    with pytest.raises(ConfigError, match="ROUGE-L has no paired test"):
        paired_test(METRICS["ROUGE-L"], SETTINGS, "literal", scores, **TESTS)
