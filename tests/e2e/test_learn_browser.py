"""Browser tests of the Learn page at a laptop's 1280×800: tables not cut, a lesson link.

The smoothing table's "what smoothing did" column was cut at 1280 px (issue 47):
each of its cells must show its whole text inside the viewport, with nothing
hidden behind a scroll. A lesson link must open the lesson's first item.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from bleuviz.app.ui.state.learn_links import LEARN_PARTS
from bleuviz.bleu import BleuConfig
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.teach.examples import EXAMPLE_BY_KEY, Example
from bleuviz.teach.lesson import Lesson, encode_lesson
from bleuviz.teach.walkthrough import build_walkthrough
from tests.e2e.conftest import TIMEOUT_MS

WIDTH, HEIGHT = 1280, 800


@pytest.fixture
def laptop(browser: Browser) -> Iterator[Page]:
    """A page of 1280×800, a common laptop screen."""
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    yield page
    context.close()


def fully_shown(cell: Locator) -> None:
    """The cell's text is not clipped: no overflow inside it, and it lies in the viewport."""
    cell.scroll_into_view_if_needed()
    clipped = cell.evaluate(
        "c => c.scrollWidth > c.clientWidth + 1 || c.scrollHeight > c.clientHeight + 1"
    )
    assert not clipped, cell.inner_text()
    box = cell.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, box
    # No ancestor scrolls it sideways out of sight.
    hidden = cell.evaluate(
        """c => { for (let e = c.parentElement; e; e = e.parentElement) {
                 if (e.scrollWidth > e.clientWidth + 1 &&
                     getComputedStyle(e).overflowX !== 'visible') return e.className; }
               return null; }"""
    )
    assert hidden is None, hidden


def test_smoothing_column_is_not_cut_at_1280(laptop: Page, server: str) -> None:
    example = EXAMPLE_BY_KEY["clipping"]
    query = urlencode({"hyp": example.hypothesis, "ref": example.references}, doseq=True)
    laptop.goto(f"{server}/learn?{query}")
    walk = build_walkthrough(
        example.hypothesis, example.references, TokenizeConfig(), BleuConfig(effective_order=True)
    )
    table = laptop.locator("[data-testid='stTable'] table").filter(has_text="what smoothing did")
    expect(table).to_have_count(1)
    header = table.locator("th").all_inner_texts()
    column = next(i for i, text in enumerate(header) if "what smoothing did" in text)
    cells = table.locator(
        f"tbody tr td:nth-child({column + 1}), tbody tr th:nth-child({column + 1})"
    )
    notes = [step.note for step in walk.orders]
    expect(cells).to_have_count(len(notes))
    for cell, note in zip(cells.all(), notes, strict=True):
        expect(cell).to_have_text(note)
        fully_shown(cell)


def test_a_lesson_link_opens_its_first_item(laptop: Page, server: str) -> None:
    lesson = Lesson(
        "Week 3",
        (
            Example(
                "lesson-1",
                "Lesson item 1",
                "A cat <b>sat</b>.",
                ("The cat sat.",),
                "",
                "Predict p1.",
            ),
        ),
    )
    laptop.goto(f"{server}/learn?lesson={encode_lesson(lesson)}")
    expect(laptop.get_by_label("Candidate (the system's translation)")).to_have_value(
        "A cat <b>sat</b>."
    )
    expect(laptop.get_by_text("Predict p1.")).to_be_visible()
    assert laptop.locator("[data-testid='stMain'] b").filter(has_text="sat").count() == 0


OVERFLOWING_TABLES = """() => {
  const out = [];
  for (const wrap of document.querySelectorAll("[data-testid='stTable']")) {
    const table = wrap.querySelector('table');
    const heading = table.querySelector('th') ? table.querySelector('th').innerText : '';
    if (table.getBoundingClientRect().right > window.innerWidth + 1) out.push(['right', heading]);
    for (let e = table; e && e !== wrap.parentElement; e = e.parentElement) {
      if (e.scrollWidth > e.clientWidth + 1) { out.push(['scrolls', heading]); break; }
    }
    for (const cell of table.querySelectorAll('td, th')) {
      if (cell.scrollWidth > cell.clientWidth + 1) { out.push(['cell', cell.innerText]); break; }
    }
  }
  return out;
}"""


#: What each part of the page draws last, or near it: the sign that it is drawn.
PART_SIGNS = {
    "steps": "Why precision and a brevity penalty, not recall",
    "libraries": "Degenerate input",
    "tokenizers": "The same sentence through each tokenizer",
    "chrf": "chrF step by step",
    "ter": "TER step by step",
    "corpus": "Corpus BLEU (summed counts)",
}


@pytest.mark.parametrize("part", list(LEARN_PARTS))
def test_every_table_fits_1280(laptop: Page, server: str, part: str) -> None:
    """Three references of different lengths, in each part: the comparison's widest tables."""
    example = EXAMPLE_BY_KEY["lengths"]
    query = urlencode(
        {"hyp": example.hypothesis, "ref": example.references, "part": part}, doseq=True
    )
    laptop.goto(f"{server}/learn?{query}")
    expect(laptop.get_by_text(PART_SIGNS[part]).first).to_be_visible()
    if part == "libraries":
        tables = laptop.locator("[data-testid='stTable']").filter(has_text="library call")
        expect(tables).to_have_count(3)
    assert laptop.evaluate(OVERFLOWING_TABLES) == []


def test_tabs_are_reached_by_keyboard(laptop: Page, server: str) -> None:
    """The parts are tabs: arrow keys move between them, and the chosen part is drawn."""
    laptop.goto(f"{server}/learn")
    first = laptop.get_by_role("tab", name=LEARN_PARTS["steps"])
    expect(first).to_have_attribute("aria-selected", "true")
    first.focus()
    laptop.keyboard.press("ArrowRight")
    laptop.keyboard.press("Enter")
    expect(laptop.get_by_text(PART_SIGNS["libraries"])).to_be_visible()
    assert "part=libraries" in laptop.url
