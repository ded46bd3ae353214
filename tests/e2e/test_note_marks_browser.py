"""Browser test of the note editor's marks: words and a severity saved, shown, exported.

The sample's ``terse`` segment 1 is "City council argues over new tram"; the
marked characters are read back through ``Workspace`` and the MQM TSV it writes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from bleuviz.io.load import load_paths
from bleuviz.workspace import Workspace
from tests.e2e.conftest import streamlit_server
from tests.e2e.test_browser import open_url, pick, wait_idle
from tests.e2e.test_workspace_browser import new_page

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "bleuviz" / "sample_data"
HYPS = [SAMPLE / "hyp.literal.en", SAMPLE / "hyp.terse.en"]
REFS = [SAMPLE / "ref.A.en", SAMPLE / "ref.B.en"]
NOTE = "<img src=x onerror=alert(1)> too strong"


def test_marked_words_and_a_severity_are_saved_and_shown_inert(
    browser: Browser, tmp_path: Path
) -> None:
    workspace = Workspace.open(tmp_path / "workspace")
    saved = workspace.save_testset(load_paths(HYPS, REFS), "sample")
    with streamlit_server(log=tmp_path / "app.log", workspace=workspace.folder) as url:
        page = new_page(browser)
        open_url(page, f"{url}/sentences?set={saved.id}&sys=terse&seg=1", "Segment 1 ·")
        page.get_by_role("textbox", name="Note", exact=True).fill(NOTE)
        page.keyboard.press("Tab")  # the text area sends its text on leaving it
        wait_idle(page)
        pick(page, "Severity", "major")
        pick(page, "Marked words", "argues ·3")
        page.keyboard.press("Escape")  # the multiselect's list stays open, hiding the page
        wait_idle(page)
        expect(page.get_by_text("Marks: major, marks “argues”")).to_be_visible()
        page.get_by_role("button", name="Save note").click()
        wait_idle(page)
        expect(page.get_by_text("(revision 1)")).to_be_visible()
        page.reload()
        wait_idle(page)
        expect(page.get_by_role("textbox", name="Note", exact=True)).to_have_value(NOTE)
        expect(page.get_by_role("combobox", name="Severity", exact=True)).to_have_value("major")
        expect(page.get_by_text("Marks: major, marks “argues”")).to_be_visible()
        expect(page.get_by_role("button", name="Notes (MQM TSV)")).to_be_visible()
        assert not page.locator("img[src='x']").count()  # the note's markup stays text
        page.context.close()
    note = workspace.note(saved.id, "terse", 0)
    assert (note.severity, note.span, note.text) == ("major", (13, 19), NOTE)
    table, _ = workspace.notes_mqm(saved.id)
    assert "City council <v>argues</v> over new tram\tOther\tMajor" in table
