"""Tests of the nltk flavour (bleuviz.bleu.score, bleuviz.bleu.flavors.nltk).

Oracle: nltk 3.10.4, ``nltk.translate.bleu_score.corpus_bleu`` and
``sentence_bleu`` with ``SmoothingFunction().method0..7``, on the token lists
``tokenize_lines(lines, config)`` then ``str.split()``. nltk returns 0-1,
bleuviz 0-100. Where nltk raises (``method6``: AssertionError for a zero
trigram precision, IndexError with fewer than three orders), bleuviz defines
the score as 0.

The literal scores in DOCS_GOLDEN are the examples of nltk's own docstrings
(nltk/translate/bleu_score.py, which show 4 digits, e.g. ``0.5045...``), printed
in full by nltk 3.10.4 and multiplied by 100.

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
from nltk.translate.bleu_score import (
    Fraction,
    SmoothingFunction,
    corpus_bleu,
    modified_precision,
    sentence_bleu,
)

from bleuviz.bleu import BleuConfig, corpus_score, sentence_scores
from bleuviz.bleu.flavors.nltk import NLTK_METHODS
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.result import BleuArrays, BleuScore
from bleuviz.bleu.stats import compute_stats
from bleuviz.bleu.tokenize import TokenizeConfig, tokenize_lines
from tests.data import long_lines

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:nltk")

ABS = 1e-9
NLTK_CRASHES = (AssertionError, IndexError, ZeroDivisionError)
NONE_TOK = TokenizeConfig("none")

# nltk's docstring example (Papineni et al. 2002), one token per space.
HYP1 = (
    "It is a guide to action which ensures that the military always obeys the commands of the party"
)
HYP2 = "It is to insure the troops forever hearing the activity guidebook that party direct"
REF1 = "It is a guide to action that ensures that the military will forever heed Party commands"
REF2 = (
    "It is the guiding principle which guarantees the military forces always being under "
    "the command of the Party"
)
REF3 = "It is the practical guide for the army always to heed the directions of the party"


def nltk_config(method: str, weights: tuple[float, ...], auto_reweigh: bool = False) -> BleuConfig:
    return BleuConfig(
        flavor="nltk",
        max_order=len(weights),
        weights=weights,
        smooth=method,
        auto_reweigh=auto_reweigh,
    )


def token_lists(
    hyps: list[str], refs: list[list[str]], tok: TokenizeConfig
) -> tuple[list[list[str]], list[list[list[str]]]]:
    """Hypothesis token lists and, per segment, the list of reference token lists."""
    hyp_tokens = [line.split() for line in tokenize_lines(hyps, tok)]
    ref_tokens = [[line.split() for line in tokenize_lines(stream, tok)] for stream in refs]
    return hyp_tokens, [list(segment) for segment in zip(*ref_tokens, strict=True)]


def nltk_score(bleu: Callable[..., float], *args: object, config: BleuConfig) -> float:
    """Run an nltk BLEU function; 0-100, and 0 where nltk raises."""
    try:
        return 100 * bleu(
            *args,
            weights=tuple(float(w) for w in config.weight_vector),
            smoothing_function=getattr(SmoothingFunction(), config.smoothing),
            auto_reweigh=config.auto_reweigh,
        )
    except NLTK_CRASHES:
        return 0.0


def bleuviz_scores(
    hyps: list[str], refs: list[list[str]], tok: TokenizeConfig, config: BleuConfig
) -> tuple[BleuScore, BleuArrays]:
    stats = compute_stats(hyps, build_reference_index(refs, tok, config.stats_order))
    return corpus_score(stats, config, tok, len(refs)), sentence_scores(stats, config)


def close(expected: float) -> object:
    """abs 1e-9 on the 0-100 scale; relative 1e-9 for nltk's tiny positive method0 scores.

    nltk's method5/6 can push precisions above 1; with weights summing above 1
    the score can be far above 100, where only a relative tolerance makes sense.
    """
    if abs(expected) < 1e-6:
        return pytest.approx(expected, rel=1e-9, abs=0)
    return pytest.approx(expected, rel=1e-12, abs=ABS)


def check_against_nltk(
    hyps: list[str], refs: list[list[str]], tok: TokenizeConfig, config: BleuConfig
) -> tuple[BleuScore, float]:
    """Compare corpus and per-segment scores with nltk; return both corpus scores."""
    got, sentences = bleuviz_scores(hyps, refs, tok, config)
    hyp_tokens, ref_tokens = token_lists(hyps, refs, tok)
    expected = nltk_score(corpus_bleu, ref_tokens, hyp_tokens, config=config)
    assert got.score == close(expected)
    for i, (hyp, seg_refs) in enumerate(zip(hyp_tokens, ref_tokens, strict=True)):
        assert sentences.score[i] == close(nltk_score(sentence_bleu, seg_refs, hyp, config=config))
    return got, expected


# (id, hyp, refs, method, weights, score: nltk 3.10.4 sentence_bleu x 100; docstring value)
DOCS_GOLDEN = [
    ("three_refs", HYP1, [REF1, REF2, REF3], "method0", (0.25,) * 4, 50.45666840058485),  # .5045
    ("bleu5", HYP1, [REF1, REF2, REF3], "method0", (0.2,) * 5, 39.202634084155785),  # 0.3920...
    ("bleu2", HYP1, [REF1, REF2, REF3], "method0", (0.5, 0.5), 74.53559924999299),  # 0.7453...
    ("bleu3", HYP1, [REF1, REF2, REF3], "method0", (1 / 3,) * 3, 62.40726989348756),  # 0.6240...
    ("no_trigram_method1", HYP2, [REF1, REF2, REF3], "method1", (0.25,) * 4, 3.703131191121491),
    ("one_ref_method0", HYP1, [REF1], "method0", (0.25,) * 4, 41.180376356915777),  # 0.4118...
    ("one_ref_method1", HYP1, [REF1], "method1", (0.25,) * 4, 41.180376356915777),
    ("one_ref_method2", HYP1, [REF1], "method2", (0.25,) * 4, 44.52945001507636),  # 0.4452...
    ("one_ref_method3", HYP1, [REF1], "method3", (0.25,) * 4, 41.180376356915777),
    ("one_ref_method4", HYP1, [REF1], "method4", (0.25,) * 4, 41.180376356915777),
    ("one_ref_method5", HYP1, [REF1], "method5", (0.25,) * 4, 49.05328138015114),  # 0.4905...
    ("one_ref_method6", HYP1, [REF1], "method6", (0.25,) * 4, 41.358958106633686),  # 0.4135...
    ("one_ref_method7", HYP1, [REF1], "method7", (0.25,) * 4, 49.05328138015114),
]  # fmt: skip


@pytest.mark.parametrize(
    ("hyp", "refs", "method", "weights", "golden"),
    [case[1:] for case in DOCS_GOLDEN],
    ids=[case[0] for case in DOCS_GOLDEN],
)
def test_nltk_docstring_examples(
    hyp: str, refs: list[str], method: str, weights: tuple[float, ...], golden: float
) -> None:
    config = nltk_config(method, weights)
    got, expected = check_against_nltk([hyp], [[r] for r in refs], NONE_TOK, config)
    assert expected == pytest.approx(golden, abs=ABS)
    assert got.score == pytest.approx(golden, abs=ABS)


def test_method0_tiny_positive_score() -> None:
    """nltk's method0 puts sys.float_info.min for a zero precision: a tiny score, not 0.

    HYP2 has no trigram or 4-gram match; nltk 3.10.4 sentence_bleu gives
    5.92086005993801e-155 (its docstring shows ``round(..., 4) == 0.0``).
    """
    config = nltk_config("method0", (0.25,) * 4)
    got, expected = check_against_nltk([HYP2], [[REF1], [REF2], [REF3]], NONE_TOK, config)
    assert expected == pytest.approx(5.92086005993801e-153, rel=1e-9)
    assert 0 < got.score < 1e-150
    assert got.score == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize(("lowercase", "count"), [(False, 1), (True, 2)])
@pytest.mark.parametrize("method", NLTK_METHODS)
def test_clipping_unigram_count(lowercase: bool, count: int, method: str) -> None:
    """Papineni et al. (2002): seven "the" are clipped to the most in any one reference."""
    hyps = ["the the the the the the the"]
    refs = [["The cat is on the mat."], ["There is a cat on the mat."]]
    tok = TokenizeConfig("13a", lowercase)
    got, _ = check_against_nltk(hyps, refs, tok, nltk_config(method, (0.25,) * 4))
    assert (got.counts[0], got.totals[0]) == (count, 7)
    hyp_tokens, ref_tokens = token_lists(hyps, refs, tok)
    assert modified_precision(ref_tokens[0], hyp_tokens[0], 1) == Fraction(count, 7)


NLTK_CORPORA = {
    "docs_one_segment": ([HYP1], [[REF1], [REF2], [REF3]]),
    "docs_two_segments": ([HYP1, HYP2], [[REF1, REF3], [REF2, REF1], [REF3, REF2]]),
    "short_and_empty_lines": (
        ["a b c", "", "the cat sat on the mat", "x"],
        [
            ["a b d", "q", "the cat sat on a mat", "x"],
            ["c b a", "", "a cat sat on the mat now", "y z"],
        ],
    ),
    "zero_trigram": (["a b x c d y e f"], [["a b c d e f g"]]),
    "last_segment_short": (
        ["the cat sat on the mat today", "a b"],
        [["the cat sat on the mat", "a b"]],
    ),
    "two_tokens": (["Hello there"], [["Hello there"]]),
    # Reference lengths 6 and 4 tie around 5: the shorter wins (BP 1, not exp(1 - 6/5)).
    "ties": (["a b c d e"], [["a b c d e f"], ["a b c d"]]),
}  # fmt: skip
WEIGHTS = [
    (0.25,) * 4,
    (0.5, 0.5),
    (1.0,),
    (0.0, 0.0, 1.0, 0.0),
    (1 / 3,) * 3,
    (0.1, 0.3, 0.5, 0.1),
    (0.2,) * 5,
    (1 / 6,) * 6,
]


@pytest.mark.parametrize("corpus", NLTK_CORPORA.keys())
@pytest.mark.parametrize("weights", WEIGHTS, ids=lambda w: ",".join(f"{x:.2g}" for x in w))
@pytest.mark.parametrize("method", NLTK_METHODS)
def test_methods_and_weights(corpus: str, weights: tuple[float, ...], method: str) -> None:
    hyps, refs = NLTK_CORPORA[corpus]
    check_against_nltk(hyps, refs, TokenizeConfig(), nltk_config(method, weights))


@pytest.mark.parametrize("corpus", ["docs_two_segments", "short_and_empty_lines", "zero_trigram"])
@pytest.mark.parametrize("weights", WEIGHTS, ids=lambda w: ",".join(f"{x:.2g}" for x in w))
@pytest.mark.parametrize("method", NLTK_METHODS)
def test_smoothed_precisions(corpus: str, weights: tuple[float, ...], method: str) -> None:
    """BleuScore.precisions are nltk's smoothed p_n, built as corpus_bleu builds them."""
    hyps, refs = NLTK_CORPORA[corpus]
    config = nltk_config(method, weights)
    got, _ = bleuviz_scores(hyps, refs, TokenizeConfig(), config)
    hyp_tokens, ref_tokens = token_lists(hyps, refs, TokenizeConfig())
    p_n = []
    for n in range(1, len(weights) + 1):
        parts = [modified_precision(r, h, n) for r, h in zip(ref_tokens, hyp_tokens, strict=True)]
        p_n.append(
            Fraction(
                sum(p.numerator for p in parts), sum(p.denominator for p in parts), _normalize=False
            )
        )
    assert got.counts == tuple(p.numerator for p in p_n)
    smoothing = getattr(SmoothingFunction(), method)
    try:
        smoothed = smoothing(
            p_n, references=ref_tokens[-1], hypothesis=hyp_tokens[-1], hyp_len=got.hyp_len
        )
    except NLTK_CRASHES:
        assert got.score == 0
        return
    assert got.precisions == pytest.approx([100 * float(p) for p in smoothed], abs=ABS)


