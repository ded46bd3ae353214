"""Overview sections for imported scores: their means with CIs, and metrics against humans."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from bleuviz.analysis.correlation import (
    AGREEMENT_HEADERS,
    Correlation,
    MetricView,
    correlate,
    correlation_export,
    scores_view,
)
from bleuviz.analysis.meta_eval import is_human_reference
from bleuviz.app.ui.cache.keys import cached_data
from bleuviz.app.ui.sections.human_gaps import largest_gaps
from bleuviz.app.ui.state.settings import chosen_metrics
from bleuviz.app.ui.widgets.export import export_buttons
from bleuviz.app.ui.widgets.format import direction_note, fmt_metric
from bleuviz.arrays import FloatArray
from bleuviz.metrics import BLEU, MetricScores, MetricSpec
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.export import export_style
from bleuviz.render.human_charts import metric_vs_human_scatter, segment_scatter
from bleuviz.render.labels import escape_markdown as md
from bleuviz.render.numbers import CORRELATION_DIGITS, PERCENT_DIGITS, fixed
from bleuviz.significance.mean import mean_ci


@cached_data(max_entries=256, show_spinner=False)
def cached_mean_ci(values: FloatArray) -> tuple[float, float, float] | None:
    """Mean of the scored segments, bootstrap mean and CI half-width (cached on the scores)."""
    ci = mean_ci(values)
    return None if ci is None else (ci.score, ci.mean, ci.ci)


def mean_with_ci(spec: MetricSpec, scores: MetricScores) -> str:
    """ "0.8243 ± 0.0105": the mean and half its 95% bootstrap interval; a dash if unscored.

    One scored segment has no interval (its resamples all equal it): "75.00 (1 segment:
    no interval)", not "± 0.00".
    """
    ci = cached_mean_ci(np.asarray(scores.sentence))
    if ci is None:
        return "—"
    if scored_count(scores) < 2:
        return f"{fmt_metric(spec, ci[0])} (1 segment: no interval)"
    return f"{fmt_metric(spec, ci[0])} ± {fmt_metric(spec, ci[2])}"


def scored_count(scores: MetricScores) -> int:
    """How many segments have a score."""
    return int(np.count_nonzero(~np.isnan(np.asarray(scores.sentence, dtype=np.float64))))


def imported_cards(
    evaluation: Evaluation, others: Mapping[str, Mapping[str, MetricScores]]
) -> None:
    """One row of cards per imported score: each system's mean, the CI as help."""
    for label, by_system in others.items():
        spec = evaluation.metric(label)
        note = spec.mean_interval_note()
        if note is None:
            continue
        st.markdown(f"**{md(label)}**{direction_note(spec)}: {note}")
        columns = st.columns(min(len(by_system), 4))
        for i, (name, scores) in enumerate(by_system.items()):
            ci = cached_mean_ci(np.asarray(scores.sentence))
            value = "—" if ci is None else fmt_metric(spec, ci[0])
            scored = scored_count(scores)
            detail = (
                "no scored segment"
                if ci is None
                else f"95% CI ± {fmt_metric(spec, ci[2])}; {scored:,} segments scored"
                if scored > 1
                else "no interval; 1 segment scored"
            )
            columns[i % len(columns)].metric(md(name), value, help=f"{detail}. {scores.signature}")


def metric_views(evaluation: Evaluation, human: str) -> list[MetricView]:
    """BLEU, the chosen metrics and every other imported score, as correlation inputs."""
    labels = [BLEU.label, *(label for label in chosen_metrics() if label != human)]
    return [metric_view(evaluation, label) for label in labels]


def metric_view(evaluation: Evaluation, label: str) -> MetricView:
    """One metric beside BLEU as a correlation input."""
    return scores_view(label, evaluation.scores(label))


def correlation_frame(results: list[Correlation], digits: Mapping[str, int]) -> pd.DataFrame:
    """The correlation table as shown (``CORRELATION_DIGITS``), a dash where undefined.

    ``digits``: each metric's own decimals, for acc_eq's ε (a difference of its scores).
    """

    def shown(value: float | None) -> str:
        return "—" if value is None else fixed(value, CORRELATION_DIGITS)

    return pd.DataFrame(
        {
            "metric": [md(r.name) for r in results],
            "system Pearson r": [shown(r.system_pearson) for r in results],
            "system Kendall τ": [shown(r.system_kendall) for r in results],
            "pairwise accuracy": [shown(r.pairwise_accuracy) for r in results],
            "segment τ, no grouping": [shown(r.segment_kendall) for r in results],
            "segment τ by item": [shown(r.segment_kendall_item) for r in results],
            "segment τ by system": [shown(r.segment_kendall_system) for r in results],
            "acc_eq": [shown(r.pairwise_accuracy_eq) for r in results],
            "acc_eq ties": [tie_note(r, digits[r.name]) for r in results],
            "systems": [r.n_systems for r in results],
            "segments": [r.n_segments for r in results],
        }
    ).set_index("metric")


