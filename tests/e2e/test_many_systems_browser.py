"""Browser tests of the many-system views: the ranked Overview, all pairs, one segment everywhere.

Expected numbers come from sacrebleu 2.6 (``corpus_bleu``, ``sentence_bleu``,
``PairedTest``) on the sample's files; nothing is hard-coded from the app.
"""

from __future__ import annotations

import pytest
import sacrebleu
from playwright.sync_api import Page, expect
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from tests.data import SAMPLE_REF_LINES, SAMPLE_SYSTEM_LINES
from tests.e2e.test_browser import open_url, segment_containing, wait_idle

pytestmark = pytest.mark.e2e

HYPS = SAMPLE_SYSTEM_LINES
REFS = SAMPLE_REF_LINES


def test_overview_table_is_ranked_and_marks_the_best(page: Page, server: str) -> None:
    open_url(page, server, "Corpus BLEU")
    bleu = {n: sacrebleu.corpus_bleu(h, REFS).score for n, h in HYPS.items()}
    ranked = sorted(bleu, key=bleu.get, reverse=True)
    rows = page.locator('[data-testid="stTable"] tbody tr').first
    expect(rows).to_contain_text(ranked[0])
    names = [t.strip() for t in page.locator('[data-testid="stTable"] tbody th').all_inner_texts()][
        :3
    ]
    assert names == ranked
    best = (
        page.locator('[data-testid="stTable"] td').filter(has_text=f"{bleu[ranked[0]]:.2f}").first
    )
    assert "700" in best.evaluate("e => getComputedStyle(e).fontWeight")


def test_all_pairs_heatmap_and_clusters(page: Page, server: str) -> None:
    open_url(page, f"{server}/compare", "Every pair of systems")
    page.get_by_text("Test all 3 pairs").click()
    wait_idle(page)
    heatmap = page.locator(".js-plotly-plot").filter(has=page.locator(".heatmaplayer"))
    expect(heatmap).to_have_count(1)
    trace = heatmap.evaluate("e => ({x: e.data[0].x, y: e.data[0].y, text: e.data[0].text})")
    index = {name: i for i, name in enumerate(trace["x"])}
    for a, b in [("literal", "terse"), ("literal", "repeat"), ("terse", "repeat")]:
        _, res = PairedTest([(a, HYPS[a]), (b, HYPS[b])], {"BLEU": BLEU()}, REFS, "bs", 1000)()
        diff = res["BLEU"][1].score - res["BLEU"][0].score  # row b, column a: b − a
        star = "*" if res["BLEU"][1].p_value < 0.05 else ""  # significant cells are starred
        assert trace["text"][index[b]][index[a]] == f"{diff:+.2f}{star}"
    expect(page.get_by_role("listitem").filter(has_text="repeat").first).to_be_visible()


def test_one_segment_in_every_system(page: Page, server: str) -> None:
    open_url(page, f"{server}/sentences?sys=terse&seg=7", "This segment in every system")
    for name, hyps in HYPS.items():
        score = sacrebleu.sentence_bleu(hyps[6], [r[6] for r in REFS]).score
        expect(
            page.get_by_text(f"{name} · BLEU {score:.2f}")
            .or_(page.get_by_text(f"{name} (baseline) · BLEU {score:.2f}"))
            .first
        ).to_be_visible()
    expect(page.locator(".bv-diff").first).to_be_visible()


def test_text_in_the_diff_and_search_hits_stays_inert(page: Page, server: str) -> None:
    """The word diff and the marked search hits escape the data: a <script> shows as text."""
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    system = next(n for n, lines in HYPS.items() if any("<script>" in line for line in lines))
    seg = segment_containing(system, "<script>")
    url = f"{server}/sentences?sys={system}&seg={seg}&q=script"
    open_url(page, url, "This segment in every system")
    literal = "<script>alert('Tor!')</script>"
    expect(page.locator(".bv-hits")).to_contain_text(literal)
    expect(page.locator(".bv-hits mark").first).to_have_text("script")
    diffs = page.locator(".bv-diff")
    assert any(literal in text for text in diffs.all_inner_texts())
    # The scripts a link to a segment may bring are ours: they scroll to the drill-down
    # and the table to the segment's row.
    ours = page.locator('[data-testid="stMain"] script').evaluate_all(
        "els => els.map(e => e.textContent)"
    )
    assert all(
        ("scrollIntoView" in script or "grid.scrollTop = top" in script) and "Tor!" not in script
        for script in ours
    )
    page.wait_for_timeout(1000)  # give a script that did get in the time to run
    assert dialogs == []


def test_suspicious_segments_are_built_when_their_expander_opens(page: Page, server: str) -> None:
    """The outlier finder is lazy: nothing of it is on the page until its expander is opened."""
    open_url(page, server, "Suspicious segments")
    assert page.get_by_text("flagged (system, segment) pairs").count() == 0
    page.get_by_text("Suspicious segments: where one system stands apart").click()
    wait_idle(page)
    expect(page.get_by_text("flagged (system, segment) pairs")).to_be_visible()
    expect(page.get_by_label("BLEU below the others' median by")).to_have_value("30.00")


def test_salient_ngrams_are_built_when_their_tab_opens(page: Page, server: str) -> None:
    """Compare's tabs are lazy; opened, the salient n-grams show both systems' tables."""
    open_url(page, f"{server}/compare", "Every pair of systems")
    expect(page.get_by_text("(A) matches more often")).to_have_count(0)
    page.get_by_role("tab", name="Salient n-grams").click()
    wait_idle(page)
    expect(page.get_by_text("(A) matches more often")).to_be_visible()
    expect(page.get_by_text("(B) matches more often")).to_be_visible()


def test_a_click_on_the_scatter_opens_the_segment_in_the_segments_tab(
    page: Page, server: str
) -> None:
    """The scatter's points carry their segment; a click opens it in the Segments tab."""
    open_url(page, f"{server}/compare?view=sentences", "Click a point to open its segment")
    point = page.locator(".js-plotly-plot .scatterlayer .trace .points path").last
    segment = point.evaluate("p => p.__data__.data")  # the point's customdata
    point.click(force=True)
    wait_idle(page)
    expect(page.get_by_role("tab", name="Segments", selected=True)).to_be_visible()
    expect(page.get_by_role("heading", name=f"Segment {segment} ·")).to_be_visible()
    assert f"seg={segment}" in page.url and "view=segments" in page.url
