"""Human error spans on the pages: which annotations, which rater, and the table's filter.

Nothing here draws anything while the test set holds no error spans, so a
user without span files pays nothing for them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import streamlit as st
from numpy.typing import NDArray

from bleuviz.analysis.span_counts import (
    categories_and_severities,
    error_counts,
    error_mask,
    error_token_rows,
    rater_spans,
)
from bleuviz.app.ui.cache.loading import scored_testset
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

#: The rater choice meaning "every rater's spans at once".
EVERY_RATER = "every rater"


def spans_id() -> str:
    """The content id of the test set with its span files: the key of what spans give.

    It digests every span (``bleuviz.io.content_id``), so caches are keyed on it
    and an annotations object itself is never hashed (0.27 s for the TED set's
    6,877 annotated segments, on every rerun).
    """
    return scored_testset().content_id


@st.cache_data(max_entries=64, show_spinner=False)
def cached_error_counts(
    content_id: str, name: str, system: str, n_segments: int, _annotations: ErrorAnnotations
) -> dict[str, NDArray[np.float64]]:
    """``error_counts`` of file ``name`` in the test set ``content_id`` (cached)."""
    return error_counts(_annotations, system, n_segments)


def annotation_choice(testset: TestSet, key: str) -> ErrorAnnotations | None:
    """The error spans to show: None without any, the one file, or the user's choice of files."""
    files = testset.error_spans
    if not files:
        return None
    if len(files) == 1:
        return files[0]
    names = [f.name for f in files]
    chosen = st.selectbox(
        "Error spans from", names, key=key, help="Which file's error spans to show and count"
    )
    return files[names.index(str(chosen))]


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
    st.caption(f"{md(annotations.name)} error spans by {md(who)}: {md(severity_counts(spans))}.")
    return ShownErrors(annotations.name, rater, spans)


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
            "marked": st.column_config.TextColumn("marked words", width="large"),
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


def with_pair_counts(
    page: pd.DataFrame, testset: TestSet, names: tuple[str, str], key: str
) -> pd.DataFrame:
    """Compare's table rows with A's and B's Major and Minor counts before the previews.

    ``page``: the rows drawn (``seg`` from 1, ``hyp_a`` the first preview), changed
    in place. Nothing is added without span files.
    """
    annotations = annotation_choice(testset, key)
    if annotations is None:
        return page
    lines = (page["seg"] - 1).to_numpy()
    at = list(page.columns).index("hyp_a")
    for role, name in zip("AB", names, strict=True):
        if name not in annotations.segments:
            continue
        counts = cached_error_counts(
            spans_id(), annotations.name, name, testset.n_segments, annotations
        )
        for severity, values in counts.items():
            column = pd.Series(values[lines], index=page.index).astype("Int64")
            page.insert(at, f"{severity} {role}", column)
            at += 1
    return page


#: State keys of the table's error filter (the page's prefix goes first).
FILTER_SUFFIXES = ("_err_categories", "_err_severities")


@dataclass(slots=True)
class ErrorFilter:
    """The segment table's error filter as chosen: the counts to add and the segments kept."""

    name: str = ""
    counts: dict[str, NDArray[np.float64]] = field(default_factory=dict)
    mask: NDArray[np.bool_] | None = None
    chips: dict[str, list[str]] = field(default_factory=dict)

    def apply(self, table: pd.DataFrame) -> NDArray[np.bool_]:
        """Add the error counts to ``table`` (in place, before the lengths); return the mask."""
        for severity, values in self.counts.items():
            # Whole numbers, blank where nobody rated the segment.
            counts = pd.Series(values, index=table.index).astype("Int64")
            table.insert(list(table.columns).index("hyp_len"), severity, counts)
        return np.ones(len(table), dtype=bool) if self.mask is None else self.mask


def error_filter(testset: TestSet, system: str, prefix: str) -> ErrorFilter:
    """Choose error categories and severities; the segments with such an error are kept.

    Draws nothing, and keeps every segment, when no error spans are loaded for
    ``system``.
    """
    annotations = annotation_choice(testset, f"{prefix}_err_from")
    if annotations is None or system not in annotations.segments:
        return ErrorFilter()
    n = testset.n_segments
    counts = cached_error_counts(spans_id(), annotations.name, system, n, annotations)
    result = ErrorFilter(annotations.name, counts)
    categories, severities = categories_and_severities(annotations, [system])
    left, right = st.columns([3, 2])
    keys = [prefix + suffix for suffix in FILTER_SUFFIXES]
    chosen_categories = left.multiselect(
        f"{md(annotations.name)} error category",
        categories,
        key=keys[0],
        placeholder="Any category",
        help="Keep the segments with an error of one of these categories (and severities)",
    )
    chosen_severities = right.multiselect(
        f"{md(annotations.name)} error severity",
        severities,
        key=keys[1],
        placeholder="Any severity",
        help="Keep the segments with an error of one of these severities (and categories)",
    )
    if chosen_categories or chosen_severities:
        result.mask = error_mask(annotations, system, n, chosen_categories, chosen_severities)
        what = ", ".join([*chosen_categories, *chosen_severities])
        result.chips[f"errors: {md(what)}"] = keys
    return result
