"""The HTML blocks a page drew through ``ui.markup.show_html`` (Markdown with raw HTML)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def html_bodies(at: AppTest) -> list[str]:
    """Bodies of the page's raw-HTML Markdown elements, in order (our highlight blocks)."""
    return [m.value for m in at.markdown if m.proto.allow_html]
