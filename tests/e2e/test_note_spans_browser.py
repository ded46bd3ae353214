"""Browser test: a note saved with marked words is drawn at once on the hypothesis.

The sample's ``terse`` segment 1 is "City council argues over new tram"; the note
marks "argues" Major. After "Save note" the drill-down draws it as an error
(``.bv-err``, ``data-severity="major"``, rater ``bleuviz``) over BLEU's token
highlight, with the author's markup inert, and Compare draws it on B's side.
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


def test_a_saved_notes_marks_are_drawn_on_the_segment(browser: Browser, tmp_path: Path) -> None:
    workspace = Workspace.open(tmp_path / "workspace")
    saved = workspace.save_testset(load_paths(HYPS, REFS), "sample")
    with streamlit_server(log=tmp_path / "app.log", workspace=workspace.folder) as url:
        page = new_page(browser)
        open_url(page, f"{url}/sentences?set={saved.id}&sys=terse&seg=1", "Segment 1 ·")
        assert not page.locator(".bv-err").count()  # no span file, no marked note yet
        page.get_by_role("textbox", name="Note", exact=True).fill("<b>too strong</b>")
        pick(page, "Severity", "major")
        pick(page, "Marked words", "argues ·3")
        page.keyboard.press("Escape")  # the multiselect's list stays open, hiding the page
        page.get_by_role("button", name="Save note").click()
        wait_idle(page)
        marked = '.bv-tok > .bv-err[data-severity="major"][data-rater="bleuviz"]'
        # The drill-down's line (terse's line in "This segment in every system" has it too).
        error = page.locator(f".bv-line:not(.bv-system .bv-line) {marked}")
        expect(error).to_have_count(1)  # inside its token: over BLEU's highlight
        every = page.locator(".bv-system").filter(has_text="terse").locator(marked)
        expect(every).to_have_text("argues")
        expect(error).to_have_text("argues")
        assert error.get_attribute("data-category") == "Other"
        token = error.locator("xpath=..")
        assert token.get_attribute("data-status") in {"match", "clip", "miss"}
        expect(page.get_by_text("Your saved notes by bleuviz: 1 major")).to_be_visible()
        box = error.bounding_box()
        assert box is not None and box["width"] > 0  # drawn, not only in the DOM
        assert not page.locator("b", has_text="too strong").count()  # the note stays text
        page.screenshot(path=str(tmp_path / "sentences.png"), full_page=True)
        open_url(
            page,
            f"{url}/compare?set={saved.id}&a=literal&b=terse&seg=1&view=segments",
            "Segment 1",
        )
        expect(page.locator('.bv-err[data-rater="bleuviz"]')).to_have_count(1)
        page.context.close()
