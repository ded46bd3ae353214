"""Browser tests: the app under ``streamlit run``, driven by Playwright and chromium.

Expected numbers are computed here from the raw sample files with sacrebleu
2.6 (``corpus_bleu`` / ``sentence_bleu``, its 13a tokenizer) and nltk 3.10
(``corpus_bleu`` on the same tokens); nothing is hard-coded from the app.
"""

from __future__ import annotations

import csv
import io
import json
import re
import urllib.parse
from collections import Counter
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
import sacrebleu
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from rouge_score import rouge_scorer
from sacrebleu.significance import PairedTest
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from bleuviz.app.ui.state.selection import OPEN_MARK, OPEN_PX
from bleuviz.render.labels import WORD_JOINER
from bleuviz.rouge.stats import lcs_pairs
from bleuviz.rouge.tokenize import tokenize as rouge_tokenize

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "bleuviz" / "sample_data"
SYSTEMS = ("literal", "terse", "repeat")
STATUSES = {"match", "clip", "miss"}
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


def lines(name: str) -> list[str]:
    """Read a sample file as plain lines (LF endings, final newline; see sample_data/README)."""
    return (SAMPLE / name).read_text(encoding="utf-8").removesuffix("\n").split("\n")


HYPS = {name: lines(f"hyp.{name}.en") for name in SYSTEMS}
REFS = [lines("ref.A.en"), lines("ref.B.en")]
SOURCE = lines("source.de")
DOCIDS = lines("docids.txt")


def tokens(text: str) -> list[str]:
    """sacrebleu's 13a tokens of a line."""
    return Tokenizer13a()(text.rstrip()).split()


def clipped_unigrams(system: str, seg: int) -> int:
    """Unigram occurrences found in a reference but beyond their max count in any one."""
    hyp = Counter(tokens(HYPS[system][seg - 1]))
    refs = [Counter(tokens(r[seg - 1])) for r in REFS]
    clip = {w: max(r[w] for r in refs) for w in hyp}
    return sum(n - clip[w] for w, n in hyp.items() if clip[w] and n > clip[w])


def segment_containing(system: str, needle: str) -> int:
    """The 1-based number of the first hypothesis line containing ``needle``."""
    return next(i + 1 for i, line in enumerate(HYPS[system]) if needle in line)


def wait_idle(page: Page) -> None:
    """Wait until Streamlit has finished running the script."""
    page.wait_for_selector(IDLE)


#: A part of the page drawn after its answer, still waiting for its button (``KEY_go``: see
#: ``bleuviz/app/ui/sections/deferred.py``), whose press reruns the page.
PENDING_PART = '[class*="st-key-"][class*="_go"]'


#: The script is not running and no part is pending, and has been so for 400 ms: each
#: part's button is pressed within a frame and 50 ms of the run that drew it ending, and
#: a pressed part's run may draw more parts (a linked segment's first look, then the page,
#: then its table). ``window.bvCalmSince`` is when the calm began.
SETTLED = f"""() => {{
  const calm = document.querySelector({json.dumps(IDLE)})
    && !document.querySelector({json.dumps(PENDING_PART)});
  if (!calm) {{ window.bvCalmSince = 0; return false; }}
  window.bvCalmSince = window.bvCalmSince || Date.now();
  return Date.now() - window.bvCalmSince > 400;
}}"""


def open_url(page: Page, url: str, text: str) -> None:
    """Go to ``url``, wait for ``text`` to appear, then for the whole page (parts drawn after
    the answer included) and the end of the script's runs."""
    page.goto(url)
    expect(page.get_by_text(text).first).to_be_visible()
    page.wait_for_function(SETTLED, polling=100)


def open_segment(page: Page, server: str, system: str, seg: int) -> None:
    """Open the deep link /sentences?sys=&seg=."""
    open_url(page, f"{server}/sentences?sys={system}&seg={seg}", f"Segment {seg} ·")
    expect(page.get_by_role("heading", name=f"Segment {seg} ·")).to_contain_text(system)


def metric_value(page: Page, label: str) -> Locator:
    """The value element of the st.metric labelled ``label``."""
    metric = page.locator('[data-testid="stMetric"]').filter(
        has=page.locator('[data-testid="stMetricLabel"]', has_text=label)
    )
    return metric.locator('[data-testid="stMetricValue"]')


