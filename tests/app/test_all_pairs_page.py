"""AppTest of the Compare page's paired signature and all-pairs view.

Oracles: sacrebleu 2.6.0's ``PairedTest`` (signature; p-values of a two-system run
with the pair's first system as baseline) on the sample's files.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import combinations

import pytest
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest
from streamlit.testing.v1 import AppTest

from tests.app.downloads import capture_downloads
from tests.app.markup import message_text, signatures
from tests.data import SAMPLE_REF_LINES, SAMPLE_SYSTEM_LINES

HYPS = SAMPLE_SYSTEM_LINES
REFS = SAMPLE_REF_LINES


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> AppTest:
    at = new_app()
    at.switch_page("bleuviz/app/page_scripts/compare.py")
    at.session_state["cmp_n_bootstrap"] = 200
    at.session_state["cmp_n_ar"] = 300
    at.run()
    assert not at.exception
    return at


def test_compare_shows_sacrebleus_paired_signature(app: AppTest) -> None:
    named = list(HYPS.items())[:2]
    sig, _ = PairedTest(named, {"BLEU": BLEU()}, REFS, "ar", 300, n_ar_confidence=200)()
    assert sig["BLEU"].format() in signatures(app)


def test_all_pairs_equal_two_system_runs(app: AppTest) -> None:
    app.toggle(key="cmp_all_pairs").set_value(True).run()
    assert not app.exception
    pairs = app.dataframe[0].value  # the pairs table comes first on the page
    assert [tuple(r) for r in pairs[["a", "b"]].itertuples(index=False)] == list(
        combinations(HYPS, 2)
    )
    for row in pairs.itertuples(index=False):
        named = [(row.a, HYPS[row.a]), (row.b, HYPS[row.b])]
        _, bs = PairedTest(named, {"BLEU": BLEU()}, REFS, "bs", 200)()
        _, ar = PairedTest(named, {"BLEU": BLEU()}, REFS, "ar", 300)()
        assert row.p_value_bs == bs["BLEU"][1].p_value
        assert row.p_value_ar == ar["BLEU"][1].p_value
        assert row.diff == pytest.approx(bs["BLEU"][1].score - bs["BLEU"][0].score, abs=0.051)
    heatmap = json.loads(app.get("plotly_chart")[0].proto.spec)["data"][0]
    assert heatmap["type"] == "heatmap" and len(heatmap["z"]) == 3
    clusters = [m.value for m in app.markdown if m.value.startswith("1. ")]
    assert clusters == ["1. repeat\n2. terse\n3. literal"]
    app.toggle(key="cmp_pairs_holm").set_value(True).run()
    holm = app.dataframe[0].value  # the pairs table comes first on the page
    assert (holm["p_value_bs"] >= pairs["p_value_bs"]).all()


def holm_first(raw: list[float]) -> float:
    """Holm's smallest adjusted p-value: the smallest raw one times their number."""
    return min(1.0, len(raw) * min(raw))


def test_holm_gets_enough_resamples_and_stars_match_the_table(
    app: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """10 resamples cannot reach p < 0.05 (sacrebleu's smallest p is 1/11): the page says so;
    with Holm over 3 pairs they are tested with 10 × 3 / 0.05 = 600, and a cell is dark and
    starred exactly when its pair is significant."""
    downloads = capture_downloads(monkeypatch)
    app.session_state["cmp_n_bootstrap"] = 10
    app.run()
    warnings = [message_text(w.value) for w in app.warning]
    assert any("paired bootstrap: with 10 resamples" in w for w in warnings), warnings
    app.toggle(key="cmp_all_pairs").set_value(True).run()
    app.toggle(key="cmp_pairs_holm").set_value(True).run()
    assert not app.exception
    table = app.dataframe[0].value
    raw = []
    for row in table.itertuples(index=False):
        named = [(row.a, HYPS[row.a]), (row.b, HYPS[row.b])]
        _, bs = PairedTest(named, {"BLEU": BLEU()}, REFS, "bs", 600)()
        raw.append(bs["BLEU"][1].p_value)
    assert table["p_value_bs"].min() == pytest.approx(holm_first(raw))
    assert any("tested with 600 bootstrap resamples" in c.value for c in app.caption)
    exported = json.loads(downloads["cmp_pairs_export_json"]())
    assert "|bs:600|ar:600|" in exported["signature"]
    assert {row["correction"] for row in exported["rows"]} == {"Holm over 3 pairs"}
    heatmap = json.loads(app.get("plotly_chart")[0].proto.spec)["data"][0]
    names = heatmap["x"]
    for row in table.itertuples(index=False):
        i, j = names.index(row.a), names.index(row.b)
        significant = row.p_value_bs < 0.05
        assert heatmap["z"][j][i] == heatmap["z"][i][j] == float(significant)
        assert heatmap["text"][j][i].endswith("*") == significant


@pytest.mark.parametrize(("metric", "better"), [("BLEU", "higher"), ("TER", "lower")])
def test_pairs_say_which_sign_is_better_and_show_one_precision_per_column(
    app: AppTest, metric: str, better: str
) -> None:
    """TER's grid reads the other way round: the caption says so. Each column of the table
    keeps one precision: the metric's own for b − a (two decimals, as sacrebleu prints
    BLEU and TER), four for p-values (as sacrebleu prints them)."""
    app.session_state["metrics"] = ["TER"]
    app.session_state["cmp_sig_metric"] = metric
    app.run()
    app.toggle(key="cmp_all_pairs").set_value(True).run()
    assert not app.exception, [e.value for e in app.exception]
    (caption,) = [c.value for c in app.caption if c.value.startswith("Row minus column")]
    row_better = "positive" if better == "higher" else "negative"
    assert f"{better} is better" in caption
    assert f"{row_better}, the row's system is better" in caption
    columns = json.loads(app.dataframe[0].proto.columns)
    formats = {c: columns[c]["type_config"]["format"] for c in ("diff", "p_value_bs", "p_value_ar")}
    assert formats == {"diff": "%+.2f", "p_value_bs": "%.4f", "p_value_ar": "%.4f"}
    labels = [columns[c]["label"] for c in ("p_value_bs", "p_value_ar")]
    assert labels == ["p (bootstrap)", "p (randomization)"]  # as the buckets' table heads them
