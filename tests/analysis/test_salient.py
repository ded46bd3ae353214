"""Tests of bleuviz.analysis.salient: compare-mt's salient n-grams and per-segment match gaps.

Golden numbers: the ratio table is compare-mt's formula
(``stat_utils.extract_salient_features``: ``(a + alpha) / (a + b + 2 * alpha)``)
worked by hand. ``compare_mt_score`` below copies that function's body, so the
ranking is checked against compare-mt's own scoring of the same counts. The
columnar counting and ranking are checked against ``salient_oracle`` (compare-mt's
per-segment ``Counter`` counting) on the sample and on generated corpora, and
match counts against ``explain_segment`` and the corpus statistics.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.analysis.ngram_types import NgramTypes
from bleuviz.analysis.salient import (
    Ngram,
    PairMatches,
    SalientComparison,
    gaps_frame,
    match_gaps,
    salient_frame,
    salient_ngrams,
    smoothed_ratio,
)
from bleuviz.bleu.corpus import compute_corpus_stats
from bleuviz.bleu.explain import explain_segment
from bleuviz.bleu.stats import pair_matches
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import ConfigError, InputError
from bleuviz.io.decode import read_path
from bleuviz.io.load import load_files
from tests.analysis import salient_oracle as oracle
from tests.data import SAMPLE_HYPS, SAMPLE_REFS

TOK = TokenizeConfig()

# Four segments whose salient n-grams are known by construction.
REFS = [["the cat sat", "the dog ran", "birds fly south", "the the"]]
HYP_A = ["the cat sat", "the dog ran", "birds go", "the the the"]
HYP_B = ["a cat sat", "dog ran", "birds fly south", "the"]


def compare_mt_score(dict1: Mapping[Ngram, int], dict2: Mapping[Ngram, int], alpha: float = 1.0):
    """compare-mt's ``extract_salient_features`` (stat_utils.py), copied verbatim."""
    dict1, dict2 = defaultdict(int, dict1), defaultdict(int, dict2)
    all_keys = set(dict1.keys()) | set(dict2.keys())
    scores = {}
    for k in all_keys:
        scores[k] = (dict1[k] + alpha) / (dict1[k] + dict2[k] + 2 * alpha)
    return scores


def per_segment(types: NgramTypes, matches: PairMatches) -> list[Counter[Ngram]]:
    """Turn pair counts back into one Counter of matched n-grams per segment."""
    out: list[Counter[Ngram]] = [Counter() for _ in range(types.references.n_segments)]
    for order, counts in enumerate(matches, start=1):
        segments = types.references.orders[order - 1].segments
        for pair in np.flatnonzero(counts):
            ngram = types.ngram(order, int(types.pair_types[order - 1][pair]))
            out[int(segments[pair])][ngram] = int(counts[pair])
    return out


def compare(
    hyp_a: Sequence[str], hyp_b: Sequence[str], refs: Sequence[Sequence[str]] = REFS, **options
) -> SalientComparison:
    types = NgramTypes.build(refs, TOK, 4)
    a, b = (pair_matches(h, types.references) for h in (hyp_a, hyp_b))
    return salient_ngrams(types, a, b, **options)


def listed(items) -> list[tuple[Ngram, int, int, float, tuple[int, ...]]]:
    return [
        (s.ngram, s.a_matches, s.b_matches, s.score, tuple(int(i) for i in s.segments))
        for s in items
    ]


def assert_equals_oracle(
    hyp_a: Sequence[str], hyp_b: Sequence[str], refs: Sequence[Sequence[str]], **options
) -> SalientComparison:
    report = compare(hyp_a, hyp_b, refs, **options)
    clips = oracle.reference_clips(refs, TOK)
    a, b = (oracle.matched_ngrams(h, clips, TOK) for h in (hyp_a, hyp_b))
    expected_a, expected_b = oracle.salient_ngrams(a, b, **options)
    assert listed(report.a_better) == listed(expected_a)
    assert listed(report.b_better) == listed(expected_b)
    return report