@pytest.mark.parametrize("method", NLTK_METHODS)
@pytest.mark.parametrize(
    ("hyps", "refs"),
    [
        (["Hello there"], [["Hello there"]]),
        (["Hello there"], [["Hello there my friend"]]),
        (["a", "b c"], [["a", "b c"]]),  # corpus length 3 < 4: weights 1/3 each
        (["a b", "c d e"], [["a b", "c d e"]]),  # corpus length 5: no reweighing
    ],
)
def test_auto_reweigh(hyps: list[str], refs: list[list[str]], method: str) -> None:
    reweighed, _ = check_against_nltk(
        hyps, refs, TokenizeConfig(), nltk_config(method, (0.25,) * 4, True)
    )
    plain, _ = check_against_nltk(hyps, refs, TokenizeConfig(), nltk_config(method, (0.25,) * 4))
    if hyps == refs[0] == ["Hello there"] and method in NLTK_METHODS[:5]:
        # Weights become (1/2, 1/2) on p1 = p2 = 1 (methods 0-4 leave those alone).
        assert reweighed.score == pytest.approx(100, abs=ABS)
        assert plain.score < reweighed.score
    if sum(len(h.split()) for h in hyps) >= 4:
        assert reweighed.score == plain.score


@pytest.mark.parametrize(
    ("hyps", "refs", "weights", "error"),
    [
        (["a b x c d y e f"], [["a b c d e f g"]], (0.25,) * 4, AssertionError),  # p3 == 0
        (["a b c"], [["a b c"]], (0.5, 0.5), IndexError),  # no p_n[2] with two orders
        (["a b c"], [["a b c"]], (1.0,), IndexError),
    ],
)
def test_method6_crash_is_defined_as_0(
    hyps: list[str], refs: list[list[str]], weights: tuple[float, ...], error: type[Exception]
) -> None:
    config = nltk_config("method6", weights)
    hyp_tokens, ref_tokens = token_lists(hyps, refs, TokenizeConfig())
    with pytest.raises(error):
        corpus_bleu(ref_tokens, hyp_tokens, weights, SmoothingFunction().method6)
    got, sentences = bleuviz_scores(hyps, refs, TokenizeConfig(), config)
    assert got.score == 0
    assert list(sentences.score) == [0.0]


