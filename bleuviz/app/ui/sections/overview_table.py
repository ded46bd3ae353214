"""The Overview's systems table: ranked by a chosen score, the best of each column marked."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from bleuviz.analysis.ranking import rank_order, sole_best
from bleuviz.app.ui.sections.humans import cached_mean_ci, mean_with_ci
from bleuviz.app.ui.widgets.format import fmt_bleu, fmt_bp, fmt_metric
from bleuviz.bleu.result import BleuScore
from bleuviz.metrics import BLEU as BLEU_METRIC
from bleuviz.metrics import MetricScores
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.export import export_style
from bleuviz.render.labels import escape_markdown as md
from bleuviz.render.numbers import fixed

#: The columns of BLEU's corpus score and of its sentence scores' mean.
BLEU, MEAN_SENTENCE = BLEU_METRIC.label, f"mean sentence {BLEU_METRIC.label}"
#: Formats one value of a column as its cell text.
Formatter = Callable[[float], str]
#: How the best cell of a column is marked.
BEST_STYLE = "font-weight: 700; background-color: rgba(46, 160, 67, 0.18)"


@dataclass(frozen=True, slots=True)
class Column:
    """One score column: its heading, each system's value and cell text, its direction.

    ``digits``: decimals shown (the LaTeX export writes as many); ``ci``: each
    system's 95% CI half-width where the page shows one; ``signature``: the
    metric's, where the column is a metric's score.
    """

    heading: str
    values: dict[str, float]
    cells: dict[str, str]
    higher_is_better: bool | None  # None: no best (lengths, ratio)
    digits: int = 2
    ci: dict[str, float] | None = None
    signature: str = ""


def score_columns(
    evaluation: Evaluation,
    scores: Mapping[str, BleuScore],
    others: Mapping[str, Mapping[str, MetricScores]],
) -> dict[str, Column]:
    """Every column of the systems table, by the name the ranking offers."""
    columns: dict[str, Column] = {}

    def add(
        name: str,
        heading: str,
        values: dict[str, float],
        digits: int,
        better: bool | None,
        fmt: Formatter | None = None,
        signature: str = "",
    ) -> None:
        show = fmt or partial(fixed, digits=digits)
        cells = {n: show(v) for n, v in values.items()}
        columns[name] = Column(heading, values, cells, better, digits, signature=signature)

    bleu_signature = next(iter(scores.values())).signature if scores else ""
    add(BLEU, BLEU, {n: s.score for n, s in scores.items()}, 2, True, fmt_bleu, bleu_signature)
    for k in range(evaluation.settings.bleu.max_order):
        add(f"p{k + 1}", f"p{k + 1}", {n: s.precisions[k] for n, s in scores.items()}, 1, True)
    add("BP", "BP", {n: s.bp for n, s in scores.items()}, 3, True, fmt_bp)
    add("ratio", "ratio", {n: s.ratio for n, s in scores.items()}, 3, None)
    add("hyp_len", "hyp_len", {n: float(s.hyp_len) for n, s in scores.items()}, 0, None)
    add("ref_len", "ref_len", {n: float(s.ref_len) for n, s in scores.items()}, 0, None)
    mean = {n: float(evaluation.bleu(n).sentence.mean()) for n in scores}
    add(MEAN_SENTENCE, MEAN_SENTENCE, mean, 2, True, fmt_bleu)
    for label, by_system in others.items():
        columns[label] = metric_column(evaluation, label, {n: by_system[n] for n in scores})
    return columns


def metric_column(
    evaluation: Evaluation, label: str, by_system: Mapping[str, MetricScores]
) -> Column:
    """The column of a chosen metric: its corpus score, or an imported score's mean ± CI."""
    spec = evaluation.metric(label)
    values = {n: s.corpus for n, s in by_system.items()}
    signature = next(iter(by_system.values())).signature if by_system else ""
    better = spec.higher_is_better
    heading = spec.column_heading(md)
    if spec.mean_interval_note() is None:
        cells = {n: fmt_metric(spec, v) for n, v in values.items()}
        return Column(heading, values, cells, better, spec.digits, signature=signature)
    cells = {n: mean_with_ci(spec, s) for n, s in by_system.items()}
    intervals = {n: cached_mean_ci(np.asarray(s.sentence)) for n, s in by_system.items()}
    ci = {n: math.nan if i is None else i[2] for n, i in intervals.items()}
    return Column(heading, values, cells, better, spec.digits, ci, signature)