def hypothesis_spans(page: Page) -> Locator:
    """The highlight spans of the hypothesis (the first highlighted line after the legend)."""
    return page.locator(".bv-line").first.locator("span.bv-tok")


def statuses(spans: Locator) -> list[str]:
    """The data-status of every span."""
    return [str(s) for s in spans.evaluate_all("els => els.map(e => e.dataset.status)")]


def pick(page: Page, label: str, option: str) -> None:
    """Choose ``option`` in the selectbox or multiselect labelled ``label``.

    A rerun that lands while the dropdown is open (one a previous change started)
    redraws the widget and closes the dropdown, so the dropdown is opened again,
    at most three times, until the option shows and takes the click.
    """
    choice = page.get_by_role("option", name=option, exact=True)
    box = page.get_by_role("combobox", name=label)
    for _ in range(3):
        wait_idle(page)
        box.click()
        try:
            choice.wait_for(state="visible", timeout=3000)
            choice.click(timeout=3000)
        except PlaywrightTimeoutError:
            page.keyboard.press("Escape")
            continue
        wait_idle(page)
        if _chosen(page, box, option):
            return
    wait_idle(page)
    box.click()
    choice.click()


def _chosen(page: Page, box: Locator, option: str) -> bool:
    """Whether ``option`` is what the selectbox ``box`` shows, or a chip of the multiselect.

    A rerun that was already running when the option was clicked can draw the
    widget again with its old value; the caller then chooses once more.
    """
    if box.input_value() == option:
        return True
    # The chip's remove button: by label, since an open list hides it from the roles.
    return page.get_by_label(f"Remove {option}", exact=True).count() > 0


def test_deep_link_as_the_first_request_after_start(page: Page, fresh_server: str) -> None:
    """A deep link as a fresh server's first request runs the frame (sidebar) and the page."""
    open_segment(page, fresh_server, "terse", 7)
    expect(page.get_by_role("heading", name="Sentences", exact=True)).to_be_visible()
    expected = sacrebleu.sentence_bleu(HYPS["terse"][6], [r[6] for r in REFS])
    expect(metric_value(page, "Sentence BLEU")).to_have_text(f"{expected.score:.2f}")
    # the frame ran: its sidebar is there, and the URL still points at the segment
    expect(page.get_by_text("BLEU settings")).to_be_visible()
    query = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)
    assert page.url.split("?")[0].endswith("/sentences")
    assert (query["sys"], query["seg"]) == (["terse"], ["7"])