@pytest.mark.parametrize("method", NLTK_METHODS)
def test_empty_inputs(method: str) -> None:
    config = nltk_config(method, (0.25,) * 4)
    cases = [
        (["", "a b c d"], [["a b", "a b c d"]]),  # an empty hypothesis line
        (["a b", "a b c d"], [["", "a b c d"]]),  # an empty reference line
        (["a b c d", ""], [["a b c d", ""], ["a b c", ""]]),  # an empty segment
        (["", ""], [["a b c d", "e f"]]),  # all hypotheses empty: 0
        (["a b c d", "e f g h"], [["", ""]]),  # all references empty: 0
    ]
    for i, (hyps, refs) in enumerate(cases):
        got, _ = check_against_nltk(hyps, refs, TokenizeConfig(), config)
        if i >= 3:
            assert got.score == 0


# ---------------------------------------------------------------- properties

random_weights = st.lists(st.floats(0, 2), min_size=1, max_size=6).filter(lambda w: sum(w) > 0)
configs = st.builds(
    nltk_config,
    st.sampled_from(NLTK_METHODS),
    st.one_of(st.sampled_from(WEIGHTS), random_weights.map(tuple)),
    st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), config=configs, lowercase=st.booleans())
def test_equals_nltk(data: st.DataObject, corpora, config: BleuConfig, lowercase: bool) -> None:
    hyps, refs = data.draw(corpora)
    check_against_nltk(hyps, refs, TokenizeConfig("13a", lowercase), config)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), config=configs)
