"""The report's token statuses equal the highlight's (``explain_segment``), token for token."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.bleu.explain import explain_segment
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.report.token_status import token_statuses
from tests.data import SAMPLE_HYPS, SAMPLE_REFS, SEVEN_THE, long_lines, words
from tests.report import MQM_HYPS, MQM_REF

LETTER = {"match": "m", "clip": "c", "miss": "x"}


def explained(hyp: str, refs: list[str], tokenize: TokenizeConfig, order: int) -> str:
    """The oracle: each token's status at every order, as the report spells them."""
    e = explain_segment(hyp, refs, tokenize, order)
    by_order = [e.token_statuses(n) for n in range(1, order + 1)]
    return "".join(LETTER[s[t]] for t in range(len(e.hyp_tokens)) for s in by_order)


def check(hyps: list[str], refs: list[list[str]], tokenize: TokenizeConfig, order: int) -> None:
    marked = token_statuses(hyps, build_reference_index(refs, tokenize, order))
    for i, hyp in enumerate(hyps):
        expected = explained(hyp, [stream[i] for stream in refs], tokenize, order)
        assert marked.letters(i) == expected, (i, hyp)


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("tokenize", [TokenizeConfig("13a"), TokenizeConfig("intl", True),
                                      TokenizeConfig("char"), TokenizeConfig("none")])  # fmt: skip
@pytest.mark.parametrize("order", [1, 4])
def test_the_sample_is_marked_as_the_highlight_marks_it(
    tokenize: TokenizeConfig, order: int
) -> None:
    refs = [lines(path) for path in SAMPLE_REFS]
    for path in SAMPLE_HYPS:  # the repeat system clips
        check(lines(path), refs, tokenize, order)


def test_the_ted_excerpt_is_marked_as_the_highlight_marks_it() -> None:
    for path in MQM_HYPS:
        check(lines(path), [lines(MQM_REF)], TokenizeConfig(), 4)


def test_clipped_tokens_are_clip() -> None:
    marked = token_statuses(
        SEVEN_THE, build_reference_index([["the cat the"]], TokenizeConfig(), 1)
    )
    assert marked.letters(0) == "mmccccc"


@settings(max_examples=60, deadline=None)
@given(long_lines, st.data())
def test_random_lines_are_marked_as_the_highlight_marks_them(
    hyps: list[str], data: st.DataObject
) -> None:
    stream = st.lists(st.lists(words, min_size=1, max_size=15).map(" ".join), min_size=len(hyps),
                      max_size=len(hyps))  # fmt: skip
    refs = data.draw(st.lists(stream, min_size=1, max_size=2))
    check(hyps, refs, TokenizeConfig(), 4)
