"""Compare page section: every pair of systems tested, as a heatmap, a table and clusters."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict

import pandas as pd
import streamlit as st

from bleuviz.app.ui.cache.compare import significance
from bleuviz.app.ui.cache.data import DataKey
from bleuviz.app.ui.cache.scores import metric_spec
from bleuviz.app.ui.widgets.export import export_buttons
from bleuviz.metrics import Settings
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.labels import escape_markdown as md
from bleuviz.render.pairs_chart import pairs_heatmap
from bleuviz.significance import PairedResult
from bleuviz.significance.all_pairs import PAIR_COLUMNS, PairTest, all_pairs, holm, rank_clusters

TESTS = {"paired bootstrap": "p_value_bs", "approximate randomization": "p_value_ar"}


def all_pairs_section(
    evaluation: Evaluation,
    identity: DataKey,
    metric: str,
    settings: tuple[int, int, int],
    signature: str,
) -> None:
    """Test every pair on ``metric`` (on request), then show the grid, clusters and table."""
    names = list(evaluation.testset.systems)
    n_pairs = len(names) * (len(names) - 1) // 2
    if not st.toggle(f"Test all {n_pairs} pairs", key="cmp_all_pairs"):
        st.caption("Each pair's p-values equal a comparison with its first system as baseline.")
        return
    left, right = st.columns(2)
    test = TESTS[left.radio("Test", list(TESTS), horizontal=True, key="cmp_pairs_test")]
    corrected = right.toggle("Holm correction", key="cmp_pairs_holm")
    scores, pairs = _tested_pairs(evaluation, identity, metric, settings, evaluation.settings)
    pairs = holm(pairs) if corrected else pairs
    spec = metric_spec(evaluation, metric)
    higher = spec.higher_is_better
    clusters = rank_clusters(scores, pairs, higher, test=test)
    order = [name for cluster in clusters for name in cluster]
    digits = spec.digits
    st.plotly_chart(pairs_heatmap(order, pairs, test, digits), key="cmp_pairs_heatmap")
    st.caption(
        "Row minus column; dark cells are significant at p < 0.05"
        + (" after Holm's correction" if corrected else "")
        + ". Systems in rank order."
    )
    st.markdown(
        "**Rank clusters** (a system opens the next cluster when it is significantly "
        "worse than its cluster's best):"
    )
    st.markdown(
        "\n".join(f"{i}. " + ", ".join(md(n) for n in c) for i, c in enumerate(clusters, 1))
    )
    frame = pairs_frame(pairs)
    st.dataframe(frame, key="cmp_pairs_table", hide_index=True, height=240)
    export_buttons(frame, f"all-pairs-{metric}", "cmp_pairs_export", signature)


def pairs_frame(pairs: list[PairTest]) -> pd.DataFrame:
    """One row per pair: a, b, the difference b − a and both p-values."""
    frame = pd.DataFrame([asdict(p) for p in pairs], columns=PAIR_COLUMNS)
    return frame[["a", "b", "diff", "p_value_bs", "p_value_ar"]]


def _tested_pairs(
    evaluation: Evaluation,
    identity: DataKey,
    metric: str,
    tests: tuple[int, int, int],
    settings: Settings,
) -> tuple[dict[str, float], list[PairTest]]:
    """Every pair by the core's ``all_pairs``, each baseline's tests cached, progress shown."""
    names = list(evaluation.testset.systems)
    progress = st.progress(0.0, text="Testing pairs…")

    def tester(baseline: str, later: Sequence[str]) -> list[PairedResult]:
        done = names.index(baseline)
        progress.progress(
            done / (len(names) - 1), text=f"{metric}: baseline {done + 1} of {len(names) - 1}"
        )
        base, *rows = significance(identity, baseline, metric, tests, settings, evaluation)
        return [base, *(row for row in rows if row.name in later)]

    scores, pairs = all_pairs(names, tester)
    progress.empty()
    return scores, pairs
