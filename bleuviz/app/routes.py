"""Where each page script lives, for ``st.Page``, ``st.page_link`` and ``st.switch_page``.

Streamlit resolves a page's path against the script it runs (``app.py`` in a
checkout, :mod:`bleuviz.app.main` when installed); absolute paths resolve the
same from either.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

#: The page scripts' folder (never ``pages/``, which Streamlit would read as a
#: legacy multipage app).
PAGE_SCRIPTS = Path(__file__).resolve().with_name("page_scripts")
OVERVIEW = str(PAGE_SCRIPTS / "overview.py")
SENTENCES = str(PAGE_SCRIPTS / "sentences.py")
COMPARE = str(PAGE_SCRIPTS / "compare.py")
LEARN = str(PAGE_SCRIPTS / "learn.py")

#: The pages' addresses (the Overview is the default page, served at "/"; "/home", its
#: own address, and "/overview", the name it has in the menu, show it too).
SENTENCES_PATH, COMPARE_PATH, LEARN_PATH = "sentences", "compare", "learn"
HOME_PATH, OVERVIEW_PATH = "home", "overview"


@dataclass(frozen=True)
class PageRoute:
    """One address of a page: the frame's ``st.Page`` for it (``bleuviz.app.frame``)."""

    script: str
    title: str
    url_path: str
    icon: str | None = None
    default: bool = False
    visibility: Literal["visible", "hidden"] = "visible"


#: Every address the app serves a page at, in the menu's order.
PAGES = (
    PageRoute(OVERVIEW, "Overview", HOME_PATH, ":material/bar_chart:", default=True),
    PageRoute(SENTENCES, "Sentences", SENTENCES_PATH, ":material/manage_search:"),
    PageRoute(COMPARE, "Compare", COMPARE_PATH, ":material/compare_arrows:"),
    PageRoute(LEARN, "Learn", LEARN_PATH, ":material/school:"),
    # The Overview lives at "/"; "/overview", the name it has in the menu, shows it too.
    PageRoute(OVERVIEW, "Overview", OVERVIEW_PATH, visibility="hidden"),
)
#: Every page's address but "/".
PAGE_PATHS = tuple(page.url_path for page in PAGES)
#: The pages that show one segment, by address: where Learn links back to.
SEGMENT_PAGES = {SENTENCES_PATH: SENTENCES, COMPARE_PATH: COMPARE}
