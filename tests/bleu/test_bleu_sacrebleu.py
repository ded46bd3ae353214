"""Tests of the sacrebleu flavour (bleuviz.bleu.score, bleuviz.bleu.flavors.sacrebleu).

Oracle: sacrebleu 2.6.0, ``BLEU(tokenize=..., lowercase=..., smooth_method=...,
smooth_value=..., max_ngram_order=..., effective_order=...)`` with
``.corpus_score(hyps, refs)`` and ``.sentence_score(hyp, refs)``, and
``sacrebleu.sentence_bleu``. The literal scores in the tables were printed by
those calls (``.score``); every row is also re-checked against the live oracle.

The invariants every flavour keeps (identical input 100, empty input 0, a cached
subset equal to a fresh run, summed rows) are tested once, over the registry, in
test_flavors.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU, BLEUScore

from bleuviz.bleu import BleuConfig, corpus_score, sentence_scores
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.result import BleuScore
from bleuviz.bleu.stats import SegmentStats, compute_stats
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import ConfigError
from tests.data import CAT, CAT2, SEVEN_THE

MakeStats = Callable[..., SegmentStats]
ABS = 1e-9
MAT = "The cat sat on the mat."


def oracle(tok: TokenizeConfig, config: BleuConfig) -> BLEU:
    """sacrebleu's BLEU with the same settings as ``config``."""
    return BLEU(
        tokenize=tok.name,
        lowercase=tok.lowercase,
        smooth_method=config.smoothing,
        smooth_value=config.smooth_value,
        max_ngram_order=config.max_order,
        effective_order=config.effective_order,
    )


def assert_same_score(got: BleuScore, expected: BLEUScore, config: BleuConfig) -> None:
    """Compare every field of a bleuviz score with sacrebleu's."""
    assert got.score == pytest.approx(expected.score, abs=ABS)
    assert got.precisions == pytest.approx(expected.precisions, abs=ABS)
    assert got.bp == pytest.approx(expected.bp, abs=ABS)
    assert got.ratio == pytest.approx(expected.ratio, abs=ABS)
    assert (got.hyp_len, got.ref_len) == (expected.sys_len, expected.ref_len)
    if config.smoothing == "add-k" and any(expected.counts):
        # sacrebleu reports counts and totals of orders 2+ with k already added
        # (compute_bleu adds it in place, after its early return for no match at
        # all); bleuviz reports the raw statistics the score came from.
        k = 1 if config.smooth_value is None else config.smooth_value
        added = [0] + [k] * (config.max_order - 1)
        assert [c + a for c, a in zip(got.counts, added, strict=True)] == expected.counts
        assert [t + a for t, a in zip(got.totals, added, strict=True)] == expected.totals
    else:
        assert list(got.counts) == expected.counts
        assert list(got.totals) == expected.totals


def score_both(
    hyps: list[str], refs: list[list[str]], tok: TokenizeConfig, config: BleuConfig
) -> tuple[BleuScore, BLEUScore]:
    stats = compute_stats(hyps, build_reference_index(refs, tok, config.max_order))
    got = corpus_score(stats, config, tok, len(refs))
    return got, oracle(tok, config).corpus_score(hyps, refs)


# (id, hyps, refs, lowercase, BleuConfig kwargs, corpus score from sacrebleu 2.6.0)
CORPUS_GOLDEN = [
    ("clipping_mixed", SEVEN_THE, [CAT, CAT2], False, {}, 6.567274736060395),
    ("clipping_lower", SEVEN_THE, [CAT, CAT2], True, {}, 7.809849842300637),
    ("clipping_lower_none", SEVEN_THE, [CAT, CAT2], True, {"smooth": "none"}, 0.0),
    # Three tokens: no 4-gram at all, so without effective order the score is 0.
    ("short_exact", ["Hello there!"], [["Hello there!"]], False, {}, 0.0),
    ("short_exact_eff", ["Hello there!"], [["Hello there!"]], False,
     {"effective_order": True}, 100.00000000000004),
    ("empty_hyp_line", ["", MAT], [["A cat.", MAT]], False, {}, 65.14390575310559),
    ("empty_ref_line", ["A cat.", MAT], [["", MAT]], False, {}, 81.32882808488928),
    ("empty_segment", [MAT, ""], [[MAT, ""], ["A cat sat on a mat.", ""]], False, {},
     100.00000000000004),
    ("all_empty_hyps", ["", ""], [["a b c d", "e f"]], False, {}, 0.0),
    ("all_empty_stream", ["a b c d", "e f g h"], [["", ""], ["a b c d", "e f h g"]], False, {},
     63.894310424627285),
    ("all_empty_refs", ["a b c d", "e f g h"], [["", ""]], False, {}, 0.0),
    # Lengths 6/4 tie around 5 and 4/2 tie around 3: the shorter wins (ref_len 4 + 2).
    ("ties", ["a b c d e", "a b c"],
     [["a b c d e f", "a b c d"], ["a b c d", "x y"], ["a b c d e f g h", "a b c d e"]], False, {},
     100.00000000000004),
]  # fmt: skip


