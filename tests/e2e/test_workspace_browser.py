"""Browser tests of the workspace: an upload, its settings and a note survive a server restart.

The link the first server's page ends on is opened on a second server (same
workspace folder, new port) in a new browser context: a new user with nothing
in their session. Expected numbers come from sacrebleu 2.6's ``BLEU``.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import sacrebleu
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import TIMEOUT_MS, streamlit_server
from tests.e2e.test_browser import metric_value, open_url, pick, wait_idle
from tests.e2e.test_imported_scores_browser import upload

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "bleuviz" / "sample_data"
HYPS = [SAMPLE / "hyp.literal.en", SAMPLE / "hyp.terse.en"]
REFS = [SAMPLE / "ref.A.en", SAMPLE / "ref.B.en"]
NOTE = "Drops the verb <script>alert(1)</script> *and* $x$"


def new_page(browser: Browser) -> Page:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(TIMEOUT_MS)
    return context.new_page()


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").removesuffix("\n").split("\n")


def test_an_upload_its_settings_and_a_note_survive_a_restart(
    browser: Browser, tmp_path: Path
) -> None:
    workspace = tmp_path / "workspace"
    with streamlit_server(log=tmp_path / "first.log", workspace=workspace) as url:
        page = new_page(browser)
        open_url(page, url, "Corpus BLEU")
        page.get_by_text("Upload files", exact=True).click()
        wait_idle(page)
        upload(page, "References", *REFS)
        upload(page, "Hypotheses", *HYPS)
        expect(page.get_by_role("combobox", name="Saved test set")).to_be_visible()
        wait_idle(page)
        assert "set=" in page.url
        pick(page, "Tokenizer", "char")
        # the URL is written at the end of the run the pick starts: wait for it, not for idle
        expect(page).to_have_url(re.compile(r"[?&]tok=char(&|$)"))
        set_id = parse_qs(urlsplit(page.url).query)["set"][0]
        # A new session on the link (a reload): the saved set and the setting come back.
        open_url(page, f"{url}/sentences?set={set_id}&tok=char&sys=terse&seg=4", "Segment 4 ·")
        expect(page.get_by_role("combobox", name="Tokenizer")).to_have_value("char")
        page.get_by_role("textbox", name="Note", exact=True).fill(NOTE)
        pick(page, "Category", "omission")
        page.get_by_role("button", name="Save note").click()
        wait_idle(page)
        expect(page.get_by_text(re.compile(r"^Saved 20"))).to_be_visible()
        link = urlsplit(page.url)
        page.context.close()
    assert "sys=terse" in link.query and "seg=4" in link.query and "tok=char" in link.query

    with streamlit_server(log=tmp_path / "second.log", workspace=workspace) as url:
        page = new_page(browser)
        open_url(page, f"{url}{link.path}?{link.query}", "Segment 4 ·")
        expect(page.get_by_role("heading", name="Segment 4 ·")).to_contain_text("terse")
        expect(page.get_by_role("textbox", name="Note", exact=True)).to_have_value(NOTE)
        expect(page.get_by_role("combobox", name="Category")).to_have_value("omission")
        assert not page.locator("script").filter(has_text="alert(1)").count()
        expected = sacrebleu.BLEU(tokenize="char").corpus_score(
            lines(HYPS[1]), [lines(r) for r in REFS]
        )
        page.get_by_role("link", name="Overview").click()
        wait_idle(page)
        expect(metric_value(page, "terse")).to_have_text(f"{expected.score:.2f}")
        assert "tok=char" in page.url and "set=" in page.url
        page.context.close()


#: The characters of an element's text drawn inside its box (the rest is cut off).
VISIBLE_TEXT = """e => {
    const box = e.getBoundingClientRect();
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    let out = "";
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < node.length; i++) {
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const r = range.getBoundingClientRect();
            if (r.width > 0 && r.right <= box.right - 12) out += node.data[i];
        }
    }
    return out;
}"""


def test_saved_sets_read_apart_and_a_delete_asks_then_can_be_undone(
    browser: Browser, tmp_path: Path
) -> None:
    """Two names with one long start read differently; delete asks, the Trash restores."""
    from bleuviz.io.load import load_paths
    from bleuviz.workspace import Workspace

    workspace = Workspace.open(tmp_path / "workspace")
    stem = "newstest2020 English-German, all submitted systems with human scores, "
    first = workspace.save_testset(load_paths(HYPS, REFS), f"{stem}run 0").id
    second = workspace.save_testset(load_paths(HYPS[:1], REFS[:1]), f"{stem}run 1").id
    workspace.save_note(first, "terse", 0, "a note", "style")
    with streamlit_server(log=tmp_path / "server.log", workspace=workspace.folder) as url:
        page = new_page(browser)
        open_url(page, f"{url}/?set={first}", "Corpus BLEU")
        chooser = page.get_by_role("combobox", name="Saved test set")
        chooser.click()
        options = page.get_by_role("option")
        expect(options).to_have_count(2)
        shown = [options.nth(k).evaluate(VISIBLE_TEXT) for k in range(2)]
        assert shown[0] != shown[1], shown
        page.keyboard.press("Escape")
        wait_idle(page)
        page.get_by_role("button", name="Rename or delete").click()
        delete = page.get_by_role("button", name="Delete this test set")
        expect(delete).to_be_disabled()
        page.get_by_text("to the trash: 2 systems").click()
        wait_idle(page)
        if not delete.is_visible():  # the popover closed on the rerun: open it again
            page.get_by_role("button", name="Rename or delete").click()
        expect(delete).to_be_enabled()
        delete.click()
        trash = page.get_by_role("button", name="Trash (1)")
        expect(trash).to_be_visible()
        assert [s.id for s in workspace.testsets()] == [second]
        trash.click()
        page.get_by_role("button", name="Restore").click()
        expect(chooser).to_have_value(re.compile(r"run 0"))
        assert {s.id for s in workspace.testsets()} == {first, second}
        assert workspace.notes(first)[0].text == "a note"
        page.context.close()
