"""The Overview's charts and document table: what the page draws after its answer."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import streamlit as st

from bleuviz.analysis.segments import document_scores
from bleuviz.app import routes
from bleuviz.app.ui.sections.deferred import CHART_PX
from bleuviz.app.ui.sections.overview_table import Column, chart_order, focus_picker
from bleuviz.app.ui.widgets.export import export_buttons
from bleuviz.app.ui.widgets.table_window import column_px, fits_width
from bleuviz.bleu.result import BleuScore
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.charts import document_bars, precision_by_order, sentence_score_boxes
from bleuviz.render.labels import escape_markdown as md

#: Heights the deferred parts take (px): a heading, a widget, a data frame's default
#: height (and a chart's, ``CHART_PX``). Reserved before the charts arrive.
HEADING_PX, WIDGET_PX, TABLE_PX = 60, 75, 400
#: The error sections' heights (``error_breakdown``: a heading, the severity, the chart, the
#: table, a caption and exports; ``bleu_sees``: a heading, choices, the chart and the table).
ERRORS_PX = 2 * HEADING_PX + 2 * WIDGET_PX + CHART_PX + TABLE_PX
SEES_PX = 2 * HEADING_PX + 3 * WIDGET_PX + CHART_PX + TABLE_PX


def score_charts(
    evaluation: Evaluation,
    scores: Mapping[str, BleuScore],
    columns: Mapping[str, Column],
) -> None:
    """Precision by order and sentence BLEU boxes of the systems the picker focuses on."""
    focus = focus_picker(chart_order(columns))  # not the ranking: its change redraws no chart
    left, right = st.columns(2)
    with left:
        st.subheader("Modified precision by order")
        st.plotly_chart(precision_by_order({n: scores[n] for n in focus}), key="ov_precision_chart")
    with right:
        st.subheader("Sentence BLEU")
        sentence = {n: evaluation.bleu(n).sentence for n in focus}
        st.plotly_chart(sentence_score_boxes(sentence), key="ov_sentence_boxes")


def score_charts_px(n_systems: int, focus_default: int) -> int:
    """The height ``score_charts`` takes (the precision chart grows with its systems)."""
    precision = max(260, 40 + 28 * min(n_systems, focus_default))
    return WIDGET_PX + HEADING_PX + max(CHART_PX, precision)


def documents_section(evaluation: Evaluation, signature: str) -> None:
    """Corpus BLEU per document: bars, the table (exported), and a link to one's segments."""
    st.subheader("Documents")
    docs = document_scores(evaluation)
    systems = list(evaluation.testset.systems)
    st.plotly_chart(
        document_bars(list(docs["doc"]), {n: list(docs[n]) for n in systems}),
        key="ov_doc_chart",
    )
    document_table(docs, systems)
    export_buttons(docs, "documents", "ov_docs_export", signature=signature)
    doc = st.selectbox("Open a document's segments", list(docs["doc"]), key="ov_doc")
    system = st.selectbox("System", systems, key="ov_doc_system")
    st.page_link(
        routes.SENTENCES,
        label=f"Show the segments of {md(str(doc))} for {md(system)}",
        query_params={"sys": system, "doc": str(doc)},
        icon=":material/manage_search:",
    )


def document_table(docs: pd.DataFrame, systems: list[str]) -> None:
    """The documents' scores: a row per document, or per system where only that fits.

    At 1,280 px the main column holds about ten systems' columns with their names whole
    (WMT21 TED's 13 made the table scroll sideways); with more, a few documents go
    across instead. Where neither fits, a row per document scrolls, its id pinned.
    """
    ids = [str(doc) for doc in docs["doc"]]
    if fits_width(["doc", "segments", *systems]) or not fits_width(["system", *ids]):
        st.dataframe(
            docs,
            key="ov_docs_table",
            hide_index=True,
            column_config={
                "doc": st.column_config.TextColumn("doc", pinned=True),
                "segments": st.column_config.NumberColumn("segments", width=column_px("segments")),
                **{
                    name: st.column_config.NumberColumn(name, format="%.2f", width=column_px(name))
                    for name in systems
                },
            },
        )
        return
    across = docs.set_index("doc")[systems].T.rename_axis("system").reset_index()
    across.columns = ["system", *ids]
    st.dataframe(
        across,
        key="ov_docs_table",
        hide_index=True,
        column_config={
            "system": st.column_config.TextColumn("system", pinned=True),
            **{
                doc: st.column_config.NumberColumn(doc, format="%.2f", width=column_px(doc))
                for doc in ids
            },
        },
    )
    sizes = " · ".join(f"{doc} {n}" for doc, n in zip(ids, docs["segments"], strict=True))
    st.caption(
        f"A row per system: {len(systems)} systems' columns would not fit side by side. "
        f"Segments per document: {md(sizes)}."
    )


def documents_px() -> int:
    """The height ``documents_section`` takes."""
    return 2 * HEADING_PX + CHART_PX + TABLE_PX + 4 * WIDGET_PX
