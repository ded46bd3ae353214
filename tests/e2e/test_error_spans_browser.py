"""Browser test of human error spans: drawn over BLEU's highlight, and inert.

The app runs on the bundled sample with an MQM TSV written here (Google's
format: ``<v>`` marks the erroneous words); what the page must show is read
from that file's own rows, nothing from the app.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_browser import (
    HYPS,
    SOURCE,
    open_segment,
    open_url,
    segment_containing,
    wait_idle,
)

pytestmark = pytest.mark.e2e

SAMPLE = Path(__file__).resolve().parents[2] / "bleuviz" / "sample_data"
HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment"
HOSTILE_CATEGORY = "Accuracy/<img src=x onerror=window.__bvSpans=1>"
HOSTILE_COMMENT = "<script>window.__bvSpans=2</script> <b>bold</b>"
MAJOR_WORD = "quarrels"  # in literal's segment 1: "City council quarrels over new street rail"
SCRIPT = "<script>alert('Tor!')</script>"  # in a segment of every system (sample README)


def marked(line: str, words: str) -> str:
    """``line`` with its first ``words`` inside MQM's ``<v>`` marks."""
    start = line.index(words)
    return f"{line[:start]}<v>{words}</v>{line[start + len(words) :]}"


def mqm_rows() -> list[str]:
    """literal 1: a Major error; the <script> segment: a hostile category and comment."""
    script_seg = segment_containing("literal", SCRIPT)
    rows = [
        (
            "literal",
            1,
            "r1",
            marked(HYPS["literal"][0], MAJOR_WORD),
            "Accuracy/Mistranslation",
            "Major",
            "",
        ),
        (
            "literal",
            script_seg,
            "r2",
            marked(HYPS["literal"][script_seg - 1], SCRIPT),
            HOSTILE_CATEGORY,
            "Minor",
            HOSTILE_COMMENT,
        ),
    ]
    return [
        "\t".join(
            [
                system,
                "doc",
                "1",
                str(seg),
                rater,
                SOURCE[seg - 1],
                target,
                category,
                severity,
                comment,
            ]
        )
        for system, seg, rater, target, category, severity, comment in rows
    ]


@pytest.fixture
def spans_server(
    tmp_path: Path, serve: Callable[..., AbstractContextManager[str]]
) -> Iterator[str]:
    """The app on the sample with the MQM file on its command line."""
    mqm = tmp_path / "mqm.tsv"
    mqm.write_text("\n".join([HEADER, *mqm_rows()]) + "\n", encoding="utf-8")
    hyps = [str(SAMPLE / f"hyp.{name}.en") for name in ("literal", "terse", "repeat")]
    args = ["--ref", str(SAMPLE / "ref.A.en"), str(SAMPLE / "ref.B.en"), "--hyp", *hyps]
    args += ["--src", str(SAMPLE / "source.de"), "--mqm", str(mqm)]
    with serve(*args, log=tmp_path / "server.log") as url:
        yield url


def test_major_error_over_the_ngram_highlight_and_hostile_annotations_inert(
    page: Page, spans_server: str
) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    open_segment(page, spans_server, "literal", 1)
    line = page.locator(".bv-line").filter(has=page.locator(".bv-err")).first
    error = line.locator('.bv-tok > .bv-err[data-severity="major"]')
    expect(error).to_have_text(MAJOR_WORD)
    expect(error).to_have_attribute("data-category", "Accuracy/Mistranslation")
    # The error's tooltip, then the token's own (the n-gram's counts) below it.
    tip = re.compile(r"^Major · Accuracy/Mistranslation · rater r1\n“quarrels”: 1 in hypothesis")
    expect(error).to_have_attribute("title", tip)
    # Both readable at once: the token keeps its status colour, the error its underline.
    token = error.locator("xpath=..")
    assert token.get_attribute("data-status") in {"match", "clip", "miss"}
    background = token.evaluate("e => getComputedStyle(e).backgroundColor")
    assert background not in ("rgba(0, 0, 0, 0)", "transparent")
    assert error.evaluate("e => getComputedStyle(e).borderBottomWidth") == "3px"
    assert error.evaluate("e => getComputedStyle(e).borderBottomColor") == "rgb(201, 42, 42)"
    expect(line).to_have_text(HYPS["literal"][0])

    seg = segment_containing("literal", SCRIPT)
    open_segment(page, spans_server, "literal", seg)
    minor = '.bv-err[data-severity="minor"]'
    hostile = page.locator(f".bv-line:not(.bv-system .bv-line) {minor}")  # the drill-down's
    expect(hostile.first).to_be_visible()
    categories = hostile.evaluate_all("els => els.map(e => e.dataset.category)")
    assert set(categories) == {HOSTILE_CATEGORY}
    assert "".join(hostile.all_text_contents()) == SCRIPT
    # The same error on literal's line in "This segment in every system", as inert.
    every = page.locator(".bv-system").filter(has_text="literal").locator(f".bv-line {minor}")
    expect(every.first).to_be_attached()
    assert "".join(every.all_text_contents()) == SCRIPT
    main = page.locator('[data-testid="stMain"]')
    assert main.locator(".bv-line img, .bv-line b, .bv-line script").count() == 0
    page.wait_for_timeout(1000)  # give a handler that did get in the time to run
    assert page.evaluate("() => window.__bvSpans") is None
    assert dialogs == []

    open_url(page, spans_server, "Corpus BLEU")
    expect(page.get_by_text("What BLEU sees of human errors (MQM)")).to_be_visible()
    wait_idle(page)
    assert main.locator("img[src='x']").count() == 0
    assert page.evaluate("() => window.__bvSpans") is None