@pytest.mark.parametrize("address", ["sentences?sys=terse&seg=7", "compare?seg=3"])
def test_a_link_to_a_page_asks_the_servers_root_at_once(
    page: Page, server: str, address: str
) -> None:
    """Streamlit's frontend at ``/sentences`` asked ``/sentences/_stcore/health`` first (two
    404s, then a 100 ms wait); the page bleuviz serves there names the root
    (``bleuviz.app.page_html``)."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(urllib.parse.urlparse(request.url).path))
    missing: list[str] = []
    page.on(
        "response",
        lambda response: missing.append(response.url) if response.status == 404 else None,
    )
    open_url(page, f"{server}/{address}", "Sentences" if address.startswith("sent") else "Compare")
    page_path = "/" + address.split("?")[0]
    assert "/_stcore/health" in asked and "/_stcore/host-config" in asked
    assert not [path for path in asked if path.startswith(f"{page_path}/_stcore/")]
    assert missing == []


def test_first_session_after_start_applies_sidebar_changes(page: Page, fresh_server: str) -> None:
    """In a fresh server's very first session, a sidebar change lands on the sidebar's widgets."""
    open_url(page, fresh_server, "Corpus BLEU")
    pick(page, "Flavour", "nltk")
    page.wait_for_timeout(1000)  # let the rerun start
    wait_idle(page)
    settings = {
        "flavour": page.get_by_role("combobox", name="Flavour").input_value(),
        "smoothing": page.get_by_role("combobox", name="Smoothing").input_value(),
        "max order": page.get_by_label("Max n-gram order").input_value(),
    }
    assert settings == {"flavour": "nltk", "smoothing": "method0", "max order": "4"}
    expect(page.get_by_text("flavour nltk")).to_be_visible()


def test_overview_shows_sacrebleus_scores(page: Page, server: str) -> None:
    open_url(page, server, "Corpus BLEU")
    for name in SYSTEMS:
        score = sacrebleu.corpus_bleu(HYPS[name], REFS)
        expect(metric_value(page, name)).to_have_text(f"{score.score:.2f}")
        expect(page.locator('[data-testid="stTable"]').first).to_contain_text(f"{score.bp:.3f}")
    bleu = sacrebleu.BLEU()
    bleu.corpus_score(HYPS["literal"], REFS)
    expect(page.get_by_text(str(bleu.get_signature()), exact=True)).to_be_visible()


def test_flavour_change_updates_the_metrics(page: Page, server: str) -> None:
    open_url(page, server, "Corpus BLEU")
    pick(page, "Flavour", "nltk")
    expect(page.get_by_text("flavour nltk")).to_be_visible()
    wait_idle(page)
    refs = [[tokens(a), tokens(b)] for a, b in zip(*REFS, strict=True)]
    for name in SYSTEMS:
        score = 100 * nltk_corpus_bleu(refs, [tokens(h) for h in HYPS[name]])
        expect(metric_value(page, name)).to_have_text(f"{score:.2f}")


def test_deep_link_to_a_clipping_segment_shows_clip_spans(page: Page, server: str) -> None:
    seg = next(s for s in range(1, 127) if clipped_unigrams("repeat", s) >= 2)
    open_segment(page, server, "repeat", seg)
    hyp = HYPS["repeat"][seg - 1]
    expected = sacrebleu.sentence_bleu(hyp, [r[seg - 1] for r in REFS])
    expect(metric_value(page, "Sentence BLEU")).to_have_text(f"{expected.score:.2f}")
    spans = hypothesis_spans(page)
    expect(spans).to_have_count(len(tokens(hyp)))
    found = statuses(spans)
    assert "clip" in found
    assert Counter(found)["clip"] == clipped_unigrams("repeat", seg)
    assert Counter(found)["match"] == expected.counts[0]
    assert set(statuses(page.locator("span.bv-tok"))) <= STATUSES


def test_the_style_sheets_style_the_highlight_and_take_no_room(page: Page, server: str) -> None:
    """The frame's style sheets come first in the sidebar, in an element that is not laid out."""
    seg = next(s for s in range(1, 127) if clipped_unigrams("repeat", s) >= 2)
    open_segment(page, server, "repeat", seg)
    clip = hypothesis_spans(page).and_(page.locator('[data-status="clip"]')).first
    assert clip.evaluate("e => getComputedStyle(e).textDecorationLine") == "line-through"
    match = hypothesis_spans(page).and_(page.locator('[data-status="match"]')).first
    assert match.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(200, 236, 208)"
    sidebar = page.get_by_test_id("stSidebarUserContent")
    first = sidebar.get_by_test_id("stElementContainer").first
    assert first.locator("style").count() == 2
    assert first.evaluate("e => getComputedStyle(e).display") == "none"


@pytest.mark.parametrize("system", SYSTEMS)
def test_script_in_the_data_stays_inert(page: Page, server: str, system: str) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    seg = segment_containing(system, "<script>")
    open_segment(page, server, system, seg)
    literal = "<script>alert('Tor!')</script>"
    expect(page.locator(".bv-line").first).to_have_text(HYPS[system][seg - 1])
    expect(page.locator(".bv-line").first).to_contain_text(literal)
    expect(page.locator('[data-testid="stText"]').first).to_have_text(SOURCE[seg - 1])
    # The scripts a link to a segment may bring are ours: they scroll to the drill-down
    # and the table to the segment's row.
    ours = page.locator('[data-testid="stMain"] script').evaluate_all(
        "els => els.map(e => e.textContent)"
    )
    assert all(
        ("scrollIntoView" in script or "grid.scrollTop = top" in script) and "Tor!" not in script
        for script in ours
    )
    scripts = page.locator("script").evaluate_all("els => els.map(e => e.textContent)")
    assert not [s for s in scripts if "Tor!" in s]
    page.wait_for_timeout(1000)  # give a script that did get in the time to run
    assert dialogs == []


