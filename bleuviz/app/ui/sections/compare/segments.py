"""Compare page sections about single segments: sentence-score plots, the segment table
and one segment's drill-down (with the callbacks their clicks run).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from bleuviz.analysis.buckets import (
    SORTS,
    sort_comparison,
    win_tie_loss,
)
from bleuviz.analysis.salient import (
    gaps_frame,
    match_gaps,
)
from bleuviz.analysis.segments import PREVIEW_CHARS, segment_export
from bleuviz.app import routes
from bleuviz.app.ui.cache.compare import sentence_axis
from bleuviz.app.ui.sections.compare.views import SEGMENTS, open_view
from bleuviz.app.ui.sections.error_filter import pair_error_filter, with_pair_counts
from bleuviz.app.ui.sections.error_spans import (
    DRAWN_CHOICE,
    ShownErrors,
    annotation_choice,
    segment_errors,
    show_source,
)
from bleuviz.app.ui.sections.notes import note_editor
from bleuviz.app.ui.sections.segment_view import (
    explanation,
    learn_link,
    marked_hypothesis,
    source_and_order,
)
from bleuviz.app.ui.sections.subset import subset_caption
from bleuviz.app.ui.state.selection import clickable_segment_table
from bleuviz.app.ui.widgets.export import export_buttons
from bleuviz.app.ui.widgets.filters import ActiveFilter, filter_chips
from bleuviz.app.ui.widgets.format import fmt_metric, segment_score_title
from bleuviz.app.ui.widgets.markup import show_html
from bleuviz.app.ui.widgets.table_window import table_window
from bleuviz.bleu.explain import SegmentExplanation
from bleuviz.io.testset import TestSet
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.compare_charts import (
    difference_histogram,
    sentence_scatter,
    win_tie_loss_bar,
)
from bleuviz.render.error_marks import error_legend
from bleuviz.render.highlight import legend, reference_html
from bleuviz.render.labels import escape_markdown as md
from bleuviz.render.numbers import fixed, printf


def open_point() -> None:
    """Open the segment of the scatter point the user clicked."""
    points = st.session_state["cmp_scatter"].selection.points
    if points:
        data = points[0].get("customdata")
        st.session_state["cmp_seg"] = int(data[0] if isinstance(data, list) else data)
        open_view(SEGMENTS)


#: The height ``plots`` takes (px): a line, the scatter beside two charts, a caption.
PLOTS_PX = 1000


def plots(
    evaluation: Evaluation, comparison: pd.DataFrame, names: tuple[str, str], metric: str
) -> None:
    """Scatter of sentence scores (a click opens the segment), differences, win/tie/loss."""
    scored = comparison.dropna(subset=["diff"])
    diff = scored["diff"].to_numpy()
    counts = win_tie_loss(diff)
    axis = sentence_axis(evaluation, metric)
    st.markdown(
        f"By sentence {md(metric)}, **{md(names[1])}** (B) is better on **{counts.wins}** "
        f"segments, ties on **{counts.ties}** and is worse on **{counts.losses}**."
    )
    if len(scored) < len(comparison):
        st.caption(
            f"{len(comparison) - len(scored)} segments lack a {md(metric)} score for A or B "
            "and are left out of these counts and charts."
        )
    left, right = st.columns([3, 2])
    with left:
        score_a, score_b = scored["score_a"].to_numpy(), scored["score_b"].to_numpy()
        fig = sentence_scatter(score_a, score_b, scored["seg"].tolist(), names, axis)
        st.plotly_chart(fig, key="cmp_scatter", on_select=open_point, selection_mode="points")
        st.caption("Click a point to open its segment in the Segments tab.")
    with right:
        st.plotly_chart(difference_histogram(diff, names, axis), key="cmp_hist")
        st.plotly_chart(win_tie_loss_bar(counts, names), key="cmp_wtl")


def segment_table(
    evaluation: Evaluation,
    comparison: pd.DataFrame,
    names: tuple[str, str],
    filters: dict[str, ActiveFilter],
    metric: str,
) -> pd.DataFrame:
    """The filtered, sorted table of segments; a click on a row opens it below.

    ``filters``: the filters set in other tabs; the table's own error filter is
    added to it, so that the page's "clear the filters" clears that one too.
    """
    testset = evaluation.testset
    frame = comparison.copy()
    if testset.doc_ids is not None:
        frame.insert(1, "doc", testset.doc_ids)
    errors = pair_error_filter(testset, names, "cmp")  # draws nothing without error spans
    if errors.segments is not None:  # into the page's filters: its stepper clears them all
        filters[errors.label] = ActiveFilter(errors.segments, errors.keys)
    mask = np.ones(len(frame), dtype=bool)
    for active in filters.values():
        mask &= np.isin(np.arange(len(frame)), active.segments)
    how = st.columns([2, 3])[0].selectbox("Sort", list(SORTS), key="cmp_sort", persist_state="page")
    shown = sort_comparison(frame[mask], SORTS[how])
    rows = (shown["seg"] - 1).tolist()
    filter_chips({label: active.keys for label, active in filters.items()}, "cmp_chip")
    st.caption(subset_caption(evaluation, list(names), rows, list(filters)))
    if filters and not rows:
        alone = [f"{label} alone leaves {len(f.segments)}" for label, f in filters.items()]
        st.caption("Each filter on its own: " + "; ".join(alone) + ".")
    st.caption("Click a segment's number to open it.")
    axis = sentence_axis(evaluation, metric)
    digits = printf(axis.digits)
    page = with_previews(
        table_window(shown, st.session_state.get("cmp_seg"), "cmp_rows"), testset, names
    )
    page = with_pair_counts(page, testset, names, errors.annotations)  # only with span files
    clickable_segment_table(
        page,
        "cmp",
        {
            "score_a": st.column_config.NumberColumn(f"{metric} {names[0]}", format=digits),
            "score_b": st.column_config.NumberColumn(f"{metric} {names[1]}", format=digits),
            "diff": st.column_config.NumberColumn(
                "B − A" if axis.higher_is_better else "A − B (gain of B)",
                format=digits.replace("%", "%+"),
            ),
            "hyp_a": st.column_config.TextColumn(f"{names[0]} (A)", width="large"),
            "hyp_b": st.column_config.TextColumn(f"{names[1]} (B)", width="large"),
        },
    )
    rows = (shown["seg"] - 1).tolist()
    scores = {
        metric: {n: shown_scores(comparison, role) for n, role in zip(names, "ab", strict=True)}
    }
    export_buttons(
        lambda: segment_export(testset, list(names), scores, rows),
        f"segments-{names[0]}-vs-{names[1]}",
        "cmp_table_export",
    )
    return shown


def with_previews(page: pd.DataFrame, testset: TestSet, names: tuple[str, str]) -> pd.DataFrame:
    """The rows drawn, with the start of A's and B's hypotheses.

    Made for the table's page only (at most ``PAGE_ROWS``), not for every
    segment: at 100,000 segments, slicing both systems' lines on every rerun
    took longer than the rest of the table.
    """
    lines = (page["seg"] - 1).tolist()
    out = page.copy()
    for role, name in zip("ab", names, strict=True):
        hyps = testset.systems[name]
        out[f"hyp_{role}"] = [hyps[i][:PREVIEW_CHARS] for i in lines]
    return out


def shown_scores(comparison: pd.DataFrame, role: str) -> np.ndarray:
    """One system's sentence scores from the comparison frame (all segments, in order)."""
    return comparison[f"score_{role}"].to_numpy()


