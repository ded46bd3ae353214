"""Tests of the tensorflow/nmt flavour (bleuviz.bleu.score, bleuviz.bleu.flavors.tfnmt).

The oracle cannot run here: tensorflow/nmt is not on PyPI (Hugging Face
evaluate downloads the file at run time), and it must not be copied into the
project. So the numbers in GOLDEN are literals, computed by hand on 2026-11-21
with tensorflow/nmt@0be8642 nmt/scripts/bleu.py ``compute_bleu(reference_corpus,
translation_corpus, max_order, smooth)``, where ``translation_corpus`` is
``[line.split() for line in hyps]`` and ``reference_corpus`` is
``[[stream[i].split() for stream in refs] for i in range(len(hyps))]`` of the
lines shown. It returns (bleu, precisions, bp, ratio, translation_length,
reference_length) on the 0-1 scale; bleuviz's 0-100 values are 100 times those.

The property tests need no oracle: they relate tf-nmt to the sacrebleu flavour
(itself tested against sacrebleu) and check the definitions where the original
divides by zero: those of Hugging Face evaluate's copy (metrics/bleu/nmt_bleu.py
at 4c312af, read 2026-11-29), which sets the ratio and BP to 0 when the
translation length or the reference length is 0.

The invariants every flavour keeps (identical input 100, empty input 0, a cached
subset equal to a fresh run, summed rows) are tested once, over the registry, in
test_flavors.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.bleu import BleuConfig, corpus_score, sentence_scores
from bleuviz.bleu.flavors.tfnmt import TF_NMT_SMOOTHING
from bleuviz.bleu.result import BleuScore
from bleuviz.bleu.stats import SegmentStats
from bleuviz.bleu.tokenize import TokenizeConfig, tokenize_lines

MakeStats = Callable[..., SegmentStats]
ABS = 1e-9
NONE_TOK = TokenizeConfig("none")  # the lines below split into exactly the tokens shown

# (id, hyps, ref streams, max_order, smooth,
#  bleu, precisions, bp, ratio, translation_length, reference_length)
# from tensorflow/nmt@0be8642 compute_bleu, computed 2026-11-21 (see the module docstring).
GOLDEN = [
    ("exact_one_ref", ["a b c d e"], [["a b c d e"]], 4, False,
     1.0, [1.0, 1.0, 1.0, 1.0], 1.0, 1.0, 5, 5),
    ("zero_4gram", ["the cat sat on the mat"], [["the cat is on the mat"]], 4, False,
     0.0, [0.8333333333333334, 0.6, 0.25, 0.0], 1.0, 1.0, 6, 6),
    ("zero_4gram_smooth", ["the cat sat on the mat"], [["the cat is on the mat"]], 4, True,
     0.488923022434901, [0.8571428571428571, 0.6666666666666666, 0.4, 0.25], 1.0, 1.0, 6, 6),
    # Closest reference 7 (sacrebleu: BP < 1); tf-nmt uses the shortest, 2: ratio 3, BP 1.
    ("shortest_not_closest", ["a b c d e f"], [["a b c d e f g"], ["a b"]], 4, False,
     1.0, [1.0, 1.0, 1.0, 1.0], 1.0, 3.0, 6, 2),
    ("brevity_shortest", ["a b c"], [["a b c d"], ["a b c x y z w v u"]], 4, True,
     0.7165313105737893, [1.0, 1.0, 1.0, 1.0], 0.7165313105737893, 0.75, 3, 4),
    ("clipping_order1", ["the the the the the the the"],
     [["the cat is on the mat"], ["there is a cat on the mat"]], 1, False,
     0.2857142857142857, [0.2857142857142857], 1.0, 1.1666666666666667, 7, 6),
    ("two_segments_order2", ["the cat sat on the mat", "a dog barked at the cat"],
     [["the cat is on the mat", "the dog barked loudly"], ["a cat sat on a mat", "a dog barks"]],
     2, False, 0.7637626158259734, [0.8333333333333334, 0.7], 1.0, 1.3333333333333333, 12, 9),
    ("short_line_order2_smooth", ["a", "b c d"], [["a", "b c d e"]], 2, True,
     0.7788007830714049, [1.0, 1.0], 0.7788007830714049, 0.8, 4, 5),
    ("multi_ref_mixed_lengths",
     ["it is a guide to action which ensures that the military always obeys",
      "he read the book because he was interested"],
     [["it is a guide to action that ensures that the military will forever heed",
       "he was interested in world history because he read the book"],
      ["it is the guiding principle which guarantees the military forces always",
       "he read the book"]], 4, True,
     0.6214470918013278, [0.9545454545454546, 0.75, 0.5555555555555556, 0.375], 1.0, 1.4, 21, 15),
    ("zero_trigram_corpus", ["a b x c d", "e f"], [["a b c d", "e f g"]], 4, False,
     0.0, [0.8571428571428571, 0.6, 0.0, 0.0], 1.0, 1.0, 7, 7),
    ("zero_trigram_corpus_smooth", ["a b x c d", "e f"], [["a b c d", "e f g"]], 4, True,
     0.4695522078768763, [0.875, 0.6666666666666666, 0.25, 0.3333333333333333], 1.0, 1.0, 7, 7),
    ("empty_hyp_line", ["", "a b c d e f"], [["a b", "a b c d e f"]], 4, False,
     0.7165313105737893, [1.0, 1.0, 1.0, 1.0], 0.7165313105737893, 0.75, 6, 8),
]  # fmt: skip


def tfnmt(max_order: int = 4, smooth: str = "none") -> BleuConfig:
    return BleuConfig(flavor="tf-nmt", max_order=max_order, smooth=smooth)


def score(
    make_stats: MakeStats,
    hyps: list[str],
    refs: list[list[str]],
    config: BleuConfig,
    tok: TokenizeConfig | None = None,
) -> BleuScore:
    tok = tok or TokenizeConfig()
    stats = make_stats(hyps, refs, tok, config.max_order)
    return corpus_score(stats, config, tok, len(refs))


@pytest.mark.parametrize(
    (
        "hyps",
        "refs",
        "max_order",
        "smooth",
        "bleu",
        "precisions",
        "bp",
        "ratio",
        "hyp_len",
        "ref_len",
    ),
    [case[1:] for case in GOLDEN],
    ids=[case[0] for case in GOLDEN],
)
def test_golden(
    make_stats: MakeStats,
    hyps: list[str],
    refs: list[list[str]],
    max_order: int,
    smooth: bool,
    bleu: float,
    precisions: list[float],
    bp: float,
    ratio: float,
    hyp_len: int,
    ref_len: int,
) -> None:
    for stream in [hyps, *refs]:
        assert [t.split() for t in tokenize_lines(stream, NONE_TOK)] == [s.split() for s in stream]
    config = tfnmt(max_order, "add-one" if smooth else "none")
    got = score(make_stats, hyps, refs, config, NONE_TOK)
    assert got.score == pytest.approx(100 * bleu, abs=ABS)
    assert got.precisions == pytest.approx([100 * p for p in precisions], abs=ABS)
    assert got.bp == pytest.approx(bp, abs=ABS)
    assert got.ratio == pytest.approx(ratio, abs=ABS)
    assert (got.hyp_len, got.ref_len) == (hyp_len, ref_len)


def test_bp_uses_the_shortest_reference(make_stats: MakeStats) -> None:
    """Hypothesis 6 tokens, references 7 and 2: closest is 7, shortest is 2."""
    hyps, refs = ["a b c d e f"], [["a b c d e f g"], ["a b"]]
    tf = score(make_stats, hyps, refs, tfnmt(smooth="none"))
    sacre = score(make_stats, hyps, refs, BleuConfig(smooth="none"))
    assert (tf.ref_len, sacre.ref_len) == (2, 7)
    assert tf.bp == 1.0
    assert sacre.bp == pytest.approx(math.exp(1 - 7 / 6), abs=ABS)
    assert tf.score == pytest.approx(100, abs=ABS)
    assert sacre.score == pytest.approx(100 * math.exp(1 - 7 / 6), abs=ABS)


@pytest.mark.parametrize("smooth", TF_NMT_SMOOTHING)
def test_empty_hypotheses_score_0(make_stats: MakeStats, smooth: str) -> None:
    """The original divides by zero (1 / ratio); bleuviz defines BP 0 and BLEU 0."""
    got = score(make_stats, ["", ""], [["a b c d", "e f"]], tfnmt(smooth=smooth))
    assert (got.score, got.bp, got.ratio, got.hyp_len, got.ref_len) == (0.0, 0.0, 0.0, 0, 6)
    sentences = sentence_scores(make_stats(["", ""], [["a b c d", "e f"]]), tfnmt(smooth=smooth))
    assert list(sentences.score) == [0.0, 0.0]
    assert list(sentences.bp) == [0.0, 0.0]


@pytest.mark.parametrize(
    ("smooth", "precisions"),
    # add-one: (0+1)/(8+1), 1/7, 1/5, 1/3 for 8 tokens in two lines of 4, yet BP 0.
    [("none", [0.0] * 4), ("add-one", [100 / 9, 100 / 7, 100 / 5, 100 / 3])],
)
def test_empty_references_give_bp_0(
    make_stats: MakeStats, smooth: str, precisions: list[float]
) -> None:
    """The original divides by zero (ratio = c / 0); evaluate's copy sets ratio and BP to 0."""
    got = score(make_stats, ["a b c d", "e f g h"], [["", ""]], tfnmt(smooth=smooth))
    assert (got.bp, got.ratio, got.ref_len, got.hyp_len, got.score) == (0.0, 0.0, 0, 8, 0.0)
    assert list(got.precisions) == pytest.approx(precisions, abs=ABS)
    sentences = sentence_scores(make_stats(["a b", "c"], [["", ""]]), tfnmt(smooth=smooth))
    assert list(sentences.score) == list(sentences.bp) == [0.0, 0.0]


