"""AppTest of the many-system views: one segment in every system, and the outlier finder.

Oracle: sacrebleu 2.6.0's ``sentence_bleu`` on the sample's files.
"""

from __future__ import annotations

import html
import re
import statistics
from collections.abc import Callable

import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.sections.compare.views import (
    BUCKETS,
    NGRAMS,
    SEGMENTS,
    SENTENCES,
    SIGNIFICANCE,
    View,
)
from tests.app.compare_tabs import open_view
from tests.app.markup import html_bodies
from tests.data import SAMPLE_REF_LINES, SAMPLE_SYSTEM_LINES

HYPS = SAMPLE_SYSTEM_LINES
REFS = SAMPLE_REF_LINES


def sentence(name: str, i: int) -> float:
    return sacrebleu.sentence_bleu(HYPS[name][i], [r[i] for r in REFS]).score


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> Callable[[str], AppTest]:
    def make(page: str) -> AppTest:
        at = new_app()
        at.switch_page(page)
        return at

    return make


def test_one_segment_in_every_system(app: Callable[[str], AppTest]) -> None:
    at = app("bleuviz/app/page_scripts/sentences.py")
    at.query_params["sys"] = "terse"
    at.query_params["seg"] = "7"
    at.run()
    assert not at.exception
    lines = every_system_heads(at)
    expected = sorted(HYPS, key=lambda n: -sentence(n, 6))
    assert [line.split(" · ")[0].removesuffix(" (baseline)") for line in lines] == expected
    for line, name in zip(lines, expected, strict=True):
        assert line.endswith(f"BLEU {sentence(name, 6):.2f}")
    at.selectbox(key="sent_diff_base").set_value("repeat").run()
    assert "repeat (baseline) · BLEU" in " | ".join(every_system_heads(at))


def every_system_heads(at: AppTest) -> list[str]:
    """The heading of each system in the "This segment in every system" block, as text."""
    block = next(b for b in html_bodies(at) if "bv-system-head" in b)
    heads = re.findall(r'<div class="bv-system-head">(.*?)</div>', block)
    return [html.unescape(re.sub(r"<[^>]+>", "", head)) for head in heads]


def test_outliers_follow_their_definition(app: Callable[[str], AppTest]) -> None:
    at = app("bleuviz/app/page_scripts/overview.py")
    at.run()
    # Closed (the default), the finder is neither computed nor drawn.
    assert all(box.key != "ov_out_gap" for box in at.number_input)
    at.session_state["ov_outliers_open"] = True
    at.run()
    at.number_input(key="ov_out_gap").set_value(40.0).run()
    assert not at.exception
    found = at.expander[1].dataframe[0].value
    flagged = found[found["check"].str.startswith("BLEU")]
    assert len(flagged) > 0
    for row in flagged.itertuples():
        i = int(row.seg) - 1
        others = [sentence(n, i) for n in HYPS if n != row.system]
        assert statistics.median(others) - sentence(row.system, i) >= 40


@pytest.mark.parametrize(
    ("page", "tables"),
    [
        # systems, documents, outliers (their expander opened below)
        ("bleuviz/app/page_scripts/overview.py", 3),
        # the segments shown, every system's segments
        ("bleuviz/app/page_scripts/sentences.py", 2),
    ],
)
def test_every_table_offers_csv_json_and_latex(
    app: Callable[[str], AppTest], page: str, tables: int
) -> None:
    at = app(page)
    at.session_state["ov_outliers_open"] = True
    at.run()
    assert not at.exception
    labels = [b.label for b in at.get("download_button")]
    assert labels == ["CSV", "JSON", "LaTeX"] * tables


@pytest.mark.parametrize(
    ("view", "tables"),
    [
        (SIGNIFICANCE, 1),  # every system against A
        (SENTENCES, 0),  # the disagreement table needs a second metric
        (BUCKETS, 1),
        (NGRAMS, 2),  # A's and B's salient n-grams
        (SEGMENTS, 1),
    ],
)
def test_every_compare_table_offers_csv_json_and_latex(
    app: Callable[[str], AppTest], view: View, tables: int
) -> None:
    at = open_view(app("bleuviz/app/page_scripts/compare.py"), view)
    assert not at.exception
    labels = [b.label for b in at.get("download_button")]
    assert labels == ["CSV", "JSON", "LaTeX"] * tables
