"""Compare page section: every pair of systems tested, as a heatmap, a table and clusters."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import pandas as pd
import streamlit as st

from bleuviz.app.ui.cache.compare import tested_signature
from bleuviz.app.ui.cache.pairs import every_pair
from bleuviz.app.ui.state.links import apply_links, write_links
from bleuviz.app.ui.state.page_links import all_pairs_links
from bleuviz.app.ui.widgets.export import export_buttons
from bleuviz.app.ui.widgets.format import metric_name
from bleuviz.metrics import MetricSpec
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.labels import escape_markdown as md
from bleuviz.render.numbers import P_VALUE_DIGITS, printf
from bleuviz.render.pairs_chart import pairs_heatmap
from bleuviz.significance.all_pairs import PAIR_COLUMNS, PairTest, holm, rank_clusters
from bleuviz.significance.resolution import can_reach, needed_resamples, unreachable_note

TESTS = {"paired bootstrap": "p_value_bs", "approximate randomization": "p_value_ar"}
#: p-values below this are significant (the heatmap's stars, the clusters).
ALPHA = 0.05


def all_pairs_section(
    evaluation: Evaluation,
    metric: str,
    settings: tuple[int, int, int],
    signature: str,
) -> None:
    """Test every pair on ``metric`` (on request), then show the grid, clusters and table."""
    names = list(evaluation.testset.systems)
    n_pairs = len(names) * (len(names) - 1) // 2
    links = all_pairs_links(list(TESTS))
    apply_links(links)
    tested = st.toggle(f"Test all {n_pairs} pairs", key="cmp_all_pairs")
    write_links(links)
    if not tested:
        st.caption("Each pair's p-values equal a comparison with its first system as baseline.")
        return
    left, right = st.columns(2)
    test = TESTS[left.radio("Test", list(TESTS), horizontal=True, key="cmp_pairs_test")]
    corrected = right.toggle("Holm correction", key="cmp_pairs_holm")
    write_links(links)
    if test == "p_value_ar" and settings[1] == 0:
        st.info(
            "Approximate randomization is off (0 trials): set its trials above 0 in the "
            "significance test settings, or choose the paired bootstrap."
        )
        return
    if corrected:
        settings = corrected_settings(settings, n_pairs)
        signature = tested_signature(evaluation, metric, settings)
    scores, pairs = every_pair(evaluation, metric, settings)
    pairs = holm(pairs) if corrected else pairs
    spec = evaluation.metric(metric)
    clusters = rank_clusters(scores, pairs, spec.higher_is_better, ALPHA, test=test)
    order = [name for cluster in clusters for name in cluster]
    heatmap = pairs_heatmap(order, pairs, test, spec.digits, ALPHA)
    st.plotly_chart(heatmap, key="cmp_pairs_heatmap")
    st.caption(
        f"Row minus column ({better_sign(spec)}); dark, starred cells are significant at "
        f"p < {ALPHA:g}"
        + (f" after Holm's correction over {n_pairs:,} pairs" if corrected else "")
        + ". Systems in rank order."
    )
    resolution_note(settings, test, n_pairs if corrected else 1)
    st.markdown(
        "**Rank clusters** (a system opens the next cluster when it is significantly "
        "worse than its cluster's best):"
    )
    st.markdown(
        "\n".join(f"{i}. " + ", ".join(md(n) for n in c) for i, c in enumerate(clusters, 1))
    )
    frame = pairs_frame(pairs)
    st.dataframe(
        frame,
        key="cmp_pairs_table",
        hide_index=True,
        height=240,
        column_config=pairs_columns(spec),
    )
    exported = frame.assign(correction=f"Holm over {n_pairs} pairs" if corrected else "none")
    export_buttons(exported, f"all-pairs-{metric}", "cmp_pairs_export", signature)


def resolution_notes(settings: tuple[int, int, int]) -> None:
    """Warn when the counts of a comparison against the baseline cannot reach ALPHA."""
    for test in TESTS.values():
        resolution_note(settings, test, 1)


def corrected_settings(settings: tuple[int, int, int], n_pairs: int) -> tuple[int, int, int]:
    """Raise both counts to what Holm over ``n_pairs`` needs (``needed_resamples``)."""
    n_bs, n_ar, seed = settings
    n_ar = needed_resamples(n_pairs, ALPHA, n_ar) if n_ar else 0  # 0: AR stays off
    return needed_resamples(n_pairs, ALPHA, n_bs), n_ar, seed


def resolution_note(settings: tuple[int, int, int], test: str, n_tests: int) -> None:
    """Warn when the test cannot reach ALPHA; with a correction, say how many resamples ran.

    ``n_tests``: the p-values the correction multiplies (1 without one).
    """
    count = settings[0] if test == "p_value_bs" else settings[1]
    name = next(label for label, field in TESTS.items() if field == test)
    if count == 0:  # approximate randomization off: no p-value to reach anything
        return
    if not can_reach(count, n_tests, ALPHA):
        st.warning(md(unreachable_note(name, count, n_tests, ALPHA)), icon=":material/warning:")
    elif n_tests > 1:
        st.caption(
            f"With Holm's correction every pair is tested with {settings[0]:,} bootstrap "
            f"resamples and {settings[1]:,} randomization trials (at least 10 × pairs / "
            f"{ALPHA:g}, so that the smallest attainable adjusted p-value, pairs / "
            f"(resamples + 1), stays below {ALPHA:g}); the signature says so."
        )


def better_sign(spec: MetricSpec) -> str:
    """Which sign of a difference favours the row's system, by ``spec``'s direction."""
    if spec.higher_is_better:
        return "higher is better: positive, the row's system is better"
    return f"lower is better ({metric_name(spec)}): negative, the row's system is better"


def pairs_columns(spec: MetricSpec) -> dict[str, Any]:
    """The pairs table's numbers, each at its quantity's precision (``render.numbers``)."""
    p_value = printf(P_VALUE_DIGITS)
    return {
        "diff": st.column_config.NumberColumn("b − a", format=printf(spec.digits, sign=True)),
        "p_value_bs": st.column_config.NumberColumn(
            "p (bootstrap)", format=p_value, help="paired bootstrap's p-value (p_value_bs)"
        ),
        "p_value_ar": st.column_config.NumberColumn(
            "p (randomization)",
            format=p_value,
            help="approximate randomization's p-value (p_value_ar); empty when AR is off",
        ),
    }


def pairs_frame(pairs: list[PairTest]) -> pd.DataFrame:
    """One row per pair: a, b, the difference b − a and both p-values."""
    frame = pd.DataFrame([asdict(p) for p in pairs], columns=PAIR_COLUMNS)
    return frame[["a", "b", "diff", "p_value_bs", "p_value_ar"]]
