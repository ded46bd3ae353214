"""The frame shared by every page: page config, state, the sidebar, then the routed page.

Streamlit runs a script on every interaction; the scripts it is given (``app.py``
in a checkout, :mod:`bleuviz.app.main` when installed) call :func:`show_app`.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bleuviz.app import routes
from bleuviz.app.ui.cache.workspace import forget_listings, saved_sets
from bleuviz.app.ui.frame.author import author_sidebar
from bleuviz.app.ui.frame.data_source import choose_data_source, data_sidebar, data_sources
from bleuviz.app.ui.frame.first_look import (
    ask_for_the_page,
    first_look_wanted,
    sentences_first_look,
)
from bleuviz.app.ui.frame.imported import imported_sidebar
from bleuviz.app.ui.frame.sidebar import (
    imported_params,
    init_state,
    keep_settings,
    metrics_sidebar,
    settings_sidebar,
    unsaved_score_uploads,
)
from bleuviz.app.ui.sections.overview_table import RANK_ROOM
from bleuviz.app.ui.state.app_args import app_args
from bleuviz.app.ui.state.links import (
    apply_links,
    arrive,
    drop_unclaimed,
    keep_frame_query,
    session_starting,
    settle,
    show_link_problems,
    write_links,
)
from bleuviz.app.ui.state.setting_links import apply_setting_links, write_setting_links
from bleuviz.app.ui.widgets.markup import highlight_style_sheet
from bleuviz.errors import WorkspaceError
from bleuviz.render.labels import escape_markdown as md

#: The pages that show a first look at a linked segment (by address): what draws it.
FIRST_LOOKS: dict[str, Callable[[], None]] = {routes.SENTENCES_PATH: sentences_first_look}


def show_app() -> None:
    """Draw the frame and run the page the URL names.

    A workspace that fails midway (its file gone bad, its disk unreadable) stops
    the run with one message, never a traceback; a section that can go on without
    it catches the error itself.
    """
    try:
        _frame_and_page()
    except WorkspaceError as exc:
        st.error(md(str(exc)), icon=":material/error:")


def _frame_and_page() -> None:
    """Draw the frame and run the page (``show_app``, without its last resort)."""
    st.set_page_config(page_title="bleuviz", page_icon=":material/manage_search:", layout="wide")
    forget_listings()  # the workspace may have changed since the last run
    init_state()
    pages = [
        st.Page(
            route.script,
            title=route.title,
            icon=route.icon,
            url_path=route.url_path,
            default=route.default,
            visibility=route.visibility,
        )
        for route in routes.PAGES
    ]
    starting = session_starting()
    page = st.navigation(pages)
    arrive(page.url_path)
    highlight_style_sheet(RANK_ROOM)  # before any page draws the widget it keeps room for
    learn = page.url_path == routes.LEARN_PATH
    if not learn:  # Learn reads its own tok and lc from its link
        apply_setting_links()
    choose_data_source()  # after the settings: the command line's files are counted with them
    first_look = FIRST_LOOKS.get(page.url_path) if first_look_wanted(starting) else None
    if first_look is not None:  # the segment alone; the next run draws the rest
        data_sources(saved_sets())
        ask_for_the_page()
        page_place()
        first_look()
        return
    data_sidebar()
    author_sidebar()
    if learn:
        # Learn has one set of settings, its own: the sidebar's would have no effect there,
        # nor would imported scores or the human judgement...
        keep_settings()
        if unsaved_score_uploads():  # ...but Streamlit forgets the files of an undrawn uploader
            imported_sidebar()
    else:
        settings_sidebar()
        metrics_sidebar()
        write_setting_links()
        imported = imported_params()
        apply_links(imported)
        imported_sidebar()
        write_links(imported)
    link_problems, body = page_place()
    try:
        keep_frame_query()  # a page's links to another page carry the frame's settings
        with body:
            page.run()
        drop_unclaimed()
    finally:
        settle()
        with link_problems:
            show_link_problems()


def page_place() -> tuple[DeltaGenerator, DeltaGenerator]:
    """The command line's problem (if any), then the link's problems and the page's place.

    Both are containers, filled after the page has run. A first look is drawn below
    them, so that the next run, drawing the page in its place, leaves the first look
    on screen until the page is drawn.
    """
    if (argument_problem := app_args().problem) is not None:  # on every page, until fixed
        st.error(md(argument_problem), icon=":material/error:")
    return st.container(), st.container()
