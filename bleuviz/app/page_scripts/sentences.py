"""Sentences: a filterable table of every segment and one segment's n-grams, highlighted.

Deep link: ``/sentences?sys=NAME&seg=N`` (N counted from 1) opens that segment; ``doc``,
``q`` (the search), ``bleu`` and ``len`` (ranges ``low,high``), ``range.METRIC``
(an imported score's range) and, with error spans, ``err_from``, ``err_cat`` and
``err_sev`` (comma-separated) carry the filters.
"""

from __future__ import annotations

from functools import partial
from typing import cast

import numpy as np
import streamlit as st

from bleuviz.analysis.segments import (
    SegmentFilter,
    add_columns,
    filter_mask,
    match_places,
    reading_order,
)
from bleuviz.app.ui.cache.data import current_data
from bleuviz.app.ui.cache.scores import score_every_system, segment_frame
from bleuviz.app.ui.sections.all_systems import every_system_px, segment_in_every_system
from bleuviz.app.ui.sections.deferred import deferred
from bleuviz.app.ui.sections.error_filter import FILTER_SUFFIXES, error_filter
from bleuviz.app.ui.sections.notes import (
    ANY_NOTE,
    NO_NOTE,
    NOTE_FILTER_KEY,
    note_column,
    note_mask,
    notes_of,
)
from bleuviz.app.ui.sections.segment_exports import EXPORTS_PX, sentence_exports
from bleuviz.app.ui.sections.segment_view import (
    imported_ranges,
    in_range,
    search_hits,
    segment_anchor,
    sentence_semantics_note,
    show_segment,
)
from bleuviz.app.ui.sections.subset import active_filters, subset_caption
from bleuviz.app.ui.state.links import apply_links, arriving, write_links
from bleuviz.app.ui.state.page_links import document_choices, longest_hypothesis, sentence_links
from bleuviz.app.ui.state.selection import TABLE_PX, clickable_segment_table
from bleuviz.app.ui.state.settings import chosen_metrics, imported_metrics
from bleuviz.app.ui.state.stepper import row_stepper
from bleuviz.app.ui.widgets.filters import filter_chips, forget
from bleuviz.app.ui.widgets.format import number_format
from bleuviz.app.ui.widgets.scroll import scroll_into_view, scroll_table_to_row
from bleuviz.app.ui.widgets.table_window import table_window
from bleuviz.metrics import BLEU
from bleuviz.workspace import NOTE_CATEGORIES

#: Session-state key: the segment a link opened. While it stays open, the table is drawn
#: scrolled to its row.
TABLE_TO_ROW = "sent_table::to_row"

st.title("Sentences")
evaluation = current_data()
testset = evaluation.testset
systems = list(evaluation.testset.systems)

# The link: ?sys=&seg=&doc=&q=&bleu=&len= are applied before the widgets are drawn.
longest = longest_hypothesis(evaluation)
documents = document_choices(testset)
links = sentence_links(systems, testset.n_segments, longest, documents)
opened_on_segment = arriving() and "seg" in st.query_params  # a link to one segment
st.session_state.setdefault("sent_bleu", (0.0, 100.0))
st.session_state.setdefault("sent_len", (0, longest))
apply_links(links)
if opened_on_segment:  # its row is brought into view whenever the table is drawn for it
    st.session_state[TABLE_TO_ROW] = st.session_state.get("sent_seg")

system = st.selectbox("System", systems, key="sent_system")
st.caption(sentence_semantics_note(evaluation))
labels = chosen_metrics()
score_every_system(evaluation, labels)  # with a progress bar; the sections read the cache
table = add_columns(  # the cached table is shared: columns go on a copy
    segment_frame(evaluation.reading(BLEU.label), system).copy(),
    {label: evaluation.detail(label, system).sentence for label in labels},
)

with st.container(border=True):
    search, bleu_col, len_col, doc_col = st.columns([3, 2, 2, 2])
    text = search.text_input("Search hypothesis, references and source", key="sent_search")
    # Ranges: the value lives in session state (set above or by the link), so no value= here.
    bleu_range = cast(
        tuple[float, float], bleu_col.slider("Sentence BLEU", 0.0, 100.0, key="sent_bleu")
    )
    # One range for every system, so switching systems keeps the chosen lengths.
    len_range = cast(
        tuple[int, int], len_col.slider("Hypothesis length", 0, longest, key="sent_len")
    )
    doc = None
    if testset.doc_ids is not None:
        if st.session_state.get("sent_doc") not in documents:
            st.session_state["sent_doc"] = "(all)"
        doc = doc_col.selectbox("Document", documents, key="sent_doc")
    score_ranges = imported_ranges(evaluation, imported_metrics())
    notes = notes_of(system)
    if notes:
        note_choice = st.multiselect(
            "Notes",
            [ANY_NOTE, *NOTE_CATEGORIES, NO_NOTE],
            key=NOTE_FILTER_KEY,
            placeholder="Every segment, noted or not",
            help="Keep the segments whose note has one of these categories.",
        )
    else:
        note_choice = []
    errors = error_filter(testset, system, "sent")  # draws nothing without error spans