@pytest.mark.parametrize(
    ("hyps", "refs", "lowercase", "kwargs", "golden"),
    [case[1:] for case in CORPUS_GOLDEN],
    ids=[case[0] for case in CORPUS_GOLDEN],
)
def test_corpus_golden(
    hyps: list[str],
    refs: list[list[str]],
    lowercase: bool,
    kwargs: dict[str, object],
    golden: float,
) -> None:
    tok = TokenizeConfig("13a", lowercase)
    config = BleuConfig(**kwargs)  # type: ignore[arg-type]
    got, expected = score_both(hyps, refs, tok, config)
    assert expected.score == pytest.approx(golden, abs=ABS)
    assert_same_score(got, expected, config)
    assert got.format() == expected.format()


@pytest.mark.parametrize(("lowercase", "count"), [(False, 1), (True, 2)])
def test_clipping_unigram_count(lowercase: bool, count: int) -> None:
    """Papineni et al. (2002): seven "the" are clipped to the most in any one reference."""
    got, expected = score_both(
        SEVEN_THE, [CAT, CAT2], TokenizeConfig("13a", lowercase), BleuConfig()
    )
    assert (got.counts[0], got.totals[0]) == (count, 7) == (expected.counts[0], expected.totals[0])
    assert got.precisions[0] == pytest.approx(100 * count / 7, abs=ABS)


# (id, hyp, refs, lowercase, sentence score from sacrebleu 2.6.0 sentence_bleu)
SENTENCE_GOLDEN = [
    ("short_exact", "Hello there!", ["Hello there!"], False, 100.00000000000004),
    ("clipping_mixed", SEVEN_THE[0], CAT + CAT2, False, 6.567274736060395),
    ("clipping_lower", SEVEN_THE[0], CAT + CAT2, True, 7.809849842300637),
    ("empty_hyp", "", ["A cat."], False, 0.0),
    ("empty_ref", "A cat.", [""], False, 0.0),
    ("empty_both", "", ["", ""], False, 0.0),
    ("partial", "e f g h", ["", "e f h g"], False, 37.99178428257963),
]  # fmt: skip


@pytest.mark.parametrize(
    ("hyp", "refs", "lowercase", "golden"),
    [case[1:] for case in SENTENCE_GOLDEN],
    ids=[case[0] for case in SENTENCE_GOLDEN],
)
def test_sentence_golden(hyp: str, refs: list[str], lowercase: bool, golden: float) -> None:
    tok = TokenizeConfig("13a", lowercase)
    expected = sacrebleu.sentence_bleu(hyp, refs, lowercase=lowercase)
    assert expected.score == pytest.approx(golden, abs=ABS)
    stats = compute_stats([hyp], build_reference_index([[r] for r in refs], tok))
    arrays = sentence_scores(stats, BleuConfig())
    assert arrays.score[0] == pytest.approx(golden, abs=ABS)
    assert list(arrays.precisions[0]) == pytest.approx(expected.precisions, abs=ABS)
    assert arrays.bp[0] == pytest.approx(expected.bp, abs=ABS)
    assert arrays.ratio[0] == pytest.approx(expected.ratio, abs=ABS)


# Corpora with orders that match nothing, and orders with no n-grams at all.
ZERO_ORDERS = {
    "no_trigram_match": (["a b x c d y e", "f g"], [["a b c d e", "f h g"]]),
    "short_lines": (["a b", "c", "d e f"], [["a b", "c", "d e x"], ["b a", "c d", "d e f"]]),
    "no_match_at_all": (["x y z", "w"], [["a b c", "d"]]),
    "one_line_partial": (["the cat the cat on the mat"], [["the cat is on the mat"]]),
}
SMOOTHINGS = [
    ("exp", None),
    ("floor", None),
    ("floor", 0.2),
    ("floor", 0.0),
    ("add-k", None),
    ("add-k", 0.5),
    ("add-k", 3.0),
    ("none", None),
]


