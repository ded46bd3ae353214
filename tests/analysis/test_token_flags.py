"""Tests of bleuviz.analysis.token_flags: the columnar flags equal the highlight's, token for token.

The oracle is ``explain_segment`` (the drill-down's highlight): a token is
flagged at order n when ``token_statuses(n)`` is not ``match``, and its place in
the line is ``hyp_spans`` (None when ``align_tokens`` fails).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.analysis.token_flags import NO_POSITION, token_flags
from bleuviz.bleu.explain import MATCH, explain_segment
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import InputError
from bleuviz.io.decode import decode_lines, read_path
from tests.analysis.error_span_strategies import lines
from tests.conftest import ROOT

#: Tokenizers with a columnar replica, and one running sacrebleu per line.
TOKENIZERS = ("13a", "char", "none", "zh", "intl")


def assert_same_as_explain(
    hyps: Sequence[str], refs: Sequence[Sequence[str]], tokenize: TokenizeConfig, order: int
) -> None:
    """Compare every token's flags and position with ``explain_segment``'s."""
    flags = token_flags(hyps, build_reference_index(refs, tokenize, order))
    for i, hyp in enumerate(hyps):
        detail = explain_segment(hyp, [ref[i] for ref in refs], tokenize, order)
        lo, hi = int(flags.offsets[i]), int(flags.offsets[i + 1])
        assert hi - lo == len(detail.hyp_tokens)
        for n in range(1, order + 1):
            expected = [status != MATCH for status in detail.token_statuses(n)]
            assert flags.flagged[lo:hi, n - 1].tolist() == expected, (i, n)
        assert bool(flags.aligned[i]) == (detail.hyp_spans is not None)
        if detail.hyp_spans is None:
            assert set(flags.starts[lo:hi].tolist()) <= {NO_POSITION}
        else:
            placed = list(
                zip(flags.starts[lo:hi].tolist(), flags.ends[lo:hi].tolist(), strict=True)
            )
            assert placed == list(detail.hyp_spans)


@settings(max_examples=150, deadline=None)
@given(
    data=st.data(),
    name=st.sampled_from(TOKENIZERS),
    lowercase=st.booleans(),
    order=st.integers(1, 4),
)
def test_flags_and_positions_equal_the_highlight(
    data: st.DataObject, name: str, lowercase: bool, order: int
) -> None:
    n = data.draw(st.integers(1, 6))
    n_refs = data.draw(st.integers(1, 3))
    hyps = data.draw(st.lists(lines(), min_size=n, max_size=n))
    refs = [data.draw(st.lists(lines(), min_size=n, max_size=n)) for _ in range(n_refs)]
    assert_same_as_explain(hyps, refs, TokenizeConfig(name, lowercase), order)


def test_clipping_flags_occurrences_past_the_clip_count() -> None:
    # "the" twice in one reference, three times in the hypothesis: the third is clipped.
    tokenize = TokenizeConfig()
    flags = token_flags(["the the the"], build_reference_index([["the cat the"]], tokenize, 1))
    assert flags.flagged[:, 0].tolist() == [False, False, True]
    # Two references: the clip count is the larger single-reference count (2), not the sum.
    refs = [["the cat the"], ["the dog"]]
    assert_same_as_explain(["the the the"], refs, tokenize, 2)


@pytest.mark.parametrize("name", TOKENIZERS)
@pytest.mark.parametrize("system", ["literal", "repeat", "terse"])
def test_sample_data_equals_the_highlight(name: str, system: str) -> None:
    root = ROOT / "bleuviz" / "sample_data"
    hyp = decode_lines(read_path(root / f"hyp.{system}.en"))
    refs = [decode_lines(read_path(root / f"ref.{r}.en")) for r in "AB"]
    assert_same_as_explain(hyp, refs, TokenizeConfig(name), 4)


def test_a_rewritten_line_is_unaligned() -> None:
    tokenize = TokenizeConfig()
    hyps = ["say &quot;hi&quot;", "İt is", "fine ."]
    flags = token_flags(hyps, build_reference_index([["say hi", "it is", "fine"]], tokenize, 2))
    assert flags.aligned.tolist() == [False, True, True]
    lower = TokenizeConfig(lowercase=True)
    flags = token_flags(hyps, build_reference_index([["say hi", "it is", "fine"]], lower, 2))
    assert flags.aligned.tolist() == [False, False, True]


def test_line_count_must_match() -> None:
    refs = build_reference_index([["a", "b"]], TokenizeConfig(), 2)
    with pytest.raises(InputError, match="1 lines but the references have 2"):
        token_flags(["a"], refs)


def test_a_line_with_as_many_but_other_characters_is_unaligned() -> None:
    # No installed tokenizer rewrites a character into another single one, so the
    # comparison is driven directly: three lines, the second's tokens differ in one
    # character, the third's count differs already.
    from bleuviz.analysis.token_flags import _drop_differing

    def codes(text: str) -> np.ndarray:
        return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)

    shown = codes("abcxyzpq")  # the lines' non-whitespace characters: abc | xyz | pq
    tokens = codes("abcxYzp")  # their tokens joined: abc | xYz | p
    per_line = np.array([3, 3, 2])
    per_tokens = np.array([3, 3, 1])
    aligned = per_line == per_tokens
    _drop_differing(aligned, shown, tokens, per_line, per_tokens)
    assert aligned.tolist() == [True, False, False]