flt = SegmentFilter(text, bleu_range[0], bleu_range[1], len_range[0], len_range[1])
mask = filter_mask(testset, system, table, flt)
if doc not in (None, "(all)") and testset.doc_ids is not None:
    mask &= np.asarray(testset.doc_ids) == doc
for label, (low, high) in score_ranges.items():
    mask &= in_range(table[label].to_numpy(), low, high)
mask &= errors.apply(table)  # with the error counts as columns
if notes:  # after the hypothesis: a mostly empty column does not push the text away
    add_columns(table, {}, note_column(notes, len(table)))
    mask &= note_mask(notes, note_choice, len(table))
if text.strip():
    table.insert(1, "matched in", match_places(testset, system, text))
shown = table[mask]


def clear_sentence_filters() -> None:
    """Reset the search, the ranges and the document (the imported-score ranges too)."""
    ranges = [str(k) for k in st.session_state if str(k).startswith("sent_range::")]
    spans = ["sent" + suffix for suffix in FILTER_SUFFIXES]
    forget(["sent_search", "sent_bleu", "sent_len", "sent_doc", NOTE_FILTER_KEY, *ranges, *spans])


active = active_filters(text, bleu_range, len_range, longest, doc, score_ranges)
if note_choice:
    active["notes: " + ", ".join(note_choice)] = [NOTE_FILTER_KEY]
active.update(errors.chips)
filter_chips(active, "sent_chip")
st.caption(subset_caption(evaluation, [system], (shown["seg"] - 1).tolist(), list(active)))
st.caption("Click a segment's number to open it.")
page = table_window(shown, st.session_state.get("sent_seg"), "sent_rows")


def table_and_exports() -> None:
    """The page of the table (a click opens a row) and the downloads below it.

    Drawn first after a link to a segment, the table is scrolled to that segment's row.
    """
    clickable_segment_table(
        page,
        "sent",
        {
            "bleu": st.column_config.NumberColumn("BLEU", format="%.2f"),
            "bp": st.column_config.NumberColumn("BP", format="%.3f"),
            "note": st.column_config.TextColumn("note", width="small"),
            **{
                f"p{n + 1}": st.column_config.NumberColumn(f"p{n + 1}", format="%.1f")
                for n in range(evaluation.settings.bleu.max_order)
            },
            **{
                label: st.column_config.NumberColumn(
                    label, format=number_format(evaluation.metric(label))
                )
                for label in labels
            },
        },
        column_order=reading_order(list(page.columns)),
    )
    slot = st.empty()  # drawn on every run: the elements below keep their places
    rows, opened = page["seg"].tolist(), st.session_state.get("sent_seg")
    linked = st.session_state.get(TABLE_TO_ROW)
    if linked is not None and linked != opened:  # another segment is open: the link is done
        del st.session_state[TABLE_TO_ROW]
    elif linked is not None and opened in rows:
        # On every run, not only the table's first: the page's parts arrive in runs of their
        # own, and a run stopped by the next one sends nothing after the stop. The browser
        # runs the script once, and again only if its text changes.
        scroll_table_to_row("sent_table", rows.index(opened), len(rows), slot)
    shown_rows = (shown["seg"] - 1).tolist()
    sentence_exports(evaluation, system, table, shown_rows, labels, errors.annotations)


# A link to one segment: its drill-down is the answer, the table and the other systems' lines
# arrive once it is on screen (on any other visit the table is drawn with the page).
deferred(
    "sent_table_part",
    "Show the table",
    TABLE_PX + EXPORTS_PX,
    table_and_exports,
    defer=opened_on_segment,
)

st.session_state.setdefault("sent_seg", int(shown["seg"].iloc[0]) if len(shown) else 1)
seg = st.number_input("Segment", 1, testset.n_segments, step=1, key="sent_seg")
row_stepper("sent_seg", shown["seg"].tolist(), clear_sentence_filters, key="sent_step")
write_links(links)
scroll_slot = st.empty()  # drawn on every run: the elements below keep their places
if opened_on_segment:  # the drill-down, not the table above it
    scroll_into_view(segment_anchor("sent"), scroll_slot)
drawn = show_segment(  # the error spans it draws, drawn in every system's line too
    evaluation, system, int(seg) - 1, key_prefix="sent", defer_table=opened_on_segment
)
if text.strip():
    search_hits(testset, system, int(seg) - 1, text)

if len(systems) > 1:
    st.subheader("This segment in every system")
    order = int(st.session_state.get("sent_order", 1))
    deferred(
        "sent_every_part",
        "Show every system's line",
        every_system_px(len(systems)),
        partial(segment_in_every_system, evaluation, int(seg) - 1, order, drawn),
        defer=opened_on_segment,
    )
