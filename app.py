"""bleuviz: look inside BLEU scores. The frame shared by every page.

Run ``streamlit run app.py`` for the bundled sample, or
``streamlit run app.py -- --ref R1 [R2 ...] --hyp H1 [H2 ...] [--src S] [--docids D]
[--seg-scores F1 [F2 ...]] [--lower-is-better NAME ...]``.
"""

from __future__ import annotations

import streamlit as st

from bleuviz.render.labels import escape_markdown as md
from ui.app_args import app_args
from ui.links import arrive, drop_unclaimed, settle, show_link_problems
from ui.markup import highlight_style_sheet
from ui.setting_links import apply_setting_links, write_setting_links
from ui.sidebar import (
    choose_data_source,
    data_sidebar,
    imported_sidebar,
    init_state,
    keep_settings,
    metrics_sidebar,
    settings_sidebar,
)

st.set_page_config(page_title="bleuviz", page_icon=":material/manage_search:", layout="wide")
init_state()
LEARN = "learn"
pages = [
    st.Page(
        "app_pages/overview.py",
        title="Overview",
        icon=":material/bar_chart:",
        url_path="overview",
        default=True,
    ),
    st.Page(
        "app_pages/sentences.py",
        title="Sentences",
        icon=":material/manage_search:",
        url_path="sentences",
    ),
    st.Page(
        "app_pages/compare.py",
        title="Compare",
        icon=":material/compare_arrows:",
        url_path="compare",
    ),
    st.Page("app_pages/learn.py", title="Learn", icon=":material/school:", url_path=LEARN),
]
page = st.navigation(pages)
arrive(page.url_path)
highlight_style_sheet()
apply_setting_links()
choose_data_source()  # after the settings: the command line's files are counted with them
data_sidebar()
if page.url_path == LEARN:
    # Learn has one set of settings, its own: the sidebar's would have no effect there.
    keep_settings()
else:
    settings_sidebar()
    metrics_sidebar()
    write_setting_links()
imported_sidebar()
if (argument_problem := app_args().problem) is not None:  # on every page, until fixed
    st.error(md(argument_problem), icon=":material/error:")
link_problems = st.container()  # filled after the page, which applies its own parameters
try:
    page.run()
    drop_unclaimed()
finally:
    settle()
    with link_problems:
        show_link_problems()