def test_markup_entities_dollars_and_stars_display_literally(page: Page, server: str) -> None:
    """Segments 26, 37 and 59 (sample_data/README): no LaTeX, Markdown, HTML or entities."""
    seg = segment_containing("repeat", "*expensive*")
    open_segment(page, server, "repeat", seg)
    data = page.locator('.bv-line, [data-testid="stText"]')
    expect(page.locator(".bv-line").first).to_have_text(HYPS["repeat"][seg - 1])
    expect(page.locator('[data-testid="stText"]').first).to_have_text(SOURCE[seg - 1])
    for text in ("$5", "$10", "*expensive*"):
        expect(page.locator(".bv-line").first).to_contain_text(text)
    expect(page.locator('[data-testid="stText"]').first).to_contain_text("*teuer*")
    assert page.locator('[data-testid="stMain"] .katex').count() == 0
    assert data.locator("em, strong, b, i, a, img").count() == 0

    for needle in ("&amp;", "<b>"):
        seg = segment_containing("repeat", needle)
        open_segment(page, server, "repeat", seg)
        expect(page.locator('[data-testid="stText"]').first).to_have_text(SOURCE[seg - 1])
        hyp = page.locator(".bv-line").first
        # 13a rewrites entities, so the hypothesis shows its tokens (and says so)
        expect(hyp).to_have_text(" ".join(tokens(HYPS["repeat"][seg - 1])))
        assert data.locator("em, strong, b, i, a, img").count() == 0


def test_system_name_from_the_link_stays_inert(page: Page, server: str) -> None:
    """The ``sys`` parameter of a link someone sent is shown as text, not Markdown."""
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    name = "*x* [here](https://example.invalid/a) ![i](http://127.0.0.9/pixel.png) $x^2$"
    url = f"{server}/sentences?sys={urllib.parse.quote(name)}&seg=3"
    open_url(page, url, "Segment 3 ·")
    warning = page.locator('[data-testid="stAlertContentWarning"]')
    expect(warning).to_contain_text("no system of that name")
    assert warning.locator("em, a, img, .katex").count() == 0, warning.inner_html()
    expect(warning).to_contain_text(f"sys={name}")
    assert not [
        u for u in requests if u.startswith(("http://127.0.0.9", "https://example.invalid"))
    ]


def test_names_from_the_files_stay_inert(
    page: Page, tmp_path: Path, serve: Callable[..., AbstractContextManager[str]]
) -> None:
    """System names (from file names) and document ids are data too: shown as text."""
    names = {
        "*star*": "hyp.*star*.en",
        "$x^2$": "hyp.$x^2$.en",
        "<b>bold": "hyp.<b>bold.en",
    }
    docs = ["**bold-doc**", "[doc](https://example.invalid/d)"]
    (tmp_path / "ref.en").write_text("the cat sat\na dog ran\n", encoding="utf-8")
    (tmp_path / "docids.txt").write_text("\n".join(docs) + "\n", encoding="utf-8")
    for filename in names.values():
        (tmp_path / filename).write_text("the cat sat\na dog\n", encoding="utf-8")
    hyps = [str(tmp_path / f) for f in names.values()]
    args = ["--ref", str(tmp_path / "ref.en"), "--hyp", *hyps]
    args += ["--docids", str(tmp_path / "docids.txt")]
    with serve(*args, log=tmp_path / "server.log") as url:
        open_url(page, url, "Corpus BLEU")
        main = page.locator('[data-testid="stMain"]')
        for name in names:
            expect(page.locator('[data-testid="stMetricLabel"]', has_text=name)).to_have_count(1)
        for doc in docs:
            expect(main.get_by_text(shown_as(doc)).first).to_be_visible()
        data_markup = main.locator("em, strong").filter(has_text=re.compile(r"star|bold-doc"))
        assert data_markup.count() == 0
        assert main.locator(".katex, a[href*='example.invalid']").count() == 0
        # Plotly reads HTML in names (ticks, legends, hovers): they show as written.
        charts = main.locator(".js-plotly-plot")
        expect(charts.first).to_be_visible()
        ticks = charts.locator(".xtick text, .ytick text").all_text_contents()
        assert "<b>bold" in ticks and "*star*" in ticks, ticks
        assert charts.locator("tspan[style*='bold'], tspan[style*='italic']").count() == 0

        open_segment(page, url, "*star*", 2)
        heading = page.get_by_role("heading", name="Segment 2 ·")
        expect(heading).to_have_text(shown_as(f"Segment 2 · document {docs[1]} · *star*"))
        assert main.locator("a[href*='example.invalid']").count() == 0


