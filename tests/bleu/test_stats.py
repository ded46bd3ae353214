"""Tests of the columnar statistics (bleuviz.bleu.references, bleuviz.bleu.stats).

Oracles: sacrebleu 2.6.0 ``BLEU()._extract_corpus_statistics(hyps, refs)`` for
the rows ``[hyp_len, ref_len, correct_1..N, total_1..N]``, and nltk 3.10.4
``modified_precision`` / ``closest_ref_length`` for the nltk denominators.
The literal rows in GOLDEN were printed by that sacrebleu call; the
``shortest`` column is the minimum reference length, counted by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import closest_ref_length, modified_precision
from sacrebleu.metrics.bleu import BLEU

from bleuviz.bleu.orders import MAX_ORDER
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.stats import SegmentStats, compute_stats
from bleuviz.bleu.tokenize import TokenizeConfig, tokenize_lines
from bleuviz.errors import ConfigError, InputError
from tests.data import CAT, CAT2, SEVEN_THE

MakeStats = Callable[..., SegmentStats]

# (id, lowercase, hyps, ref streams, sacrebleu rows, shortest reference length per segment)
GOLDEN = [
    # Papineni et al. (2002): "the" is clipped to its count in one reference:
    # once case-sensitively ("The" differs), twice after lowercasing.
    ("clipping_mixed", False, SEVEN_THE, [CAT, CAT2], [[7, 7, 1, 0, 0, 0, 7, 6, 5, 4]], [7]),
    ("clipping_lower", True, SEVEN_THE, [CAT, CAT2], [[7, 7, 2, 0, 0, 0, 7, 6, 5, 4]], [7]),
    ("short_exact", False, ["Hello there!"], [["Hello there!"]], [[3, 3, 3, 2, 1, 0, 3, 2, 1, 0]],
     [3]),
    ("empty_hyp", False, ["", "a b c d"], [["a b", "a b c d"]],
     [[0, 2, 0, 0, 0, 0, 0, 0, 0, 0], [4, 4, 4, 3, 2, 1, 4, 3, 2, 1]], [2, 4]),
    ("empty_ref", False, ["a b", "a b c d"], [["", "a b c d"]],
     [[2, 0, 0, 0, 0, 0, 2, 1, 0, 0], [4, 4, 4, 3, 2, 1, 4, 3, 2, 1]], [0, 4]),
    ("empty_segment", False, ["a b c d", ""], [["a b c d", ""], ["a b c", ""]],
     [[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]], [3, 0]),
    # Reference lengths 6 and 4 are both 1 away from the hypothesis' 5: the shorter wins.
    ("tie_to_shorter", False, ["a b c d e"], [["a b c d e f"], ["a b c d"], ["a b c d e f g h"]],
     [[5, 4, 5, 4, 3, 2, 5, 4, 3, 2]], [4]),
    ("tie_no_match", False, ["a b c"], [["x y z w"], ["x y"]], [[3, 2, 0, 0, 0, 0, 3, 2, 1, 0]],
     [2]),
    ("shortest_not_closest", False, ["a b c d e f"], [["a b c d e f g"], ["a b"]],
     [[6, 7, 6, 5, 4, 3, 6, 5, 4, 3]], [2]),
    # Strings pandas might mistake for missing values or numbers stay plain tokens.
    ("pandas_lookalikes", False, ["nan NaN None NA null <NA> nan", "1 1.0 01 True"],
     [["nan None NaN NA <NA>", "1 01 1.0 true"]],
     [[9, 7, 7, 2, 1, 0, 9, 8, 7, 6], [4, 4, 3, 0, 0, 0, 4, 3, 2, 1]], [7, 4]),
]  # fmt: skip


def sacrebleu_rows(hyps, refs, tokenize=None, max_order=4):  # type: ignore[no-untyped-def]
    """The oracle: sacrebleu's per-segment statistics as an int64 array."""
    tokenize = tokenize or TokenizeConfig()
    metric = BLEU(tokenize=tokenize.name, lowercase=tokenize.lowercase, max_ngram_order=max_order)
    rows = metric._extract_corpus_statistics(hyps, refs)
    return np.asarray(rows, dtype=np.int64).reshape(len(hyps), 2 + 2 * max_order)


@pytest.mark.parametrize(
    ("lowercase", "hyps", "refs", "rows", "shortest"),
    [case[1:] for case in GOLDEN],
    ids=[case[0] for case in GOLDEN],
)
def test_rows_golden(
    make_stats: MakeStats,
    lowercase: bool,
    hyps: list[str],
    refs: list[list[str]],
    rows: list[list[int]],
    shortest: list[int],
) -> None:
    tok = TokenizeConfig("13a", lowercase)
    stats = make_stats(hyps, refs, tok)
    np.testing.assert_array_equal(sacrebleu_rows(hyps, refs, tok), rows)
    np.testing.assert_array_equal(stats.sacrebleu_rows(), rows)
    np.testing.assert_array_equal(stats.shortest_ref_len, shortest)
    np.testing.assert_array_equal(stats.floor_totals, np.maximum(stats.totals, 1))
    assert stats.max_order == 4
    assert len(stats) == len(hyps)