def test_a_click_on_a_category_lists_its_segments(page: Page, spans_server: str) -> None:
    open_url(page, spans_server, "What BLEU sees of human errors (MQM)")
    chart = page.locator(".js-plotly-plot").filter(has_text="tokens flagged at order")
    chart.scroll_into_view_if_needed()
    labels = chart.locator(".xtick text").all_text_contents()
    assert all(re.search(r"n = [\d,]+$", label) for label in labels), labels  # each group's n
    ticks = [re.sub(r"n = [\d,]+$", "", label) for label in labels]
    assert ticks[:3] == ["all errors", "major", "minor"] and "Accuracy" in ticks
    bar = chart.locator(".trace.bars").first.locator("path").nth(ticks.index("Accuracy"))
    box = bar.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(
        page.get_by_text(re.compile(r"segments? holds? an error token of Accuracy"))
    ).to_be_visible()
    wait_idle(page)
    link = page.get_by_role("link", name="seg 1 · literal")
    expect(link).to_be_visible()
    link.click()
    expect(page.get_by_role("heading", name="Segment 1 ·")).to_contain_text("literal")
    expect(page.locator('.bv-line .bv-err[data-severity="major"]')).to_have_text(MAJOR_WORD)


def test_overlapping_errors_draw_apart(
    page: Page, tmp_path: Path, serve: Callable[..., AbstractContextManager[str]]
) -> None:
    line = HYPS["literal"][0]
    rows = [
        (marked(line, "quarrels"), "Accuracy/Mistranslation", "Major"),
        (marked(line, "council quarrels over"), "Fluency/Grammar", "Minor"),
    ]
    mqm = tmp_path / "mqm.tsv"
    body = [
        "\t".join(["literal", "doc", "1", "1", "r1", SOURCE[0], target, category, severity, ""])
        for target, category, severity in rows
    ]
    mqm.write_text("\n".join([HEADER, *body]) + "\n", encoding="utf-8")
    args = ["--ref", str(SAMPLE / "ref.A.en"), "--hyp", str(SAMPLE / "hyp.literal.en")]
    with serve(*args, "--mqm", str(mqm), log=tmp_path / "server.log") as url:
        open_segment(page, url, "literal", 1)
        line_el = page.locator(".bv-line").filter(has=page.locator(".bv-err")).first
        expect(line_el).to_have_text(line)
        major = line_el.locator('.bv-err[data-severity="major"]')
        minor = line_el.locator('.bv-err[data-severity="minor"]')
        expect(major).to_have_text("quarrels")
        assert "".join(minor.all_text_contents()) == "council quarrels over"
        # The longer error is the outer lane; the inner one's underline sits lower.
        inner = major.evaluate("e => getComputedStyle(e).paddingBottom")
        outer = {m.evaluate("e => getComputedStyle(e).paddingBottom") for m in minor.all()}
        assert outer == {"1px"} and inner == "5px"
        assert major.evaluate("e => e.parentElement.dataset.severity") == "minor"
        # The three words' error is one unbroken underline, across the spaces and the
        # tokens' padding (it broke into dashes at each token's edge, like "neutral").
        assert minor.count() > 3  # pieces in three tokens and the two spaces between them
        assert minor.evaluate_all(UNDERLINE_GAP) <= 0.5


#: The widest horizontal gap (px) between the boxes of an error's pieces on one line: the
#: stretches its underline leaves out.
UNDERLINE_GAP = """els => {
  const boxes = els.flatMap(e => [...e.getClientRects()]).sort((a, b) => a.left - b.left);
  let reach = boxes[0].right, gap = 0;
  for (const box of boxes.slice(1)) {
    gap = Math.max(gap, box.left - reach);
    reach = Math.max(reach, box.right);
  }
  return gap;
}"""