@pytest.mark.parametrize(
    ("a", "b", "alpha", "expected"),
    [
        (3, 1, 1.0, 4 / 6),
        (0, 0, 1.0, 0.5),
        (5, 0, 1.0, 6 / 7),
        (0, 5, 1.0, 1 / 7),
        (2, 2, 0.0, 0.5),
        (1, 3, 0.5, 1.5 / 5),
        (10, 0, 0.0, 1.0),
    ],
)
def test_smoothed_ratio(a: int, b: int, alpha: float, expected: float) -> None:
    assert smoothed_ratio(a, b, alpha) == pytest.approx(expected, abs=1e-15)
    assert smoothed_ratio(a, b, alpha) == compare_mt_score({("x",): a}, {("x",): b}, alpha)[("x",)]


def test_matched_counts_clip_by_the_largest_single_reference_count() -> None:
    refs = [["a a b"], ["a b b"]]
    types = NgramTypes.build(refs, TOK, 4)
    [counts] = per_segment(types, pair_matches(["a a a b b b"], types.references))
    assert counts[("a",)] == 2 and counts[("b",)] == 2  # max over references, not their sum
    assert counts[("a", "a")] == 1 and counts[("b", "b")] == 1 and counts[("a", "b")] == 1
    assert ("a", "a", "a") not in counts and ("b", "b", "b") not in counts


def test_hand_made_salient_ngrams() -> None:
    report = compare(HYP_A, HYP_B)
    a_side = {s.text: (s.a_matches, s.b_matches, s.segments.tolist()) for s in report.a_better}
    b_side = {s.text: (s.a_matches, s.b_matches, s.segments.tolist()) for s in report.b_better}
    assert a_side == {
        "the": (4, 1, [0, 1, 3]),  # 1 + 1 + 2 (clipped at two in "the the"); B: segment 3
        "the the": (1, 0, [3]),
        "the cat": (1, 0, [0]),
        "the cat sat": (1, 0, [0]),
        "the dog": (1, 0, [1]),
        "the dog ran": (1, 0, [1]),
    }
    assert b_side == {
        "fly": (0, 1, [2]),
        "south": (0, 1, [2]),
        "birds fly": (0, 1, [2]),
        "fly south": (0, 1, [2]),
        "birds fly south": (0, 1, [2]),
    }
    # Matched equally often ("cat", "cat sat", "dog ran", "birds", ...): on neither side.
    assert report.find("cat sat") is None and report.find("birds") is None
    assert [s.text for s in report.a_better][:2] == ["the", "the cat"]  # 5/7, then 2/3 by text
    assert report.a_better[0].score == pytest.approx(5 / 7)
    assert report.b_better[0].text == "birds fly"  # all 1/3: ties by total, then text
    assert [s.text for s in report.a_better] == [
        "the",
        "the cat",
        "the cat sat",
        "the dog",
        "the dog ran",
        "the the",
    ]  # a shorter n-gram before its extensions, as Python sorts tuples


def test_ranking_equals_compare_mt_scores() -> None:
    report = compare(HYP_A, HYP_B)
    clips = oracle.reference_clips(REFS, TOK)
    a, b = (oracle.matched_ngrams(h, clips, TOK) for h in (HYP_A, HYP_B))
    scores = compare_mt_score(sum(a, Counter()), sum(b, Counter()))
    listed_ = (*report.a_better, *report.b_better)
    assert {s.ngram: s.score for s in listed_} == {k: v for k, v in scores.items() if v != 0.5}
    ranked = [s.score for s in report.a_better]
    assert ranked == sorted(ranked, reverse=True)
    assert [s.score for s in report.b_better] == sorted(s.score for s in report.b_better)


