"""Each metric's typed detail, held by the evaluation, and the evaluation as a cache key.

BLEU's detail is checked against sacrebleu's ``BLEU`` on the same text (corpus
score, precisions, brevity penalty, lengths, signature) and against its own
sentence scores; an imported score's against the file's values.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import sacrebleu

from bleuviz.bleu.config import BleuConfig
from bleuviz.io.decode import read_path
from bleuviz.io.seg_scores import attach_seg_scores
from bleuviz.io.testset import TestSet
from bleuviz.metrics import METRICS, Settings
from bleuviz.metrics.bleu_metric import BleuDetail
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.metrics.imported import ImportedDetail
from bleuviz.metrics.spec import MetricOptions
from tests.data import COMET_SCORES, SAMPLE_REF_LINES, SAMPLE_SYSTEM_LINES

SAMPLE = TestSet(
    {name: tuple(lines) for name, lines in SAMPLE_SYSTEM_LINES.items()},
    tuple(tuple(stream) for stream in SAMPLE_REF_LINES),
)


def test_bleu_detail_equals_sacrebleus_corpus_score() -> None:
    evaluation = Evaluation(SAMPLE)
    for name, lines in SAMPLE.systems.items():
        detail = evaluation.bleu(name)
        want = sacrebleu.BLEU().corpus_score(list(lines), [list(r) for r in SAMPLE.references])
        assert detail.score.score == pytest.approx(want.score, abs=1e-9)
        assert detail.corpus == pytest.approx(want.score, abs=1e-9)
        assert list(detail.score.precisions) == pytest.approx(want.precisions, abs=1e-9)
        assert detail.score.bp == pytest.approx(want.bp, abs=1e-9)
        assert (detail.score.hyp_len, detail.score.ref_len) == (want.sys_len, want.ref_len)
        assert detail.signature == detail.score.signature
        assert int(detail.ref_len.sum()) == want.ref_len  # sacrebleu: the closest reference


def test_bleu_sentence_scores_are_reached_one_way() -> None:
    """The scores a page reads and the arrays a table reads are the same array."""
    evaluation = Evaluation(SAMPLE, Settings(bleu=BleuConfig(smooth="floor")))
    for name, lines in SAMPLE.systems.items():
        detail = evaluation.bleu(name)
        assert evaluation.scores("BLEU")[name].sentence is detail.sentence
        assert detail.sentence is detail.arrays.score
        refs = [[r[i] for r in SAMPLE.references] for i in range(len(lines))]
        oracle = sacrebleu.BLEU(smooth_method="floor", effective_order=True)
        want = [oracle.sentence_score(h, rs).score for h, rs in zip(lines, refs, strict=True)]
        np.testing.assert_allclose(detail.sentence, want, atol=1e-9)


def test_details_are_computed_once_per_settings_the_metric_reads() -> None:
    evaluation = Evaluation(SAMPLE)
    first = evaluation.bleu("terse")
    lowered = evaluation.with_settings(replace(evaluation.settings, options=MetricOptions(True)))
    assert lowered.bleu("terse") is first  # BLEU does not read the chrF switch
    other = evaluation.with_settings(Settings(bleu=BleuConfig(smooth="add-k")))
    assert other.bleu("terse") is not first
    assert other.bleu("terse").stats.to_matrix().tolist() == first.stats.to_matrix().tolist()


@pytest.mark.parametrize("label", [label for label in METRICS if label != "BLEU"])
def test_every_computed_metrics_detail_holds_its_scores(label: str) -> None:
    evaluation = Evaluation(SAMPLE)
    for name, scores in evaluation.scores(label).items():
        detail = evaluation.detail(label, name)
        assert scores.sentence is detail.sentence and scores.corpus == detail.corpus
        assert len(detail.rows) == SAMPLE.n_segments and not detail.rows.flags.writeable


def test_an_imported_scores_detail_says_its_direction_and_coverage() -> None:
    testset = attach_seg_scores(SAMPLE, [read_path(COMET_SCORES)])
    (scores,) = testset.seg_scores
    detail = Evaluation(testset).detail(scores.name, "terse")
    assert isinstance(detail, ImportedDetail) and not isinstance(detail, BleuDetail)
    assert detail.higher_is_better is not scores.lower_is_better
    np.testing.assert_array_equal(detail.sentence, scores.values["terse"])
    assert detail.scored == int(np.isfinite(scores.values["terse"]).sum())
    assert detail.corpus == pytest.approx(float(np.nanmean(scores.values["terse"])), abs=1e-12)


def test_the_key_is_the_content_and_the_settings() -> None:
    copy = TestSet(dict(SAMPLE.systems), SAMPLE.references)
    assert Evaluation(SAMPLE).key == Evaluation(copy).key
    smoothed = Settings(bleu=BleuConfig(smooth="floor"))
    assert Evaluation(SAMPLE).key != Evaluation(SAMPLE, smoothed).key
    assert Evaluation(SAMPLE).key == Evaluation(SAMPLE, Settings(workers=4)).key
    changed = dict(SAMPLE.systems) | {"terse": ("x", *SAMPLE.systems["terse"][1:])}
    assert Evaluation(TestSet(changed, SAMPLE.references)).key != Evaluation(SAMPLE).key
    assert Evaluation(SAMPLE, content="given").key[0] == "given"


def test_the_key_tells_imported_directions_apart() -> None:
    testset = attach_seg_scores(SAMPLE, [read_path(COMET_SCORES)])
    (scores,) = testset.seg_scores
    flip = replace(scores, lower_is_better=not scores.lower_is_better)
    flipped = replace(testset, seg_scores=(flip,))
    evaluation = Evaluation(testset)
    assert evaluation.with_testset(flipped).key != evaluation.key != Evaluation(SAMPLE).key


def test_reading_keeps_only_what_the_metric_reads() -> None:
    evaluation = Evaluation(SAMPLE, Settings(options=MetricOptions(lowercase=True)))
    assert evaluation.reading("BLEU").key == Evaluation(SAMPLE).reading("BLEU").key
    assert evaluation.reading("chrF").key != Evaluation(SAMPLE).reading("chrF").key
