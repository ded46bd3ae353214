"""Where each page script lives, for ``st.Page``, ``st.page_link`` and ``st.switch_page``.

Streamlit resolves a page's path against the script it runs (``app.py`` in a
checkout, :mod:`bleuviz.app.main` when installed); absolute paths resolve the
same from either.
"""

from pathlib import Path

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
#: Every page's address but "/".
PAGE_PATHS = (HOME_PATH, OVERVIEW_PATH, SENTENCES_PATH, COMPARE_PATH, LEARN_PATH)
#: The pages that show one segment, by address: where Learn links back to.
SEGMENT_PAGES = {SENTENCES_PATH: SENTENCES, COMPARE_PATH: COMPARE}