def test_top_and_orders() -> None:
    report = compare(HYP_A, HYP_B, top=2, orders=[2])
    assert [s.text for s in report.a_better] == ["the cat", "the dog"]
    assert [s.text for s in report.b_better] == ["birds fly", "fly south"]
    assert report.orders == (2,)
    frame = salient_frame(report.a_better)
    assert frame.columns.tolist() == ["n-gram", "order", "a", "b", "score", "segments"]
    assert frame["order"].tolist() == [2, 2]
    assert compare(HYP_A, HYP_B, top=0).a_better == ()


def test_alpha_changes_the_ranking() -> None:
    # compare-mt: "a higher smoothing coefficient will result in more frequent phenomena".
    refs = [["x", " ".join(["y"] * 10)]]
    hyp_a, hyp_b = ["x", " ".join(["y"] * 10)], ["", " ".join(["y"] * 5)]
    low = compare(hyp_a, hyp_b, refs, alpha=0.1, orders=[1])
    high = compare(hyp_a, hyp_b, refs, alpha=5.0, orders=[1])
    assert [(s.text, s.a_matches, s.b_matches) for s in low.a_better] == [("x", 1, 0), ("y", 10, 5)]
    assert [s.text for s in high.a_better] == ["y", "x"]


def test_the_sample_equals_the_counter_oracle() -> None:
    hyps = [read_path(p) for p in SAMPLE_HYPS]
    refs = [read_path(p) for p in SAMPLE_REFS]
    testset = load_files(hyps, refs)
    names = list(testset.systems)
    for a, b in [(names[0], names[1]), (names[1], names[2]), (names[2], names[0])]:
        hyp_a, hyp_b = testset.systems[a], testset.systems[b]
        report = assert_equals_oracle(hyp_a, hyp_b, testset.references)
        assert report.a_better and report.b_better  # the sample's systems do differ
        assert_equals_oracle(hyp_a, hyp_b, testset.references, top=7, orders=[1, 3])


# Few distinct tokens, so n-grams repeat across segments and scores tie; cased and
# non-ASCII tokens (beyond the BMP too), whose order Python and Arrow must agree on.
WORDS = ["a", "b", "B", "é", "z", "\u00ff", "\u4e00", "\U0001f600", "a.", "x-y"]
line = st.lists(st.sampled_from(WORDS), max_size=7).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(
    data=st.integers(1, 6).flatmap(
        lambda n: st.tuples(
            st.lists(st.lists(line, min_size=n, max_size=n), min_size=1, max_size=2),
            st.lists(line, min_size=n, max_size=n),
            st.lists(line, min_size=n, max_size=n),
        )
    ),
    top=st.integers(0, 8),
    orders=st.sets(st.integers(1, 4), min_size=1),
    alpha=st.sampled_from([0.0, 0.5, 1.0, 3.0]),
)
def test_generated_corpora_equal_the_counter_oracle(
    data: tuple[list[list[str]], list[str], list[str]], top: int, orders: set[int], alpha: float
) -> None:
    refs, hyp_a, hyp_b = data
    assert_equals_oracle(hyp_a, hyp_b, refs, top=top, orders=sorted(orders), alpha=alpha)


def test_counts_equal_explain_segment_and_the_statistics() -> None:
    hyps = [read_path(p) for p in SAMPLE_HYPS]
    refs = [read_path(p) for p in SAMPLE_REFS]
    testset = load_files(hyps, refs)
    types = NgramTypes.build(testset.references, TOK, 4)
    corpus = compute_corpus_stats(testset, TOK, 4)
    for name, lines in testset.systems.items():
        counted = per_segment(types, pair_matches(lines, types.references))
        for i, line_ in enumerate(lines):
            expl = explain_segment(line_, [r[i] for r in testset.references], TOK, 4)
            expected = {row.ngram: row.matched for rows in expl.rows for row in rows if row.matched}
            assert dict(counted[i]) == expected
            per_order = [sum(c for g, c in counted[i].items() if len(g) == n) for n in range(1, 5)]
            assert per_order == corpus.systems[name].matches[i].tolist()


