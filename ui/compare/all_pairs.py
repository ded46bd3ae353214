"""Compare page section: every pair of systems tested, as a heatmap, a table and clusters."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bleuviz.bleu import BleuConfig
from bleuviz.bleu.corpus import CorpusStats
from bleuviz.render.labels import escape_markdown as md
from bleuviz.render.pairs_chart import pairs_heatmap
from bleuviz.significance.all_pairs import PairTest, holm, rank_clusters
from ui.compare.data import score_spec, significance
from ui.export import export_buttons

TESTS = {"paired bootstrap": "p_value_bs", "approximate randomization": "p_value_ar"}


def all_pairs_section(
    corpus: CorpusStats,
    config: BleuConfig,
    identity: tuple[object, ...],
    metric: str,
    settings: tuple[int, int, int],
    signature: str,
) -> None:
    """Test every pair on ``metric`` (on request), then show the grid, clusters and table."""
    names = list(corpus.systems)
    n_pairs = len(names) * (len(names) - 1) // 2
    if not st.toggle(f"Test all {n_pairs} pairs", key="cmp_all_pairs"):
        st.caption("Each pair's p-values equal a comparison with its first system as baseline.")
        return
    left, right = st.columns(2)
    test = TESTS[left.radio("Test", list(TESTS), horizontal=True, key="cmp_pairs_test")]
    corrected = right.toggle("Holm correction", key="cmp_pairs_holm")
    lowercase = bool(st.session_state.get("lowercase"))
    pairs = _tested_pairs(corpus, config, identity, metric, settings, lowercase)
    pairs = holm(pairs) if corrected else pairs
    spec = score_spec(corpus, metric)
    higher = spec is None or spec.higher_is_better
    scores = _scores(corpus, config, identity, metric, settings, lowercase)
    clusters = rank_clusters(scores, pairs, higher, test=test)
    order = [name for cluster in clusters for name in cluster]
    digits = 4 if spec is not None and spec.scale <= 1 else 2
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
    return pd.DataFrame(
        {
            "a": [p.a for p in pairs],
            "b": [p.b for p in pairs],
            "diff": [p.diff for p in pairs],
            "p_value_bs": [p.p_value_bs for p in pairs],
            "p_value_ar": [p.p_value_ar for p in pairs],
        }
    )


def _tested_pairs(
    corpus: CorpusStats,
    config: BleuConfig,
    identity: tuple[object, ...],
    metric: str,
    settings: tuple[int, int, int],
    lowercase: bool,
) -> list[PairTest]:
    """Each system as baseline against the later ones, with a progress bar (cached per baseline)."""
    names = list(corpus.systems)
    progress = st.progress(0.0, text="Testing pairs…")
    pairs: list[PairTest] = []
    for i, a in enumerate(names[:-1]):
        progress.progress(
            i / (len(names) - 1), text=f"{metric}: baseline {i + 1} of {len(names) - 1}"
        )
        base, *rows = significance(identity, a, metric, config, settings, lowercase, corpus)
        later = set(names[i + 1 :])
        for row in rows:
            if row.name in later:
                pairs.append(
                    PairTest(a, row.name, row.p_value_bs, row.p_value_ar, row.score - base.score)
                )
    progress.empty()
    return pairs


def _scores(
    corpus: CorpusStats,
    config: BleuConfig,
    identity: tuple[object, ...],
    metric: str,
    settings: tuple[int, int, int],
    lowercase: bool,
) -> dict[str, float]:
    """Each system's score on ``metric`` (the baseline rows of the cached tests)."""
    rows = significance(
        identity, next(iter(corpus.systems)), metric, config, settings, lowercase, corpus
    )
    return {row.name: row.score for row in rows}
