"""Overview section: the segments where a metric and the human score disagree most, both ways.

A metric can be too generous (it ranks an output above where the annotators
put it) or too harsh (below). With MQM most segments tie at 0, so the largest
gaps of one list would all be of one side: each side gets its own table, its
count, and links to the Sentences page; the export holds every disagreement.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import pandas as pd
import streamlit as st

from bleuviz.analysis.correlation import EVEN, GENEROUS, HARSH, MetricView, segment_gaps
from bleuviz.app import routes
from bleuviz.app.ui.state.page_links import segment_query
from bleuviz.app.ui.widgets.export import export_buttons
from bleuviz.app.ui.widgets.format import number_format
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.export import export_style
from bleuviz.render.labels import escape_markdown as md
from bleuviz.render.numbers import PERCENT_DIGITS, printf

#: Rows each side shows unless the user asks for more (and links at most), and the most.
SHOWN, MOST = 20, 500
#: What each side means, for its heading.
SIDES = {
    GENEROUS: "ranks the output higher than the annotators did",
    HARSH: "ranks the output lower than the annotators did",
}


def largest_gaps(
    evaluation: Evaluation, view: MetricView, human_view: MetricView, left_out: Collection[str]
) -> None:
    """Both sides' largest disagreements, each linking to Sentences, and their export.

    The links open the Sentences page in this tab (the session's settings go along).
    Each score shows at its own precision (BLEU two decimals, an imported score as written).
    """
    gaps = segment_gaps(view, human_view, left_out)
    human = human_view.name
    disagree = gaps[gaps["side"] != EVEN]
    st.markdown(
        f"**Largest disagreements** between {md(view.name)} and {md(human)}: "
        f"{len(disagree):,} of {len(gaps):,} scored segments are ranked apart"
    )
    # A fixed maximum: the value stays valid when another metric or the references change
    # the count (a side shows what it has, ``head``); the export holds every row.
    rows = st.number_input("Rows per side", 1, MOST, value=SHOWN, step=10, key="ov_human_gap_rows")
    for side, meaning in SIDES.items():
        found = disagree[disagree["side"] == side]
        _side_table(evaluation, found.head(int(rows)), len(found), view.name, human, side, meaning)
    export_buttons(
        gaps_export(evaluation, disagree, view.name, human),
        f"disagreements-{view.name}-vs-{human}",
        "ov_human_gaps_export",
    )


def gaps_export(
    evaluation: Evaluation, disagree: pd.DataFrame, metric: str, human: str
) -> pd.DataFrame:
    """Every disagreement as exported: the scores under their names, with their signatures.

    The values are the scores as computed (sacrebleu's floats), the page's decimals
    going to LaTeX only.
    """
    first = next(iter(evaluation.testset.systems))
    names = {"metric": metric, "human": human, "gap": "percentile gap"}
    frame = disagree.reset_index(drop=True).rename(columns=names)
    specs = {name: evaluation.metric(name) for name in (metric, human)}
    return export_style(
        frame,
        digits={**{n: spec.digits for n, spec in specs.items()}, names["gap"]: PERCENT_DIGITS},
        signatures={n: evaluation.detail(n, first).signature for n in specs},
    )


def _side_table(
    evaluation: Evaluation,
    shown: pd.DataFrame,
    total: int,
    metric: str,
    human: str,
    side: str,
    meaning: str,
) -> None:
    """One side's table (largest gap first) with its count, then its rows' links."""
    st.markdown(f"{md(metric)} **{side}** ({meaning}): the largest {len(shown):,} of {total:,}")
    if shown.empty:
        return
    shown = shown.reset_index(drop=True)
    shown.insert(0, "rank", range(1, len(shown) + 1))
    key = side.replace(" ", "_")
    st.dataframe(
        shown,
        key=f"ov_human_gaps_{key}",
        hide_index=True,
        height=min(360, 38 + 35 * len(shown)),
        column_order=["rank", "system", "seg", "metric", "human", "gap"],
        column_config=_gap_columns(evaluation, metric, human),
    )
    if len(shown) > SHOWN:
        st.caption(f"Links to the first {SHOWN}; the table and the export hold every row.")
    linked = shown.head(SHOWN)
    links = st.columns(3)  # three a row: a long system name still fits at 1280 px
    for i, (system, seg) in enumerate(zip(linked["system"], linked["seg"], strict=True)):
        links[i % 3].page_link(
            routes.SENTENCES,
            label=f"{i + 1}. seg {seg} · {md(system)}",
            query_params=segment_query(system, int(seg)),
        )


def _gap_columns(evaluation: Evaluation, metric: str, human: str) -> dict[str, Any]:
    """The columns of a side's table, each score at its metric's precision."""
    return {
        "rank": st.column_config.NumberColumn("#", width="small"),
        "seg": st.column_config.NumberColumn("segment", width="small"),
        "metric": st.column_config.NumberColumn(
            metric, format=number_format(evaluation.metric(metric))
        ),
        "human": st.column_config.NumberColumn(
            human, format=number_format(evaluation.metric(human))
        ),
        "gap": st.column_config.NumberColumn(
            "percentile gap",
            format=printf(PERCENT_DIGITS, sign=True),
            help="the metric's percentile minus the human's: positive, the metric likes "
            "the output more than the annotators did; open one in the Sentences page below",
        ),
    }