def test_subset_from_cache_equals_nltk(data: st.DataObject, corpora, config: BleuConfig) -> None:
    """The cached subset also carries nltk's last-segment context (methods 4-7).

    Any order, repeats allowed (a bootstrap sample): "last" is the subset's last.
    That it equals a fresh computation holds for every flavour (test_flavors.py).
    """
    hyps, refs = data.draw(corpora)
    tok = TokenizeConfig()
    stats = compute_stats(hyps, build_reference_index(refs, tok, config.stats_order))
    subset = data.draw(
        st.lists(st.integers(0, len(hyps) - 1), min_size=1, max_size=2 * len(hyps)),
        label="subset",
    )
    sub_hyps = [hyps[i] for i in subset]
    sub_refs = [[stream[i] for i in subset] for stream in refs]
    cached = corpus_score(stats, config, tok, len(refs), index=subset)
    hyp_tokens, ref_tokens = token_lists(sub_hyps, sub_refs, tok)
    assert cached.score == close(nltk_score(corpus_bleu, ref_tokens, hyp_tokens, config=config))


@settings(max_examples=60, deadline=None)
@given(lines=long_lines, config=configs, n_refs=st.integers(1, 3))
def test_identical_input_equals_nltk(lines: list[str], config: BleuConfig, n_refs: int) -> None:
    """Where identical input scores 100, and where nltk's quirks keep it from that.

    The 100 itself (methods 0-4) and the 0 of empty input hold for every flavour
    (test_flavors.py).
    """
    refs = [lines] * n_refs
    got, _ = bleuviz_scores(lines, refs, TokenizeConfig(), config)
    hyp_tokens, ref_tokens = token_lists(lines, refs, TokenizeConfig())
    assert got.score == close(nltk_score(corpus_bleu, ref_tokens, hyp_tokens, config=config))


def test_weights_set_the_order() -> None:
    config = nltk_config("method3", (0.1, 0.3, 0.5, 0.1))
    assert config.max_order == 4
    assert list(config.weight_vector) == [0.1, 0.3, 0.5, 0.1]
    assert nltk_config("method5", (0.5, 0.5)).stats_order == 5
    assert nltk_config("method7", (1 / 6,) * 6).stats_order == 6
    assert nltk_config("method4", (0.5, 0.5)).stats_order == 2
    assert math.isclose(sum(nltk_config("method0", (1 / 3,) * 3).weight_vector), 1)
