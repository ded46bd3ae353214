"""The metric protocol's invariants, parametrized over the registry (BLEU included).

Oracles, run live on the bundled sample: sacrebleu 2.x's ``corpus_bleu``,
``CHRF`` and ``TER`` (scores and signatures), rouge-score 0.1.2's mean F-measure
(through ``score_rouge``, itself held to rouge-score in test_metrics.py) and the
imported file read with plain Python (tests/data/seg_scores). Invariants: a
subset scored from rows equals a fresh computation on those segments; a
segment's row equals the row of a one-segment test set; the resampler scores the
summed rows as the metric does.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF, TER

from bleuviz.io.decode import read_path
from bleuviz.io.seg_scores import attach_seg_scores
from bleuviz.io.testset import TestSet
from bleuviz.metrics import METRICS, MetricSpec, Settings, get_metric, metrics_of
from bleuviz.metrics.spec import MetricOptions
from tests.data import COMET_SCORES, SAMPLE_REF_LINES, SAMPLE_SYSTEM_LINES, file_scores

SAMPLE = TestSet(
    {name: tuple(lines) for name, lines in SAMPLE_SYSTEM_LINES.items()},
    tuple(tuple(stream) for stream in SAMPLE_REF_LINES),
)
DEFAULT = Settings()
LOWER = Settings(options=MetricOptions(lowercase=True, stemmer=True))


def subset(testset: TestSet, index: list[int]) -> TestSet:
    """The test set of the segments at ``index``, as if read from files."""
    return TestSet(
        {name: tuple(lines[i] for i in index) for name, lines in testset.systems.items()},
        tuple(tuple(stream[i] for i in index) for stream in testset.references),
    )


@pytest.fixture(scope="module")
def scored() -> dict[str, dict[str, object]]:
    """Every metric's scores of the sample, once per module."""
    return {label: spec.score_systems(SAMPLE, DEFAULT) for label, spec in METRICS.items()}


def test_the_registry_holds_bleu_and_every_metric_beside_it() -> None:
    assert next(iter(METRICS)) == "BLEU"
    assert {"chrF", "chrF++", "TER", "ROUGE-L"} <= set(METRICS)
    assert all(isinstance(spec, MetricSpec) for spec in METRICS.values())


def oracle(label: str, hyps: list[str], refs: list[list[str]]) -> tuple[float, str | None]:
    """The reference implementation's corpus score and signature."""
    if label == "BLEU":
        bleu = sacrebleu.BLEU()
        return bleu.corpus_score(hyps, refs).score, str(bleu.get_signature())
    if label in ("chrF", "chrF++"):
        chrf = CHRF(word_order=2 if label == "chrF++" else 0)
        return chrf.corpus_score(hyps, refs).score, str(chrf.get_signature())
    if label == "TER":
        ter = TER()
        return ter.corpus_score(hyps, refs).score, str(ter.get_signature())
    from bleuviz.metrics import score_rouge

    return score_rouge([label], hyps, refs)[label].corpus, None


@pytest.mark.parametrize("label", list(METRICS))
def test_corpus_score_and_signature_equal_the_reference(
    label: str, scored: dict[str, dict[str, object]]
) -> None:
    for name, hyps in SAMPLE_SYSTEM_LINES.items():
        got = scored[label][name]
        want, signature = oracle(label, hyps, SAMPLE_REF_LINES)
        assert got.corpus == pytest.approx(want, abs=1e-9), (label, name)  # type: ignore[attr-defined]
        if signature is not None:
            assert got.signature == signature  # type: ignore[attr-defined]