@pytest.mark.parametrize(
    ("lowercase", "clipped"), [(False, Fraction(1, 7)), (True, Fraction(2, 7))]
)
def test_clipping_matches_nltk_modified_precision(
    make_stats: MakeStats, lowercase: bool, clipped: Fraction
) -> None:
    tok = TokenizeConfig("13a", lowercase)
    hyp = tokenize_lines(SEVEN_THE, tok)[0].split()
    refs = [line.split() for line in tokenize_lines(CAT + CAT2, tok)]
    assert modified_precision(refs, hyp, 1) == clipped
    stats = make_stats(SEVEN_THE, [CAT, CAT2], tok)
    assert Fraction(int(stats.matches[0, 0]), int(stats.totals[0, 0])) == clipped


@pytest.mark.parametrize("max_order", range(1, MAX_ORDER + 1))
def test_rows_for_every_max_order(make_stats: MakeStats, max_order: int) -> None:
    hyps = ["the cat sat on the mat on the mat .", "a b a b a b a b a b", "", "x"]
    refs = [
        ["the cat sat on the mat .", "a b a b a b", "y", ""],
        ["on the mat the cat sat on the mat", "b a b a", "", "x"],
    ]
    stats = make_stats(hyps, refs, max_order=max_order)
    assert stats.max_order == max_order
    np.testing.assert_array_equal(
        stats.sacrebleu_rows(), sacrebleu_rows(hyps, refs, None, max_order)
    )
    np.testing.assert_array_equal(stats.sacrebleu_rows(1), sacrebleu_rows(hyps, refs, None, 1))


tokenize_configs = st.builds(
    TokenizeConfig, st.sampled_from(["13a", "intl", "zh", "char", "none"]), st.booleans()
)


@settings(max_examples=100, deadline=None)
@given(data=st.data(), tok=tokenize_configs, max_order=st.integers(1, 6))
def test_rows_equal_sacrebleu(
    data: st.DataObject, corpora, make_stats: MakeStats, tok: TokenizeConfig, max_order: int
) -> None:
    hyps, refs = data.draw(corpora)
    stats = make_stats(hyps, refs, tok, max_order)
    np.testing.assert_array_equal(
        stats.sacrebleu_rows(), sacrebleu_rows(hyps, refs, tok, max_order)
    )


@settings(max_examples=40, deadline=None)
@given(
    lines=st.lists(st.text(max_size=25), min_size=2, max_size=8),
    tok=tokenize_configs,
)
def test_rows_equal_sacrebleu_on_arbitrary_text(
    make_stats: MakeStats, lines: list[str], tok: TokenizeConfig
) -> None:
    half = len(lines) // 2
    hyps, refs = lines[:half], [lines[half : 2 * half]]
    stats = make_stats(hyps, refs, tok)
    np.testing.assert_array_equal(stats.sacrebleu_rows(), sacrebleu_rows(hyps, refs, tok))


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_nltk_counts_and_lengths(data: st.DataObject, corpora, make_stats: MakeStats) -> None:
    """Per segment, nltk's modified_precision numerator and max(1, denominator) are ours."""
    hyps, refs = data.draw(corpora)
    stats = make_stats(hyps, refs, max_order=5)
    tok = TokenizeConfig()
    hyp_tokens = [line.split() for line in tokenize_lines(hyps, tok)]
    ref_tokens = [[line.split() for line in tokenize_lines(s, tok)] for s in refs]
    for i, hyp in enumerate(hyp_tokens):
        seg_refs = [stream[i] for stream in ref_tokens]
        for n in range(1, 6):
            p = modified_precision(seg_refs, hyp, n)
            assert (p.numerator, p.denominator) == (
                stats.matches[i, n - 1],
                stats.floor_totals[i, n - 1],
            )
        assert stats.closest_ref_len[i] == closest_ref_length(seg_refs, len(hyp))
        assert stats.shortest_ref_len[i] == min(len(r) for r in seg_refs)