def shown_as(text: str) -> re.Pattern[str]:
    """Match ``text`` exactly, allowing the invisible word joiners that stop GFM autolinks."""
    return re.compile("^" + f"{WORD_JOINER}?".join(map(re.escape, text)) + "$")


def search_terse_for_tram(page: Page, server: str) -> list[int]:
    """Filter terse's sentence table on "tram"; return the segments that should remain."""
    open_segment(page, server, "terse", 1)
    page.get_by_label("Search hypothesis, references and source").fill("tram")
    page.keyboard.press("Enter")
    expected = [
        i + 1
        for i in range(126)
        if any("tram" in s[i].lower() for s in (HYPS["terse"], *REFS, SOURCE))
    ]
    expect(page.get_by_text(f"{len(expected)} of 126 segments")).to_be_visible()
    # Settled, not only idle: a part drawn after the answer reruns the page once more, and
    # a click during that run can be lost (CI: the CSV button's download never came).
    page.wait_for_function(SETTLED, polling=100)
    return expected


def test_a_segment_number_opens_its_segment_and_marks_its_row(page: Page, server: str) -> None:
    expected = search_terse_for_tram(page, server)
    grid = page.locator('[data-testid="stDataFrame"]').first
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    assert box is not None
    row, header, height = 2, 35, 35  # st.dataframe's default header and row heights
    page.mouse.click(box["x"] + OPEN_PX + 37, box["y"] + header + row * height + height / 2)
    target = expected[row]
    expect(page.get_by_role("heading", name=f"Segment {target} ·")).to_be_visible()
    wait_idle(page)
    assert urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)["seg"] == [str(target)]
    marked_row(grid, row)


#: The first cell's text of each row a data grid draws (its accessible copy: a header, then
#: the rows on screen), read at once: the grid redraws that copy as it likes.
ROW_MARKS = """g => [...g.querySelectorAll("tr")].slice(1)
  .map(r => (r.querySelector("td") || {}).textContent || "")"""


def marked_row(grid: Locator, row: int) -> None:
    """Wait until the segment table ``grid`` marks ``row`` (from 0, as drawn), and no other,
    as open (its accessible copy is redrawn a moment after the page's run)."""
    marks: list[str] = []
    for _ in range(50):
        marks = grid.evaluate(ROW_MARKS)
        if len(marks) > row and marks[row] == OPEN_MARK and marks.count(OPEN_MARK) == 1:
            return
        grid.page.wait_for_timeout(100)
    raise AssertionError(f"row {row} is not the one marked open: {marks}")


#: Script runs started since ``COUNT_RUNS`` was evaluated: ``window.bvRunsStarted``.
COUNT_RUNS = """() => {
  window.bvRunsStarted = 0;
  const app = document.querySelector('[data-testid="stApp"]');
  new MutationObserver(() => {
    if (app.dataset.testScriptState === "running") window.bvRunsStarted += 1;
  }).observe(app, {attributes: true, attributeFilter: ["data-test-script-state"]});
}"""


def test_pressing_a_segment_number_opens_it_in_one_run(page: Page, server: str) -> None:
    """The number is a button of the row it is drawn in, whatever the user's sort; its press
    is one script run (a selection would come 150 ms later and with a run of its own). Its row
    then carries the open mark, where the user's sort put it."""
    expected = search_terse_for_tram(page, server)
    grid = page.locator('[data-testid="stDataFrame"]').first
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    assert box is not None
    mark, number, header, height = OPEN_PX, 75, 35, 35  # the open mark, a "small" column, rows
    for _ in range(2):  # sort by the segment column, then the other way: the last first
        page.mouse.click(box["x"] + mark + number / 2, box["y"] + header / 2)
        page.wait_for_timeout(300)
    page.evaluate(COUNT_RUNS)
    row = 1
    page.mouse.click(box["x"] + mark + number / 2, box["y"] + header + row * height + height / 2)
    target = sorted(expected, reverse=True)[row]
    expect(page.get_by_role("heading", name=f"Segment {target} ·")).to_be_visible()
    page.wait_for_function(SETTLED, polling=100)
    assert page.evaluate("window.bvRunsStarted") == 1
    assert urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)["seg"] == [str(target)]
    marked_row(grid, row)  # the sort kept, the mark in the pressed row


