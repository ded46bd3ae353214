"""Compare page views: one tab per analysis, only the open one computed and drawn.

Everything below the corpus verdict sits in lazy tabs (``st.tabs`` with
``on_change="rerun"``): changing A or B redraws only the open tab, so the
3,004-point scatter, the bucket tests and the segment table no longer all redraw
together. The open tab travels in the link (``view=segments``); a link that names
a segment, a bucket or a salient n-gram opens the tab that shows it. Widgets in a
tab keep their values while another tab is open (``persist_state="page"``), and
the bucket and n-gram filters of the Segments tab hold while their own tabs are
closed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st
from streamlit.elements.lib.mutable_tab_container import TabContainer

from bleuviz.app.ui.state.link_values import LinkValueError
from bleuviz.app.ui.state.links import LinkParam, apply_links, arriving, write_links

#: Session-state key of the tabs (the open tab's label).
VIEW_KEY = "cmp_view"


@dataclass(frozen=True, slots=True)
class View:
    """One tab: its label, its name in the link and the link parameters that open it."""

    label: str
    slug: str
    opened_by: tuple[str, ...] = ()


SIGNIFICANCE = View("Significance", "significance")
SENTENCES = View("Sentence by sentence", "sentences")
BUCKETS = View("Buckets", "buckets", ("bucket", "bucket_by", "edges"))
NGRAMS = View("Salient n-grams", "ngrams", ("ngram", "ngram_order"))
SEGMENTS = View("Segments", "segments", ("seg",))
VIEWS = (SIGNIFICANCE, SENTENCES, BUCKETS, NGRAMS, SEGMENTS)
_BY_SLUG = {view.slug: view.label for view in VIEWS}
_BY_LABEL = {view.label: view.slug for view in VIEWS}


def _parse_view(raw: str) -> object:
    """A view's link name -> its tab label."""
    if raw in _BY_SLUG:
        return _BY_SLUG[raw]
    raise LinkValueError(f"no view of that name (one of {', '.join(_BY_SLUG)})")


VIEW_LINK = LinkParam(
    "view", VIEW_KEY, _parse_view, lambda label: _BY_LABEL[str(label)], SIGNIFICANCE.label
)


def open_view(view: View) -> None:
    """Switch the tabs to ``view`` (for a click in one tab that shows its result in another)."""
    st.session_state[VIEW_KEY] = view.label


def compare_views() -> dict[View, TabContainer | None]:
    """Draw the tabs; return each view's container while it is open, else None.

    On a page's first run a link without ``view`` opens the tab of the first
    parameter it names (``seg`` -> Segments, ``ngram`` -> Salient n-grams, ...).
    """
    if arriving() and "view" not in st.query_params:
        named = _view_named_by(list(st.query_params))
        if named is not None:
            st.session_state[VIEW_KEY] = named.label
    apply_links([VIEW_LINK])
    tabs = st.tabs([view.label for view in VIEWS], key=VIEW_KEY, on_change="rerun")
    write_links([VIEW_LINK])
    return {view: tab if tab.open else None for view, tab in zip(VIEWS, tabs, strict=True)}


def _view_named_by(params: Sequence[str]) -> View | None:
    """The first view (in tab order) whose parameters the link names."""
    return next((view for view in VIEWS if set(view.opened_by) & set(params)), None)
