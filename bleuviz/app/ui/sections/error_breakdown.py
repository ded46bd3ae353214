"""Overview section: the human errors of each system by top-level category (table and chart)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bleuviz.analysis.span_counts import categories_and_severities, category_breakdown
from bleuviz.app.ui.cache.keys import cached_data
from bleuviz.app.ui.sections.error_spans import annotation_choice, spans_id, whose_errors
from bleuviz.app.ui.widgets.export import export_buttons
from bleuviz.io.error_spans import ERROR_SEVERITIES, ErrorAnnotations
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.error_charts import error_category_bars
from bleuviz.render.labels import escape_markdown as md

#: What the breakdown can count: Major and Minor together (the errors of issue 31), or one.
MAJOR_AND_MINOR = "major and minor"


@cached_data(max_entries=16, show_spinner=False)
def cached_breakdown(
    content_id: str,
    name: str,
    systems: tuple[str, ...],
    severities: frozenset[str],
    _annotations: ErrorAnnotations,
) -> pd.DataFrame:
    """``category_breakdown`` of span file ``name`` of the test set ``content_id`` (cached)."""
    return category_breakdown(_annotations, systems, severities)


def error_breakdown(evaluation: Evaluation) -> None:
    """Errors marked per system and category, as counts and per rating; nothing without spans."""
    testset = evaluation.testset
    annotations = annotation_choice(testset, "ov_err_from")
    if annotations is None:
        return
    systems = [s for s in testset.systems if s in annotations.segments]
    st.subheader(f"Error categories per system: {md(whose_errors(annotations))}")
    _, severities = categories_and_severities(annotations, systems)
    options = [MAJOR_AND_MINOR, *severities]
    counted = st.radio(
        "Count",
        options,
        format_func=md,
        horizontal=True,
        key="ov_err_severity",
        persist_state="page",
    )
    chosen = ERROR_SEVERITIES if counted == MAJOR_AND_MINOR else frozenset({str(counted)})
    frame = cached_breakdown(
        spans_id(annotations), annotations.name, tuple(systems), chosen, annotations
    )
    categories = [c for c in frame.columns if c not in ("ratings", "errors per rating")]
    if not categories:
        st.caption(f"No {md(str(counted))} error was marked.")
        return
    per_rating = frame[categories].div(frame["ratings"], axis=0)
    st.plotly_chart(
        error_category_bars(
            list(frame.index),
            {c: per_rating[c].tolist() for c in categories},
            "errors per rating",
        ),
        key="ov_err_chart",
    )
    st.dataframe(
        frame,
        key="ov_err_table",
        column_config={
            "system": st.column_config.TextColumn("system", pinned=True),
            "errors per rating": st.column_config.NumberColumn(format="%.3f"),
        },
    )
    st.caption(
        f"Errors of severity {md(str(counted))} that the raters of {md(annotations.name)} "
        "marked, by the category's first level (Accuracy of Accuracy/Mistranslation; "
        "Non-translation! counts as Accuracy, any category not among the six as Other). "
        "A rating is one rater's judgement of one segment, errors or not; with several raters "
        "on a segment each rater's errors count, so the chart divides by the ratings."
    )
    export_buttons(frame.reset_index(), f"errors-by-category-{annotations.name}", "ov_err_export")
