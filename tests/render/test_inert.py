"""Data text in our HTML: shown literally by the browser, and nothing Markdown can read.

Oracles: Python's HTML parser (the text it reads back) and markdown-it-py, a
CommonMark parser (the page's HTML goes through Streamlit's Markdown element,
which must pass it on as one raw-HTML block, untouched).
"""

from __future__ import annotations

import re
import string
from html.parser import HTMLParser

from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from bleuviz.app.ui.widgets.markup import html_block, one_block, signature_html
from bleuviz.bleu.explain import explain_segment
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.render.every_system import SystemLine, every_system_html
from bleuviz.render.highlight import STYLE, hypothesis_html, legend, reference_html
from bleuviz.render.inert import inert_text
from bleuviz.render.search_marks import mark_hits
from bleuviz.render.word_diff import DIFF_STYLE, word_diff_html

#: Text as it comes in files: any character but the line feed that ends a line, and the
#: marks Markdown, LaTeX, Streamlit's shortcodes and HTML give a meaning to, often.
MARKUP = [
    *"*_`$~|[](){}<>&#;:!\\/\"'=-+.\r\t\f\v\x1c\x85\u2028",
    "\r\r",
    " \r\n\r\n ",
    ":material/home:",
    ":smile:",
    "&amp;",
    "&#42;",
    "<script>alert(1)</script>",
    "$x^2$",
    "**bold**",
    "1. ",
    "# ",
    "> ",
    "    code",
]
TEXT = st.lists(st.one_of(st.text(), st.sampled_from(MARKUP)), max_size=12).map("".join)
LINE = TEXT.map(lambda t: t.replace("\n", " "))


class Reader(HTMLParser):
    """The text an HTML parser reads, and the tags it meets."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text, self.tags = "", []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text += data


def read(markup: str) -> Reader:
    reader = Reader()
    reader.feed(markup)
    reader.close()
    return reader


def passed_on_by_markdown(markup: str) -> bool:
    """Whether CommonMark keeps ``markup`` (on one line) as one raw-HTML block, as it is."""
    block = one_block(markup) + "\n"
    # CommonMark turns NUL into U+FFFD for safety, as browsers do in HTML text.
    return MarkdownIt("commonmark").render(block) == block.replace("\x00", "\ufffd")


@given(TEXT)
def test_the_text_is_read_back_exactly(text: str) -> None:
    reader = read(f"<div>{inert_text(text)}</div>")
    assert reader.text == text
    assert reader.tags == ["div"]


@given(TEXT)
def test_no_markup_character_or_line_break_is_left(text: str) -> None:
    written = inert_text(text)
    kept = set(string.punctuation) - set("&#;")
    assert not kept & set(written)
    assert "\n" not in written and "\r" not in written
    # '&', '#' and ';' appear only as the parts of numeric references
    assert re.fullmatch(r"(?:[^&#;]|&#[0-9]+;)*", written, flags=re.DOTALL)


@given(LINE, LINE)
def test_a_highlighted_segment_is_one_html_block_to_markdown(hyp: str, ref: str) -> None:
    expl = explain_segment(hyp, [ref], TokenizeConfig())
    for markup in (STYLE + legend(), hypothesis_html(expl, 1), reference_html(expl, 2, 0)):
        assert passed_on_by_markdown(markup)
    reader = read(hypothesis_html(expl, 1))
    assert set(reader.tags) <= {"div", "span"}
    assert read(one_block(hypothesis_html(expl, 1))).text == reader.text


@given(LINE, LINE, LINE, LINE)
def test_every_system_block_hits_and_diff_are_one_block(
    name: str, hyp: str, other: str, needle: str
) -> None:
    diff = word_diff_html(hyp, other)
    row = SystemLine(
        name, False, [(name, "1.00")], f'<div class="bv-line">{inert_text(hyp)}</div>', diff
    )
    markup = DIFF_STYLE + every_system_html([row])
    assert passed_on_by_markdown(markup)
    assert set(read(markup).tags) <= {"style", "div", "span", "ins", "del"}
    hits = f'<div class="bv-hits">{mark_hits(hyp, needle)}</div>'
    assert passed_on_by_markdown(hits)
    assert read(hits).text == hyp
    assert set(read(hits).tags) <= {"div", "mark"}


@given(LINE)
def test_a_signature_is_one_code_element_read_back_exactly(name: str) -> None:
    signature = f"imported:{name}|segments:3|version:1"  # an imported score's name is data
    markup = signature_html(signature)
    assert passed_on_by_markdown(html_block(markup))
    reader = read(markup)
    assert reader.tags == ["code"]
    assert reader.text == signature