@pytest.mark.parametrize("page_path", ["sentences?sys=terse", "compare?a=literal&b=terse"])
def test_a_segment_typed_after_a_deep_link_opens(page: Page, server: str, page_path: str) -> None:
    """A segment typed in the Segment box after a deep link opens, and stays open.

    When the tables ticked the open segment, the rerun the Enter started carried the
    browser's copy of the server-set selection, Streamlit ran the table's on_select
    callback for it, and that reopened the ticked segment: the number typed was lost.
    """
    open_url(page, f"{server}/{page_path}&seg=40", "Segment 40 ·")
    wait_idle(page)
    for typed in (41, 7):
        box = page.get_by_role("spinbutton", name="Segment")
        box.fill(str(typed))
        box.press("Enter")
        expect(page.get_by_role("heading", name=f"Segment {typed} ·")).to_be_visible()
        wait_idle(page)
        expect(box).to_have_value(str(typed))


def test_rouge_l_marks_the_lcs_tokens_in_the_drill_down(page: Page, server: str) -> None:
    """Choosing ROUGE-L in the sidebar adds its column and marks rouge-score's LCS tokens."""
    seg = 9
    open_segment(page, server, "literal", seg)
    pick(page, "Add columns", "ROUGE-L")
    page.keyboard.press("Escape")
    expect(page.get_by_text("which tokens count")).to_be_visible()
    wait_idle(page)
    hyp, refs = HYPS["literal"][seg - 1], [r[seg - 1] for r in REFS]
    best = rouge_scorer.RougeScorer(["rougeL"]).score_multi(refs, hyp)["rougeL"]
    expect(metric_value(page, "Sentence ROUGE-L")).to_have_text(f"{best.fmeasure:.4f}")
    caption = page.get_by_text(re.compile(r"against reference \d")).inner_text()
    ref = refs[int(re.search(r"against reference (\d)", caption)[1]) - 1]  # type: ignore[index]
    pairs = lcs_pairs(rouge_tokenize(ref).tokens, rouge_tokenize(hyp).tokens)
    hyp_tokens = rouge_tokenize(hyp).tokens
    expected = ["match" if j in {q for _, q in pairs} else "miss" for j in range(len(hyp_tokens))]
    # The ROUGE lines are the drill-down's last two, before the segment in every system.
    lines = page.locator(".bv-line")
    heading = page.get_by_role("heading", name="This segment in every system").element_handle()
    before = lines.evaluate_all(
        "(els, h) => els.filter(e => e.compareDocumentPosition(h) & 4).length", heading
    )
    hyp_line = lines.nth(before - 2).locator("span.bv-tok")
    assert statuses(hyp_line) == expected
    assert hyp_line.all_inner_texts() == list(hyp_tokens)
    ref_line = lines.nth(before - 1).locator("span.bv-tok")
    assert statuses(ref_line).count("match") == len(pairs)


def test_download_gives_the_filtered_table_as_csv(page: Page, server: str) -> None:
    """The CSV is built on click and holds exactly the rows shown, whole and with references."""
    expected = search_terse_for_tram(page, server)
    with page.expect_download() as info:
        page.get_by_test_id("stDownloadButton").filter(has_text="CSV").first.locator(
            "button"
        ).click()
    rows = list(csv.DictReader(io.StringIO(Path(info.value.path()).read_text("utf-8"))))
    signature = "nrefs:2|case:mixed|eff:yes|tok:13a|smooth:exp|"
    assert rows and all(row["signature"].startswith(signature) for row in rows)
    assert [int(row["seg"]) for row in rows] == expected
    for row in rows:
        i = int(row["seg"]) - 1
        want = sacrebleu.sentence_bleu(HYPS["terse"][i], [r[i] for r in REFS]).score
        assert float(row["BLEU"]) == pytest.approx(want, abs=1e-9)
        assert row["hypothesis"] == HYPS["terse"][i]  # whole, never cut
        assert [row["ref_1"], row["ref_2"]] == [r[i] for r in REFS]
        assert row["system"] == "terse"


