"""Highlight markup: the data-status contract, and user text always escaped."""

from __future__ import annotations

import html as html_module
import re

import pytest

from bleuviz.bleu.explain import explain_segment
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.render.highlight import (
    STATUS_LABELS,
    highlight,
    hypothesis_html,
    hypothesis_status_html,
    reference_html,
)

STATUS = re.compile(r'data-status="([^"]*)"')


@pytest.mark.parametrize(
    "text",
    [
        "<script>alert('Tor!')</script>",
        '<img src=x onerror="alert(1)">',
        "**bold** and $x^2$ and `code`",
        "a &amp; b < c > d \" ' ",
    ],
)
def test_user_text_is_escaped(text: str) -> None:
    expl = explain_segment(text, [text], TokenizeConfig())
    for html in (
        hypothesis_html(expl, 1),
        hypothesis_status_html(expl, 1),
        reference_html(expl, 1, 0),
    ):
        assert "<script" not in html and "<img" not in html
        assert "onerror=" not in html.replace("onerror=&quot;", "")
        # Only bleuviz's own elements remain: divs and token spans.
        assert set(re.findall(r"<(\w+)", html)) <= {"div", "span"}
        assert set(STATUS.findall(html)) <= {"match", "clip", "miss"}


def test_one_span_per_token_and_original_spacing_kept() -> None:
    expl = explain_segment("the  cat, the cat", ["the cat"], TokenizeConfig())
    html = hypothesis_html(expl, 1)
    assert STATUS.findall(html) == ["match", "match", "miss", "clip", "clip"]
    assert "the</span>  <span" in html  # two spaces kept between "the" and "cat"


def test_tokenized_fallback_joins_tokens_with_spaces() -> None:
    html = highlight("ignored", ["a", "<b>"], ["match", "miss"], None)
    assert "&#60;b&#62;" in html and html.count('class="bv-tok"') == 2


def test_titles_carry_the_counts() -> None:
    expl = explain_segment("a a a", ["a a"], TokenizeConfig())
    html = hypothesis_html(expl, 1)
    want = "3 in hypothesis, at most 2 in one reference (reference 1); 2 matched, 1 clipped"
    assert want in html_module.unescape(html)


@pytest.mark.parametrize("order", [1, 2])
def test_a_status_line_marks_as_the_counted_line_and_names_only_the_status(order: int) -> None:
    expl = explain_segment("the  cat, the cat sat", ["the cat sat"], TokenizeConfig())
    counted, plain = hypothesis_html(expl, order), hypothesis_status_html(expl, order)
    assert STATUS.findall(plain) == STATUS.findall(counted)
    assert re.sub(r' title="[^"]*"', "", plain) == re.sub(r' title="[^"]*"', "", counted)
    titles = [html_module.unescape(t) for t in re.findall(r'title="([^"]*)"', plain)]
    assert titles == [STATUS_LABELS[s] for s in STATUS.findall(plain)]
    assert len(plain) < len(counted) / 2
