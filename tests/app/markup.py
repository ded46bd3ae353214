"""The HTML blocks a page drew through ``ui.widgets.markup.show_html`` (Markdown with HTML)."""

from __future__ import annotations

import html
import re

from streamlit.testing.v1 import AppTest

_SIGNATURE = re.compile(r'<code class="bv-signature">([^<]*)</code>')


def html_bodies(at: AppTest) -> list[str]:
    """Bodies of the page's raw-HTML Markdown elements, in order (our highlight blocks)."""
    return [m.value for m in at.markdown if m.proto.allow_html]


def signatures(at: AppTest) -> list[str]:
    """The signatures a page drew (``ui.widgets.markup.show_signature``), as text, in order."""
    return [html.unescape(m) for body in html_bodies(at) for m in _SIGNATURE.findall(body)]
