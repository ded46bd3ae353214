"""Tests of bleuviz.analysis.buckets: bucketed corpus BLEU, segment comparisons and sorting.

Oracles: a bucket's score must equal a fresh computation on the bucket's
segments alone (a new TestSet, ``compute_corpus_stats``, ``corpus_score``), the
property compare-mt's tests check for its cached statistics, and for the
sacrebleu flavour also ``sacrebleu.corpus_bleu`` (2.6.0) on the same lines.
Bucket membership is checked against reference lengths counted here with
sacrebleu's own 13a tokenizer.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuviz.analysis.buckets import (
    BUCKET_KINDS,
    SORTS,
    BucketKind,
    assign_buckets,
    bucket_segments,
    bucket_table,
    bucket_values,
    segment_comparison,
    sort_comparison,
    win_tie_loss,
)
from bleuviz.bleu import BleuConfig, corpus_score, sentence_scores
from bleuviz.bleu.corpus import CorpusStats, compute_corpus_stats
from bleuviz.bleu.stats import SegmentStats
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import ConfigError, InputError
from bleuviz.io.decode import read_path
from bleuviz.io.load import load_files
from bleuviz.io.testset import TestSet
from tests.data import SAMPLE_HYPS, SAMPLE_REFS

TOK = TokenizeConfig()
CONFIGS = {
    "sacrebleu": BleuConfig(),
    "sacrebleu-floor": BleuConfig(smooth="floor"),
    "nltk-method1": BleuConfig("nltk", smooth="method1"),
    "tf-nmt": BleuConfig("tf-nmt"),
}
MakeStats = Callable[..., SegmentStats]


@pytest.fixture(scope="module")
def sample() -> TestSet:
    """The bundled sample: 126 segments, systems literal, terse and repeat, two references."""
    return load_files([read_path(p) for p in SAMPLE_HYPS], [read_path(p) for p in SAMPLE_REFS])


@pytest.fixture(scope="module")
def corpus(sample: TestSet) -> CorpusStats:
    return compute_corpus_stats(sample, TOK, 4)


def fresh_score(testset: TestSet, system: str, index: np.ndarray, config: BleuConfig) -> float:
    """Corpus BLEU of the segments at ``index`` from scratch: a new test set of those lines."""
    subset = TestSet(
        {system: tuple(testset.systems[system][i] for i in index)},
        tuple(tuple(stream[i] for i in index) for stream in testset.references),
    )
    stats = compute_corpus_stats(subset, TOK, config.stats_order)
    return corpus_score(stats.systems[system], config, TOK, stats.n_refs).score


@pytest.mark.parametrize("config_name", list(CONFIGS))
@pytest.mark.parametrize("kind", list(BUCKET_KINDS))
def test_bucket_bleu_equals_fresh_computation(
    sample: TestSet, corpus: CorpusStats, kind: str, config_name: str
) -> None:
    config = CONFIGS[config_name]
    a, b = corpus.systems["literal"], corpus.systems["repeat"]
    table = bucket_table(kind, a, b, config)
    assert table["bucket"].tolist() == list(BUCKET_KINDS[kind].labels)
    assert table["segments"].sum() == sample.n_segments
    for row in table.itertuples():
        index = bucket_segments(kind, a, config, row.bucket)
        assert len(index) == row.segments
        if row.segments == 0:
            assert np.isnan(row.bleu_a) and np.isnan(row.bleu_b)
            continue
        assert row.bleu_a == pytest.approx(fresh_score(sample, "literal", index, config), abs=1e-9)
        assert row.bleu_b == pytest.approx(fresh_score(sample, "repeat", index, config), abs=1e-9)


@pytest.mark.parametrize("kind", list(BUCKET_KINDS))
def test_bucket_bleu_equals_sacrebleu(sample: TestSet, corpus: CorpusStats, kind: str) -> None:
    a, b = corpus.systems["terse"], corpus.systems["literal"]
    table = bucket_table(kind, a, b, BleuConfig())
    for row in table[table["segments"] > 0].itertuples():
        index = bucket_segments(kind, a, BleuConfig(), row.bucket)
        refs = [[stream[i] for i in index] for stream in sample.references]
        for name, got in (("terse", row.bleu_a), ("literal", row.bleu_b)):
            hyps = [sample.systems[name][i] for i in index]
            assert got == pytest.approx(sacrebleu.corpus_bleu(hyps, refs).score, abs=1e-9)


def test_reference_length_buckets_use_the_shortest_reference(sample: TestSet) -> None:
    corpus = compute_corpus_stats(sample, TOK, 4)
    tokenize = sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a()
    shortest = [
        min(len(tokenize(stream[i]).split()) for stream in sample.references)
        for i in range(sample.n_segments)
    ]
    ranges = [(0, 10), (10, 20), (20, 30), (30, 40), (40, 10**9)]
    for label, (low, high) in zip(BUCKET_KINDS["ref_len"].labels, ranges, strict=True):
        expected = [i for i, n in enumerate(shortest) if low <= n < high]
        index = bucket_segments("ref_len", corpus.systems["repeat"], BleuConfig(), label)
        assert index.tolist() == expected


def test_bleu_buckets_follow_the_baseline_sentence_bleu(corpus: CorpusStats) -> None:
    stats = corpus.systems["literal"]
    scores = sentence_scores(stats, BleuConfig()).score
    groups = assign_buckets("bleu", stats, BleuConfig())
    assert np.array_equal(groups, np.minimum(scores // 10, 9).astype(int))


@pytest.mark.parametrize(
    ("hyp_len", "ref_len", "label"),
    [
        (7, 10, "<0.8"),
        (8, 10, "0.8–0.9"),  # edges belong to the bucket above
        (9, 10, "0.9–1.0"),
        (27, 30, "0.9–1.0"),
        (10, 10, "1.0–1.1"),
        (11, 10, "1.1–1.2"),
        (12, 10, "≥1.2"),
        (3, 0, "≥1.2"),  # empty reference: infinite ratio
        (0, 0, "1.0–1.1"),  # both empty: ratio 1
        (0, 5, "<0.8"),
    ],
)
def test_ratio_bucket_edges(hyp_len: int, ref_len: int, label: str) -> None:
    one = np.array([hyp_len])
    zeros = np.zeros((1, 4), dtype=np.int64)
    stats = SegmentStats(one, np.array([ref_len]), np.array([ref_len]), zeros, zeros, zeros + 1)
    labels = BUCKET_KINDS["ratio"].labels
    assert labels[assign_buckets("ratio", stats, BleuConfig())[0]] == label


def test_ratio_uses_the_shortest_reference_for_tf_nmt(make_stats: MakeStats) -> None:
    stats = make_stats(["a b c d e f g h i j"], [["a b c d e f g h i j"], ["a b c d e"]])
    assert bucket_values("ratio", stats, BleuConfig()).tolist() == [1.0]
    assert bucket_values("ratio", stats, BleuConfig("tf-nmt")).tolist() == [2.0]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_bucket_scores_like_a_fresh_corpus(data: st.DataObject, corpora) -> None:
    corpus = data.draw(corpora)
    shift = data.draw(st.integers(0, len(corpus.hyps) - 1))
    testset = TestSet(
        {"a": tuple(corpus.hyps), "b": tuple(corpus.hyps[shift:] + corpus.hyps[:shift])},
        tuple(tuple(stream) for stream in corpus.refs),
    )
    kind = data.draw(st.sampled_from(list(BUCKET_KINDS)))
    config = CONFIGS[data.draw(st.sampled_from(list(CONFIGS)))]
    stats = compute_corpus_stats(testset, TOK, config.stats_order)
    table = bucket_table(kind, stats.systems["a"], stats.systems["b"], config)
    for row in table[table["segments"] > 0].itertuples():
        index = bucket_segments(kind, stats.systems["a"], config, row.bucket)
        assert row.bleu_a == pytest.approx(fresh_score(testset, "a", index, config), abs=1e-9)
        assert row.bleu_b == pytest.approx(fresh_score(testset, "b", index, config), abs=1e-9)


def test_segment_comparison(corpus: CorpusStats) -> None:
    a, b = corpus.systems["literal"], corpus.systems["terse"]
    frame = segment_comparison(a, b, BleuConfig())
    assert frame["seg"].tolist() == list(range(1, len(a) + 1))
    assert np.array_equal(frame["score_a"], sentence_scores(a, BleuConfig()).score)
    assert np.allclose(frame["diff"], frame["score_b"] - frame["score_a"], rtol=0, atol=0)


def test_win_tie_loss() -> None:
    counts = win_tie_loss(np.array([5.0, -2.0, 0.0, 1e-12, 3.0, -0.1]))
    assert (counts.wins, counts.ties, counts.losses) == (2, 2, 2)


@pytest.mark.parametrize(
    ("how", "expected"),
    [
        ("abs", [2, 4, 1, 3, 5]),  # |diff| descending, ties in segment order
        ("desc", [4, 1, 3, 5, 2]),
        ("asc", [2, 5, 1, 3, 4]),
        ("seg", [1, 2, 3, 4, 5]),
    ],
)
def test_sort_comparison(how: str, expected: list[int]) -> None:
    frame = pd.DataFrame({"seg": [1, 2, 3, 4, 5], "diff": [1.0, -9.0, 1.0, 5.0, -1.0]})
    assert sort_comparison(frame, how)["seg"].tolist() == expected
    assert set(SORTS.values()) == {"abs", "desc", "asc", "seg"}


def test_refusals(corpus: CorpusStats, make_stats: MakeStats) -> None:
    a = corpus.systems["literal"]
    with pytest.raises(ConfigError, match="kind: unknown bucket kind 'length'"):
        bucket_values("length", a, BleuConfig())
    with pytest.raises(ConfigError, match="label: '5–9' is not a bucket of 'ref_len'"):
        bucket_segments("ref_len", a, BleuConfig(), "5–9")
    with pytest.raises(InputError, match="system: 1 segments but the baseline has 126"):
        bucket_table("bleu", a, make_stats(["a"], [["a"]]), BleuConfig())
    with pytest.raises(ConfigError, match="how: unknown sort"):
        sort_comparison(segment_comparison(a, a, BleuConfig()), "random")
    with pytest.raises(ConfigError, match="labels: 2 labels for 2 edges"):
        BucketKind("x", "x", (1.0, 2.0), ("a", "b"))
