"""Browser test: hypotheses, then references, then the source end in one saved set.

The uploaders move under the saved set once the upload is saved; only a browser
shows that the files it holds stay given (the frontend keeps an uploader's files
by its widget id). Oracle: the workspace read back through ``Workspace``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from bleuviz.io.load import load_paths
from bleuviz.workspace import Workspace
from tests.e2e.conftest import TIMEOUT_MS, streamlit_server
from tests.e2e.test_browser import open_url, wait_idle
from tests.e2e.test_imported_scores_browser import upload

pytestmark = pytest.mark.e2e

SAMPLE = Path(__file__).resolve().parents[2] / "bleuviz" / "sample_data"
HYPS = [SAMPLE / "hyp.literal.en", SAMPLE / "hyp.terse.en"]
REFS = [SAMPLE / "ref.A.en", SAMPLE / "ref.B.en"]
SOURCE = SAMPLE / "source.de"


def lines(path: Path) -> tuple[str, ...]:
    return tuple(path.read_text(encoding="utf-8").removesuffix("\n").split("\n"))


def test_a_source_given_after_the_references_joins_the_saved_set(
    browser: Browser, tmp_path: Path
) -> None:
    workspace = tmp_path / "workspace"
    with streamlit_server(log=tmp_path / "server.log", workspace=workspace) as url:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        open_url(page, url, "Corpus BLEU")
        page.get_by_text("Upload files", exact=True).click()
        wait_idle(page)
        upload(page, "Hypotheses", *HYPS)
        expect(page.get_by_text("no reference yet")).to_be_visible()  # a hint
        expect(page.locator('[data-testid="stAlertContentError"]')).to_have_count(0)
        upload(page, "References", *REFS)
        expect(page.get_by_role("combobox", name="Saved test set")).to_be_visible()
        wait_idle(page)
        upload(page, "Source", SOURCE)
        expect(page.get_by_text("These files are saved as the test set above")).to_be_visible()
        wait_idle(page)
        # That caption was already there before the source came: the run that saves the
        # source may start after it (the file goes up first). Wait for the saved set itself.
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while saved_source(workspace) != lines(SOURCE) and time.monotonic() < deadline:
            page.wait_for_timeout(250)
        context.close()
    (saved,) = Workspace.open(workspace).testsets()
    testset = Workspace.open(workspace).load(saved.id)
    assert testset.source == lines(SOURCE)
    assert sorted(testset.systems) == ["literal", "terse"]


def saved_source(workspace: Path) -> tuple[str, ...] | None:
    """The source of the workspace's one saved set, if it has one set and that a source."""
    opened = Workspace.open(workspace)
    sets = opened.testsets()
    return opened.load(sets[0].id).source if len(sets) == 1 else None


# ----------------------- issue 44 item 4: the clash dialog's answers act at once


@pytest.fixture(scope="module")
def saved_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A server whose workspace holds the sample's literal and terse; yields (url, workspace)."""
    folder = tmp_path_factory.mktemp("clash")
    workspace = folder / "workspace"
    Workspace.open(workspace).save_testset(load_paths(HYPS, REFS), "saved before")
    with streamlit_server(log=folder / "server.log", workspace=workspace) as url:
        yield url, workspace


def saved_literal(workspace: Path) -> tuple[str, ...]:
    """The lines of "literal" in the workspace's one saved set."""
    opened = Workspace.open(workspace)
    (saved,) = opened.testsets()
    return opened.load(saved.id).systems["literal"]


def a_clash(page: Page, url: str, tmp_path: Path) -> tuple[str, ...]:
    """Upload a "literal" with another first line beside the saved one; return its lines."""
    changed = tmp_path / HYPS[0].name
    first = f"A changed first line for {tmp_path.name} ."
    changed.write_text(first + "\n" + "\n".join(lines(HYPS[0])[1:]) + "\n", encoding="utf-8")
    open_url(page, url, "Corpus BLEU")
    page.get_by_text("Upload files", exact=True).click()
    wait_idle(page)
    upload(page, "Hypotheses", changed, HYPS[1])
    upload(page, "References", *REFS)
    expect(page.get_by_role("dialog")).to_contain_text("A saved system has other lines")
    return lines(changed)


def settled(workspace: Path, expected: tuple[str, ...]) -> tuple[str, ...]:
    """The saved "literal" once it equals ``expected``, or as it is when the wait ends."""
    deadline = time.monotonic() + 10
    while saved_literal(workspace) != expected and time.monotonic() < deadline:
        time.sleep(0.25)
    return saved_literal(workspace)


@pytest.mark.parametrize("answer", ["Replace", "Keep the saved one", "Cancel", "Escape"])
def test_the_clash_dialogs_answer_acts_at_once_and_closing_it_cancels(
    page: Page, saved_server: tuple[str, Path], tmp_path: Path, answer: str
) -> None:
    url, workspace = saved_server
    before = saved_literal(workspace)
    uploaded = a_clash(page, url, tmp_path)
    dialog = page.get_by_role("dialog")
    if answer == "Escape":  # closing the dialog (its X, Escape, a click outside)
        page.keyboard.press("Escape")
    else:
        dialog.get_by_role("button", name=answer, exact=True).click()
    expect(dialog).to_have_count(0)  # closed by the click itself, no other run needed
    wait_idle(page)
    expected = uploaded if answer == "Replace" else before
    assert settled(workspace, expected) == expected
    if answer in ("Cancel", "Escape"):
        expect(page.get_by_text("Not saved: the upload's systems clash")).to_be_visible()
    # An unrelated rerun applies nothing more and asks nothing again.
    page.get_by_text("Lowercase", exact=True).click()
    wait_idle(page)
    page.wait_for_timeout(1000)
    expect(dialog).to_have_count(0)
    assert saved_literal(workspace) == expected
