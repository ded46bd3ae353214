"""Overview section: what BLEU sees of human errors (``bleuviz.analysis.error_tokens``).

Per system or for all, the share of error tokens BLEU flags beside the share of
other tokens, by severity and by top-level category, as a chart and a table; a
click on a group lists its segments, each a link to its drill-down; and the
agreement of BLEU's flagged runs with the error spans. Draws nothing without
error spans.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd
import streamlit as st

from bleuviz.analysis.error_tokens import (
    ALL,
    GOLD_SEVERITIES,
    ErrorTokenAnalysis,
    ErrorTokenReport,
    OrderCounts,
    SegmentRef,
    what_bleu_sees,
)
from bleuviz.app import routes
from bleuviz.app.ui.cache.keys import cached_data
from bleuviz.app.ui.sections.error_spans import (
    EVERY_RATER,
    annotation_choice,
    spans_id,
    whose_errors,
)
from bleuviz.app.ui.sections.span_agreement import span_agreement_tables
from bleuviz.app.ui.state.page_links import segment_query
from bleuviz.app.ui.widgets.export import export_buttons
from bleuviz.errors import BleuvizError
from bleuviz.io.error_spans import ErrorAnnotations
from bleuviz.metrics import BLEU
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.error_charts import flag_rate_bars
from bleuviz.render.labels import escape_markdown as md

#: The group of every Major and Minor error, first in the chart and the table.
ALL_ERRORS = "all errors"
#: Links to segments drawn at most (the rest are counted).
MAX_LINKS = 30
#: State key of the group whose segments are listed.
GROUP_KEY = "ov_sees_group"

DEFINITIONS = """
- An **error token** is a hypothesis token (BLEU's tokenizer, placed in the line by its
  characters) that overlaps a span of severity Major or Minor marked on the hypothesis;
  every other token is an **other token**. With several raters, any rater's mark counts.
  ESA's **undecided** spans (the annotator chose neither Major nor Minor) are a group of
  their own: their tokens are neither error tokens nor other tokens, and they are not
  among "all errors" or the gold spans of span agreement.
- A token is **flagged at order n** when no matched n-gram of order n covers it: the
  Sentences page's highlight (an n-gram's first min(hypothesis count, clip count)
  occurrences are matched).
- BLEU **sees** errors of a group when it flags their tokens more often than other
  tokens: the difference is error rate − other rate, in percentage points. Every group
  is compared with the same other tokens.
- **Span agreement**: the runs of consecutive flagged tokens are taken as predicted spans
  and scored against the error spans (MPP: partial overlap, partial credit, micro-averaged).
- Only annotated segments count; a segment whose tokens cannot be placed in the line
  (the tokenizer rewrote characters) is listed as unaligned and left out.
