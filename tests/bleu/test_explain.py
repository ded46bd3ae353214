"""One segment's explanation: statuses, clip counts, coverage, spans; agreement with statistics."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.bleu import FLAVORS
from bleuviz.bleu.explain import CLIP, MATCH, MISS, explain_segment
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.stats import compute_stats
from bleuviz.bleu.tokenize import TokenizeConfig

TOK = TokenizeConfig()
WORDS = ("a", "b", "c", "the", ",", ".", "A", "&quot;")


def test_clipping_example_papineni() -> None:
    # Papineni et al. (2002), section 2.1: "the" x7 against two references; the clip
    # count is 2 (reference 1 holds "the" twice), so 2 occurrences match and 5 are clipped.
    expl = explain_segment(
        "the the the the the the the",
        ["the cat is on the mat", "there is a cat on the mat"],
        TOK,
    )
    (row,) = expl.rows[0]
    assert (row.hyp_count, row.max_ref_count, row.best_ref) == (7, 2, 0)
    assert (row.matched, row.clipped) == (2, 5)
    assert expl.statuses[0] == (MATCH, MATCH, CLIP, CLIP, CLIP, CLIP, CLIP)
    assert expl.matches(1) == 2 and expl.totals(1) == 7


@pytest.mark.parametrize(
    ("hyp", "order", "expected"),
    [
        ("a b c", 1, (MATCH, MATCH, MISS)),
        ("a b c", 2, (MATCH, MATCH, MISS)),  # "a b" matched covers both tokens
        ("a a a", 1, (MATCH, CLIP, CLIP)),
        ("x a b", 2, (MISS, MATCH, MATCH)),
    ],
)
def test_token_statuses(hyp: str, order: int, expected: tuple[str, ...]) -> None:
    assert explain_segment(hyp, ["a b d"], TOK).token_statuses(order) == expected


def test_reference_coverage_uses_each_reference_occurrence_once() -> None:
    expl = explain_segment("a a", ["a b a a"], TOK)
    # "a" matched twice: the first two occurrences in the reference are covered.
    assert expl.ref_coverage(1) == ((True, False, True, False),)


def test_spans_map_tokens_to_the_original_text() -> None:
    expl = explain_segment("Hello, world!  Bye.", ["x"], TOK)
    assert expl.hyp_tokens == ("Hello", ",", "world", "!", "Bye", ".")
    assert [expl.hyp_text[s:e] for s, e in expl.hyp_spans or ()] == list(expl.hyp_tokens)


def test_spans_are_none_where_the_tokenizer_rewrote_text() -> None:
    # 13a turns &quot; into a quote character: no span of the original holds the token.
    expl = explain_segment("say &quot;hi&quot;", ["x"], TOK)
    assert expl.hyp_spans is None


def test_lowercase_spans_still_align() -> None:
    expl = explain_segment("The Cat.", ["the cat ."], TokenizeConfig(lowercase=True))
    assert expl.hyp_tokens == ("the", "cat", ".")
    assert expl.hyp_spans == ((0, 3), (4, 7), (7, 8))
    assert expl.statuses[0] == (MATCH, MATCH, MATCH)


line = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join)


@settings(max_examples=120, deadline=None)
@given(
    hyps=st.lists(line, min_size=1, max_size=5),
    n_refs=st.integers(1, 3),
    data=st.data(),
    lowercase=st.booleans(),
)
def test_explanation_counts_equal_the_statistics_row(
    hyps: list[str], n_refs: int, data: st.DataObject, lowercase: bool
) -> None:
    refs = [
        data.draw(st.lists(line, min_size=len(hyps), max_size=len(hyps))) for _ in range(n_refs)
    ]
    tok = TokenizeConfig(lowercase=lowercase)
    stats = compute_stats(hyps, build_reference_index(refs, tok, 4))
    for i, hyp in enumerate(hyps):
        expl = explain_segment(hyp, [r[i] for r in refs], tok, 4)
        assert len(expl.hyp_tokens) == stats.hyp_len[i]
        for flavor in FLAVORS.values():
            assert expl.ref_len(flavor) == flavor.ref_lengths(stats)[i], flavor.name
        for n in range(1, 5):
            assert expl.matches(n) == stats.matches[i, n - 1]
            assert expl.totals(n) == stats.totals[i, n - 1]
            counts = [expl.statuses[n - 1].count(s) for s in (MATCH, CLIP)]
            assert counts[0] == stats.matches[i, n - 1]
            assert counts[1] == sum(row.clipped for row in expl.rows[n - 1])