def ranked(columns: Mapping[str, Column], rank_by: str) -> list[str]:
    """Systems best first by the column ``rank_by``."""
    column = columns[rank_by]
    return rank_order(column.values, column.higher_is_better is not False)


def ranked_scores(
    columns: Mapping[str, Column], others: Mapping[str, Mapping[str, MetricScores]]
) -> dict[str, dict[str, MetricScores]]:
    """Each metric's scores with its systems best first by that metric (the cards' order)."""
    return {
        label: {n: by_system[n] for n in ranked(columns, label)}
        for label, by_system in others.items()
    }


def systems_table(columns: Mapping[str, Column], order: list[str]) -> Styler:
    """The table as shown: text cells in rank order, the best of each score column marked
    when one system alone has it as shown (``sole_best`` of the rounded values)."""
    frame = pd.DataFrame(
        {"system": [md(n) for n in order], "rank": [str(i) for i in range(1, len(order) + 1)]}
        | {c.heading: [c.cells[n] for n in order] for c in columns.values()}
    ).set_index("system")
    best = {
        c.heading: sole_best(
            {n: round(v, c.digits) for n, v in c.values.items()}, c.higher_is_better
        )
        for c in columns.values()
        if c.higher_is_better is not None
    }
    marks = {md(n): n for n in order}

    def mark(column: pd.Series) -> list[str]:
        winner = best.get(str(column.name))
        return [BEST_STYLE if marks[label] == winner else "" for label in column.index]

    return frame.style.apply(mark)


def export_frame(columns: Mapping[str, Column], order: list[str]) -> pd.DataFrame:
    """The same table as numbers, for CSV, JSON and LaTeX: every CI and signature kept.

    A column with CIs is followed by ``NAME ci95`` (half the 95% interval); lengths
    are integers; the LaTeX writes each column to the page's decimals, the best in bold.
    """
    frame = pd.DataFrame({"system": order, "rank": range(1, len(order) + 1)})
    digits: dict[str, int] = {}
    best: dict[str, bool] = {}
    for name, column in columns.items():
        values = [column.values[n] for n in order]
        frame[name] = [int(v) for v in values] if column.digits == 0 else values
        digits[name] = column.digits
        if column.higher_is_better is not None:
            best[name] = column.higher_is_better
        if column.ci is not None:
            frame[f"{name} ci95"] = [column.ci[n] for n in order]
            digits[f"{name} ci95"] = column.digits
    signatures = {name: c.signature for name, c in columns.items() if c.signature}
    return export_style(frame, digits, best, signatures)


#: The ranking's selectbox, above the page's answer (the cards).
RANK_KEY = "ov_rank_by"
#: The room the selectbox keeps while the browser fetches its code. Streamlit draws a 2.5rem
#: skeleton in its place, and the selectbox with its label takes 4.25rem (68 px). When the
#: code came after the cards, they moved down by 28 px (seen under CI's load;
#: tests/e2e/test_light_pages_browser.py).
RANK_ROOM = f"<style>.st-key-{RANK_KEY} {{ min-height: 4.25rem; }}</style>"


def rank_choice(columns: Mapping[str, Column]) -> str:
    """A selectbox of the columns systems can be ranked by (its room: ``RANK_ROOM``)."""
    options = [name for name, c in columns.items() if c.higher_is_better is not None]
    if st.session_state.get(RANK_KEY) not in options:
        st.session_state[RANK_KEY] = BLEU
    return str(st.selectbox("Rank systems by", options, key=RANK_KEY))


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
