"""Tests of bleuviz.rouge.explain: positions agree with bleuviz.rouge.score and rouge-score 0.1.2.

Golden numbers come from rouge-score 0.1.2 (``RougeScorer.score_multi``); the
token flags are derived by hand from its rules (see each case's comment).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from bleuviz.errors import InputError
from bleuviz.rouge.explain import (
    LcsExplanation,
    LsumExplanation,
    NgramExplanation,
    NgramOverlap,
    explain_lcs,
    explain_lsum,
    explain_ngrams,
    explain_pair,
    explain_rouge_types,
)
from bleuviz.rouge.score import ROUGE_TYPES, RougeConfig, score_segment
from bleuviz.rouge.stats import pair_stats
from bleuviz.rouge.tokenize import tokenize
from tests.data import rouge_texts as texts


def test_ngram_clipping() -> None:
    # rouge-score 0.1.2: rouge1 of "the the the cat" vs "the cat the" is P=3/4, R=3/3.
    got = explain_ngrams(("the", "the", "the", "cat"), ("the", "cat", "the"), 1)
    assert got.overlaps == (NgramOverlap(("the",), 3, 2, 2), NgramOverlap(("cat",), 1, 1, 1))
    # The leftmost two "the" use the clip budget of 2; the third one is a miss.
    assert got.hyp_status == ("match", "match", "miss", "match")
    assert got.ref_status == ("match", "match", "match")
    assert got.stats.score().precision == pytest.approx(3 / 4, abs=1e-9)


def test_bigram_statuses_cover_whole_occurrence() -> None:
    got = explain_ngrams(("a", "b", "c", "a", "b"), ("x", "a", "b"), 2)
    assert got.overlaps == (NgramOverlap(("a", "b"), 2, 1, 1),)
    assert got.hyp_status == ("match", "match", "miss", "miss", "miss")
    assert got.ref_status == ("miss", "match", "match")


def test_lcs_backtracking_rule() -> None:
    # hyp "a b", ref "b a": the LCS has length 1, either "a" or "b". At the corner the
    # tokens differ and left (1) is not > above (1), so the walk steps up (skips ref
    # "a") and then matches "b": rouge-score's lcs_ind gives ref position 0.
    got = explain_lcs(("a", "b"), ("b", "a"))
    assert got.lcs_length == 1
    assert got.ref_in_lcs == (True, False)
    assert got.hyp_in_lcs == (False, True)
    assert rouge_scorer.lcs_ind(["b", "a"], ["a", "b"]) == [0]


def test_lsum_double_count_guard_clips() -> None:
    # rouge-score 0.1.2: rougeLsum of "a b" vs "a b\na b" is P=1, R=2/4.
    hyp, ref = tokenize("a b"), tokenize("a b\na b")
    got = explain_lsum(hyp.sentences, ref.sentences)
    assert [s.status for s in got.ref_sentences] == [("hit", "hit"), ("clipped", "clipped")]
    assert [s.hyp_in_lcs for s in got.ref_sentences] == [((True, True),), ((False, False),)]
    assert got.stats.score().recall == pytest.approx(2 / 4, abs=1e-9)


def test_lsum_union_over_hyp_sentences() -> None:
    # Ref sentence "the cat sat on the mat" is covered by two hyp sentences' LCSs.
    hyp, ref = tokenize("on the mat\nthe cat sat"), tokenize("the cat sat on the mat")
    got = explain_lsum(hyp.sentences, ref.sentences)
    (sentence,) = got.ref_sentences
    assert sentence.status == ("hit",) * 6
    assert sentence.hyp_in_lcs == ((True, True, True), (True, True, True))
    assert got.stats.hits == 6


def test_explain_segment_picks_score_multi_reference() -> None:
    # rouge-score 0.1.2 picks "on the mat the cat sat" for rouge1 (F=1) but
    # "the cat sat" for rougeL (F=2/3 against 1/2).
    refs = ["a dog ran", "the cat sat", "on the mat the cat sat"]
    config = RougeConfig(("rouge1", "rougeL", "rougeLsum"))
    got = explain_rouge_types("the cat sat on the mat", refs, config)
    assert {t: e.ref_index for t, e in got.items()} == {"rouge1": 2, "rougeL": 1, "rougeLsum": 1}
    assert {t: e.score for t, e in got.items()} == score_segment(
        "the cat sat on the mat", refs, config
    )
    assert isinstance(got["rouge1"].detail, NgramExplanation)
    assert isinstance(got["rougeL"].detail, LcsExplanation)
    assert isinstance(got["rougeLsum"].detail, LsumExplanation)


def test_explain_segment_refuses_no_reference() -> None:
    with pytest.raises(InputError, match="at least one reference"):
        explain_rouge_types("a", [], RougeConfig())


@settings(max_examples=300, deadline=None)
@given(hyp=texts, ref=texts, stem=st.booleans())
def test_explanations_agree_with_scores(hyp: str, ref: str, stem: bool) -> None:
    hyp_tok, ref_tok = tokenize(hyp, stem), tokenize(ref, stem)
    for rouge_type in ROUGE_TYPES:
        assert explain_pair(hyp_tok, ref_tok, rouge_type).stats == pair_stats(
            hyp_tok, ref_tok, rouge_type
        )


@settings(max_examples=300, deadline=None)
@given(hyp=texts, ref=texts, stem=st.booleans())
def test_lcs_length_equals_rouge_score(hyp: str, ref: str, stem: bool) -> None:
    hyp_tok, ref_tok = tokenize(hyp, stem), tokenize(ref, stem)
    got = explain_lcs(hyp_tok.tokens, ref_tok.tokens)
    oracle = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=stem).score(ref, hyp)["rougeL"]
    assert got.lcs_length == round(oracle.recall * len(ref_tok.tokens))
    assert sum(got.hyp_in_lcs) == sum(got.ref_in_lcs) == got.lcs_length
    # The flagged tokens form a common subsequence.
    in_hyp = [t for t, f in zip(got.hyp_tokens, got.hyp_in_lcs, strict=True) if f]
    assert in_hyp == [t for t, f in zip(got.ref_tokens, got.ref_in_lcs, strict=True) if f]


@settings(max_examples=300, deadline=None)
@given(hyp=texts, ref=texts, n=st.integers(1, 4), stem=st.booleans())
def test_ngram_clipped_total_equals_numerator(hyp: str, ref: str, n: int, stem: bool) -> None:
    hyp_tok, ref_tok = tokenize(hyp, stem), tokenize(ref, stem)
    got = explain_ngrams(hyp_tok.tokens, ref_tok.tokens, n)
    rouge_type = f"rouge{n}"
    oracle = rouge_scorer.RougeScorer([rouge_type], use_stemmer=stem).score(ref, hyp)[rouge_type]
    clipped = sum(o.clipped for o in got.overlaps)
    assert clipped == round(oracle.recall * max(len(ref_tok.tokens) - n + 1, 1))
    assert clipped == pair_stats(hyp_tok, ref_tok, rouge_type).hits
    assert all(o.clipped == min(o.hyp_count, o.ref_count) > 0 for o in got.overlaps)
    assert len(got.hyp_status) == len(got.hyp_tokens)
    assert (clipped > 0) == ("match" in got.hyp_status) == ("match" in got.ref_status)


@settings(max_examples=200, deadline=None)
@given(hyp=texts, ref=texts, stem=st.booleans())
def test_lsum_hits_equal_rouge_score(hyp: str, ref: str, stem: bool) -> None:
    hyp_tok, ref_tok = tokenize(hyp, stem), tokenize(ref, stem)
    got = explain_lsum(hyp_tok.sentences, ref_tok.sentences)
    scorer = rouge_scorer.RougeScorer(["rougeLsum"], use_stemmer=stem)
    oracle = scorer.score(ref, hyp)["rougeLsum"]
    hits = sum(s.status.count("hit") for s in got.ref_sentences)
    assert hits == got.stats.hits == round(oracle.recall * len(ref_tok.tokens))
    for sentence in got.ref_sentences:
        assert len(sentence.hyp_in_lcs) == len(got.hyp_sentences)


@settings(max_examples=150, deadline=None)
@given(hyp=texts, refs=st.lists(texts, min_size=1, max_size=3), stem=st.booleans())
def test_chosen_reference_equals_score_multi(hyp: str, refs: list[str], stem: bool) -> None:
    config = RougeConfig(("rouge1", "rouge2", "rougeL", "rougeLsum"), use_stemmer=stem)
    got = explain_rouge_types(hyp, refs, config)
    scorer = rouge_scorer.RougeScorer(list(config.rouge_types), use_stemmer=stem)
    per_ref = [scorer.score(ref, hyp) for ref in refs]
    for rouge_type, explanation in got.items():
        fmeasures = [scores[rouge_type].fmeasure for scores in per_ref]
        assert explanation.ref_index == fmeasures.index(max(fmeasures))
        assert explanation.detail.stats.score() == explanation.score