@pytest.mark.parametrize("label", list(METRICS))
def test_scores_from_rows_equal_scores_from_text(label: str) -> None:
    spec = METRICS[label]
    rows = spec.rows(SAMPLE, DEFAULT, ["terse"])
    assert list(rows) == ["terse"]
    assert len(rows["terse"]) == SAMPLE.n_segments
    again = spec.scores_from_rows(SAMPLE, DEFAULT, rows)["terse"]
    fresh = spec.score_systems(SAMPLE, DEFAULT)["terse"]
    assert again.corpus == fresh.corpus
    np.testing.assert_array_equal(again.sentence, fresh.sentence)


@pytest.mark.parametrize("label", [label for label, s in METRICS.items() if s.paired_tests])
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_a_subset_from_rows_equals_a_fresh_run_on_it(label: str, data: st.DataObject) -> None:
    spec = METRICS[label]
    index = data.draw(
        st.lists(st.integers(0, SAMPLE.n_segments - 1), min_size=1, max_size=12, unique=True)
    )
    whole = spec.score_systems(SAMPLE, DEFAULT, ["literal"])["literal"]
    fresh = spec.score_systems(subset(SAMPLE, index), DEFAULT, ["literal"])["literal"]
    assert spec.subset_score(whole, index, DEFAULT) == pytest.approx(fresh.corpus, abs=1e-9)
    np.testing.assert_allclose(whole.statistics()[index], fresh.statistics(), atol=1e-12)


@pytest.mark.parametrize("label", [label for label, s in METRICS.items() if s.paired_tests])
def test_the_resampler_scores_summed_rows_as_the_metric(label: str) -> None:
    spec = METRICS[label]
    rows = spec.rows(SAMPLE, DEFAULT, ["repeat"])["repeat"]
    assert spec.resampler(DEFAULT, rows).corpus_score(rows) == pytest.approx(
        spec.corpus_score(rows, DEFAULT), abs=1e-9
    )


@pytest.mark.parametrize("label", [label for label, s in METRICS.items() if not s.paired_tests])
def test_metrics_without_summing_rows_have_no_resampler(label: str) -> None:
    spec = METRICS[label]
    rows = spec.rows(SAMPLE, DEFAULT, ["repeat"])["repeat"]
    with pytest.raises(Exception, match="no statistics to resample"):
        spec.resampler(DEFAULT, rows)


@pytest.mark.parametrize(
    ("label", "reads_lowercase", "reads_stemmer"),
    [
        ("BLEU", False, False),
        ("chrF", True, False),
        ("TER", False, False),
        ("ROUGE-1", False, True),
    ],
)
def test_a_metric_reads_only_its_own_settings(
    label: str, reads_lowercase: bool, reads_stemmer: bool
) -> None:
    kept = METRICS[label].reads(LOWER)
    assert kept.options == MetricOptions(reads_lowercase, reads_stemmer)
    assert METRICS[label].reads(LOWER) == METRICS[label].reads(LOWER)  # a usable cache key


def test_lowercase_changes_chrf_and_is_kept_in_its_signature() -> None:
    hyps, refs = ["The Cat sat"], [["the cat sat"]]
    testset = TestSet({"a": tuple(hyps)}, (tuple(refs[0]),))
    got = METRICS["chrF"].score_systems(testset, LOWER)["a"]
    want = CHRF(lowercase=True)
    assert got.corpus == pytest.approx(want.corpus_score(hyps, refs).score, abs=1e-9)
    assert got.signature == str(want.get_signature())


def test_imported_scores_are_a_metric_of_their_test_set() -> None:
    testset = attach_seg_scores(SAMPLE, [read_path(str(COMET_SCORES))])
    metric = get_metric("COMET-test", testset)
    assert "COMET-test" in metrics_of(testset) and metric.imported
    values = file_scores(COMET_SCORES)
    scores = metric.score_systems(testset, DEFAULT)
    for name, want in values.items():
        scored = want[~np.isnan(want)]
        expected = float(np.mean(scored)) if len(scored) else math.nan
        assert scores[name].corpus == pytest.approx(expected, abs=1e-12, nan_ok=True)
        np.testing.assert_array_equal(scores[name].sentence, want)
