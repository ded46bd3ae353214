"""The evaluation bundle: every metric's scores on demand, each computed once per settings.

Its numbers are the metrics' own (held to sacrebleu and rouge-score in
test_protocol.py); these tests check what is computed again and what is not.
"""

from __future__ import annotations

from dataclasses import replace
from unittest import mock

import numpy as np
import pytest

from bleuviz.bleu.config import BleuConfig
from bleuviz.errors import InputError
from bleuviz.io.decode import read_path
from bleuviz.io.seg_scores import attach_seg_scores
from bleuviz.io.testset import TestSet
from bleuviz.metrics import METRICS, Settings
from bleuviz.metrics.evaluation import VARIANTS, Evaluation
from bleuviz.metrics.spec import MetricOptions
from tests.data import COMET_SCORES, SAMPLE_REF_LINES, SAMPLE_SYSTEM_LINES

SAMPLE = TestSet(
    {name: tuple(lines) for name, lines in SAMPLE_SYSTEM_LINES.items()},
    tuple(tuple(stream) for stream in SAMPLE_REF_LINES),
)


@pytest.mark.parametrize("label", list(METRICS))
def test_scores_equal_the_metrics_own(label: str) -> None:
    got = Evaluation(SAMPLE).scores(label)
    want = METRICS[label].score_systems(SAMPLE, Settings())
    assert list(got) == list(SAMPLE.systems)
    for name in SAMPLE.systems:
        assert got[name].corpus == want[name].corpus
        np.testing.assert_array_equal(got[name].sentence, want[name].sentence)


def test_scores_are_computed_once() -> None:
    evaluation = Evaluation(SAMPLE)
    first = evaluation.scores("chrF", ["terse"])["terse"]
    assert evaluation.has_scores("chrF", "terse") and not evaluation.has_scores("chrF", "repeat")
    assert evaluation.scores("chrF")["terse"] is first


def test_a_switch_a_metric_does_not_read_keeps_its_scores() -> None:
    evaluation = Evaluation(SAMPLE)
    bleu, chrf = evaluation.scores("BLEU"), evaluation.scores("chrF")
    lower = evaluation.with_settings(Settings(options=MetricOptions(lowercase=True)))
    assert lower.scores("BLEU")["terse"] is bleu["terse"]
    assert lower.scores("chrF")["terse"] is not chrf["terse"]
    assert lower.scores("chrF")["terse"].signature.startswith("nrefs:2|case:lc")


def test_bleu_settings_rescore_without_counting_again() -> None:
    evaluation = Evaluation(SAMPLE)
    counted = evaluation.bleu_statistics()
    smoothed = evaluation.with_settings(replace(Settings(), bleu=BleuConfig(max_order=2)))
    with mock.patch("bleuviz.bleu.corpus.compute_corpus_stats") as count:
        scores = smoothed.scores("BLEU")
        assert smoothed.bleu_statistics() is counted
    count.assert_not_called()
    assert scores["terse"].corpus != evaluation.scores("BLEU")["terse"].corpus


def test_imported_scores_belong_to_the_test_set() -> None:
    testset = attach_seg_scores(SAMPLE, [read_path(str(COMET_SCORES))])
    evaluation = Evaluation(testset)
    assert "COMET-test" in evaluation.metrics
    assert evaluation.metric("COMET-test").imported
    assert set(evaluation.scores("COMET-test")) == set(testset.systems)
    with pytest.raises(InputError, match="no metric 'BLEURT'"):
        evaluation.scores("BLEURT")


def test_only_the_latest_settings_variants_are_kept() -> None:
    assert VARIANTS == 4  # the test walks five variants
    evaluation = Evaluation(SAMPLE)
    variants = [BleuConfig(max_order=n) for n in (1, 2, 3, 4)] + [BleuConfig(smooth="floor")]
    first = evaluation.with_settings(Settings(bleu=variants[0]))
    first.scores("BLEU", ["terse"])
    for config in variants[1:]:
        assert first.has_scores("BLEU", "terse")  # VARIANTS - 1 newer ones do not evict it
        evaluation.with_settings(Settings(bleu=config)).scores("BLEU", ["terse"])
    assert not first.has_scores("BLEU", "terse")  # the fifth did
    assert evaluation.with_settings(Settings(bleu=variants[-1])).has_scores("BLEU", "terse")


def test_using_a_variant_keeps_it_among_the_latest() -> None:
    evaluation = Evaluation(SAMPLE)
    first = evaluation.with_settings(Settings(bleu=BleuConfig(max_order=1)))
    first.scores("BLEU", ["terse"])
    for n in (2, 3, 4):
        evaluation.with_settings(Settings(bleu=BleuConfig(max_order=n))).scores("BLEU", ["terse"])
    first.scores("BLEU", ["terse"])  # used again: now the most recent
    evaluation.with_settings(Settings(bleu=BleuConfig(smooth="floor"))).scores("BLEU", ["terse"])
    assert first.has_scores("BLEU", "terse")


def test_counting_from_text_is_what_is_neither_held_nor_read() -> None:
    testset = attach_seg_scores(SAMPLE, [read_path(str(COMET_SCORES))])
    evaluation = Evaluation(testset)
    assert not evaluation.counts_from_text("COMET-test", "terse")  # read from the file
    assert evaluation.counts_from_text("chrF", "terse")
    evaluation.scores("chrF", ["terse"])
    assert not evaluation.counts_from_text("chrF", "terse")
    assert evaluation.counts_from_text("chrF", "repeat")
    assert evaluation.counts_from_text("BLEU", "terse")
    evaluation.bleu_statistics()  # every system counted at once
    assert not evaluation.counts_from_text("BLEU", "repeat")
