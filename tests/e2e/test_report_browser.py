"""The report in Debian's chromium, opened from disk: no request, segments by link, inert text.

Every request the page makes is routed to a counter (the file itself is the
only one); the console must stay clean. The hostile set's system name, lines,
MQM category and note are markup and script that must show as text.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from bleuviz.cli.main import main
from bleuviz.workspace import Workspace
from tests.report import MQM_DOCIDS, MQM_FILE, MQM_HYPS, MQM_REF

pytestmark = pytest.mark.e2e

TED = ["--ref", str(MQM_REF), "--hyp", *map(str, MQM_HYPS), "--docids", str(MQM_DOCIDS)]
TED += ["--mqm", str(MQM_FILE), "-m", "chrf"]
HOSTILE_NAME = "<img src=x onerror=window.pwned=1>"
HOSTILE_LINES = [
    "<script>window.pwned=2</script> the cat sat",
    '"><img src=x onerror=window.pwned=3> on the mat',
    "{{7*7}} </textarea><svg onload=window.pwned=5> a dog",
]
HOSTILE_CATEGORY = "<img src=x onerror=window.pwned=4>"
HOSTILE_NOTE = "<script>window.pwned=6</script>"


@pytest.fixture(scope="module")
def ted_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "ted.html"
    assert main(["report", *TED, "-o", str(out)]) == 0
    return out


class Opened:
    """A page on a report file, with every request and console message it made."""

    def __init__(self, browser: Browser, path: Path, fragment: str = "") -> None:
        self.requests: list[str] = []
        self.console: list[ConsoleMessage] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.page: Page = browser.new_page()
        self.page.route("**/*", self._count)
        self.page.on("console", lambda m: self.console.append(m))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.url = path.resolve().as_uri()
        self.page.goto(self.url + fragment)
        self.page.wait_for_selector("body[data-ready=true]")

    def _count(self, route) -> None:  # type: ignore[no-untyped-def]
        self.requests.append(route.request.url)
        route.continue_()

    def others(self) -> list[str]:
        """Requests beyond the file itself."""
        return [url for url in self.requests if url.split("#")[0] != self.url]

    def problems(self) -> list[str]:
        """Console errors and warnings, and uncaught errors."""
        said = [m.text for m in self.console if m.type in ("error", "warning")]
        return said + self.errors


def test_the_file_makes_no_request_and_opens_segment_n(browser: Browser, ted_report: Path) -> None:
    opened = Opened(browser, ted_report, "#seg-21")
    article = opened.page.locator("article#seg-21")
    article.wait_for()
    assert article.is_visible()
    assert article.locator("h3").inner_text().startswith("Segment 21")
    nemo = MQM_HYPS[1].read_text(encoding="utf-8").splitlines()[20]
    row = article.locator('tr[data-system="Nemo"] .bv-line')
    assert row.inner_text() == nemo
    statuses = row.locator(".bv-tok").evaluate_all("els => els.map(e => e.dataset.status)")
    assert statuses and set(statuses) <= {"match", "clip", "miss"}
    assert article.locator(".bv-err[data-severity][data-category]").count() > 0
    assert opened.others() == [] and opened.problems() == []
    opened.page.close()


def test_a_link_in_the_report_opens_its_segment(browser: Browser, ted_report: Path) -> None:
    opened = Opened(browser, ted_report)
    link = opened.page.locator("#human a[href^='#seg-']").first
    target = link.get_attribute("href")
    link.click()
    opened.page.locator(f"article{target}").wait_for()
    assert opened.page.locator(f"article{target}").is_visible()
    assert opened.others() == [] and opened.problems() == []
    opened.page.close()


def test_search_filter_sort_and_pages(browser: Browser, ted_report: Path) -> None:
    opened = Opened(browser, ted_report)
    page = opened.page
    assert page.locator("article.seg").count() == 20  # the first page of 25
    page.locator("#bv-pager button", has_text="next").click()
    assert page.locator("article.seg").count() == 5
    page.fill("#bv-search", "Universum")
    wanted = [i + 1 for i, line in enumerate(MQM_HYPS[0].read_text(encoding="utf-8").splitlines())
              if "universum" in line.lower()]  # fmt: skip
    shown = page.locator("article.seg").evaluate_all("els => els.map(e => Number(e.dataset.seg))")
    assert set(wanted) <= set(shown)
    page.fill("#bv-search", "")
    page.select_option("#bv-system", "1")
    assert page.locator("article.seg").first.locator("tr.hyp").count() == 1
    assert opened.others() == [] and opened.problems() == []
    page.close()


def test_the_sort_puts_the_largest_difference_first(browser: Browser, ted_report: Path) -> None:
    opened = Opened(browser, ted_report)
    page = opened.page
    page.select_option("#bv-sort", "ab")
    page.select_option("#bv-metric", "1")  # chrF
    rows = page.locator("article.seg").evaluate_all(
        """els => els.map(e => [...e.querySelectorAll('tr.hyp .scores')].map(s => s.textContent))"""
    )

    def chrf(text: str) -> float:
        return float(text.split("chrF2 ")[1].split(" ")[0])

    diffs = [chrf(r[0]) - chrf(r[1]) for r in rows]
    assert diffs == sorted(diffs, reverse=True)
    page.close()


@pytest.fixture(scope="module")
def hostile_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "ref.txt").write_text("the cat sat\non the mat\na dog\n", encoding="utf-8")
    hostile = folder / f"{HOSTILE_NAME}.txt"
    hostile.write_text("\n".join(HOSTILE_LINES) + "\n", encoding="utf-8")
    (folder / "plain.txt").write_text("the cat sat\non a mat\na dog\n", encoding="utf-8")
    (folder / "docids.txt").write_text("d\nd\nd\n", encoding="utf-8")
    target = HOSTILE_LINES[0].replace("the cat", "<v>the cat</v>")
    rows = ["system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment",
            f"{HOSTILE_NAME}\td\t1\t1\tr1\tsrc\t{target}\t{HOSTILE_CATEGORY}\tMajor\t"]  # fmt: skip
    (folder / "mqm.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    ws = str(folder / "ws")
    files = ["--ref", str(folder / "ref.txt"), "--hyp", str(hostile), str(folder / "plain.txt")]
    files += ["--docids", str(folder / "docids.txt"), "--mqm", str(folder / "mqm.tsv")]
    with contextlib.redirect_stdout(io.StringIO()) as said:
        assert main(["add", "--workspace", ws, *files, "-f", "json"]) == 0
    set_id = json.loads(said.getvalue())["id"]
    Workspace.open(ws).save_note(set_id, HOSTILE_NAME, 1, HOSTILE_NOTE, "other")
    out = folder / "hostile.html"
    assert main(["report", "--set", set_id, "--workspace", ws, "-o", str(out)]) == 0
    return out


def test_hostile_text_stays_text(browser: Browser, hostile_report: Path) -> None:
    html = hostile_report.read_text(encoding="utf-8")
    assert HOSTILE_NAME not in html and "<script>window" not in html
    assert html.count("Content-Security-Policy") == 1
    opened = Opened(browser, hostile_report)
    page = opened.page
    for n in (1, 2, 3):
        page.evaluate(f"() => {{ location.hash = '#seg-{n}'; }}")
        # The hash change redraws the list after this returns, and a segment not yet on
        # screen is not laid out (content-visibility), so its innerText may read "": wait
        # for its text (textContent), which markup made of the line would change.
        row = page.locator(f'article#seg-{n} tr[data-system="{HOSTILE_NAME}"]')
        expect(row.locator(".bv-line")).to_have_text(HOSTILE_LINES[n - 1])
    spans = page.locator(f'article#seg-1 .bv-err[data-category="{HOSTILE_CATEGORY}"]')
    assert spans.count() > 0
    page.evaluate("() => { location.hash = '#seg-2'; }")
    # The page draws the segment after the hash changes: wait for its note, as text.
    expect(page.locator("article#seg-2 .bv-note")).to_contain_text(HOSTILE_NOTE)
    assert HOSTILE_NAME in page.locator("#ranking").inner_text()
    assert page.evaluate("() => window.pwned") is None
    assert opened.dialogs == [] and opened.others() == [] and opened.problems() == []
    page.close()


def test_printing_cuts_no_table(browser: Browser, ted_report: Path) -> None:
    opened = Opened(browser, ted_report)
    page = opened.page
    page.set_viewport_size({"width": 700, "height": 1000})  # A4's text width at 96 dpi, about
    page.emulate_media(media="print")
    cut = page.evaluate(
        """() => [...document.querySelectorAll('table')]
            .filter(t => t.getBoundingClientRect().right > document.documentElement.clientWidth)
            .map(t => t.querySelector('caption')?.textContent ?? 'a segment')"""
    )
    assert cut == []
    assert not page.locator("#bv-controls").is_visible()
    assert page.locator("article.seg").count() == 20  # the segments shown are printed
    assert page.locator("figure.chart svg").count() >= 4
    page.close()


def test_search_within_one_system_and_a_segment_not_held(browser: Browser, tmp_path: Path) -> None:
    out = tmp_path / "sampled.html"
    assert main(["report", *TED, "--max-segments", "30", "-o", str(out)]) == 0
    opened = Opened(browser, out)
    page = opened.page
    held = page.locator("article.seg").evaluate_all("els => els.map(e => Number(e.dataset.seg))")
    missing = next(n for n in range(1, 26) if n not in held)
    page.evaluate(f"() => {{ location.hash = '#seg-{missing}'; }}")
    expect(page.locator("#bv-status")).to_have_text(  # after the hashchange event
        f"Segment {missing} is not held in this report (see above)."
    )
    lines = [p.read_text(encoding="utf-8").lower().splitlines() for p in MQM_HYPS]
    ref = MQM_REF.read_text(encoding="utf-8").lower().splitlines()
    n, word = next(
        (n, w)
        for n in held
        for w in lines[2][n - 1].split()
        if w not in lines[0][n - 1] and w not in ref[n - 1]
    )
    page.fill("#bv-search", word)
    assert n in page.locator("article.seg").evaluate_all(
        "els => els.map(e => Number(e.dataset.seg))"
    )
    page.select_option("#bv-system", "0")  # the word is not in the first system's line
    shown = page.locator("article.seg").evaluate_all("els => els.map(e => Number(e.dataset.seg))")
    assert n not in shown
    assert opened.others() == [] and opened.problems() == []
    page.close()


def test_tables_and_charts_read_without_scripts(browser: Browser, ted_report: Path) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(ted_report.resolve().as_uri())
    for section in ("provenance", "ranking", "anatomy", "buckets", "human", "errors"):
        assert page.locator(f"section#{section} table").first.is_visible()
    assert page.locator("figure.chart svg").first.is_visible()
    assert "every section above reads without it" in page.locator("#segments").inner_text()
    assert page.locator("#segments noscript").count() == 1
    assert page.locator("article.seg").count() == 0
    context.close()
