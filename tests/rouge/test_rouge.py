"""Tests of bleuviz.rouge.score against google-research rouge-score 0.1.2 as the oracle.

Golden numbers in the tables were printed by rouge-score 0.1.2
(``RougeScorer(types, use_stemmer=...).score_multi(refs, hyp)``) and are
written as fractions; every case is also re-checked against the live oracle.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer, tokenizers

from bleuviz.errors import ConfigError, InputError
from bleuviz.rouge.score import ROUGE_TYPES, RougeConfig, score_corpus, score_segment
from bleuviz.rouge.stats import RougeScore, lcs_pairs
from bleuviz.rouge.tokenize import tokenize
from tests.data import rouge_texts as texts

TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
ALL = (1.0, 1.0, 1.0)
NONE = (0.0, 0.0, 0.0)

# (id, hyp, refs, use_stemmer, {type: (precision, recall, fmeasure)}), from rouge-score 0.1.2.
GOLDEN = [
    ("identical", "the cat sat on the mat", ["the cat sat on the mat"], False,
     {"rouge1": ALL, "rouge2": ALL, "rougeL": ALL, "rougeLsum": ALL}),
    ("disjoint", "a b c", ["x y z"], False,
     {"rouge1": NONE, "rouge2": NONE, "rougeL": NONE, "rougeLsum": NONE}),
    ("empty_hyp", "", ["the cat"], False,
     {"rouge1": NONE, "rouge2": NONE, "rougeL": NONE, "rougeLsum": NONE}),
    ("empty_ref", "the cat", [""], False,
     {"rouge1": NONE, "rouge2": NONE, "rougeL": NONE, "rougeLsum": NONE}),
    ("punctuation_only", "!!! ... ?", ["the cat"], False,
     {"rouge1": NONE, "rouge2": NONE, "rougeL": NONE, "rougeLsum": NONE}),
    ("stemmer_off", "running runs", ["run"], False,
     {"rouge1": NONE, "rouge2": NONE, "rougeL": NONE, "rougeLsum": NONE}),
    ("stemmer_on", "running runs", ["run"], True,
     {"rouge1": (1 / 2, 1, 2 / 3), "rouge2": NONE,
      "rougeL": (1 / 2, 1, 2 / 3), "rougeLsum": (1 / 2, 1, 2 / 3)}),
    ("clipping", "the the the the", ["the cat the"], False,
     {"rouge1": (2 / 4, 2 / 3, 4 / 7), "rouge2": NONE,
      "rougeL": (2 / 4, 2 / 3, 4 / 7), "rougeLsum": (2 / 4, 2 / 3, 4 / 7)}),
    ("lsum_sentences", "the cat sat\non the mat", ["on the mat\nthe cat sat"], False,
     {"rouge1": ALL, "rouge2": (4 / 5, 4 / 5, 4 / 5),
      "rougeL": (1 / 2, 1 / 2, 1 / 2), "rougeLsum": ALL}),
    ("lsum_double_count_guard", "a b", ["a b\na b"], False,
     {"rouge1": (1, 1 / 2, 2 / 3), "rouge2": (1, 1 / 3, 1 / 2),
      "rougeL": (1, 1 / 2, 2 / 3), "rougeLsum": (1, 1 / 2, 2 / 3)}),
    ("lsum_blank_lines", "\n\nthe cat\n \n\nsat .\n", ["the cat sat"], False,
     {"rouge1": ALL, "rouge2": ALL, "rougeL": ALL, "rougeLsum": ALL}),
    ("multi_ref_per_type", "the cat sat on the mat",
     ["a dog ran", "the cat sat", "on the mat the cat sat"], False,
     {"rouge1": ALL, "rouge2": (4 / 5, 4 / 5, 4 / 5),
      "rougeL": (1 / 2, 1, 2 / 3), "rougeLsum": (1 / 2, 1, 2 / 3)}),
    ("multi_ref_tie_takes_first", "a b", ["a", "a b c d"], False,
     {"rouge1": (1 / 2, 1, 2 / 3), "rouge2": (1, 1 / 3, 1 / 2),
      "rougeL": (1 / 2, 1, 2 / 3), "rougeLsum": (1 / 2, 1, 2 / 3)}),
]  # fmt: skip


def _as_tuple(score: RougeScore) -> tuple[float, float, float]:
    return (score.precision, score.recall, score.fmeasure)


def _oracle(
    types: tuple[str, ...], stem: bool, hyp: str, refs: list[str]
) -> dict[str, tuple[float, ...]]:
    scorer = rouge_scorer.RougeScorer(list(types), use_stemmer=stem)
    return {t: tuple(s) for t, s in scorer.score_multi(refs, hyp).items()}


@pytest.mark.parametrize(("hyp", "refs", "stem", "expected"), [g[1:] for g in GOLDEN],
                         ids=[g[0] for g in GOLDEN])  # fmt: skip
def test_golden(
    hyp: str, refs: list[str], stem: bool, expected: dict[str, tuple[float, ...]]
) -> None:
    got = score_segment(hyp, refs, RougeConfig(TYPES, use_stemmer=stem))
    oracle = _oracle(TYPES, stem, hyp, refs)
    for rouge_type in TYPES:
        assert _as_tuple(got[rouge_type]) == pytest.approx(expected[rouge_type], abs=1e-9)
        assert oracle[rouge_type] == pytest.approx(expected[rouge_type], abs=1e-9)


def test_higher_orders() -> None:
    # Golden numbers from rouge-score 0.1.2: rouge3 9/10, rouge9 3/4 (P = R = F).
    hyp = "the cat sat on the mat with a hat and a cat"
    ref = "the cat sat on the mat with a hat and a bat"
    got = score_segment(hyp, [ref], RougeConfig(("rouge3", "rouge9")))
    assert _as_tuple(got["rouge3"]) == pytest.approx((9 / 10,) * 3, abs=1e-9)
    assert _as_tuple(got["rouge9"]) == pytest.approx((3 / 4,) * 3, abs=1e-9)


ref_lists = st.lists(texts, min_size=1, max_size=3)


def _assert_equal_to_oracle(hyp: str, refs: list[str], types: tuple[str, ...], stem: bool) -> None:
    got = score_segment(hyp, refs, RougeConfig(types, use_stemmer=stem))
    oracle = _oracle(types, stem, hyp, refs)
    for rouge_type in types:
        assert _as_tuple(got[rouge_type]) == pytest.approx(oracle[rouge_type], abs=1e-9)


@settings(max_examples=300, deadline=None)
@given(hyp=texts, ref=texts, stem=st.booleans())
def test_single_ref_equals_rouge_score(hyp: str, ref: str, stem: bool) -> None:
    _assert_equal_to_oracle(hyp, [ref], ROUGE_TYPES, stem)


@settings(max_examples=300, deadline=None)
@given(hyp=texts, refs=ref_lists, stem=st.booleans())
def test_multi_ref_equals_score_multi(hyp: str, refs: list[str], stem: bool) -> None:
    _assert_equal_to_oracle(hyp, refs, ("rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum"), stem)


@settings(max_examples=100, deadline=None)
@given(hyp=texts, refs=ref_lists)
def test_lsum_alone_equals_rouge_score(hyp: str, refs: list[str]) -> None:
    # rouge-score takes a separate code path when rougeLsum is the only type.
    _assert_equal_to_oracle(hyp, refs, ("rougeLsum",), False)


@settings(max_examples=300, deadline=None)
@given(text=st.text(), stem=st.booleans())
def test_line_tokens_equal_whole_text_tokens(text: str, stem: bool) -> None:
    # Deviation check: we tokenize line by line and concatenate.
    expected = tokenizers.DefaultTokenizer(use_stemmer=stem).tokenize(text)
    assert list(tokenize(text, stem).tokens) == expected


@settings(max_examples=300, deadline=None)
@given(hyp=texts, ref=texts)
def test_lcs_pairs_follow_rouge_score_backtracking(hyp: str, ref: str) -> None:
    hyp_tokens, ref_tokens = tokenize(hyp).tokens, tokenize(ref).tokens
    pairs = lcs_pairs(ref_tokens, hyp_tokens)
    assert [i for i, _ in pairs] == rouge_scorer.lcs_ind(ref_tokens, hyp_tokens)
    assert all(ref_tokens[i] == hyp_tokens[j] for i, j in pairs)


@settings(max_examples=50, deadline=None)
@given(segments=st.lists(st.tuples(texts, ref_lists), min_size=1, max_size=6), stem=st.booleans())
def test_corpus_equals_segments(segments: list[tuple[str, list[str]]], stem: bool) -> None:
    config = RougeConfig(TYPES, use_stemmer=stem)
    hyps = [hyp for hyp, _ in segments]
    corpus = score_corpus(hyps, [tuple(refs) for _, refs in segments], config)
    assert len(corpus) == len(segments)
    for index, (hyp, refs) in enumerate(segments):
        assert corpus.segment(index) == score_segment(hyp, refs, config)
    for rouge_type in TYPES:
        oracle = [_oracle(TYPES, stem, hyp, refs)[rouge_type] for hyp, refs in segments]
        mean = corpus.mean(rouge_type)
        assert _as_tuple(mean) == pytest.approx(tuple(np.mean(oracle, axis=0)), abs=1e-9)


def test_corpus_arrays_and_best_ref() -> None:
    config = RougeConfig(("rouge1", "rougeL"))
    corpus = score_corpus(
        ["the cat sat on the mat", "a b"],
        [("a dog ran", "the cat sat", "on the mat the cat sat"), ("a", "a b c d")],
        config,
    )
    assert corpus.precision["rouge1"].dtype == np.float64
    assert corpus.best_ref["rouge1"].tolist() == [2, 0]
    assert corpus.best_ref["rougeL"].tolist() == [1, 0]
    with pytest.raises(ValueError, match="read-only"):
        corpus.fmeasure["rouge1"][0] = 0.5
    with pytest.raises(ConfigError, match="rouge2"):
        corpus.mean("rouge2")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rouge_types": ("rouge0",)}, "rouge0"),
        ({"rouge_types": ("rouge10",)}, "rouge10"),
        ({"rouge_types": ("rougeLSum",)}, "rougeLSum"),
        ({"rouge_types": ()}, "rouge_types"),
        ({"rouge_types": "rouge1"}, "sequence"),
        ({"rouge_types": ("rouge1", "rouge1")}, "duplicate"),
        ({"use_stemmer": "yes"}, "use_stemmer"),
    ],
)
def test_config_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        RougeConfig(**kwargs)  # type: ignore[arg-type]


def test_config_accepts_list_as_tuple() -> None:
    config = RougeConfig(["rouge1", "rougeL"])  # type: ignore[arg-type]
    assert config.rouge_types == ("rouge1", "rougeL")
    assert hash(config) == hash(RougeConfig(("rouge1", "rougeL")))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda c: score_segment("a", [], c), "at least one reference"),
        (lambda c: score_segment("a", "a", c), "sequence of reference strings"),
        (lambda c: score_segment(None, ["a"], c), "expected a string"),  # type: ignore[arg-type]
        (lambda c: score_corpus([], [], c), "no segments"),
        (lambda c: score_corpus(["a", "b"], [("a",)], c), "2 segments but refs has 1"),
        (lambda c: score_corpus(["a"], ["a"], c), r"refs\[0\]"),
    ],
)
def test_input_refused(call: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        call(RougeConfig())  # type: ignore[operator]