def test_smoothing_names() -> None:
    """compute_bleu's ``smooth=False`` / ``smooth=True``; the default is False."""
    assert TF_NMT_SMOOTHING == ("none", "add-one")
    assert tfnmt().smoothing == "none"


# ---------------------------------------------------------------- properties


@settings(max_examples=100, deadline=None)
@given(data=st.data(), max_order=st.integers(1, 4))
def test_one_reference_equals_sacrebleu_without_smoothing(
    data: st.DataObject, corpora, make_stats: MakeStats, max_order: int
) -> None:
    hyps, refs = data.draw(corpora)
    refs = refs[:1]
    stats = make_stats(hyps, refs, max_order=max_order)
    tok = TokenizeConfig()
    tf = corpus_score(stats, tfnmt(max_order, "none"), tok, 1)
    sacre = corpus_score(stats, BleuConfig(max_order=max_order, smooth="none"), tok, 1)
    if all(tf.counts):  # every precision positive
        assert tf.score == pytest.approx(sacre.score, abs=ABS)
        assert tf.precisions == pytest.approx(sacre.precisions, abs=ABS)
        assert tf.bp == pytest.approx(sacre.bp, abs=ABS)
    else:
        assert tf.score == sacre.score == 0


@settings(max_examples=100, deadline=None)
@given(data=st.data(), max_order=st.integers(1, 4), smooth=st.sampled_from(TF_NMT_SMOOTHING))
def test_brevity_penalty_uses_shortest_references(
    data: st.DataObject, corpora, make_stats: MakeStats, max_order: int, smooth: str
) -> None:
    hyps, refs = data.draw(corpora)
    stats = make_stats(hyps, refs, max_order=max_order)
    got = corpus_score(stats, tfnmt(max_order, smooth), TokenizeConfig(), len(refs))
    tokens = [[len(line.split()) for line in tokenize_lines(s, TokenizeConfig())] for s in refs]
    shortest = sum(min(lengths) for lengths in zip(*tokens, strict=True))
    assert got.ref_len == shortest
    c, r = got.hyp_len, shortest
    expected_bp = 0.0 if c == 0 or r == 0 else 1.0 if c > r else math.exp(1 - r / c)
    assert got.bp == pytest.approx(expected_bp, abs=ABS)
    assert got.ratio == pytest.approx(c / r if r else 0.0, abs=ABS)


@settings(max_examples=80, deadline=None)
@given(data=st.data(), max_order=st.integers(1, 4), smooth=st.sampled_from(TF_NMT_SMOOTHING))
def test_counts_are_sacrebleus_and_sentences_are_one_line_corpora(
    data: st.DataObject, corpora, make_stats: MakeStats, max_order: int, smooth: str
) -> None:
    hyps, refs = data.draw(corpora)
    stats = make_stats(hyps, refs, max_order=max_order)
    tok, config = TokenizeConfig(), tfnmt(max_order, smooth)
    tf = corpus_score(stats, config, tok, len(refs))
    sacre = corpus_score(stats, BleuConfig(max_order=max_order), tok, len(refs))
    assert (tf.counts, tf.totals, tf.hyp_len) == (sacre.counts, sacre.totals, sacre.hyp_len)
    sentences = sentence_scores(stats, config)
    for i in range(len(hyps)):
        alone = corpus_score(stats, config, tok, len(refs), index=[i])
        assert sentences.score[i] == pytest.approx(alone.score, abs=ABS)
