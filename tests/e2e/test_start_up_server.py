"""The server started as the README starts it (``serve.py``) saves the command line's files
before any page is opened, and the first page then opens that saved set."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Page

from bleuviz.errors import BleuvizError
from bleuviz.workspace import SavedSet, Workspace
from tests.data import SAMPLE_HYPS, SAMPLE_REFS
from tests.e2e.conftest import streamlit_server
from tests.e2e.test_browser import open_url
from tests.serving import STARTUP_TIMEOUT


def test_the_files_are_saved_before_any_page_is_opened(page: Page, tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    argv = ("--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS))
    with streamlit_server(*argv, log=tmp_path / "server.log", workspace=workspace) as url:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        saved: tuple[SavedSet, ...] = ()
        while not saved and time.monotonic() < deadline:
            time.sleep(0.25)
            try:  # the server may be creating the database right now
                saved = Workspace.open(workspace, read_only=True).testsets()
            except BleuvizError:
                continue
        assert len(saved) == 1, (tmp_path / "server.log").read_text()
        open_url(page, url, "Overview")
        assert f"set={saved[0].id}" in page.url  # the sidebar opened the set saved at start-up
