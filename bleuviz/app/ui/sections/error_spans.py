"""Human error spans on the pages: which annotations, which rater, one segment's errors.

The annotations offered are the span files loaded with the test set and the
words the user's saved notes mark ("Your notes"). Nothing here draws anything
while there are none, so a user without span files pays nothing for them. The
segment tables' filters are in ``error_filter``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import partial

import streamlit as st

from bleuviz.analysis.span_counts import error_token_rows, rater_spans
from bleuviz.app.ui.cache.loading import scored_testset
from bleuviz.app.ui.cache.workspace import open_workspace
from bleuviz.app.ui.sections.note_editing import current_set_id
from bleuviz.app.ui.state.links import apply_links, write_links
from bleuviz.app.ui.state.page_links import error_file_param
from bleuviz.app.ui.widgets.markup import show_html
from bleuviz.bleu.explain import SegmentExplanation
from bleuviz.io.error_spans import (
    MAJOR,
    METRIC,
    MINOR,
    NEUTRAL,
    ErrorAnnotations,
    ErrorSpan,
)
from bleuviz.io.testset import TestSet
from bleuviz.render.error_marks import error_line_html
from bleuviz.render.labels import escape_markdown as md
from bleuviz.workspace.note_spans import NOTES_NAME, note_annotations

#: The rater choice meaning "every rater's spans at once".
EVERY_RATER = "every rater"


def spans_id(annotations: ErrorAnnotations | None = None) -> str:
    """The content id of the test set with its span files: the key of what spans give.

    It digests every span (``bleuviz.io.content_id``), so caches are keyed on it
    and an annotations object itself is never hashed (0.27 s for the TED set's
    6,877 annotated segments, on every rerun). The notes' spans (``your_notes``)
    are not in the test set: their key adds their origin, which digests the
    notes, so a saved note is counted on the next run.
    """
    content_id = scored_testset().content_id
    if annotations is not None and annotations.name == NOTES_NAME:
        return f"{content_id}|{annotations.origin}"
    return content_id


def your_notes(testset: TestSet) -> ErrorAnnotations | None:
    """The errors marked in the saved notes on ``testset``; None if no note marks one."""
    set_id, workspace = current_set_id(), open_workspace()
    if set_id is None or workspace is None:
        return None
    return note_annotations(workspace.notes(set_id), testset)


def span_sources(testset: TestSet) -> tuple[ErrorAnnotations, ...]:
    """The span files loaded with ``testset``, then the user's notes if they mark errors."""
    if any(f.name == NOTES_NAME for f in testset.error_spans):
        return testset.error_spans  # a file of that name comes first; notes are not mixed in
    notes = your_notes(testset)
    return testset.error_spans + ((notes,) if notes is not None else ())


#: The choosers' labels: the segment table's (counts and filter) and the drill-down's,
#: named apart where a page has both.
TABLE_CHOICE, DRAWN_CHOICE = "Errors counted and filtered from", "Error spans drawn from"


def annotation_choice(
    testset: TestSet,
    key: str,
    link: bool = False,
    label: str = "Error spans from",
    follow: str | None = None,
) -> ErrorAnnotations | None:
    """The error spans to show: None without any, the one file, or the user's choice of files.

    ``link``: the choice travels in the page's link as ``err_from`` (a table's
    choice; a drill-down's stays out of it). A link naming a file the page
    does not hold is reported even where there is only one to show. ``follow``:
    the key of the page's other chooser (the table's), whose choice this one takes
    until the user makes one here (a link's ``err_from`` draws that file's spans too).
    """
    files = span_sources(testset)
    if not files:
        return None
    names = [f.name for f in files]
    param = [error_file_param(key, names)] if link else []
    apply_links(param)
    if len(files) == 1:
        write_links(param)  # the one file is the default: left out of the link
        return files[0]
    state, own = st.session_state, f"{key}::own"
    if follow is not None and not state.get(own) and state.get(follow) in names:
        state[key] = state[follow]
    chosen = st.selectbox(
        label,
        names,
        key=key,
        on_change=None if follow is None else partial(state.__setitem__, own, True),
        help=_choice_help(label, names),
    )
    write_links(param)
    return files[names.index(str(chosen))]


def _choice_help(label: str, names: list[str]) -> str:
    """The help of a chooser: what it decides, and what "Your notes" holds."""
    what = {
        TABLE_CHOICE: "Which file's errors the segment table counts and filters by",
        DRAWN_CHOICE: "Which file's error spans are drawn on this segment (and in every "
        "system's line of it); it follows the table's choice until you choose here",
    }.get(label, "Which file's error spans to show and count")
    notes = f"; “{NOTES_NAME}”: the words your saved notes mark" if NOTES_NAME in names else ""
    return what + notes