@pytest.mark.parametrize("corpus", ZERO_ORDERS.keys())
@pytest.mark.parametrize("max_order", range(1, 7))
@pytest.mark.parametrize("effective_order", [False, True])
@pytest.mark.parametrize(("smooth", "smooth_value"), SMOOTHINGS)
def test_smoothing_grid(
    corpus: str, max_order: int, effective_order: bool, smooth: str, smooth_value: float | None
) -> None:
    hyps, refs = ZERO_ORDERS[corpus]
    tok = TokenizeConfig()
    config = BleuConfig(
        max_order=max_order,
        smooth=smooth,
        smooth_value=smooth_value,
        effective_order=effective_order,
    )
    got, expected = score_both(hyps, refs, tok, config)
    assert_same_score(got, expected, config)
    stats = compute_stats(hyps, build_reference_index(refs, tok, max_order))
    arrays = sentence_scores(stats, config)
    sentence_oracle = oracle(tok, config.for_sentences())
    for i, hyp in enumerate(hyps):
        one = sentence_oracle.sentence_score(hyp, [stream[i] for stream in refs])
        assert arrays.score[i] == pytest.approx(one.score, abs=ABS)
        assert list(arrays.precisions[i]) == pytest.approx(one.precisions, abs=ABS)


MULTILINGUAL = (
    [
        "Él dijo: «¡Hola!» It costs $3,000.",
        "我爱北京天安门。",
        "Don't stop-believing...",
        "THE Cat",
    ],
    [
        ["él dijo: «¡hola!» it costs $3,000.50", "我爱北京。", "Don't stop believing", "the cat"],
        ["He said hello.", "我爱天安门。", "don't STOP-believing!", "The cat."],
    ],
)


@pytest.mark.parametrize("name", ["13a", "intl", "zh", "char", "none"])
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("effective_order", [False, True])
def test_tokenizers(name: str, lowercase: bool, effective_order: bool) -> None:
    hyps, refs = MULTILINGUAL
    tok = TokenizeConfig(name, lowercase)
    config = BleuConfig(effective_order=effective_order)
    got, expected = score_both(hyps, refs, tok, config)
    assert_same_score(got, expected, config)


def test_custom_weights_one_order() -> None:
    """A bleuviz extension with no oracle: weights (1, 0, 0, 0) give BP x unigram precision."""
    got, _ = score_both(["a b c d x"], [["a b c d e f"]], TokenizeConfig(), BleuConfig())
    weighted, _ = score_both(
        ["a b c d x"], [["a b c d e f"]], TokenizeConfig(), BleuConfig(weights=(1, 0, 0, 0))
    )
    assert weighted.score == pytest.approx(math.exp(1 - 6 / 5) * 4 / 5 * 100, abs=ABS)
    assert weighted.precisions == got.precisions
    uniform, _ = score_both(
        ["a b c d x"], [["a b c d e f"]], TokenizeConfig(), BleuConfig(weights=(0.25,) * 4)
    )
    assert uniform.score == got.score


@pytest.mark.parametrize(
    "index",
    [np.zeros(3, dtype=bool), np.array([], dtype=np.int64), slice(2, 2), []],
    ids=["false_mask", "empty_int_array", "empty_slice", "empty_list"],
)
def test_empty_selection_is_a_config_error(make_stats: MakeStats, index: object) -> None:
    stats = make_stats(["a", "b", "c"], [["a", "b", "c"]])
    with pytest.raises(ConfigError, match=r"^index: the selection holds no segments"):
        corpus_score(stats, BleuConfig(), TokenizeConfig(), 1, index=index)  # type: ignore[arg-type]


