"""Overview sections for imported scores: their means with CIs, and metrics against humans."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlencode

import numpy as np
import pandas as pd
import streamlit as st

from bleuviz.analysis.correlation import (
    Correlation,
    MetricView,
    correlate,
    scores_view,
    segment_gaps,
)
from bleuviz.app.ui.cache.scores import metric_scores, metric_spec
from bleuviz.app.ui.state.settings import chosen_metrics
from bleuviz.app.ui.widgets.export import export_buttons
from bleuviz.app.ui.widgets.format import direction_note, fmt_metric
from bleuviz.arrays import FloatArray
from bleuviz.bleu import BleuConfig
from bleuviz.metrics import MetricScores, MetricSpec
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.human_charts import metric_vs_human_scatter
from bleuviz.render.labels import escape_markdown as md
from bleuviz.significance.mean import mean_ci


@st.cache_data(max_entries=256, show_spinner=False)
def cached_mean_ci(values: FloatArray) -> tuple[float, float, float] | None:
    """Mean of the scored segments, bootstrap mean and CI half-width (cached on the scores)."""
    ci = mean_ci(values)
    return None if ci is None else (ci.score, ci.mean, ci.ci)


def mean_with_ci(spec: MetricSpec, scores: MetricScores) -> str:
    """ "0.8243 ± 0.0105": the mean and half its 95% bootstrap interval; a dash if unscored."""
    ci = cached_mean_ci(np.asarray(scores.sentence))
    return "—" if ci is None else f"{fmt_metric(spec, ci[0])} ± {fmt_metric(spec, ci[2])}"


def imported_cards(
    evaluation: Evaluation, others: Mapping[str, Mapping[str, MetricScores]]
) -> None:
    """One row of cards per imported score: each system's mean, the CI as help."""
    for label, by_system in others.items():
        spec = metric_spec(evaluation, label)
        if not spec.imported:
            continue
        st.markdown(f"**{md(label)}**{direction_note(spec)}: imported, mean of scored segments")
        columns = st.columns(min(len(by_system), 4))
        for i, (name, scores) in enumerate(by_system.items()):
            ci = cached_mean_ci(np.asarray(scores.sentence))
            value = "—" if ci is None else fmt_metric(spec, ci[0])
            detail = "no scored segment" if ci is None else f"95% CI ± {fmt_metric(spec, ci[2])}"
            scored = int(np.count_nonzero(~np.isnan(scores.sentence)))
            columns[i % len(columns)].metric(
                md(name), value, help=f"{detail}; {scored} segments scored. {scores.signature}"
            )


def metric_views(evaluation: Evaluation, config: BleuConfig, human: str) -> list[MetricView]:
    """BLEU, the chosen metrics and every other imported score, as correlation inputs."""
    views = [metric_view(evaluation, "BLEU")]
    views += [metric_view(evaluation, label) for label in chosen_metrics() if label != human]
    return views


def metric_view(evaluation: Evaluation, label: str) -> MetricView:
    """One metric beside BLEU as a correlation input."""
    return scores_view(
        label, {name: metric_scores(evaluation, name, label) for name in evaluation.testset.systems}
    )


def correlation_frame(results: list[Correlation]) -> pd.DataFrame:
    """The correlation table as shown: four decimals, a dash where undefined."""

    def shown(value: float | None) -> str:
        return "—" if value is None else f"{value:.4f}"

    return pd.DataFrame(
        {
            "metric": [md(r.name) for r in results],
            "system Pearson r": [shown(r.system_pearson) for r in results],
            "system Kendall τ": [shown(r.system_kendall) for r in results],
            "pairwise accuracy": [shown(r.pairwise_accuracy) for r in results],
            "segment Kendall τ": [shown(r.segment_kendall) for r in results],
            "systems": [r.n_systems for r in results],
            "segments": [r.n_segments for r in results],
        }
    ).set_index("metric")


def metrics_vs_humans(evaluation: Evaluation, config: BleuConfig, human: str) -> None:
    """Every metric against the human score: the table, a system scatter, segment gaps."""
    st.subheader(f"Metrics vs humans: {md(human)}")
    human_view = metric_view(evaluation, human)
    views = metric_views(evaluation, config, human)
    results = [correlate(view, human_view) for view in views]
    st.table(correlation_frame(results))
    export_buttons(
        pd.DataFrame([r.as_dict() for r in results]), f"correlation-{human}", "ov_human_export"
    )
    st.caption(
        "System level: Pearson and Kendall τ-b (scipy) between corpus scores (means for imported "
        "scores) and human means, over systems with a human score; pairwise accuracy is the "
        "share of system pairs ordered as the humans order them (Kocmi et al., 2021). Segment "
        "level: Kendall τ-b over every (system, segment) pair both scored. Lower-is-better "
        "scores are negated first, so positive always means agreement."
    )
    labels = [view.name for view in views]
    chosen = st.selectbox("Metric", labels, key="ov_human_metric")
    view = views[labels.index(chosen)]
    systems = [s for s in evaluation.testset.systems if np.isfinite(human_view.corpus[s])]
    figure = metric_vs_human_scatter(
        systems,
        [view.corpus[s] for s in systems],
        [human_view.corpus[s] for s in systems],
        chosen,
        human,
    )
    left, right = st.columns([2, 3])
    left.plotly_chart(figure, key="ov_human_scatter")
    with right:
        _largest_gaps(view, human_view, human)


def _largest_gaps(view: MetricView, human_view: MetricView, human: str) -> None:
    """The segments where the metric and the human disagree most, each linking to Sentences."""
    gaps = segment_gaps(view, human_view).head(20)
    st.markdown(f"Largest disagreements between {md(view.name)} and {md(human)}")
    gaps["open"] = [
        "sentences?" + urlencode({"sys": s, "seg": str(g)})
        for s, g in zip(gaps["system"], gaps["seg"], strict=True)
    ]
    st.dataframe(
        gaps,
        key="ov_human_gaps",
        hide_index=True,
        height=360,
        column_order=["system", "seg", "metric", "human", "gap", "open"],
        column_config={
            "seg": st.column_config.NumberColumn("segment", width="small"),
            "metric": st.column_config.NumberColumn(view.name, format="%.4f"),
            "human": st.column_config.NumberColumn(human, format="%.4f"),
            "gap": st.column_config.NumberColumn(
                "percentile gap",
                format="%+.1f",
                help="the metric's percentile minus the human's: positive, the metric likes "
                "the output more than the annotators did",
            ),
            "open": st.column_config.LinkColumn("open", display_text="Sentences"),
        },
    )
