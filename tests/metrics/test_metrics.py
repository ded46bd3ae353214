"""Tests of bleuviz.metrics.registry, with sacrebleu's chrF, chrF++ and TER and rouge-score's
ROUGE as oracles.

Every number is compared with the live library: ``CHRF``/``TER``
``sentence_score`` and ``corpus_score`` of sacrebleu 2.x, and
``RougeScorer.score_multi`` of rouge-score 0.1.2.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer
from sacrebleu.metrics import CHRF, TER

from bleuviz.errors import ConfigError, InputError
from bleuviz.metrics import (
    EXTRA_METRICS,
    SIGNIFICANCE_METRICS,
    rouge_signature,
    score_rouge,
    score_sacrebleu,
    subset_score,
)
from tests.conftest import ROOT, Corpus

SAMPLE = Path(ROOT) / "bleuviz" / "sample_data"
ORACLES = {
    "chrF": lambda lc: CHRF(lowercase=lc),
    "chrF++": lambda lc: CHRF(word_order=2, lowercase=lc),
    "TER": lambda lc: TER(),
}
ROUGE_LABELS = [label for label, spec in EXTRA_METRICS.items() if spec.rouge_type is not None]


def read(name: str) -> list[str]:
    return (SAMPLE / name).read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def sample() -> Corpus:
    return Corpus(read("hyp.terse.en"), [read("ref.A.en"), read("ref.B.en")])


def check_sacrebleu(label: str, corpus: Corpus, lowercase: bool = False) -> None:
    got = score_sacrebleu(label, corpus.hyps, corpus.refs, lowercase)
    oracle = ORACLES[label](lowercase)
    assert got.corpus == pytest.approx(
        oracle.corpus_score(corpus.hyps, corpus.refs).score, abs=1e-9
    )
    assert got.signature == oracle.get_signature().format()
    for i, hyp in enumerate(corpus.hyps):
        refs = [stream[i] for stream in corpus.refs]
        want = ORACLES[label](lowercase).sentence_score(hyp, refs).score
        assert got.sentence[i] == pytest.approx(want, abs=1e-9), (label, i)


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("label", list(ORACLES))
def test_sacrebleu_metrics_equal_sacrebleu_on_the_sample(
    sample: Corpus, label: str, lowercase: bool
) -> None:
    check_sacrebleu(label, sample, lowercase)


@pytest.mark.parametrize("label", list(ORACLES))
def test_sacrebleu_metrics_on_degenerate_segments(label: str) -> None:
    hyps = ["", "the cat", "The Cat sat .", "a a a a a", "x"]
    refs = [["the cat", "", "the cat sat.", "a", "y z"], ["", "the dog", "a cat sat", "a a", "x"]]
    check_sacrebleu(label, Corpus(hyps, refs))


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_sacrebleu_metrics_equal_sacrebleu_on_random_corpora(corpora, data) -> None:  # type: ignore[no-untyped-def]
    corpus = data.draw(corpora)
    check_sacrebleu(data.draw(st.sampled_from(list(ORACLES))), corpus, data.draw(st.booleans()))


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_a_subset_from_summed_statistics_equals_a_fresh_corpus_score(corpora, data) -> None:  # type: ignore[no-untyped-def]
    corpus = data.draw(corpora)
    label = data.draw(st.sampled_from(list(ORACLES)))
    scores = score_sacrebleu(label, corpus.hyps, corpus.refs)
    n = len(corpus.hyps)
    index = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=n)))
    hyps = [corpus.hyps[i] for i in index]
    refs = [[stream[i] for i in index] for stream in corpus.refs]
    want = ORACLES[label](False).corpus_score(hyps, refs).score
    assert subset_score(scores, index) == pytest.approx(want, abs=1e-9)


def test_statistics_sum_to_the_corpus_statistics(sample: Corpus) -> None:
    scores = score_sacrebleu("chrF", sample.hyps, sample.refs)
    assert scores.stats is not None
    assert scores.stats.shape[0] == len(sample.hyps)
    assert subset_score(scores, range(len(sample.hyps))) == scores.corpus
    with pytest.raises(ValueError):
        scores.sentence[0] = 1.0  # read-only


def test_ter_is_an_error_rate_and_significance_covers_sacrebleu_metrics() -> None:
    assert not EXTRA_METRICS["TER"].higher_is_better
    assert SIGNIFICANCE_METRICS == ("chrF", "chrF++", "TER")
    identical = score_sacrebleu("TER", ["a b c"], [["a b c"]])
    assert identical.corpus == 0.0
    assert score_sacrebleu("chrF", ["a b c"], [["a b c"]]).corpus == pytest.approx(100.0)


def check_rouge(corpus: Corpus, use_stemmer: bool) -> None:
    got = score_rouge(ROUGE_LABELS, corpus.hyps, corpus.refs, use_stemmer)
    types = [EXTRA_METRICS[label].key for label in ROUGE_LABELS]
    scorer = rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer)
    oracle = [
        scorer.score_multi(
            [stream[i].replace("\\n", "\n") for stream in corpus.refs], hyp.replace("\\n", "\n")
        )
        for i, hyp in enumerate(corpus.hyps)
    ]
    for label in ROUGE_LABELS:
        key = EXTRA_METRICS[label].key
        want = np.array([scores[key].fmeasure for scores in oracle])
        assert np.allclose(got[label].sentence, want, rtol=0, atol=1e-9), label
        assert got[label].corpus == pytest.approx(want.mean(), abs=1e-9)
        assert got[label].stats is None
        assert got[label].signature == rouge_signature(key, len(corpus.refs), use_stemmer)


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_rouge_equals_rouge_score_on_the_sample(sample: Corpus, use_stemmer: bool) -> None:
    check_rouge(sample, use_stemmer)


def test_escaped_newlines_are_rouge_lsum_sentence_breaks() -> None:
    corpus = Corpus(["the cat sat.\\nit purred loudly"], [["it purred.\\nthe cat sat down"]])
    check_rouge(corpus, False)
    scores = score_rouge(["ROUGE-L", "ROUGE-Lsum"], corpus.hyps, corpus.refs)
    assert scores["ROUGE-Lsum"].corpus > scores["ROUGE-L"].corpus


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_rouge_equals_rouge_score_on_random_corpora(corpora, data) -> None:  # type: ignore[no-untyped-def]
    check_rouge(data.draw(corpora), data.draw(st.booleans()))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: score_sacrebleu("BLEURT", ["a"], [["a"]]), "metric: unknown 'BLEURT'"),
        (lambda: score_sacrebleu("chrF", [], [[]]), "hyps: no segments"),
        (lambda: score_sacrebleu("chrF", ["a", "b"], [["a"]]), "reference 1 has 1 lines"),
        (lambda: score_rouge(["chrF"], ["a"], [["a"]]), "must all be ROUGE metrics"),
        (lambda: score_rouge(["ROUGE-L"], ["a"], []), "at least one reference"),
        (
            lambda: subset_score(score_rouge(["ROUGE-1"], ["a"], [["a"]])["ROUGE-1"], [0]),
            "no statistics to sum",
        ),
    ],
)
def test_errors_name_the_argument(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises((InputError, ConfigError), match=message):
        call()
