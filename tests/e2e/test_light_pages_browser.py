"""Browser tests: each page shows its answer before its charts; a page without a chart in
view loads no Plotly (``ui/sections/deferred.py``).

An init script watches the page from its first byte: when the answer's first element
appears it notes how many Plotly plots are drawn and whether the frontend has asked for
its Plotly chunk (``PlotlyChart.*.js``) yet. Every request the page makes is recorded
too, so "no Plotly" is checked on the network, not only in the drawn page.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, Route, expect

from bleuviz.app.ui.state.selection import OPEN_PX
from tests.e2e.test_browser import HYPS, wait_idle

pytestmark = pytest.mark.e2e

#: Notes, when the first element matching ``selector`` appears, the plots drawn and
#: whether the Plotly chunk was requested; and that element's top later on.
WATCH = """(selector) => {
  window.bvSeen = null;
  const plotly = () => performance.getEntriesByType("resource")
    .some(e => e.name.includes("PlotlyChart"));
  const look = () => {
    const answer = document.querySelector(selector);
    if (answer && !window.bvSeen) {
      window.bvSeen = {plots: document.querySelectorAll(".js-plotly-plot").length,
                       plotly: plotly(), top: answer.getBoundingClientRect().top};
    }
  };
  new MutationObserver(look).observe(document, {childList: true, subtree: true});
}"""

CARD = '[data-testid="stMetricValue"]'
PLOTS = ".js-plotly-plot"
#: No element is still a placeholder waiting for its code.
DRAWN = """() => !document.querySelector('[data-testid="stSkeleton"]')"""


@pytest.fixture
def requests(page: Page) -> Iterator[list[str]]:
    """Every URL the page requests from now on."""
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    yield urls


def watch(page: Page, selector: str) -> None:
    """Install ``WATCH`` for ``selector`` in every document the page opens."""
    page.add_init_script(f"({WATCH})({json.dumps(selector)})")


def seen(page: Page) -> dict[str, float]:
    """What ``WATCH`` noted when the answer appeared."""
    page.wait_for_function("() => window.bvSeen")
    return dict(page.evaluate("window.bvSeen"))


def settled(page: Page) -> None:
    """Wait until the script has run, every element is drawn, and no part is pending."""
    wait_idle(page)
    page.wait_for_function(DRAWN)
    page.wait_for_timeout(1500)  # a deferred part's button would have been pressed by now
    wait_idle(page)


def plotly_requests(urls: list[str]) -> list[str]:
    """The requests for Streamlit's Plotly chunk."""
    return [url for url in urls if "PlotlyChart" in url]


def test_overview_shows_its_answer_before_its_charts(
    page: Page, server: str, requests: list[str]
) -> None:
    watch(page, CARD)
    page.goto(server)
    at_answer = seen(page)
    assert at_answer["plots"] == 0 and not at_answer["plotly"], at_answer
    expect(page.locator(CARD)).to_have_count(len(HYPS))
    expect(page.locator('[data-testid="stTable"]')).to_be_visible()
    # Then every chart arrives by itself: precision, sentence BLEU, documents.
    expect(page.locator(PLOTS)).to_have_count(3)
    assert len(plotly_requests(requests)) == 1
    # Nothing jumped: the first card is where it was when it appeared.
    top = page.locator(CARD).first.bounding_box()
    assert top is not None and abs(top["y"] - at_answer["top"]) < 1
    for key in ("ov_charts_go", "ov_docs_go"):
        expect(page.locator(f".st-key-{key}")).to_have_count(0)


def test_the_overview_cards_stay_put_when_the_ranking_s_code_comes_late(
    page: Page, server: str
) -> None:
    # On a loaded machine the browser may fetch a widget's code after the answer below it is
    # drawn. The ranking's selectbox keeps its room meanwhile (overview_table.RANK_ROOM):
    # its code is held here until the cards are on screen.
    held: list[Route] = []
    released = False

    def hold(route: Route) -> None:
        if released:
            route.continue_()
        else:
            held.append(route)

    page.route("**/Selectbox*.js", hold)
    watch(page, CARD)
    page.goto(server)
    at_answer = seen(page)
    released = True
    for route in held:
        route.continue_()
    expect(page.locator(".st-key-ov_rank_by [data-testid='stSelectbox']")).to_be_visible()
    top = page.locator(CARD).first.bounding_box()
    assert top is not None and abs(top["y"] - at_answer["top"]) < 1, (top, at_answer)


