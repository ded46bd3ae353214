"""Fixtures for the browser tests: a real ``streamlit run`` server and Debian's chromium.

The server is started from the repository root on a free port and is not
warmed up: the first request it sees is the first test's; ``fresh_server``
gives a test a server of its own, to check the very first session after start-up.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.serving import free_port, serving, streamlit_command

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT_MS = 30_000  # the machine is slow and shared
expect.set_options(timeout=TIMEOUT_MS)


@contextmanager
def streamlit_server(*app_args: str, log: Path, workspace: Path | None = None) -> Iterator[str]:
    """Run ``streamlit run serve.py [-- app_args]`` (as the README does); yield its base URL.

    The server runs in its own process group, which is killed on exit.
    """
    port = free_port()
    command = streamlit_command("serve.py", port)
    if app_args:
        command += ["--", *app_args]
    # A workspace of the server's own beside its log (unless the test names one).
    own = workspace if workspace is not None else log.with_suffix(".workspace")
    env = {**os.environ, "BLEUVIZ_WORKSPACE": str(own)}
    with serving(command, port, ROOT, env, log) as url:
        yield url


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on the bundled sample, shared by the browser tests; yields its base URL."""
    log = tmp_path_factory.mktemp("streamlit") / "server.log"
    with streamlit_server(log=log) as url:
        yield url


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[str]:
    """A server of its own, so that the test makes its very first request."""
    with streamlit_server(log=tmp_path / "server.log") as url:
        yield url


@pytest.fixture
def serve() -> Callable[..., AbstractContextManager[str]]:
    """Return ``streamlit_server``, for a test that needs a server on files of its own."""
    return streamlit_server


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's chromium driven by Playwright (the CI installs /usr/bin/chromium)."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium); "
            "the browser tests need it and are not skipped without it"
        )
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()
    finally:
        playwright.stop()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A new page in its own context (its own Streamlit session), 1400×1000."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    yield page
    context.close()
