"""Sections about many systems at once: one segment in every system, and outlier segments."""

from __future__ import annotations

from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from bleuviz.analysis.outliers import find_outliers
from bleuviz.analysis.span_counts import rater_spans
from bleuviz.app.ui.cache.keys import cached_resource
from bleuviz.app.ui.sections.error_spans import severity_counts, whose_errors
from bleuviz.app.ui.sections.segment_view import explanation
from bleuviz.app.ui.state.settings import chosen_metrics
from bleuviz.app.ui.widgets.export import export_buttons
from bleuviz.app.ui.widgets.format import fmt_metric
from bleuviz.app.ui.widgets.markup import show_html
from bleuviz.io.error_spans import ErrorAnnotations, ErrorSpan
from bleuviz.metrics import BLEU
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.error_marks import error_legend
from bleuviz.render.every_system import SystemLine, every_system_html
from bleuviz.render.highlight import hypothesis_status_html, legend
from bleuviz.render.labels import escape_markdown as md
from bleuviz.render.word_diff import word_diff_html

#: Heights in ``segment_in_every_system`` (px, with the gaps): the row of widgets, one
#: system's highlighted line and its word differences, the caption below them (one
#: system's line grows with the segment: this is a WMT news sentence's).
_WIDGETS_PX, _LINE_PX, _CAPTION_PX = 84, 170, 60


def every_system_px(n_systems: int) -> int:
    """About the height ``segment_in_every_system`` takes with ``n_systems`` systems."""
    return _WIDGETS_PX + n_systems * _LINE_PX + _CAPTION_PX


def segment_in_every_system(
    evaluation: Evaluation,
    index: int,
    order: int,
    annotations: ErrorAnnotations | None = None,
) -> None:
    """Every system's output of one segment, highlighted, scored and diffed against a baseline.

    ``annotations``: the error spans the drill-down draws (None: none loaded); each
    system's are underlined in its line, every rater's, as the drill-down draws them.
    """
    testset = evaluation.testset
    names = list(evaluation.testset.systems)
    refs = tuple(stream[index] for stream in testset.references)
    left, right = st.columns([3, 2])
    baseline = left.selectbox("Word differences against", names, key="sent_diff_base")
    show_diff = right.toggle("Show word differences", True, key="sent_diff_show")
    bleu = {n: float(evaluation.bleu(n).sentence[index]) for n in names}
    labels = [BLEU.label, *chosen_metrics()]
    rows, severities = [], []
    for name in sorted(names, key=lambda n: -bleu[n]):
        scores = []
        for label in labels:
            value = float(evaluation.detail(label, name).sentence[index])
            scores.append((label, fmt_metric(evaluation.metric(label), value)))
        spans = system_errors(annotations, name, index, scores)
        severities += [span.severity for span in spans]
        hyp = testset.systems[name][index]
        expl = explanation(
            hyp, refs, evaluation.settings.tokenize, evaluation.settings.bleu.max_order
        )
        line = hypothesis_status_html(expl, order, spans)
        diff = (
            word_diff_html(testset.systems[baseline][index], hyp)
            if show_diff and name != baseline
            else None
        )
        rows.append(SystemLine(name, name == baseline, scores, line, diff))
    marks = "" if annotations is None else error_legend(severities)
    show_html(legend() + marks + every_system_html(rows))  # its CSS: the frame's style sheet
    underlined = (
        ""
        if annotations is None
        else f" Underlined: {md(whose_errors(annotations))}, every rater's."
    )
    st.caption(
        f"Systems by sentence BLEU on this segment; n-grams of order {order} coloured as in the "
        f"drill-down.{underlined} Differences: blue words only this system has, red words "
        "only the baseline has."
    )


def system_errors(
    annotations: ErrorAnnotations | None,
    system: str,
    index: int,
    scores: list[tuple[str, str]],
) -> tuple[ErrorSpan, ...]:
    """Every rater's error spans of ``system`` on segment ``index``; their count joins ``scores``.

    Nothing without annotations; "not annotated" where the file has no rating of the segment.
    """
    if annotations is None:
        return ()
    annotation = annotations.annotation(system, index)
    spans = rater_spans(annotation, None)
    counted = "not annotated" if annotation is None else f"errors: {severity_counts(spans)}"
    scores.append((annotations.name, counted))  # "MQM errors: 1 major", "MQM not annotated"
    return spans


@cached_resource(max_entries=16, show_spinner="Looking for suspicious segments…")
def flagged_segments(evaluation: Evaluation, gap: float, low: float, high: float) -> pd.DataFrame:
    """The outlier finder's table with its links, once per data, BLEU's settings and thresholds.

    Pass ``evaluation.reading(BLEU.label)``: only BLEU's settings key it. Cached and
    shared: never change the frame returned.
    """
    names = list(evaluation.testset.systems)
    bleu = {n: evaluation.bleu(n) for n in names}
    found = find_outliers(
        {n: bleu[n].sentence for n in names},
        {n: bleu[n].stats.hyp_len for n in names},
        {n: bleu[n].ref_len for n in names},
        gap,
        low,
        high,
    )
    found["open"] = [
        "sentences?" + urlencode({"sys": s, "seg": str(g)})
        for s, g in zip(found["system"], found["seg"], strict=True)
    ]
    return found


def outlier_finder(evaluation: Evaluation) -> None:
    """Thresholds, then the flagged (system, segment) pairs, each a link to the segment."""
    gap_col, low_col, high_col = st.columns(3)
    gap = gap_col.number_input(
        "BLEU below the others' median by", 1.0, 100.0, 30.0, 5.0, key="ov_out_gap"
    )
    low = low_col.number_input("Length ratio below", 0.0, 1.0, 0.5, 0.05, key="ov_out_low")
    high = high_col.number_input("Length ratio above", 1.0, 10.0, 2.0, 0.25, key="ov_out_high")
    found = flagged_segments(evaluation.reading(BLEU.label), gap, low, high)
    st.caption(f"{len(found)} flagged (system, segment) pairs.")
    st.dataframe(
        found,
        key="ov_outliers",
        hide_index=True,
        height=300,
        column_order=["system", "seg", "check", "bleu", "median_others", "ratio", "open"],
        column_config={
            "seg": st.column_config.NumberColumn("segment", width="small"),
            "bleu": st.column_config.NumberColumn("sentence BLEU", format="%.2f"),
            "median_others": st.column_config.NumberColumn("others' median", format="%.2f"),
            "ratio": st.column_config.NumberColumn("length ratio", format="%.2f"),
            "open": st.column_config.LinkColumn("open", display_text="Sentences"),
        },
    )
    export_buttons(found.drop(columns=["open"]), "outliers", "ov_outliers_export")