def test_a_link_to_a_segment_loads_no_plotly(page: Page, server: str, requests: list[str]) -> None:
    watch(page, ".bv-line")
    page.goto(f"{server}/sentences?sys=terse&seg=5")
    expect(page.get_by_role("heading", name="Segment 5 ·")).to_contain_text("terse")
    expect(page.get_by_role("heading", name="This segment in every system")).to_be_visible()
    settled(page)
    # The word differences take their colours from the frame's one style sheet.
    inserted = page.locator(".bv-diff ins").first
    expect(inserted).to_have_css("background-color", "rgb(208, 235, 255)")
    assert page.locator('[data-testid="stMain"] style').count() == 0
    assert seen(page)["plotly"] is False
    assert page.locator(PLOTS).count() == 0
    assert plotly_requests(requests) == []


def test_learn_loads_no_plotly_and_no_highlighter(
    page: Page, server: str, requests: list[str]
) -> None:
    page.goto(f"{server}/learn")
    expect(page.get_by_role("heading", name="Learn BLEU step by step")).to_be_visible()
    settled(page)
    assert page.locator(PLOTS).count() == 0
    assert plotly_requests(requests) == []
    # The score line and signature are code through Markdown: no syntax highlighter loads.
    expect(page.locator("code.bv-signature").filter(has_text="BLEU = ")).to_have_count(1)
    expect(page.locator("code.bv-signature").filter(has_text="nrefs:")).to_have_count(1)
    assert not [url for url in requests if "SyntaxHighlighter" in url]


def test_a_link_to_compares_charts_shows_the_verdict_first(
    page: Page, server: str, requests: list[str]
) -> None:
    watch(page, CARD)
    page.goto(f"{server}/compare?a=literal&b=terse&view=sentences")
    at_answer = seen(page)
    assert at_answer["plots"] == 0 and not at_answer["plotly"], at_answer
    expect(page.get_by_text("p-value, bootstrap")).to_be_visible()
    expect(page.locator(PLOTS)).to_have_count(3)  # scatter, differences, win/tie/loss
    assert len(plotly_requests(requests)) == 1
    # The scatter still opens a segment: a click on a point opens the Segments tab.
    wait_idle(page)
    point = page.locator(f"{PLOTS} .scatterlayer .trace .points path").last
    segment = point.evaluate("p => p.__data__.data")  # the point's customdata
    point.click(force=True)
    expect(page.get_by_role("tab", name="Segments", selected=True)).to_be_visible()
    expect(page.get_by_role("heading", name=f"Segment {segment} ·")).to_be_visible()


#: On a link to a segment: whether the segment table, any data frame (the n-gram table too)
#: and the other systems' lines were on the page when the linked segment's hypothesis showed.
WATCH_TABLE = """() => {
  window.bvTable = null;
  new MutationObserver(() => {
    if (document.querySelector(".bv-line") && window.bvTable === null) {
      window.bvTable = {table: Boolean(document.querySelector(".st-key-sent_table")),
                        frames: document.querySelectorAll('[data-testid="stDataFrame"]').length,
                        every: document.querySelectorAll(".bv-diff").length};
    }
  }).observe(document, {childList: true, subtree: true});
}"""


