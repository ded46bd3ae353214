"""Tests of bleuviz.teach.why: where two library calls part, on generated sentences.

The oracle is the core's score of each call (``BleuScore``: counts, totals,
precisions, reference length, brevity penalty), which tests/teach/test_walkthrough.py
holds against sacrebleu, NLTK and tensorflow/nmt's literals. The "why" texts
must name the first of those numbers that differs, and quote it.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.bleu.result import BleuScore
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.teach.examples import EXAMPLE_BY_KEY
from bleuviz.teach.flavors import WAYS, compare_ways
from bleuviz.teach.why import STEPS, Group, group_ways, partings, partings_frame

TOK = TokenizeConfig()
WORDS = st.sampled_from(["the", "cat", "sat", "on", "mat", "a", "dog", "."])
SENTENCE = st.lists(WORDS, min_size=0, max_size=12).map(" ".join)


def _floor(score: BleuScore, nltk: bool) -> list[int]:
    return [max(1, t) if nltk else t for t in score.totals]


def first_core_difference(a: Group, b: Group) -> str:
    """The step at which the two calls' core results first differ (independent of why.py)."""
    ca, cb = a.walk.core, b.walk.core
    fa = a.walk.config.flavor_spec.floor_totals
    fb = b.walk.config.flavor_spec.floor_totals
    if list(ca.counts) != list(cb.counts) or _floor(ca, fa) != _floor(cb, fb):
        return "modified precision"
    pa = [p / 100 for p in ca.precisions]
    pb = [p / 100 for p in cb.precisions]
    if any(x != y and not math.isclose(x, y, rel_tol=1e-12) for x, y in zip(pa, pb, strict=True)):
        return "smoothing"
    return "later"


@settings(max_examples=40, deadline=None)
@given(hyp=SENTENCE, refs=st.lists(SENTENCE.filter(str.strip), min_size=1, max_size=3))
def test_why_names_the_first_step_that_differs(hyp: str, refs: list[str]) -> None:
    groups = group_ways(hyp, refs, TOK)
    scores = {r.way.key: r.score.score for r in compare_ways(hyp, refs, TOK)}
    assert sorted(w.key for g in groups for w in g.ways) == sorted(w.key for w in WAYS)
    for group in groups:  # rows that agree are grouped: same score as the table's
        for way in group.ways:
            assert scores[way.key] == pytest.approx(group.score, abs=1e-9)
    for i, a in enumerate(groups):
        for b in groups[i + 1 :]:
            assert abs(a.score - b.score) > 1e-9
    for parting in partings(groups):
        a, b = parting.first, parting.second
        assert parting.step in (*STEPS, "score")
        expected = first_core_difference(a, b)
        if expected != "later":
            assert parting.step == expected, (parting.first_text, parting.second_text)
        else:
            assert STEPS.index(parting.step) >= STEPS.index("weights")
        if parting.step == "reference length":
            assert a.walk.core.ref_len != b.walk.core.ref_len
            for side, text in ((a, parting.first_text), (b, parting.second_text)):
                assert f"reference, {side.walk.core.ref_len} tokens" in text
        if parting.step in ("modified precision", "smoothing"):
            assert any(s.fraction in parting.first_text for s in a.walk.orders)
        for side, text in ((a, parting.first_text), (b, parting.second_text)):
            assert text.startswith(side.name) and f"{side.score:.2f}" in text


def group_of(groups: tuple[Group, ...], key: str) -> Group:
    return next(g for g in groups if any(w.key == key for w in g.ways))


def parting_of(key_a: str, key_b: str, example: str) -> tuple[str, str, str]:
    e = EXAMPLE_BY_KEY[example]
    groups = group_ways(e.hypothesis, e.references, TOK)
    a, b = group_of(groups, key_a), group_of(groups, key_b)
    for p in partings(groups):
        if {p.first.ways, p.second.ways} == {a.ways, b.ways}:
            first, second = (
                (p.first_text, p.second_text)
                if p.first is a
                else (
                    p.second_text,
                    p.first_text,
                )
            )
            return p.step, first, second
    raise AssertionError("no parting")


def test_shortest_against_closest_reference() -> None:
    """The lengths example: c = 6, references of 4, 7 and 14 tokens (13a)."""
    step, tf, sacre = parting_of("tf-nmt", "sacrebleu-sentence", "lengths")
    assert step == "reference length"
    assert "shortest reference, 4 tokens" in tf and "closest reference, 7 tokens" in sacre


def test_nltk_method0_against_exp_smoothing() -> None:
    """The clipping example: no bigram matches of 6; exp gives 1/(2·6), method0 the tiny float."""
    step, nltk, sacre = parting_of("nltk-method0", "sacrebleu-sentence", "clipping")
    assert step == "smoothing"
    assert "2-gram precision 0/6" in nltk and "smallest float" in nltk and "BLEU 0.00" in nltk
    assert "1/(2^1·6)" in sacre


def test_effective_order_is_where_corpus_and_sentence_part() -> None:
    step, corpus, sentence = parting_of("sacrebleu-corpus", "sacrebleu-sentence", "short")
    assert step == "weights"
    assert "order 4 left out" in sentence and "w4 = 0.25" in corpus


def test_no_canned_text_for_a_long_candidate() -> None:
    """A 10-token candidate has 4-grams: no text may claim it is shorter than 4 tokens."""
    e = EXAMPLE_BY_KEY["worked"]
    frame = partings_frame(partings(group_ways(e.hypothesis, e.references, TOK)))
    assert not frame.empty
    assert "shorter than 4" not in frame.to_string()