def whose_errors(annotations: ErrorAnnotations) -> str:
    """ "human errors (MQM)", or "xCOMET's predicted errors" for a metric's spans: headings."""
    if annotations.kind == METRIC:
        return f"{annotations.name}'s predicted errors"
    return f"human errors ({annotations.name})"


@dataclass(frozen=True, slots=True)
class ShownErrors:
    """One segment's error spans as chosen: from which file, which rater, and the spans."""

    name: str
    rater: str | None
    spans: tuple[ErrorSpan, ...]

    @property
    def source_spans(self) -> tuple[ErrorSpan, ...]:
        """The errors marked in the source line."""
        return tuple(span for span in self.spans if span.on_source)


def segment_errors(
    annotations: ErrorAnnotations | None, system: str, index: int, key: str
) -> ShownErrors | None:
    """Choose the rater of one segment's spans; None when there is nothing to show.

    ``annotations``: the file chosen (``annotation_choice``), None without any.
    The rater selector appears only where the segment has several raters; a
    caption says who rated it and how many errors they marked.
    """
    if annotations is None:
        return None
    if annotations.name != NOTES_NAME and NOTES_NAME in _marked_here(system, index):
        st.caption(
            f"Your notes mark an error here too: choose “{NOTES_NAME}” under "
            f"“{DRAWN_CHOICE}” to see it."
        )
    if system not in annotations.segments:
        st.caption(f"{md(annotations.name)} annotates no segment of {md(system)}.")
        return None
    annotation = annotations.annotation(system, index)
    if annotation is None:
        st.caption(f"{md(annotations.name)}: this segment of {md(system)} was not annotated.")
        return None
    rater = None
    if len(annotation.raters) > 1:
        options = [EVERY_RATER, *annotation.raters]
        if st.session_state.get(f"{key}_rater") not in options:
            st.session_state[f"{key}_rater"] = EVERY_RATER
        chosen = str(st.selectbox("Rater", options, key=f"{key}_rater"))
        rater = None if chosen == EVERY_RATER else chosen
    spans = rater_spans(annotation, rater)
    who = ", ".join(annotation.raters) if rater is None else rater
    whose = (
        "Your saved notes" if annotations.name == NOTES_NAME else f"{annotations.name} error spans"
    )
    st.caption(f"{md(whose)} by {md(who)}: {md(severity_counts(spans))}.")
    return ShownErrors(annotations.name, rater, spans)


def _marked_here(system: str, index: int) -> tuple[str, ...]:
    """``(NOTES_NAME,)`` when a saved note marks an error on this segment, else ``()``."""
    notes = your_notes(scored_testset().testset)
    annotation = None if notes is None else notes.annotation(system, index)
    return (NOTES_NAME,) if annotation is not None and annotation.spans else ()


def severity_counts(spans: tuple[ErrorSpan, ...]) -> str:
    """ "2 major, 1 minor": the errors marked, by severity (an error's later stretches once)."""
    counted = Counter(span.severity for span in spans if not span.continued)
    order = [s for s in (MAJOR, MINOR, NEUTRAL) if s in counted]
    order += sorted(set(counted) - set(order))
    return ", ".join(f"{counted[s]} {s}" for s in order) or "no error marked"


def error_table(expl: SegmentExplanation, order: int, errors: ShownErrors, key: str) -> None:
    """The errors marked on the hypothesis, each with its tokens and how many BLEU flags."""
    frame = error_token_rows(
        expl.hyp_text, expl.hyp_spans, expl.token_statuses(order), errors.spans
    )
    if frame.empty:
        return
    for column in ("tokens", "flagged"):
        frame[column] = frame[column].astype("Int64")
    st.dataframe(
        frame,
        key=f"{key}_errors_{order}",
        hide_index=True,
        column_config={
            # Medium: at large, "flagged at order N" left the 818 px the page has at 1280.
            "marked": st.column_config.TextColumn("marked words", width="medium"),
            "flagged": st.column_config.NumberColumn(
                f"flagged at order {order}",
                help=f"The error's tokens that no matched {order}-gram covers "
                "(grey or orange in the line above)",
            ),
        },
    )


def show_source(source: str, errors: ShownErrors | None) -> None:
    """The source line: plain, or with the errors marked on it underlined."""
    if errors is None or not errors.source_spans:
        st.text(source)
        return
    show_html(error_line_html(source, errors.source_spans))
