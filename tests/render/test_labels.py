"""Markdown-safe labels: what a Markdown renderer would change is escaped or fenced.

The expected strings follow CommonMark 0.31 (backslash escapes, 2.4; code spans, 6.1).
"""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from bleuviz.render.labels import WORD_JOINER, code_span, escape_markdown

COMMONMARK = MarkdownIt("commonmark")


@pytest.mark.parametrize(
    "name",
    ["**bold**", "_it_", "$x^2$", "<script>alert(1)</script>", "[a](b)", "a\\b", "# h", "`c`"],
)
def test_escaped_names_render_as_written(name: str) -> None:
    rendered = COMMONMARK.renderInline(escape_markdown(name))
    assert rendered == (
        name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


@pytest.mark.parametrize(
    ("name", "broken"),
    [("see https://x.org", "https" + WORD_JOINER + "://"), ("www.x.org", "www" + WORD_JOINER)],
)
def test_autolink_triggers_get_a_word_joiner(name: str, broken: str) -> None:
    assert broken in escape_markdown(name).replace("\\", "")


@pytest.mark.parametrize(("text", "fence"), [("plain", "`"), ("a`b", "``"), ("``x", "```")])
def test_code_span_fence_is_longer_than_any_backtick_run(text: str, fence: str) -> None:
    span = code_span(text)
    assert span == f"{fence} {text} {fence}"
    assert COMMONMARK.renderInline(span) == f"<code>{text}</code>"
