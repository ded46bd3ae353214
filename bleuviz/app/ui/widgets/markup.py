"""Our highlight HTML on the page, through Streamlit's Markdown element.

``st.html`` is a component the browser fetches on demand; Markdown is in
Streamlit's first bundle. On a 100,000-segment set, a link to one segment showed
it about 0.4 s sooner this way (``benchmarks/bench_app.py``, same run). The HTML
comes from :mod:`bleuviz.render`, whose text from the data is ``inert_text``:
no markup, no Markdown and no line break from the data (see
:mod:`bleuviz.render.inert`).
"""

from __future__ import annotations

from html import escape
from typing import Any

import streamlit as st

from bleuviz.render.every_system import SYSTEM_STYLE
from bleuviz.render.highlight import STYLE
from bleuviz.render.inert import inert_text
from bleuviz.render.word_diff import DIFF_STYLE


def one_block(markup: str) -> str:
    """``markup`` on one line: a single raw-HTML block to Markdown, whatever our CSS holds.

    CommonMark's line endings (LF, CR) in our own markup (the style sheets) are
    whitespace to HTML and CSS; on one line, Markdown cannot end the block early.
    Text from the data holds none (``inert_text`` writes them as references), and
    its other separators (U+2028, form feed...) are left as they are.
    """
    return markup.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")


#: Below each block, the space Streamlit leaves below an ``st.html`` element (Markdown
#: elements pull the next element up by that much).
_BLOCK = '<div class="bv-block" style="margin-bottom:1rem">{}</div>'


def html_block(markup: str) -> str:
    """``markup`` as the Markdown source ``show_html`` draws: one raw-HTML block."""
    return _BLOCK.format(one_block(markup))


def show_html(markup: str, where: Any = st) -> None:
    """Draw bleuviz's escaped HTML (``where``: ``st``, a column or a container)."""
    where.markdown(html_block(markup), unsafe_allow_html=True)


def glance_score(title: str, value: str) -> str:
    """A score as an ``st.metric`` card shows it (title over a large value), without a widget.

    ``title`` and ``value`` are bleuviz's own (a figure's name and a formatted number).
    """
    return (
        f'<div class="bv-glance-title">{escape(title)}</div>'
        f'<div class="bv-glance-value">{escape(value)}</div>'
    )


def empty_room(height_px: int) -> str:
    """An empty block ``height_px`` tall (none below 0): the room of what a later run draws."""
    return f'<div style="height:{max(int(height_px), 0)}px"></div>'


def show_signature(signature: str, where: Any = st) -> None:
    """Draw a score's signature as code, through Markdown like the highlights.

    ``st.code`` is drawn by a syntax highlighter of 1.5 MB the browser loads on
    first use. On a page opened cold, Streamlit revealed everything that arrived
    with it (the Overview's BLEU cards among it) only once that was loaded: on the
    100,000-segment set, cold, the cards showed 1.8-2.6 s after the server sent
    them in two loads of four (0.35-0.41 s in the others), and 0.36-0.64 s in four
    of four with this. A signature can hold names from the data (an imported
    score's file), hence ``inert_text``.
    """
    show_html(signature_html(signature), where)


def signature_html(signature: str) -> str:
    """A signature as an HTML code element, its text inert (``show_signature``)."""
    return f'<code class="bv-signature">{inert_text(signature)}</code>'


#: Hides the element that holds the style sheets: a style sheet applies wherever it
#: sits, and drawn first in the sidebar its element would leave a gap above the sidebar's
#: first widget.
_OWN_ELEMENT = (
    '<style class="bv-sheets">'
    '[data-testid="stElementContainer"]:has(style.bv-sheets) { display: none; }'
    "</style>"
)


def highlight_style_sheet(*layout: str) -> None:
    """The highlight style sheet, drawn once by the frame as the sidebar's first element.

    ``layout``: more ``<style>`` sheets for the same element (the pages' own rules).

    Every page's blocks (``show_html``) take their classes from it and carry no copy (the
    rows and word differences of one segment in every system too: once per page, not
    once per drawn segment).
    It is also the page's first raw-HTML Markdown element, so the browser fetches the
    renderer of raw HTML (a plugin Markdown loads on first use) as soon as the page
    starts arriving, rather than when the highlighted segment does. A cold link to
    one segment at 100k: at the foot of the sidebar 0.1 s sooner than with the
    segment; first in the sidebar, 0.07 s sooner again (medians of 12 pairs, 2.36 ->
    2.29 s, 10 of 12 pairs faster). Its element takes no room (``_OWN_ELEMENT``).
    """
    sheet = one_sheet(STYLE, SYSTEM_STYLE, DIFF_STYLE, *layout)
    st.sidebar.markdown(one_block(sheet + _OWN_ELEMENT), unsafe_allow_html=True)


def one_sheet(*sheets: str) -> str:
    """The rules of ``sheets`` (each ``<style>...</style>``) in one ``<style>`` element."""
    rules = (s.strip().removeprefix("<style>").removesuffix("</style>") for s in sheets)
    return f"<style>{''.join(rules)}</style>"