def test_statistics_must_hold_the_orders(make_stats: MakeStats) -> None:
    stats = make_stats(["a b"], [["a b"]], max_order=2)
    with pytest.raises(ConfigError, match=r"^max_order: statistics hold 2 orders, 4 needed"):
        corpus_score(stats, BleuConfig(), TokenizeConfig(), 1)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"flavor": "moses"}, r"^flavor: unknown 'moses'"),
        ({"smooth": "method1"}, r"^smooth: 'method1' is not a sacrebleu smoothing"),
        ({"max_order": 0}, r"^max_order: must be between 1 and 9, got 0"),
        ({"max_order": 10}, r"^max_order: must be between 1 and 9, got 10"),
        ({"weights": (0.5, 0.5)}, r"^weights: 2 weights given for max_order 4"),
        ({"weights": (0.0,) * 4}, r"^weights: must be non-negative with a positive sum"),
        ({"weights": (1.0, -0.5, 0.25, 0.25)}, r"^weights: must be non-negative"),
        ({"weights": (math.nan, 0.5, 0.25, 0.25)}, r"^weights: must be non-negative"),
    ],
)
def test_invalid_config(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        BleuConfig(**kwargs)  # type: ignore[arg-type]


# ---------------------------------------------------------------- properties


def make_configs(max_order: int) -> st.SearchStrategy[BleuConfig]:
    """Random sacrebleu settings: smoothing, its value, max order up to ``max_order``."""
    return st.builds(
        lambda smooth, value, order, eff: BleuConfig(
            max_order=order,
            smooth=smooth[0],
            smooth_value=value if smooth[1] else None,
            effective_order=eff,
        ),
        st.sampled_from([("exp", False), ("floor", True), ("add-k", True), ("none", False)]),
        st.sampled_from([None, 0.1, 0.2, 0.5, 1.0, 2.0]),
        st.integers(1, max_order),
        st.booleans(),
    )


configs = make_configs(6)
tokenize_configs = st.builds(
    TokenizeConfig, st.sampled_from(["13a", "intl", "none"]), st.booleans()
)


@settings(max_examples=120, deadline=None)
@given(data=st.data(), config=configs, tok=tokenize_configs)
def test_equals_sacrebleu(
    data: st.DataObject, corpora, config: BleuConfig, tok: TokenizeConfig
) -> None:
    hyps, refs = data.draw(corpora)
    stats = compute_stats(hyps, build_reference_index(refs, tok, config.max_order))
    got = corpus_score(stats, config, tok, len(refs))
    metric = oracle(tok, config)
    assert_same_score(got, metric.corpus_score(hyps, refs), config)
    np.testing.assert_array_equal(
        stats.sacrebleu_rows(), metric._extract_corpus_statistics(hyps, refs)
    )
    sentences = sentence_scores(stats, config).score
    sentence_oracle = oracle(tok, config.for_sentences())
    expected = [
        sentence_oracle.sentence_score(hyp, [s[i] for s in refs]).score
        for i, hyp in enumerate(hyps)
    ]
    assert list(sentences) == pytest.approx(expected, abs=ABS)


@settings(max_examples=40, deadline=None)
@given(data=st.data(), smooth=st.sampled_from(["exp", "floor", "add-k", "none"]))
def test_sentence_scores_equal_sentence_bleu(data: st.DataObject, corpora, smooth: str) -> None:
    """``sacrebleu.sentence_bleu`` itself (default order 4, effective order on)."""
    hyps, refs = data.draw(corpora)
    stats = compute_stats(hyps, build_reference_index(refs, TokenizeConfig()))
    got = sentence_scores(stats, BleuConfig(smooth=smooth)).score
    expected = [
        sacrebleu.sentence_bleu(hyp, [s[i] for s in refs], smooth_method=smooth).score
        for i, hyp in enumerate(hyps)
    ]
    assert list(got) == pytest.approx(expected, abs=ABS)


@settings(max_examples=100, deadline=None)
@given(data=st.data(), config=configs)
def test_subset_from_cache_equals_sacrebleu(
    data: st.DataObject, corpora, config: BleuConfig
) -> None:
    """A filter or a bootstrap sample (any order, repeats allowed) scored from the cache.

    That it equals a fresh computation holds for every flavour (test_flavors.py).
    """
    hyps, refs = data.draw(corpora)
    tok = TokenizeConfig()
    stats = compute_stats(hyps, build_reference_index(refs, tok, config.max_order))
    subset = data.draw(
        st.lists(st.integers(0, len(hyps) - 1), min_size=1, max_size=2 * len(hyps)),
        label="subset",
    )
    sub_hyps = [hyps[i] for i in subset]
    sub_refs = [[stream[i] for i in subset] for stream in refs]
    cached = corpus_score(stats, config, tok, len(refs), index=subset)
    assert_same_score(cached, oracle(tok, config).corpus_score(sub_hyps, sub_refs), config)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), config=configs)
def test_references_reused_for_several_systems(
    data: st.DataObject, corpora, config: BleuConfig
) -> None:
    hyps, refs = data.draw(corpora)
    other = data.draw(st.permutations(hyps), label="other system")
    tok = TokenizeConfig()
    index = build_reference_index(refs, tok, config.max_order)
    for system in (hyps, other, hyps):
        got = corpus_score(compute_stats(system, index), config, tok, len(refs))
        assert_same_score(got, oracle(tok, config).corpus_score(system, refs), config)
