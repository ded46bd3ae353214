"""Browser tests at 1280×800 (a laptop, the sidebar open): tables fit, a linked row is in view.

The app runs on the bundled sample grown to 13 systems (the sample's three and ten copies
named as WMT21 TED's systems are: 13 systems made the documents table scroll sideways),
with its document ids and an MQM file marking an error on literal's first segment. What
fits is measured in the browser: the grid's scrolling width, and the columns its
accessible copy holds (a data grid puts only the columns on screen into it).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from bleuviz.app.ui.state.selection import OPEN_MARK
from tests.e2e.conftest import TIMEOUT_MS, streamlit_server
from tests.e2e.test_browser import open_url, wait_idle
from tests.e2e.test_error_spans_browser import HEADER, mqm_rows
from tests.e2e.test_light_pages_browser import settled

pytestmark = pytest.mark.e2e

SAMPLE = Path(__file__).resolve().parents[2] / "bleuviz" / "sample_data"
#: Ten more systems, named as WMT21 TED en-de's are (google/wmt-mqm-human-evaluation).
MORE = ("Facebook-AI", "HuaweiTSC", "Online-W", "UEdin", "VolcTrans-AT", "VolcTrans-GLAT",
        "eTranslation", "metricsystem1", "metricsystem4", "metricsystem5")  # fmt: skip


@pytest.fixture(scope="module")
def many_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[str]:
    """The app on 13 systems of the sample, with document ids and an MQM file."""
    folder = tmp_path_factory.mktemp("narrow")
    hyps = [SAMPLE / f"hyp.{name}.en" for name in ("literal", "terse", "repeat")]
    for i, name in enumerate(MORE):
        hyps.append(folder / f"{name}.txt")
        shutil.copy(SAMPLE / f"hyp.{('literal', 'terse', 'repeat')[i % 3]}.en", hyps[-1])
    mqm = folder / "mqm.tsv"
    mqm.write_text("\n".join([HEADER, *mqm_rows()]) + "\n", encoding="utf-8")
    args = ["--ref", str(SAMPLE / "ref.A.en"), "--hyp", *map(str, hyps)]
    args += ["--src", str(SAMPLE / "source.de"), "--docids", str(SAMPLE / "docids.txt")]
    with streamlit_server(*args, "--mqm", str(mqm), log=folder / "server.log") as url:
        yield url


@pytest.fixture
def laptop(browser: Browser) -> Iterator[Page]:
    """A page of 1280×800 in a context of its own."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    yield page
    context.close()


def headers(grid: Locator) -> list[str]:
    """The column headers the grid has on screen (its accessible copy holds only those)."""
    return [
        str(h) for h in grid.evaluate("g => [...g.querySelectorAll('th')].map(t => t.textContent)")
    ]


def sideways(grid: Locator) -> float:
    """How far the grid scrolls sideways (px): 0 when every column fits."""
    return float(grid.evaluate("g => { const s = g.querySelector('.dvn-scroller');"
                               " return s.scrollWidth - s.clientWidth; }"))  # fmt: skip


def test_the_span_list_shows_its_flagged_column_whole(laptop: Page, many_server: str) -> None:
    open_url(laptop, f"{many_server}/sentences?sys=literal&seg=1", "Segment 1 ·")
    settled(laptop)
    grid = laptop.locator('[data-testid="stDataFrame"]').filter(
        has=laptop.locator("th", has_text="marked words")
    )
    expect(grid).to_have_count(1)
    assert "flagged at order 1" in headers(grid)
    assert sideways(grid) <= 0


def test_the_hypothesis_stays_in_view_beside_three_scores(laptop: Page, many_server: str) -> None:
    open_url(laptop, f"{many_server}/sentences?sys=literal&metrics=chrF,TER,ROUGE-L", "Segment 1 ·")
    settled(laptop)
    grid = laptop.locator(".st-key-sent_table [data-testid='stDataFrame']")
    grid.scroll_into_view_if_needed()
    shown = headers(grid)
    assert {"chrF", "TER", "ROUGE-L", "major", "minor"} <= set(shown)  # the scores are there
    assert "hypothesis" in shown


def test_the_documents_table_fits_with_13_systems(laptop: Page, many_server: str) -> None:
    open_url(laptop, many_server, "Corpus BLEU")
    settled(laptop)
    grid = laptop.locator(
        "xpath=//h3[contains(., 'Documents')]/following::*[@data-testid='stDataFrame'][1]"
    )
    grid.scroll_into_view_if_needed()
    assert sideways(grid) <= 0
    shown = set(headers(grid))
    docs = set((SAMPLE / "docids.txt").read_text(encoding="utf-8").split())
    assert docs <= shown  # a column per document, a row per system
    expect(laptop.get_by_text("A row per system: 13 systems")).to_be_visible()


def test_a_linked_segment_opens_with_its_row_in_the_table(laptop: Page, many_server: str) -> None:
    seg = 100  # far below the rows the table shows at first
    open_url(laptop, f"{many_server}/sentences?sys=terse&seg={seg}", f"Segment {seg} ·")
    settled(laptop)
    grid = laptop.locator(".st-key-sent_table [data-testid='stDataFrame']")
    grid.scroll_into_view_if_needed()
    wait_idle(laptop)
    # The open row lies in the grid's window: below the header, above its bottom edge.
    row_px = 35
    top, height = grid.evaluate(
        "g => { const s = g.querySelector('.dvn-scroller'); return [s.scrollTop, s.clientHeight]; }"
    )
    row_top = (seg - 1) * row_px - top
    assert 0 <= row_top <= height - 2 * row_px, (top, height)
    marks = grid.evaluate("g => [...g.querySelectorAll('tbody tr')].map(r => r.textContent)")
    assert any(OPEN_MARK in m and str(seg) in m for m in marks), marks
