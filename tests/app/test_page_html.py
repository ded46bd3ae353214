"""Each page's address serves Streamlit's page naming the server's root (``bleuviz.app.page_html``).

Streamlit 1.67's frontend, opened at ``/sentences``, first asks
``/sentences/_stcore/health``, meets a 404 and waits 100 ms before asking the root;
the page bleuviz serves there tells it the root first.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette

from bleuviz.app import page_html
from bleuviz.app.page_html import BASE_SCRIPT, INDEX_HTML, page_routes
from bleuviz.app.routes import PAGE_PATHS


def request(method: str, target: str) -> tuple[int, dict[str, str], bytes]:
    """Send ``method target`` to an app of ``page_routes()`` (ASGI, no server); return its
    status, headers and body."""
    path, _, query = target.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query.encode(),
        "headers": [],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(Starlette(routes=page_routes())(scope, receive, send))
    start = sent[0]
    headers = {k.decode(): v.decode() for k, v in start["headers"]}
    body = b"".join(m.get("body", b"") for m in sent[1:])
    return start["status"], headers, body


@pytest.fixture(autouse=True)
def fresh_page() -> None:
    page_html.page_html.cache_clear()


def test_the_page_is_streamlits_with_the_script_first_in_its_head() -> None:
    original = INDEX_HTML.read_text(encoding="utf-8")
    served = page_html.page_html()
    assert served is not None
    assert served.index(BASE_SCRIPT) == original.index("<head>") + len("<head>")
    assert served.replace(BASE_SCRIPT, "", 1) == original
    assert served.index(BASE_SCRIPT) < served.index('<script type="module"')  # runs first


@pytest.mark.parametrize("path", PAGE_PATHS)
def test_every_page_address_is_served_the_page(path: str) -> None:
    for method in ("GET", "HEAD"):
        status, headers, _ = request(method, f"/{path}?sys=a&seg=3")
        assert status == 200
        assert headers["content-type"].startswith("text/html")
        assert headers["cache-control"] == "no-cache"
    assert BASE_SCRIPT in request("GET", f"/{path}")[2].decode()
    assert request("GET", "/")[0] == 404  # the root stays Streamlit's


def test_no_route_under_a_base_url_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``server.baseUrlPath`` the pages live under it, and Streamlit serves them."""
    options = {"server.baseUrlPath": "/team/"}
    monkeypatch.setattr(page_html.config, "get_option", options.__getitem__)
    assert page_routes() == []


def test_no_route_for_a_page_without_a_head(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A Streamlit whose page has no ``<head>``: its own page is served unchanged."""
    index = tmp_path / "index.html"
    index.write_text("<html><body><script type=module></script></body></html>", "utf-8")
    monkeypatch.setattr(page_html, "INDEX_HTML", index)
    assert page_html.page_html() is None
    assert page_routes() == []
