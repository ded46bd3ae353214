"""Browser tests of imported segment scores: uploaded in the sidebar, shown on every page.

Expected numbers come from the files themselves (read with plain Python here)
and sacrebleu 2.6's ``corpus_bleu``; nothing is hard-coded from the app.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from playwright.sync_api import Page, expect

from tests.data import COMET_SCORES, HUMAN_SCORES, file_scores
from tests.e2e.test_browser import metric_value, open_url, pick, wait_idle

pytestmark = pytest.mark.e2e


def upload(page: Page, label: str, *files: Path) -> None:
    """Give ``files`` to the sidebar's file uploader whose label starts with ``label``."""
    uploader = page.locator('[data-testid="stFileUploader"]').filter(has_text=label)
    uploader.locator('input[type="file"]').set_input_files([str(f) for f in files])
    wait_idle(page)


def test_uploaded_scores_show_on_every_page(page: Page, server: str) -> None:
    open_url(page, server, "Corpus BLEU")
    upload(page, "Segment scores", COMET_SCORES, HUMAN_SCORES)
    comet, human = file_scores(COMET_SCORES), file_scores(HUMAN_SCORES)
    expect(page.get_by_text("COMET-test: lower is better")).to_be_visible()
    cards = page.locator('[data-testid="stMetric"]').filter(has_text=f"{comet['terse'].mean():.4f}")
    expect(cards.first).to_be_visible()

    page.get_by_role("link", name="Sentences").click()
    expect(page.get_by_text("COMET-test (imported)")).to_be_visible()
    wait_idle(page)
    page.get_by_role("spinbutton", name="Segment").fill("3")
    page.keyboard.press("Enter")
    wait_idle(page)
    system = page.get_by_role("combobox", name="System").input_value() or "literal"
    expect(metric_value(page, "Imported COMET-test")).to_have_text(
        f"{comet[system if system in comet else 'literal'][2]:.4f}"
    )

    page.get_by_role("link", name="Compare").click()
    expect(page.get_by_text("Corpus score and significance")).to_be_visible()
    pick(page, "Corpus score and significance", "human")
    wait_idle(page)
    both = ~(np.isnan(human["literal"]) | np.isnan(human["terse"]))
    # Whole numbers in the file: shown with two decimals, the least any score gets (issue 44, 17)
    expect(metric_value(page, "human of B · terse")).to_have_text(
        f"{human['terse'][both].mean():.2f}"
    )


def test_score_columns_of_an_uploaded_table_never_become_systems(
    page: Page, server: str, tmp_path: Path
) -> None:
    refs = ["The cat sat on the mat .", "It rained all day .", "We went home early ."]
    sys_a = ["The cat sat on a mat .", "It rained the whole day .", "We went home ."]
    sys_b = ["A cat is on the mat .", "It rained all day .", "Home early ."]
    comet_a, comet_b = [0.81, 0.62, 0.7], [0.55, 0.93, None]
    table = tmp_path / "scored.tsv"
    rows = ["ref\tsysA\tsysB\tscore:COMET:sysA\tscore:COMET:sysB"]
    for r, a, b, ca, cb in zip(refs, sys_a, sys_b, comet_a, comet_b, strict=True):
        rows.append(f"{r}\t{a}\t{b}\t{ca}\t{'None' if cb is None else cb}")
    table.write_text("\n".join(rows) + "\n")
    open_url(page, server, "Corpus BLEU")
    page.get_by_text("Upload files", exact=True).click()
    wait_idle(page)
    upload(page, "Hypotheses", table)
    expect(page.get_by_text("3 segments · 1 reference(s) · 2 system(s)")).to_be_visible()
    for name, hyps in (("sysA", sys_a), ("sysB", sys_b)):
        expect(metric_value(page, name).first).to_have_text(
            f"{sacrebleu.corpus_bleu(hyps, [refs]).score:.2f}"
        )
    labels = page.locator('[data-testid="stMetricLabel"]')
    expect(labels.filter(has_text="score:")).to_have_count(0)
    expect(page.locator("td, th").filter(has_text="score:COMET")).to_have_count(0)
    header = page.locator("th").filter(has_text="COMET (mean ± 95% CI)")
    expect(header).to_have_count(1)
    # The table writes two decimals: its means show with two (issue 44, item 17)
    expect(page.get_by_text(f"{np.mean(comet_a):.2f} ±")).to_be_visible()
    expect(page.get_by_text(f"{np.mean([0.55, 0.93]):.2f} ±")).to_be_visible()


def test_a_signature_shows_a_file_name_with_markup_literally(
    page: Page, server: str, tmp_path: Path
) -> None:
    # The imported score's signature names its file: text from the data in our raw HTML.
    name = "<img src=x onerror=alert(1)>*$x$*`c`.seg.score"
    scores = tmp_path / name
    scores.write_bytes(COMET_SCORES.read_bytes())
    open_url(page, server, "Corpus BLEU")
    upload(page, "Segment scores", scores)
    signature = page.locator("code.bv-signature").filter(has_text="imported:")
    expect(signature).to_have_text(re.compile(r"^imported:" + re.escape(name) + r"\|segments:"))
    assert not page.locator('[data-testid="stMain"] img').count()
    assert not signature.locator("*").count()  # no element inside the code: text only