def correlation_download(evaluation: Evaluation, results: list[Correlation], human: str) -> None:
    """The correlation table's downloads: the page's headers, every score's signature.

    The human score's signature and each metric's are named (``signature NAME``).
    """
    first = next(iter(evaluation.testset.systems))
    names = [human, *(r.name for r in results)]
    signatures = {name: evaluation.detail(name, first).signature for name in names}
    frame = export_style(
        correlation_export(results),
        best=dict.fromkeys(AGREEMENT_HEADERS, True),
        signatures=signatures,
    )
    export_buttons(frame, f"correlation-{human}", "ov_human_export")


def tie_note(result: Correlation, digits: int) -> str:
    """ "ε = 0.70; 92% of pairs tied": acc_eq's threshold and the share of pairs it ties."""
    if result.tie_epsilon is None or result.tied_share is None:
        return "—"
    share = fixed(100 * result.tied_share, PERCENT_DIGITS)
    return f"ε = {fixed(result.tie_epsilon, digits)}; {share}% of pairs tied"


def mostly_tied_note(results: list[Correlation]) -> str | None:
    """Say which metrics' acc_eq ties most pairs, or None."""
    names = [md(r.name) for r in results if r.mostly_tied]
    if not names:
        return None
    return (
        f"acc_eq of {', '.join(names)}: the best ε makes most pairs of systems on a segment "
        "ties, so the accuracy mostly counts the pairs the humans tie too (a segment without "
        "errors has MQM 0 in every system); read it beside the τ columns."
    )


def human_references(human_view: MetricView) -> list[str]:
    """Systems the human score names as human translations (refA, refB...)."""
    return [s for s in human_view.corpus if is_human_reference(s)]


#: The height ``metrics_vs_humans`` takes (px), reserved before it is drawn.
HUMANS_PX = 2200


def metrics_vs_humans(evaluation: Evaluation, human: str) -> None:
    """Every metric against the human score: the table, system and segment scatters, gaps."""
    st.subheader(f"Metrics vs humans: {md(human)}")
    human_view = metric_view(evaluation, human)
    views = metric_views(evaluation, human)
    left_out = _left_out(human_references(human_view))
    results = [correlate(view, human_view, left_out) for view in views]
    digits = {view.name: evaluation.metric(view.name).digits for view in views}
    st.table(correlation_frame(results, digits))
    correlation_download(evaluation, results, human)
    tied = mostly_tied_note(results)
    if tied:
        st.caption(tied)
    st.caption(CORRELATION_NOTE)
    labels = [view.name for view in views]
    chosen = st.selectbox("Metric", labels, key="ov_human_metric")
    view = views[labels.index(chosen)]
    systems = [
        s
        for s in evaluation.testset.systems
        if np.isfinite(human_view.corpus[s]) and s not in left_out
    ]
    left, right = st.columns(2)
    shown = (digits[chosen], evaluation.metric(human).digits)
    left.plotly_chart(
        metric_vs_human_scatter(
            systems,
            [view.corpus[s] for s in systems],
            [human_view.corpus[s] for s in systems],
            chosen,
            human,
            shown,
        ),
        key="ov_human_scatter",
    )
    right.plotly_chart(
        _segment_figure(view, human_view, systems, shown), key="ov_human_seg_scatter"
    )
    largest_gaps(evaluation, view, human_view, left_out)


CORRELATION_NOTE = (
    "System level: Pearson and Kendall τ-b (scipy) between corpus scores (means for imported "
    "scores) and human means, over systems with a human score; pairwise accuracy is the "
    "share of system pairs ordered as the humans order them (Kocmi et al., 2021). Segment "
    "level, as mt-metrics-eval computes it: Kendall τ-b over every (system, segment) pair "
    "both scored (no grouping), or one τ per segment across systems (by item) or per system "
    "across segments (by system), averaged over those defined; acc_eq is the pairwise "
    "accuracy of systems within each segment with tie calibration (Deutsch et al., 2023): "
    "metric differences up to the best threshold ε count as ties (beside it: ε and the "
    "share of pairs it ties). Lower-is-better scores are negated first, so positive always "
    "means agreement."
)


def _left_out(references: list[str]) -> list[str]:
    """The human references to leave out: all, unless the checkbox keeps them."""
    if not references:
        return []
    keep = st.checkbox(
        f"Count the human references ({', '.join(md(r) for r in references)})",
        value=False,
        key="ov_human_refs",
        help="Human translations scored as systems are left out by default, as "
        "mt-metrics-eval does (include_human=False): a metric that uses the reference "
        "cannot fairly rank another human translation.",
    )
    return [] if keep else references


def _segment_figure(
    view: MetricView, human_view: MetricView, systems: list[str], digits: tuple[int, int]
) -> go.Figure:
    """Every (system, segment) both scored, as a translucent (sampled) scatter."""
    scored = [s for s in systems if s in view.sentence and s in human_view.sentence]
    labels = [f"{s} · {i + 1}" for s in scored for i in range(len(view.sentence[s]))]
    if not scored:
        return segment_scatter(
            np.zeros(0), np.zeros(0), [], view.name, human_view.name, digits=digits
        )
    return segment_scatter(
        np.concatenate([view.sentence[s] for s in scored]),
        np.concatenate([human_view.sentence[s] for s in scored]),
        labels,
        view.name,
        human_view.name,
        digits=digits,
    )
