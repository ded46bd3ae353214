"""Each page's address served Streamlit's page naming the server's base, so a link connects at once.

Opened at a page's address (``/sentences?sys=...&seg=...``), Streamlit's frontend
does not know where the server's root is: it asks the address itself first
(``/sentences/_stcore/health`` and ``host-config``), meets two 404s, waits its first
retry delay (100 ms) and only then asks the root (Streamlit 1.67's frontend:
``getPossibleBaseUris`` tries the page's path, then its parent, unless the host page
sets ``window.__streamlit.BACKEND_BASE_URL``). Every link to a segment paid that
wait: about 0.11 s of a deep link's 1.05 s here.

So the app answers its pages' addresses itself (routes ahead of Streamlit's own, in
``st.App``) with Streamlit's own ``index.html``, one script added at the top of its
head: it sets ``window.__streamlit.BACKEND_BASE_URL`` to the address's folder (the
server's root, or the prefix a proxy serves it under), the one place the frontend
then asks. The frontend reads that setting only to find the server (and, with a
host's ``HOST_CONFIG``, which this does not set, to skip the pings): everything it
does once connected is as before. The root address needs none (its path is the
only one tried), and with ``server.baseUrlPath`` set nothing is added: the pages'
addresses are then under that path, and Streamlit serves them as before, as it
does for ``streamlit run app.py`` (a script, with no routes of its own).

Measured with an alternating driver (a deep link at 100,000 segments in a new
session, 3 rounds of 5 links per variant, twice): median 1.01 and 1.02 s against
1.06 and 1.08 s.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import streamlit
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route
from streamlit import config

from bleuviz.app.routes import PAGE_PATHS

#: Streamlit's page, which its static files serve at every page's address.
INDEX_HTML = Path(streamlit.__file__).parent / "static" / "index.html"
#: Where the script goes: first in the head, before the frontend's module script runs.
_HEAD = "<head>"
#: Merged into whatever a host has set; the address's folder is the server's root.
BASE_SCRIPT = (
    "<script>window.__streamlit = Object.assign({}, window.__streamlit, "
    '{BACKEND_BASE_URL: new URL("./", window.location.href).href});</script>'
)


def page_routes() -> list[BaseRoute]:
    """The routes that serve each page's address (none where the page cannot be served so:
    ``server.baseUrlPath`` set, or a Streamlit whose page has no head)."""
    if str(config.get_option("server.baseUrlPath") or "").strip("/") or page_html() is None:
        return []
    return [Route(f"/{path}", _page, methods=["GET", "HEAD"]) for path in PAGE_PATHS]


@cache
def page_html() -> str | None:
    """Streamlit's page with ``BASE_SCRIPT`` first in its head (None: no head to put it in)."""
    html = INDEX_HTML.read_text(encoding="utf-8")
    if _HEAD not in html:
        return None
    return html.replace(_HEAD, _HEAD + BASE_SCRIPT, 1)


async def _page(_request: Request) -> Response:
    """A page's address: Streamlit's page naming the server's root (not cached, as
    Streamlit serves its own)."""
    return HTMLResponse(page_html(), headers={"Cache-Control": "no-cache"})
