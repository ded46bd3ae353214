"""The Overview's systems table: ranked by a chosen score, the best of each column marked."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from bleuviz.analysis.ranking import best_systems, rank_order
from bleuviz.app.ui.cache.scores import metric_spec, sentence_bleu
from bleuviz.app.ui.sections.humans import mean_with_ci
from bleuviz.app.ui.widgets.format import direction_note, fmt_bleu, fmt_bp, fmt_metric
from bleuviz.bleu import BleuConfig
from bleuviz.bleu.result import BleuScore
from bleuviz.metrics import MetricScores
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.labels import escape_markdown as md

BLEU, MEAN_SENTENCE = "BLEU", "mean sentence BLEU"
#: Formats one value of a column as its cell text.
Formatter = Callable[[float], str]
#: How the best cell of a column is marked.
BEST_STYLE = "font-weight: 700; background-color: rgba(46, 160, 67, 0.18)"


@dataclass(frozen=True, slots=True)
class Column:
    """One score column: its heading, each system's value and cell text, its direction."""

    heading: str
    values: dict[str, float]
    cells: dict[str, str]
    higher_is_better: bool | None  # None: no best (lengths, ratio)


def score_columns(
    evaluation: Evaluation,
    config: BleuConfig,
    scores: Mapping[str, BleuScore],
    others: Mapping[str, Mapping[str, MetricScores]],
) -> dict[str, Column]:
    """Every column of the systems table, by the name the ranking offers."""
    columns: dict[str, Column] = {}

    def add(
        name: str, heading: str, values: dict[str, float], fmt: Formatter, better: bool | None
    ) -> None:
        columns[name] = Column(heading, values, {n: fmt(v) for n, v in values.items()}, better)

    add(BLEU, BLEU, {n: s.score for n, s in scores.items()}, fmt_bleu, True)
    for k in range(config.max_order):
        add(
            f"p{k + 1}",
            f"p{k + 1}",
            {n: s.precisions[k] for n, s in scores.items()},
            lambda v: f"{v:.1f}",
            True,
        )
    add("BP", "BP", {n: s.bp for n, s in scores.items()}, fmt_bp, True)
    add("ratio", "ratio", {n: s.ratio for n, s in scores.items()}, lambda v: f"{v:.3f}", None)
    add(
        "hyp_len",
        "hyp_len",
        {n: float(s.hyp_len) for n, s in scores.items()},
        lambda v: f"{v:.0f}",
        None,
    )
    add(
        "ref_len",
        "ref_len",
        {n: float(s.ref_len) for n, s in scores.items()},
        lambda v: f"{v:.0f}",
        None,
    )
    mean = {n: float(sentence_bleu(evaluation, n, config).score.mean()) for n in scores}
    add(MEAN_SENTENCE, MEAN_SENTENCE, mean, fmt_bleu, True)
    for label, by_system in others.items():
        spec = metric_spec(evaluation, label)
        values = {n: by_system[n].corpus for n in scores}
        if spec.imported:
            heading = f"{md(label)} (mean ± 95% CI){direction_note(spec)}"
            cells = {n: mean_with_ci(spec, by_system[n]) for n in scores}
            columns[label] = Column(heading, values, cells, spec.higher_is_better)
        else:
            heading = f"mean {label} F" if spec.mean_of_sentences else label
            add(label, heading, values, partial(fmt_metric, spec), spec.higher_is_better)
    return columns


def ranked(columns: Mapping[str, Column], rank_by: str) -> list[str]:
    """Systems best first by the column ``rank_by``."""
    column = columns[rank_by]
    return rank_order(column.values, column.higher_is_better is not False)


def systems_table(columns: Mapping[str, Column], order: list[str]) -> Styler:
    """The table as shown: text cells in rank order, the best of each score column marked."""
    frame = pd.DataFrame(
        {"system": [md(n) for n in order], "rank": [str(i) for i in range(1, len(order) + 1)]}
        | {c.heading: [c.cells[n] for n in order] for c in columns.values()}
    ).set_index("system")
    best = {
        c.heading: best_systems(c.values, c.higher_is_better)
        for c in columns.values()
        if c.higher_is_better is not None
    }
    marks = {md(n): n for n in order}

    def mark(column: pd.Series) -> list[str]:
        winners = best.get(str(column.name), set())
        return [BEST_STYLE if marks[label] in winners else "" for label in column.index]

    return frame.style.apply(mark)


def export_frame(columns: Mapping[str, Column], order: list[str]) -> pd.DataFrame:
    """The same table as numbers, for CSV, JSON and LaTeX."""
    frame = pd.DataFrame({"system": order, "rank": range(1, len(order) + 1)})
    for name, column in columns.items():
        frame[name] = [column.values[n] for n in order]
    return frame


def rank_choice(columns: Mapping[str, Column]) -> str:
    """A selectbox of the columns systems can be ranked by."""
    options = [name for name, c in columns.items() if c.higher_is_better is not None]
    if st.session_state.get("ov_rank_by") not in options:
        st.session_state["ov_rank_by"] = BLEU
    return str(st.selectbox("Rank systems by", options, key="ov_rank_by"))


#: Systems the charts show by default (the best ones); more stay one click away.
FOCUS_DEFAULT = 8


def chart_order(columns: Mapping[str, Column]) -> list[str]:
    """Systems best first by corpus BLEU, whatever the ranking: the order of the charts.

    The charts show BLEU's own quantities (precision by order, sentence BLEU), so
    they keep BLEU's order. A change of ranking then leaves their figures as they
    were, and the browser does not redraw them: Plotly redraws a changed figure
    from scratch, about 0.15 s a chart on this machine (a JS profile of the rank
    change on 3,004 segments x 9 systems).
    """
    return ranked(columns, BLEU)


def focus_picker(order: list[str]) -> list[str]:
    """A multiselect of the systems the charts show (default: the best eight), in ``order``."""
    if not all(n in order for n in st.session_state.get("ov_focus", [])):
        del st.session_state["ov_focus"]
    st.session_state.setdefault("ov_focus", order[:FOCUS_DEFAULT])
    chosen = st.multiselect(
        "Systems in the charts",
        order,
        key="ov_focus",
        help="With many systems, focus on a few; the charts keep the order of corpus BLEU.",
    )
    return [n for n in order if n in chosen] or order[:1]
