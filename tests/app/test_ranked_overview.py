"""The ranked Overview: order by any score column, the best marked, exports and charts.

Oracles: sacrebleu 2.6.0's ``corpus_bleu``/``TER`` on the sample's files, and the
definition of the ranking (best first; for TER lower is better).
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pandas as pd
import pytest
from sacrebleu.metrics import BLEU, TER
from streamlit.testing.v1 import AppTest

from bleuviz.analysis.ranking import best_systems, rank_order
from bleuviz.app.ui.sections.overview_table import BEST_STYLE, Column, systems_table
from bleuviz.render.export import to_csv, to_json, to_latex
from tests.data import SAMPLE_REF_LINES, SAMPLE_SYSTEM_LINES

HYPS = SAMPLE_SYSTEM_LINES
REFS = SAMPLE_REF_LINES


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> AppTest:
    at = new_app()
    at.run()
    assert not at.exception
    return at


def test_rank_order_and_best() -> None:
    values = {"a": 1.0, "b": 3.0, "c": float("nan"), "d": 3.0}
    assert rank_order(values) == ["b", "d", "a", "c"]
    assert rank_order(values, higher_is_better=False) == ["a", "b", "d", "c"]
    assert best_systems(values) == {"b", "d"} and best_systems({"x": float("nan")}) == set()


def test_systems_table_marks_the_best_cell_of_each_score_column() -> None:
    columns = {
        "BLEU": Column("BLEU", {"a": 1.0, "b": 2.0}, {"a": "1.00", "b": "2.00"}, True),
        "TER": Column("TER", {"a": 1.0, "b": 2.0}, {"a": "1.00", "b": "2.00"}, False),
        "ratio": Column("ratio", {"a": 1.0, "b": 2.0}, {"a": "1.000", "b": "2.000"}, None),
    }
    styled = systems_table(columns, ["b", "a"])
    styles = {(row, col): css for (row, col), css in styled._compute().ctx.items()}
    frame = styled.data
    marked = {(frame.index[r], frame.columns[c]) for (r, c), css in styles.items() if css}
    assert marked == {("b", "BLEU"), ("a", "TER")}
    assert BEST_STYLE.split(";")[0].split(": ")[1] in str(styles)


def test_overview_ranks_by_bleu_then_by_ter(app: AppTest) -> None:
    bleu = {n: BLEU().corpus_score(h, REFS).score for n, h in HYPS.items()}
    by_bleu = sorted(bleu, key=bleu.get, reverse=True)
    assert [m.label for m in app.metric] == by_bleu
    assert list(app.table[0].value.index) == by_bleu
    app.session_state["metrics"] = ["TER"]
    app.run()
    app.selectbox(key="ov_rank_by").set_value("TER").run()
    assert not app.exception
    ter = {n: TER().corpus_score(h, REFS).score for n, h in HYPS.items()}
    by_ter = sorted(ter, key=ter.get)  # lower is better
    assert list(app.table[0].value.index) == by_ter
    assert app.table[0].value["rank"].tolist() == ["1", "2", "3"]


def test_exports_hold_the_numbers(app: AppTest) -> None:
    frame = pd.DataFrame({"system": ["a_b", "c"], "BLEU": [27.99, float("nan")]})
    data = json.loads(to_json(frame, "sig"))
    assert data == {
        "signature": "sig",
        "rows": [{"system": "a_b", "BLEU": 27.99}, {"system": "c", "BLEU": None}],
    }
    assert to_csv(frame, "sig").decode().splitlines() == [
        "system,BLEU,signature",
        "a_b,27.99,sig",
        "c,,sig",
    ]
    latex = to_latex(frame, "sig").decode()
    assert "a\\_b & 27.9900" in latex and "c & --" in latex and latex.startswith("% sig\n")
    labels = [b.label for b in app.get("download_button")]
    assert labels[:3] == ["CSV", "JSON", "LaTeX"]


def test_charts_focus_on_the_chosen_systems(app: AppTest) -> None:
    app.multiselect(key="ov_focus").set_value(["terse"]).run()
    assert not app.exception
    charts = [json.loads(c.proto.spec) for c in app.get("plotly_chart")]
    precision, boxes = charts[:2]
    assert [t["y"] for t in precision["data"]] == [["terse"]] * 4  # one dot per order
    # One box per system (sent as its statistics), and its outliers beside it.
    assert [t["name"] for t in boxes["data"] if t["type"] == "box"] == ["terse"]
    assert {t["name"] for t in boxes["data"]} == {"terse"}


def test_a_change_of_ranking_leaves_the_charts_in_bleu_order(app: AppTest) -> None:
    """The charts keep corpus BLEU's order, so ranking by unigram precision sends the same
    figures (on the sample, ``terse`` has the best p1 and ``repeat`` the best BLEU)."""
    before = [c.proto.spec for c in app.get("plotly_chart")]
    app.selectbox(key="ov_rank_by").set_value("p1").run()
    assert not app.exception
    scores = {n: BLEU().corpus_score(h, REFS) for n, h in HYPS.items()}
    by_bleu = sorted(scores, key=lambda n: scores[n].score, reverse=True)
    by_p1 = sorted(scores, key=lambda n: scores[n].precisions[0], reverse=True)
    assert by_p1 != by_bleu  # otherwise this would prove nothing
    assert list(app.table[0].value.index) == by_p1
    after = [c.proto.spec for c in app.get("plotly_chart")]
    assert after == before
    precision = json.loads(after[0])
    assert precision["data"][0]["y"] == by_bleu