def test_compare_runs_chrf_significance_as_sacrebleu(
    page: Page, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Compare by chrF: the corpus scores and both p-values are sacrebleu PairedTest's."""
    # The drill-down is the page's last element: once it shows, the first run is over.
    open_url(page, f"{server}/compare?a=literal&b=terse&seg=3", "Segment 3 ·")
    pick(page, "Corpus score and significance", "chrF")
    expect(page.get_by_role("heading", name="Corpus chrF")).to_be_visible()
    wait_idle(page)
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    named = [("literal", HYPS["literal"]), ("terse", HYPS["terse"])]
    chrf = {"chrF": sacrebleu.CHRF()}
    bs = PairedTest(named, chrf, REFS, test_type="bs", n_samples=1000)()[1]["chrF2"]
    ar = PairedTest(named, chrf, REFS, test_type="ar", n_samples=10000)()[1]["chrF2"]
    expect(metric_value(page, "chrF of A · literal")).to_have_text(f"{bs[0].score:.2f}")
    expect(metric_value(page, "chrF of B · terse")).to_have_text(f"{bs[1].score:.2f}")
    expect(metric_value(page, "p-value, bootstrap")).to_have_text(f"{bs[1].p_value:.4f}")
    expect(metric_value(page, "p-value, randomization")).to_have_text(f"{ar[1].p_value:.4f}")
    pick(page, "Sentence scores and differences", "ROUGE-L")
    wait_idle(page)
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    want = [
        scorer.score_multi([r[2] for r in REFS], HYPS[name][2])["rougeL"].fmeasure
        for name in ("literal", "terse")
    ]
    expect(metric_value(page, "Sentence ROUGE-L of A · literal")).to_have_text(f"{want[0]:.4f}")
    expect(metric_value(page, "Sentence difference B − A")).to_have_text(
        f"{want[1] - want[0]:+.4f}"
    )


def test_overview_address_shows_the_overview(page: Page, server: str) -> None:
    """``/overview`` (the Overview's name in the menu) shows it, with no "Page not found"."""
    open_url(page, f"{server}/overview?tok=char", "Corpus BLEU")
    expect(page.get_by_role("heading", name="Overview", exact=True)).to_be_visible()
    expect(page.get_by_text("Page not found")).to_have_count(0)
    score = sacrebleu.corpus_bleu(HYPS["terse"], REFS, tokenize="char")
    expect(metric_value(page, "terse")).to_have_text(f"{score.score:.2f}")


def test_learn_opens_a_segment_with_its_tokenizer_and_links_back(page: Page, server: str) -> None:
    """Sentences -> Learn carries the tokenizer and case; Learn's link goes back to the segment."""
    open_url(page, f"{server}/sentences?sys=terse&seg=4&tok=char&lc=1", "Segment 4 ·")
    page.get_by_role("link", name="Open this segment in Learn").click()
    expect(page.get_by_role("heading", name="Learn BLEU step by step")).to_be_visible()
    wait_idle(page)
    expect(page.get_by_role("combobox", name="Tokenizer")).to_have_value("char")
    expect(page.get_by_role("checkbox", name="Lowercase")).to_be_checked()
    page.get_by_role("link", name="Back to segment 4 on Sentences").click()
    expect(page.get_by_role("heading", name="Segment 4 ·")).to_contain_text("terse")
    wait_idle(page)
    expect(page.get_by_role("combobox", name="Tokenizer")).to_have_value("char")
    query = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)
    assert (query["sys"], query["seg"], query["tok"], query["lc"]) == (
        ["terse"],
        ["4"],
        ["char"],
        ["1"],
    )


def test_a_link_to_a_segment_opens_on_its_drill_down(page: Page, server: str) -> None:
    open_segment(page, server, "terse", 40)
    # At 1400×1000 the filters and the table above hold the heading below the fold; the
    # link scrolls it to the top, clear of Streamlit's header bar.
    page.wait_for_function(
        """() => {
            const heading = [...document.querySelectorAll("h3")]
                .find((h) => h.textContent.startsWith("Segment 40 "));
            const top = heading && heading.getBoundingClientRect().top;
            return heading && top >= 40 && top < 200;
        }"""
    )
