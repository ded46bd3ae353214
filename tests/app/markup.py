"""The HTML blocks a page drew through ``ui.widgets.markup.show_html`` (Markdown with HTML)."""

from __future__ import annotations

import html
import re

from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from bleuviz.render.labels import WORD_JOINER

_COMMONMARK = MarkdownIt("commonmark")
_SIGNATURE = re.compile(r'<code class="bv-signature">([^<]*)</code>')


def html_bodies(at: AppTest) -> list[str]:
    """Bodies of the page's raw-HTML Markdown elements, in order (our highlight blocks)."""
    return [m.value for m in at.markdown if m.proto.allow_html]


def signatures(at: AppTest) -> list[str]:
    """The signatures a page drew (``ui.widgets.markup.show_signature``), as text, in order."""
    return [html.unescape(m) for body in html_bodies(at) for m in _SIGNATURE.findall(body)]


def message_text(markdown: str) -> str:
    """What a reader sees of a message's Markdown (``st.error`` etc.): CommonMark's text.

    The app escapes user text in messages (``bleuviz.render.labels.escape_markdown``);
    this undoes the escapes as a renderer would, tags and word joiners left out.
    """
    rendered = _COMMONMARK.render(markdown)
    inner = "".join(part.split(">", 1)[-1] for part in rendered.split("<"))
    return html.unescape(inner).replace(WORD_JOINER, "").strip()
