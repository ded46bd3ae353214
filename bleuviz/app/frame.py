"""The frame shared by every page: page config, state, the sidebar, then the routed page.

Streamlit runs a script on every interaction; the scripts it is given (``app.py``
in a checkout, :mod:`bleuviz.app.main` when installed) call :func:`show_app`.
"""

from __future__ import annotations

import streamlit as st

from bleuviz.app import routes
from bleuviz.app.ui.frame.author import author_sidebar
from bleuviz.app.ui.frame.data_source import choose_data_source, data_sidebar
from bleuviz.app.ui.frame.imported import imported_sidebar
from bleuviz.app.ui.frame.sidebar import (
    imported_params,
    init_state,
    keep_settings,
    metrics_sidebar,
    settings_sidebar,
    unsaved_score_uploads,
)
from bleuviz.app.ui.state.app_args import app_args
from bleuviz.app.ui.state.links import (
    apply_links,
    arrive,
    drop_unclaimed,
    keep_frame_query,
    settle,
    show_link_problems,
    write_links,
)
from bleuviz.app.ui.state.setting_links import apply_setting_links, write_setting_links
from bleuviz.app.ui.widgets.markup import highlight_style_sheet
from bleuviz.render.labels import escape_markdown as md

#: Another address of the Overview, which Streamlit serves at "/" as the default page.
OVERVIEW_ALIAS = "overview"


def show_app() -> None:
    """Draw the frame and run the page the URL names."""
    st.set_page_config(page_title="bleuviz", page_icon=":material/manage_search:", layout="wide")
    init_state()
    pages = [
        st.Page(
            routes.OVERVIEW,
            title="Overview",
            icon=":material/bar_chart:",
            url_path="home",
            default=True,
        ),
        st.Page(
            routes.SENTENCES,
            title="Sentences",
            icon=":material/manage_search:",
            url_path=routes.SENTENCES_PATH,
        ),
        st.Page(
            routes.COMPARE,
            title="Compare",
            icon=":material/compare_arrows:",
            url_path=routes.COMPARE_PATH,
        ),
        st.Page(routes.LEARN, title="Learn", icon=":material/school:", url_path=routes.LEARN_PATH),
        # The Overview lives at "/"; "/overview", the name it has in the menu, shows it too.
        st.Page(routes.OVERVIEW, title="Overview", url_path=OVERVIEW_ALIAS, visibility="hidden"),
    ]
    page = st.navigation(pages)
    arrive(page.url_path)
    highlight_style_sheet()
    learn = page.url_path == routes.LEARN_PATH
    if not learn:  # Learn reads its own tok and lc from its link
        apply_setting_links()
    choose_data_source()  # after the settings: the command line's files are counted with them
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
    if (argument_problem := app_args().problem) is not None:  # on every page, until fixed
        st.error(md(argument_problem), icon=":material/error:")
    link_problems = st.container()  # filled after the page, which applies its own parameters
    try:
        keep_frame_query()  # a page's links to another page carry the frame's settings
        page.run()
        drop_unclaimed()
    finally:
        settle()
        with link_problems:
            show_link_problems()