"""


@cached_data(max_entries=16, show_spinner="Comparing BLEU's flagged tokens with the errors…")
def cached_analysis(
    evaluation: Evaluation, spans: str, rater: str | None, _annotations: ErrorAnnotations
) -> ErrorTokenAnalysis:
    """The analysis of the span file ``spans`` names (``spans_id``) of the test set, cached.

    Pass ``evaluation.reading(BLEU.label)``: BLEU's tokenization and order are what it
    reads (a flavour change recomputes, rarely). An annotations object is never hashed
    (a quarter of a second for the TED set's spans, on every rerun): ``spans`` is its key.
    """
    settings = evaluation.settings
    return what_bleu_sees(evaluation.testset, _annotations, settings.tokenize, settings.bleu, rater)


def bleu_sees(evaluation: Evaluation) -> None:
    """The section: definitions, choices, chart, table, a group's segments, span agreement."""
    testset = evaluation.testset
    annotations = annotation_choice(testset, "ov_sees_from")
    if annotations is None:
        return
    st.subheader(f"What BLEU sees of {md(whose_errors(annotations))}")
    st.caption(
        "An *error token* overlaps a Major or Minor span marked on the hypothesis; a token "
        "is *flagged* at order n when no matched n-gram of that order covers it (the "
        "Sentences highlight). BLEU sees a group of errors when it flags their tokens more "
        "often than the other tokens."
    )
    with st.expander("Definitions in full", expanded=False, key="ov_sees_definitions"):
        st.markdown(DEFINITIONS)
    system, rater, order = _choices(evaluation, annotations)
    try:
        analysis = cached_analysis(
            evaluation.reading(BLEU.label), spans_id(annotations), rater, annotations
        )
    except BleuvizError as exc:
        st.error(md(str(exc)), icon=":material/error:")
        return
    report = analysis.system(system)
    _summary(report, order)
    groups = report_groups(report)
    st.plotly_chart(
        flag_rate_bars({name: rows[order - 1] for name, rows in groups.items()}, order),
        key="ov_sees_chart",
        on_select=_open_clicked_group,
        selection_mode="points",
    )
    st.caption(
        "Under each group, n: its error tokens. Whiskers: Wilson 95% intervals of each share, "
        "taking tokens as independent (tokens of one segment are not, so the true "
        "uncertainty is wider). Click a group's bar to list its segments below."
    )
    frame = rates_frame(groups)
    st.dataframe(frame, key="ov_sees_table", hide_index=True, column_config=_RATE_COLUMNS)
    export_buttons(frame, f"bleu-sees-{annotations.name}-{system}", "ov_sees_export")
    _group_segments(report, list(groups), list(testset.systems))
    span_agreement_tables(report, testset.error_spans, annotations, rater)
    _unaligned(report)


def _choices(evaluation: Evaluation, annotations: ErrorAnnotations) -> tuple[str, str | None, int]:
    """The system (or all), the rater (None: every rater) and the n-gram order to show."""
    systems = [ALL, *(s for s in evaluation.testset.systems if s in annotations.segments)]
    if st.session_state.get("ov_sees_system") not in systems:  # another test set or file
        st.session_state["ov_sees_system"] = ALL
    left, middle, right = st.columns([3, 2, 2])
    system = str(left.selectbox("System", systems, key="ov_sees_system", format_func=_system))
    rater = _rater_choice(annotations, middle)
    orders = list(range(1, evaluation.settings.bleu.max_order + 1))
    order = int(right.radio("n-gram order", orders, horizontal=True, key="ov_sees_order"))
    return system, rater, order


def _system(name: str) -> str:
    """A system choice as shown (``all`` as every system together)."""
    return "all systems" if name == ALL else md(name)


def _rater_choice(annotations: ErrorAnnotations, where: Any) -> str | None:
    """A rater selector where the file names several raters; None means every rater."""
    raters = sorted(
        {r for per in annotations.segments.values() for a in per if a is not None for r in a.raters}
    )
    if len(raters) < 2:
        return None
    if st.session_state.get("ov_sees_rater") not in [EVERY_RATER, *raters]:
        st.session_state["ov_sees_rater"] = EVERY_RATER
    chosen = str(
        where.selectbox("Rater", [EVERY_RATER, *raters], key="ov_sees_rater", format_func=md)
    )
    return None if chosen == EVERY_RATER else chosen


def report_groups(report: ErrorTokenReport) -> dict[str, tuple[OrderCounts, ...]]:
    """All errors, then each severity, then each top-level category: its rows per order."""
    return {ALL_ERRORS: report.orders, **report.by_severity, **report.by_category}


def rates_frame(groups: dict[str, tuple[OrderCounts, ...]]) -> pd.DataFrame:
    """One row per group and order: tokens, flagged, rates (%) and their difference (points)."""
    rows = [
        {
            "group": name,
            "order": c.order,
            "error tokens": c.error_tokens,
            "error flagged": c.error_flagged,
            "error rate": 100 * c.error_rate,
            "other tokens": c.other_tokens,
            "other flagged": c.other_flagged,
            "other rate": 100 * c.other_rate,
            "difference": 100 * c.difference,
        }
        for name, per_order in groups.items()
        for c in per_order
    ]
    return pd.DataFrame(rows)


_RATE_COLUMNS = {
    "error rate": st.column_config.NumberColumn("error rate (%)", format="%.1f"),
    "other rate": st.column_config.NumberColumn("other rate (%)", format="%.1f"),
    "difference": st.column_config.NumberColumn(
        "difference (points)",
        format="%+.1f",
        help="error rate − other rate: above 0, BLEU flags this group's tokens more often",
    ),
}


def _summary(report: ErrorTokenReport, order: int) -> None:
    """One sentence: at this order, how much more often BLEU flags error tokens."""
    c = report.orders[order - 1]
    if not c.error_tokens:
        st.caption(f"{report.segments} annotated segments counted; no error token among them.")
        return
    st.markdown(
        f"At order {order}, BLEU flags **{100 * c.error_rate:.1f}%** of error tokens "
        f"({c.error_flagged} of {c.error_tokens}) and **{100 * c.other_rate:.1f}%** of "
        f"other tokens ({c.other_flagged} of {c.other_tokens}): a difference of "
        f"**{100 * c.difference:+.1f}** points, over {report.segments} annotated segments."
    )


def _open_clicked_group() -> None:
    """List the segments of the group whose bar was clicked."""
    points = st.session_state["ov_sees_chart"].selection.points
    if points:
        data = points[0].get("customdata")
        if isinstance(data, list) and data:
            st.session_state[GROUP_KEY] = str(data[0])


def group_segments(
    report: ErrorTokenReport, group: str, systems: Sequence[str]
) -> tuple[SegmentRef, ...]:
    """The counted segments holding an error token of ``group`` (all errors: any severity).

    ``systems`` gives the order of systems (the test set's), segments ascending in each.
    """
    if group == ALL_ERRORS:  # undecided spans are counted apart, not among all errors
        rank = {name: i for i, name in enumerate(systems)}
        every = {
            ref
            for severity, refs in report.segments_by_severity.items()
            if severity in GOLD_SEVERITIES
            for ref in refs
        }
        return tuple(sorted(every, key=lambda ref: (rank.get(ref[0], len(rank)), ref[1])))
    if group in report.segments_by_severity:
        return report.segments_by_severity[group]
    return report.segments_by_category.get(group, ())


def _group_segments(report: ErrorTokenReport, groups: list[str], systems: list[str]) -> None:
    """The chosen group's segments, each a link to its drill-down on Sentences."""
    if st.session_state.get(GROUP_KEY) not in groups:
        st.session_state[GROUP_KEY] = ALL_ERRORS
    group = str(st.selectbox("List the segments of", groups, key=GROUP_KEY))
    refs = group_segments(report, group, systems)
    if not refs:
        st.caption(f"No counted segment holds an error token of {md(group)}.")
        return
    more = f" (the first {MAX_LINKS} shown)" if len(refs) > MAX_LINKS else ""
    many = "1 segment holds" if len(refs) == 1 else f"{len(refs)} segments hold"
    st.caption(f"{many} an error token of {md(group)}{more}:")
    links = st.columns(3)
    for i, (system, index) in enumerate(refs[:MAX_LINKS]):
        links[i % 3].page_link(
            routes.SENTENCES,
            label=f"seg {index + 1} · {md(system)}",
            query_params=segment_query(system, index + 1),
        )


def _unaligned(report: ErrorTokenReport) -> None:
    """The annotated segments left out because their tokens could not be placed."""
    if not report.unaligned:
        return
    shown = ", ".join(f"{s} {i + 1}" for s, i in report.unaligned[:20])
    more = f" and {len(report.unaligned) - 20} more" if len(report.unaligned) > 20 else ""
    n = len(report.unaligned)
    what = "1 annotated segment is" if n == 1 else f"{n} annotated segments are"
    st.warning(
        md(
            f"{what} left out: the tokenizer rewrote characters, so the tokens cannot be "
            f"placed in the line ({shown}{more})."
        ),
        icon=":material/warning:",
    )