def test_every_type_names_its_own_tokens() -> None:
    refs = [["the cat sat on the mat", "a b a b"], ["the mat", "b a b a"]]
    types = NgramTypes.build(refs, TOK, 4)
    for order in range(1, 5):
        index = types.references.orders[order - 1]
        names = {types.ngram(order, int(t)) for t in types.pair_types[order - 1]}
        expected = {
            tuple(r[i].split()[k : k + order])
            for r in refs
            for i in range(2)
            for k in range(len(r[i].split()) - order + 1)
        }
        assert names == expected
        assert types.n_types(order) == len(expected) or order == 1
        assert len(types.pair_types[order - 1]) == index.n_grams


def test_match_gaps() -> None:
    refs = ["the small cat sat on the mat"]
    a = explain_segment("the cat sat on the mat", refs, TOK)
    b = explain_segment("a small cat sat on a mat", refs, TOK)
    gained = {g.text: (g.matched, g.other) for g in match_gaps(a, b)}
    assert gained == {
        "the": (2, 0),
        "the mat": (1, 0),
        "on the": (1, 0),
        "sat on the": (1, 0),
        "on the mat": (1, 0),
        "cat sat on the": (1, 0),
        "sat on the mat": (1, 0),
    }
    assert [g.text for g in match_gaps(b, a, order=2)] == ["small cat"]
    assert match_gaps(b, a, order=9) == ()
    assert gaps_frame(match_gaps(a, b, order=1)).to_dict("list") == {
        "n-gram": ["the"],
        "order": [1],
        "matched": [2],
        "other": [0],
    }


def test_refusals() -> None:
    with pytest.raises(ConfigError, match="alpha: must be non-negative"):
        smoothed_ratio(1, 1, -1.0)
    with pytest.raises(ConfigError, match="alpha: 0 is undefined"):
        smoothed_ratio(0, 0, 0.0)
    with pytest.raises(ConfigError, match="alpha: must be non-negative"):
        compare(HYP_A, HYP_B, alpha=-1.0)
    with pytest.raises(ConfigError, match="top: must be non-negative, got -1"):
        compare(HYP_A, HYP_B, top=-1)
    with pytest.raises(ConfigError, match="order: must be between 1 and 4, got 5"):
        compare(HYP_A, HYP_B, orders=[5])
    types = NgramTypes.build(REFS, TOK, 4)
    other = NgramTypes.build([["x y"] * 4], TOK, 4)
    a = pair_matches(HYP_A, types.references)
    with pytest.raises(InputError, match="b: its pair counts are not of these n-gram types"):
        salient_ngrams(types, a, pair_matches(HYP_B, other.references))
    with pytest.raises(InputError, match="hypotheses: 1 lines but the references have 4"):
        pair_matches(["x"], types.references)
    with pytest.raises(InputError, match="references: stream 1 has 2 lines but stream 2 has 1"):
        NgramTypes.build([["a", "b"], ["a"]], TOK, 4)
    with pytest.raises(ConfigError, match="width: must be at least the order 3, got 2"):
        types.token_ranks(3, np.zeros(1, dtype=np.int64), 2)
    explained = explain_segment("x", ["y"], TOK)
    with pytest.raises(InputError, match="other: the explanations are of segments"):
        match_gaps(explain_segment("x", ["z"], TOK), explained)


@pytest.mark.parametrize("threads", [2, 3, 200])
def test_pair_matches_counted_in_runs_of_segments_equal_one_run(threads: int) -> None:
    refs = [read_path(p) for p in SAMPLE_REFS]
    testset = load_files([read_path(p) for p in SAMPLE_HYPS], refs)
    types = NgramTypes.build(testset.references, TOK, 4)
    for lines in testset.systems.values():
        one, runs = (pair_matches(lines, types.references, t) for t in (1, threads))
        assert all((a == b).all() for a, b in zip(one, runs, strict=True))
        assert [int(c.sum()) for c in one] != [0, 0, 0, 0]
