"""Tests of bleuviz.analysis.salient: compare-mt's salient n-grams and per-segment match gaps.

Golden numbers: the ratio table is compare-mt's formula
(``stat_utils.extract_salient_features``: ``(a + alpha) / (a + b + 2 * alpha)``)
worked by hand. ``compare_mt_score`` below copies that function's body, so the
ranking is checked against compare-mt's own scoring of the same counts. Match
counts are checked against ``explain_segment`` (the per-segment oracle) and
against the corpus statistics (``compute_corpus_stats``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping

import pytest

from bleuviz.analysis.salient import (
    Ngram,
    gaps_frame,
    match_gaps,
    matched_ngrams,
    reference_clips,
    salient_frame,
    salient_ngrams,
    smoothed_ratio,
)
from bleuviz.bleu.corpus import compute_corpus_stats
from bleuviz.bleu.explain import explain_segment
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import ConfigError, InputError
from bleuviz.io.decode import read_path
from bleuviz.io.load import load_files
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


def matches(hyps: list[str], refs: list[list[str]] = REFS) -> tuple[Counter[Ngram], ...]:
    return matched_ngrams(hyps, reference_clips(refs, TOK), TOK)


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
    [counts] = matches(["a a a b b b"], [["a a b"], ["a b b"]])
    assert counts[("a",)] == 2 and counts[("b",)] == 2  # max over references, not their sum
    assert counts[("a", "a")] == 1 and counts[("b", "b")] == 1 and counts[("a", "b")] == 1
    assert ("a", "a", "a") not in counts and ("b", "b", "b") not in counts


def test_hand_made_salient_ngrams() -> None:
    report = salient_ngrams(matches(HYP_A), matches(HYP_B))
    a_side = {s.text: (s.a_matches, s.b_matches, s.segments) for s in report.a_better}
    b_side = {s.text: (s.a_matches, s.b_matches, s.segments) for s in report.b_better}
    assert a_side == {
        "the": (4, 1, (0, 1, 3)),  # 1 + 1 + 2 (clipped at two in "the the"); B: segment 3
        "the the": (1, 0, (3,)),
        "the cat": (1, 0, (0,)),
        "the cat sat": (1, 0, (0,)),
        "the dog": (1, 0, (1,)),
        "the dog ran": (1, 0, (1,)),
    }
    assert b_side == {
        "fly": (0, 1, (2,)),
        "south": (0, 1, (2,)),
        "birds fly": (0, 1, (2,)),
        "fly south": (0, 1, (2,)),
        "birds fly south": (0, 1, (2,)),
    }
    # Matched equally often ("cat", "cat sat", "dog ran", "birds", ...): on neither side.
    assert report.find("cat sat") is None and report.find("birds") is None
    assert [s.text for s in report.a_better][:2] == ["the", "the cat"]  # 5/7, then 2/3 by text
    assert report.a_better[0].score == pytest.approx(5 / 7)
    assert report.b_better[0].text == "birds fly"  # all 1/3: ties by total, then text


def test_ranking_equals_compare_mt_scores() -> None:
    a, b = matches(HYP_A), matches(HYP_B)
    report = salient_ngrams(a, b)
    total_a, total_b = sum(a, Counter()), sum(b, Counter())
    scores = compare_mt_score(total_a, total_b)
    listed = (*report.a_better, *report.b_better)
    assert {s.ngram: s.score for s in listed} == {k: v for k, v in scores.items() if v != 0.5}
    ranked = [s.score for s in report.a_better]
    assert ranked == sorted(ranked, reverse=True)
    assert [s.score for s in report.b_better] == sorted(s.score for s in report.b_better)


def test_top_and_orders() -> None:
    a, b = matches(HYP_A), matches(HYP_B)
    report = salient_ngrams(a, b, top=2, orders=[2])
    assert [s.text for s in report.a_better] == ["the cat", "the dog"]
    assert [s.text for s in report.b_better] == ["birds fly", "fly south"]
    assert report.orders == (2,)
    frame = salient_frame(report.a_better)
    assert frame.columns.tolist() == ["n-gram", "order", "a", "b", "score", "segments"]
    assert frame["order"].tolist() == [2, 2]


def test_alpha_changes_the_ranking() -> None:
    # compare-mt: "a higher smoothing coefficient will result in more frequent phenomena".
    a = [Counter({("x",): 1}), Counter({("y",): 10})]
    b = [Counter(), Counter({("y",): 5})]
    assert [s.text for s in salient_ngrams(a, b, alpha=0.1).a_better] == ["x", "y"]
    assert [s.text for s in salient_ngrams(a, b, alpha=5.0).a_better] == ["y", "x"]


def test_counts_equal_explain_segment_and_the_statistics() -> None:
    hyps = [read_path(p) for p in SAMPLE_HYPS]
    refs = [read_path(p) for p in SAMPLE_REFS]
    testset = load_files(hyps, refs)
    clips = reference_clips(testset.references, TOK)
    corpus = compute_corpus_stats(testset, TOK, 4)
    for name, lines in testset.systems.items():
        counted = matched_ngrams(lines, clips, TOK)
        for i, line in enumerate(lines):
            expl = explain_segment(line, [r[i] for r in testset.references], TOK, 4)
            expected = {row.ngram: row.matched for rows in expl.rows for row in rows if row.matched}
            assert dict(counted[i]) == expected
            per_order = [sum(c for g, c in counted[i].items() if len(g) == n) for n in range(1, 5)]
            assert per_order == corpus.systems[name].matches[i].tolist()


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
    with pytest.raises(InputError, match="b: 1 segments but a has 4"):
        salient_ngrams(matches(HYP_A), matches(HYP_B)[:1])
    with pytest.raises(InputError, match="hypotheses: 1 lines but 4 segments"):
        matched_ngrams(["x"], reference_clips(REFS, TOK), TOK)
    with pytest.raises(InputError, match="references: the reference streams differ"):
        reference_clips([["a", "b"], ["a"]], TOK)
    other = explain_segment("x", ["y"], TOK)
    with pytest.raises(InputError, match="other: the explanations are of segments"):
        match_gaps(explain_segment("x", ["z"], TOK), other)