def drill_down(
    evaluation: Evaluation,
    row: pd.Series,
    names: tuple[str, str],
    index: int,
    metric: str,
) -> None:
    """One segment: source, both hypotheses and references highlighted, and the match gaps."""
    testset = evaluation.testset
    refs = tuple(stream[index] for stream in testset.references)
    tokenize, bleu = evaluation.settings.tokenize, evaluation.settings.bleu
    expl = [
        explanation(testset.systems[name][index], refs, tokenize, bleu.max_order) for name in names
    ]
    doc = f" · document {testset.doc_ids[index]}" if testset.doc_ids is not None else ""
    st.markdown(f"#### Segment {md(testset.segment_label(index) + doc)}")
    cols = st.columns(3)
    spec = evaluation.metric(metric)
    for col, role, name, column in zip(cols, "AB", names, ("score_a", "score_b"), strict=False):
        title = segment_score_title(spec)
        col.metric(f"{title} of {role} · {md(name)}", fmt_metric(spec, row[column]))
    axis = sentence_axis(evaluation, metric)
    gain = "—" if pd.isna(row["diff"]) else fixed(row["diff"], axis.digits, sign=True)
    cols[2].metric(
        "Sentence difference " + ("B − A" if axis.higher_is_better else "A − B (gain of B)"), gain
    )
    order = source_and_order(evaluation, index, key="cmp_order")
    # None without error spans; the table's choice until the user makes one here.
    spans = annotation_choice(testset, "cmp_seg_err_from", False, DRAWN_CHOICE, "cmp_err_from")
    shown_legend = st.empty()  # the error legend joins it where a side shows error spans
    drawn: list[str] | None = None  # the severities shown, once a side shows error spans
    for i, col in enumerate(st.columns(2)):
        with col:
            st.markdown(f"**{'AB'[i]} · {md(names[i])}**")
            errors = segment_errors(spans, names[i], index, f"cmp_{'ab'[i]}")
            if errors is not None:
                drawn = (drawn or []) + [span.severity for span in errors.spans]
            if errors is not None and errors.source_spans and testset.source is not None:
                st.caption(f"Source, with the errors marked in it for {md(names[i])}")
                show_source(testset.source[index], errors)
            system_side(expl[i], expl[1 - i], names, i, order, index, errors)
    show_html(legend() + ("" if drawn is None else error_legend(drawn)), shown_legend)
    for i, col in enumerate(st.columns(2)):
        with col:
            st.caption(f"Note on {'AB'[i]} · {md(names[i])}")
            note_editor(testset, names[i], index, f"cmp_{'ab'[i]}")


def system_side(
    mine: SegmentExplanation,
    other: SegmentExplanation,
    names: tuple[str, str],
    side: int,
    order: int,
    index: int,
    errors: ShownErrors | None,
) -> None:
    """One column of the drill-down: a hypothesis (with its error spans, if shown), its
    reference coverage and its gains."""
    name, other_name, role = names[side], names[1 - side], "AB"[side]
    show_html(marked_hypothesis(mine, order, errors))
    for r in range(len(mine.ref_texts)):
        st.caption(f"Reference {r + 1}: tokens {md(name)} matched at order {order}")
        show_html(reference_html(mine, order, r))
    gaps = match_gaps(mine, other, order)
    st.markdown(f"{order}-grams {md(name)} matches more often than {md(other_name)}")
    if gaps:
        st.dataframe(
            gaps_frame(gaps),
            key=f"cmp_{role.lower()}_gaps",
            hide_index=True,
            column_order=["n-gram", "matched", "other"],
            column_config={"matched": st.column_config.NumberColumn(name), "other": other_name},
        )
    else:
        st.caption("None.")
    query = {"sys": name, "seg": str(index + 1)}
    st.page_link(
        routes.SENTENCES,
        label=f"Open in Sentences ({md(name)})",
        query_params=query,
    )
    learn_link(mine.hyp_text, mine.ref_texts, f"Open {md(name)}'s segment in Learn")