def test_a_link_to_a_segment_shows_it_before_the_table(page: Page, server: str) -> None:
    page.add_init_script(f"({WATCH_TABLE})()")
    page.goto(f"{server}/sentences?sys=terse&seg=5")
    heading = page.get_by_role("heading", name="Segment 5 ·")
    # For a moment the first look's heading and the page's may both be drawn.
    expect(heading.first).to_contain_text("terse")
    page.wait_for_function("() => window.bvTable")
    # Then the table, its downloads and every system's line arrive by themselves.
    expect(page.locator(".st-key-sent_table")).to_be_visible()
    expect(page.locator(".st-key-sent_export_csv")).to_be_visible()
    expect(page.locator(".bv-diff").first).to_be_attached()
    settled(page)
    expect(heading).to_have_count(1)  # once settled, one heading: the page's
    assert page.evaluate("window.bvTable") == {"table": False, "frames": 0, "every": 0}
    # The table arrived above the linked segment without pushing it down: its heading is
    # still at the window's top, just below Streamlit's header bar (widgets/scroll.py).
    top = heading.bounding_box()
    assert top is not None and 40 < top["y"] < 100, top
    for key in ("sent_table_part_go", "sent_every_part_go"):
        expect(page.locator(f".st-key-{key}")).to_have_count(0)
    # A click on a row's number still opens that row's segment. The table opens on the row
    # before the linked one (scroll_table_to_row), so its third row is segment 5 - 1 + 2.
    grid = page.locator(".st-key-sent_table [data-testid='stDataFrame']")
    # The page's script scrolls the table once its rows are drawn (widgets/scroll.py), which
    # on a busy machine can come after the page has settled: a click before it would land
    # on the table's first rows.
    page.wait_for_function(
        "() => document.querySelector('.st-key-sent_table .dvn-scroller')?.scrollTop > 0",
        polling=100,
    )
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + OPEN_PX + 37, box["y"] + 35 + 2 * 35 + 17)  # the third number
    expect(page.get_by_role("heading", name="Segment 6 ·")).to_contain_text("terse")


#: When the linked segment's hypothesis first shows: the widgets then drawn, and the code
#: of which kinds of element the frontend had asked for (its chunks, by file name).
WATCH_FIRST_LOOK = """() => {
  window.bvFirstLook = null;
  new MutationObserver(() => {
    if (document.querySelector(".bv-line") && window.bvFirstLook === null) {
      const chunks = performance.getEntriesByType("resource")
        .map(e => e.name.split("/").pop().split(".")[0]);
      window.bvFirstLook = {
        widgets: document.querySelectorAll('[data-testid="stSelectbox"], '
          + '[data-testid="stNumberInput"], [data-testid="stTextInput"], '
          + '[data-testid="stSlider"], [data-testid="stRadio"], [data-testid="stCheckbox"], '
          + '[data-testid="stMultiSelect"], [data-testid="stFileUploader"], '
          + '[data-testid="stMetric"]').length,
        chunks: [...new Set(chunks)].filter(c => /^[A-Z]/.test(c)).sort(),
        title: Boolean(document.querySelector("h1")),
      };
    }
  }).observe(document, {childList: true, subtree: true});
}"""


def test_a_new_session_sees_the_linked_segment_before_any_widget(page: Page, server: str) -> None:
    page.add_init_script(f"({WATCH_FIRST_LOOK})()")
    page.goto(f"{server}/sentences?sys=terse&seg=5")
    page.wait_for_function("() => window.bvFirstLook")
    first = page.evaluate("window.bvFirstLook")
    assert first["widgets"] == 0 and not first["title"], first
    # The code of a kind of widget is fetched when one is drawn: none before the segment
    # but the sidebar's button (and the Markdown and HTML the segment is drawn with).
    widget_code = {"Selectbox", "NumberInput", "Slider", "Radio", "Checkbox", "Metric"}
    assert not widget_code & set(first["chunks"]), first["chunks"]
    # Then the page arrives around it by itself: title, settings, table, drill-down.
    expect(page.get_by_role("heading", name="Sentences", exact=True)).to_be_visible()
    expect(page.get_by_text("BLEU settings")).to_be_visible()
    expect(page.locator(".st-key-sent_table")).to_be_visible()
    settled(page)
    heading = page.get_by_role("heading", name="Segment 5 ·")
    expect(heading).to_have_count(1)  # the first look is gone
    expect(heading).to_contain_text("terse")
    expect(page.locator('[data-testid="stMetric"]').first).to_be_visible()
    expect(page.locator('[class*="st-key-frame_whole_page_go"]')).to_have_count(0)
    top = heading.bounding_box()
    assert top is not None and 40 < top["y"] < 100, top  # kept in view as the page came
    # The settings work as before: lowercasing changes nothing here, but is applied.
    page.get_by_text("Lowercase").click()
    wait_idle(page)
    expect(page.get_by_text("case:lc").first).to_be_attached()
