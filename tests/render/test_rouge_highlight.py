"""Tests of bleuviz.render.rouge_highlight: the marked tokens are exactly the explained ones.

The explanations themselves are checked against rouge-score in
tests/rouge/test_rouge_explain.py; here the HTML must carry their flags token for
token, and rougeL's marked tokens must number rouge-score's LCS length.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from bleuviz.render.rouge_highlight import rouge_hypothesis_html, rouge_reference_html
from bleuviz.rouge.explain import explain_rouge_types
from bleuviz.rouge.score import RougeConfig

SPAN = re.compile(r'<span class="bv-tok" data-status="(\w+)" title="[^"]*">([^<]*)</span>')
WORDS = st.lists(st.sampled_from(["the", "cat", "sat", "a", "mat", "on", "dog"]), max_size=12)


def spans(html: str) -> list[tuple[str, str]]:
    return SPAN.findall(html)


def explain(hyp: str, ref: str, rouge_type: str):  # type: ignore[no-untyped-def]
    return explain_rouge_types(hyp, [ref], RougeConfig((rouge_type,)))[rouge_type]


@settings(max_examples=60, deadline=None)
@given(hyp=WORDS, ref=WORDS)
def test_rouge_l_marks_the_lcs_and_only_it(hyp: list[str], ref: list[str]) -> None:
    expl = explain(" ".join(hyp), " ".join(ref), "rougeL")
    marked_hyp = spans(rouge_hypothesis_html(expl))
    marked_ref = spans(rouge_reference_html(expl))
    assert [token for _, token in marked_hyp] == hyp
    assert [token for _, token in marked_ref] == ref
    assert [s == "match" for s, _ in marked_hyp] == list(expl.detail.hyp_in_lcs)
    assert [s == "match" for s, _ in marked_ref] == list(expl.detail.ref_in_lcs)
    oracle = rouge_scorer.RougeScorer(["rougeL"]).score(" ".join(ref), " ".join(hyp))["rougeL"]
    hits = sum(s == "match" for s, _ in marked_hyp)
    assert hits / max(len(hyp), 1) == pytest.approx(oracle.precision, abs=1e-12)
    assert sum(s == "match" for s, _ in marked_ref) == hits
    assert {s for s, _ in marked_hyp + marked_ref} <= {"match", "miss"}


@pytest.mark.parametrize("rouge_type", ["rouge1", "rouge2"])
def test_rouge_n_marks_tokens_of_matched_ngrams(rouge_type: str) -> None:
    expl = explain("the cat sat on the mat", "the cat lay on the mat", rouge_type)
    marked = spans(rouge_hypothesis_html(expl))
    assert [s for s, _ in marked] == list(expl.detail.hyp_status)
    if rouge_type == "rouge2":
        assert [s for s, _ in marked] == ["match", "match", "miss", "match", "match", "match"]


def test_rouge_lsum_marks_counted_and_refused_tokens_per_sentence() -> None:
    # "the" occurs twice in the reference but once in the hypothesis: the second
    # reference sentence's "the" is in its union LCS but its budget is spent.
    expl = explain("the cat sat", "the cat sat\nthe end", "rougeLsum")
    ref_lines = rouge_reference_html(expl).split("</div>")[:-1]
    assert [spans(line) for line in ref_lines] == [
        [("match", "the"), ("match", "cat"), ("match", "sat")],
        [("clip", "the"), ("miss", "end")],
    ]
    assert [s for s, _ in spans(rouge_hypothesis_html(expl))] == ["match"] * 3
    oracle = rouge_scorer.RougeScorer(["rougeLsum"]).score("the cat sat\nthe end", "the cat sat")
    assert expl.score.fmeasure == pytest.approx(oracle["rougeLsum"].fmeasure, abs=1e-12)


def test_an_empty_hypothesis_has_no_tokens_and_marks_nothing() -> None:
    expl = explain("", "the cat", "rougeL")
    assert spans(rouge_hypothesis_html(expl)) == []
    assert [s for s, _ in spans(rouge_reference_html(expl))] == ["miss", "miss"]
