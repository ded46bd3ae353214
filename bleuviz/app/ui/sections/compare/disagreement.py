"""Compare page section: the segments where BLEU and another metric disagree about A vs B."""

from __future__ import annotations

from functools import partial

import streamlit as st

from bleuviz.analysis.disagreement import disagreements
from bleuviz.app.ui.cache.compare import sentence_comparison
from bleuviz.app.ui.sections.compare.views import SEGMENTS, open_view
from bleuviz.app.ui.state.selection import clickable_segment_table
from bleuviz.app.ui.state.settings import chosen_metrics, imported_metrics
from bleuviz.app.ui.widgets.export import export_buttons
from bleuviz.app.ui.widgets.format import number_format
from bleuviz.metrics import BLEU
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.labels import escape_markdown as md
from bleuviz.render.numbers import PERCENT_DIGITS, printf

#: Characters of each hypothesis shown in the table (the drill-down shows all).
PREVIEW = 90


def disagreement_finder(evaluation: Evaluation, names: tuple[str, str]) -> None:
    """Segments where sentence BLEU and the chosen metric prefer different systems."""
    metrics = chosen_metrics()
    if not metrics:
        st.info(
            "Add a metric in the sidebar (Other metrics) or import segment scores to see where "
            f"it and {md(BLEU.label)} disagree.",
            icon=":material/info:",
        )
        return
    imported = imported_metrics()
    default = imported[0] if imported else metrics[0]
    if st.session_state.get("cmp_disagree_metric") not in metrics:
        st.session_state["cmp_disagree_metric"] = default
    metric = st.selectbox(
        f"Set against {BLEU.label}", metrics, key="cmp_disagree_metric", persist_state="page"
    )
    bleu = sentence_comparison(evaluation, names, BLEU.label)
    other = sentence_comparison(evaluation, names, metric)
    found = disagreements(bleu["diff"].to_numpy(), other["diff"].to_numpy())
    for role, name in zip("ab", names, strict=True):
        found[f"hyp_{role}"] = [
            evaluation.testset.systems[name][s - 1][:PREVIEW] for s in found["seg"]
        ]
    st.caption(
        f"{len(found)} segments where sentence {BLEU.label} and {md(metric)} prefer different "
        "systems, strongest first: each gain's size as a percentile among that metric's gains, "
        "and a row as strong as its weaker side. Click a segment's number to open it in the "
        "Segments tab."
    )
    digits = number_format(evaluation.metric(metric))
    clickable_segment_table(
        found,
        "cmp_disagree",
        {
            "gain_x": st.column_config.NumberColumn(
                f"{BLEU.label} gain of B",
                format=number_format(BLEU).replace("%", "%+"),
                help=f"sentence {BLEU.label} of B − A",
            ),
            "gain_y": st.column_config.NumberColumn(
                f"{metric} gain of B",
                format=digits.replace("%", "%+"),
                help="positive: the metric prefers B (for lower-is-better scores, A − B)",
            ),
            "strength": st.column_config.NumberColumn(
                "strength",
                format=printf(PERCENT_DIGITS),
                help="the smaller of the two percentiles (0–100)",
            ),
            "hyp_a": st.column_config.TextColumn(f"{names[0]} (A)", width="large"),
            "hyp_b": st.column_config.TextColumn(f"{names[1]} (B)", width="large"),
        },
        open_key="cmp_seg",
        then=partial(open_view, SEGMENTS),
        tip="Open this segment in the Segments tab",
        height=280,
        column_order=["seg", "gain_x", "gain_y", "strength", "hyp_a", "hyp_b"],
    )
    whole = found.drop(columns=["hyp_a", "hyp_b"]).rename(
        columns={"gain_x": f"{BLEU.label} gain of B", "gain_y": f"{metric} gain of B"}
    )
    for role, name in zip("ab", names, strict=True):
        whole[f"{name} ({role.upper()})"] = [
            evaluation.testset.systems[name][s - 1] for s in found["seg"]
        ]
    export_buttons(whole, f"disagreements-{metric}", "cmp_disagree_export")