def assert_same_stats(got: SegmentStats, expected: SegmentStats) -> None:
    for name in SegmentStats.__slots__:
        np.testing.assert_array_equal(getattr(got, name), getattr(expected, name), err_msg=name)


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_summed_sentence_stats_equal_corpus_stats(
    data: st.DataObject, corpora, make_stats: MakeStats
) -> None:
    hyps, refs = data.draw(corpora)
    stats = make_stats(hyps, refs)
    total = stats.total()
    assert len(total) == 1
    # sacrebleu's own corpus statistics are the sum of its per-segment rows.
    np.testing.assert_array_equal(total.sacrebleu_rows()[0], sacrebleu_rows(hyps, refs).sum(axis=0))
    # Every segment scored as a one-line corpus of its own, then summed.
    alone = [make_stats([h], [[s[i]] for s in refs]) for i, h in enumerate(hyps)]
    summed = SegmentStats(
        *(np.sum([getattr(one, name) for one in alone], axis=0) for name in SegmentStats.__slots__)
    )
    assert_same_stats(total, summed)
    # Two halves computed apart, then concatenated, give the rows of the whole.
    cut = data.draw(st.integers(0, len(hyps)), label="cut")
    parts = [
        make_stats(hyps[:cut], [s[:cut] for s in refs]),
        make_stats(hyps[cut:], [s[cut:] for s in refs]),
    ]
    for name in SegmentStats.__slots__:
        whole = np.concatenate([getattr(part, name) for part in parts])
        np.testing.assert_array_equal(getattr(stats, name), whole, err_msg=name)


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_group_totals_equal_selected_totals(
    data: st.DataObject, corpora, make_stats: MakeStats
) -> None:
    hyps, refs = data.draw(corpora)
    stats = make_stats(hyps, refs)
    n_groups = data.draw(st.integers(1, 4), label="n_groups")
    labels = data.draw(
        st.lists(st.integers(0, n_groups - 1), min_size=len(hyps), max_size=len(hyps))
    )
    groups = np.asarray(labels, dtype=np.int64)
    grouped = stats.group_totals(groups, n_groups)
    assert len(grouped) == n_groups
    for g in range(n_groups):
        expected = stats.select(np.flatnonzero(groups == g)).total()
        assert_same_stats(grouped.select([g]), expected)


def test_select_accepts_slices_masks_and_positions(make_stats: MakeStats) -> None:
    hyps = ["a b c", "a", "", "b c a b"]
    stats = make_stats(hyps, [["a b c", "b", "a", "b c a"]])
    by_slice = stats.select(slice(1, 3))
    by_mask = stats.select(np.array([False, True, True, False]))
    by_list = stats.select([1, 2])
    for other in (by_mask, by_list):
        assert_same_stats(other, by_slice)
    np.testing.assert_array_equal(by_slice.hyp_len, [1, 0])
    assert_same_stats(stats.select([3, 0]).total(), stats.select([0, 3]).total())


@pytest.mark.parametrize(
    "index",
    [[], (), np.array([], dtype=np.int64), np.zeros(2, dtype=bool), slice(0, 0)],
    ids=["empty_list", "empty_tuple", "empty_int_array", "false_mask", "empty_slice"],
)
def test_select_nothing(make_stats: MakeStats, index: object) -> None:
    """An empty selection (an empty filter in the UI) is valid and has no rows."""
    stats = make_stats(["a b", "c"], [["a b", "c"]])
    empty = stats.select(index)  # type: ignore[arg-type]
    assert len(empty) == 0
    assert empty.matches.shape == (0, 4)
    np.testing.assert_array_equal(empty.total().matches, [[0, 0, 0, 0]])


def test_reference_index_shape() -> None:
    refs = [["a b c", "", "d"], ["a", "b b", "c c c"]]
    index = build_reference_index(refs, TokenizeConfig("none"), 3)
    assert (index.n_refs, index.n_segments, index.max_order) == (2, 3, 3)
    np.testing.assert_array_equal(index.ref_lengths, [[3, 0, 1], [1, 2, 3]])
    assert len(index.orders) == 3
    assert sorted(index.vocabulary.to_pylist()) == ["a", "b", "c", "d"]


@pytest.mark.parametrize("max_order", [0, -1, MAX_ORDER + 1])
def test_max_order_out_of_range(max_order: int) -> None:
    with pytest.raises(ConfigError, match=r"^max_order: must be between 1 and 9"):
        build_reference_index([["a"]], TokenizeConfig(), max_order)


def test_no_reference_streams() -> None:
    with pytest.raises(InputError, match=r"^references: at least one"):
        build_reference_index([], TokenizeConfig())


def test_reference_streams_of_different_lengths() -> None:
    with pytest.raises(InputError, match=r"^references: stream 1 has 2 lines but stream 2 has 1"):
        build_reference_index([["a", "b"], ["a"]], TokenizeConfig())


@pytest.mark.parametrize("hyps", [["a"], ["a", "b", "c"], []])
def test_hypotheses_of_the_wrong_length(hyps: list[str]) -> None:
    index = build_reference_index([["a", "b"]], TokenizeConfig())
    with pytest.raises(
        InputError, match=rf"^hypotheses: {len(hyps)} lines but the references have 2"
    ):
        compute_stats(hyps, index)
