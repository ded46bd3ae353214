"""The segment tables' error filters (Sentences, Compare) and their error counts.

A segment passes when one of its errors has a chosen category *and* a chosen
severity; an empty choice admits every value of its kind. The choices travel
in the page's link (``err_from``, ``err_cat``, ``err_sev``, on Compare ``err_in``).
Nothing is drawn, and every segment kept, without error spans.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st
from numpy.typing import NDArray

from bleuviz.analysis.span_counts import categories_and_severities, error_counts, error_mask
from bleuviz.app.ui.cache.keys import cached_data
from bleuviz.app.ui.sections.error_spans import TABLE_CHOICE, annotation_choice, spans_id
from bleuviz.app.ui.state.links import apply_links, claim, write_links
from bleuviz.app.ui.state.page_links import error_filter_links, error_side_param
from bleuviz.io.error_spans import ErrorAnnotations
from bleuviz.io.testset import TestSet
from bleuviz.render.labels import escape_markdown as md


@cached_data(max_entries=64, show_spinner=False)
def cached_error_counts(
    content_id: str, name: str, system: str, n_segments: int, _annotations: ErrorAnnotations
) -> dict[str, NDArray[np.float64]]:
    """``error_counts`` of file ``name`` in the test set ``content_id`` (cached)."""
    return error_counts(_annotations, system, n_segments)


def with_pair_counts(
    page: pd.DataFrame,
    testset: TestSet,
    names: tuple[str, str],
    annotations: ErrorAnnotations | None,
) -> pd.DataFrame:
    """Compare's table rows with A's and B's Major and Minor counts before the previews.

    ``page``: the rows drawn (``seg`` from 1, ``hyp_a`` the first preview), changed
    in place; ``annotations``: the file the table's filter chose. Nothing is
    added without span files.
    """
    if annotations is None:
        return page
    lines = (page["seg"] - 1).to_numpy()
    at = list(page.columns).index("hyp_a")
    for role, name in zip("AB", names, strict=True):
        if name not in annotations.segments:
            continue
        counts = cached_error_counts(
            spans_id(annotations), annotations.name, name, testset.n_segments, annotations
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
    #: The span file the counts come from (the exports count every system's from it).
    annotations: ErrorAnnotations | None = None

    def apply(self, table: pd.DataFrame) -> NDArray[np.bool_]:
        """Add the error counts to ``table`` (in place, before the lengths); return the mask."""
        add_error_counts(table, self.counts)
        return np.ones(len(table), dtype=bool) if self.mask is None else self.mask


def add_error_counts(table: pd.DataFrame, counts: Mapping[str, NDArray[np.float64]]) -> None:
    """Insert each severity's counts into a segment table, before ``hyp_len`` (in place).

    Whole numbers, blank where nobody rated the segment.
    """
    for severity, values in counts.items():
        column = pd.Series(values, index=table.index).astype("Int64")
        table.insert(list(table.columns).index("hyp_len"), severity, column)


def error_filter(testset: TestSet, system: str, prefix: str) -> ErrorFilter:
    """Choose error categories and severities; the segments with such an error are kept.

    Draws nothing, and keeps every segment, when no error spans are loaded for
    ``system``. The choices travel in the link (``err_from``, ``err_cat``, ``err_sev``).
    """
    annotations = annotation_choice(testset, f"{prefix}_err_from", True, TABLE_CHOICE)
    if annotations is None or system not in annotations.segments:
        claim("err_cat", "err_sev")  # a link's filter, for a system with errors
        return ErrorFilter()
    n = testset.n_segments
    counts = cached_error_counts(spans_id(annotations), annotations.name, system, n, annotations)
    result = ErrorFilter(annotations.name, counts, annotations=annotations)
    chosen = _choose_errors(annotations, [system], prefix, st.columns([3, 2]))
    if chosen is not None:
        result.mask = error_mask(annotations, system, n, *chosen)
        result.chips[f"errors: {md(', '.join([*chosen[0], *chosen[1]]))}"] = [
            prefix + suffix for suffix in FILTER_SUFFIXES
        ]
    return result


def _choose_errors(
    annotations: ErrorAnnotations, systems: list[str], prefix: str, columns: Sequence[Any]
) -> tuple[list[str], list[str]] | None:
    """Draw the category and severity choices (linked); None while both are empty."""
    categories, severities = categories_and_severities(annotations, systems)
    links = error_filter_links(prefix, categories, severities)
    apply_links(links)
    chosen_categories = columns[0].multiselect(
        f"{md(annotations.name)} error category",
        categories,
        key=links[0].key,
        placeholder="Any category",
        help="Keep the segments with an error of one of these categories (and severities)",
    )
    chosen_severities = columns[1].multiselect(
        f"{md(annotations.name)} error severity",
        severities,
        key=links[1].key,
        placeholder="Any severity",
        help="Keep the segments with an error of one of these severities (and categories)",
    )
    write_links(links)
    if not chosen_categories and not chosen_severities:
        return None
    return list(chosen_categories), list(chosen_severities)


#: Compare's choice of whose errors the filter looks at: state value -> label.
PAIR_SIDES = {"either": "A or B", "A": "A", "B": "B", "both": "A and B"}


@dataclass(frozen=True, slots=True)
class PairErrors:
    """Compare's error filter as chosen: the file, and the segments kept (None: every one)."""

    annotations: ErrorAnnotations | None = None
    segments: NDArray[np.intp] | None = None
    label: str = ""
    keys: tuple[str, ...] = ()


def pair_error_filter(testset: TestSet, names: tuple[str, str], prefix: str) -> PairErrors:
    """Compare's filter: segments where A, B, either or both have a chosen error.

    Draws nothing when neither system has error spans. The choices travel in the
    link (``err_from``, ``err_cat``, ``err_sev``, ``err_in``).
    """
    annotations = annotation_choice(testset, f"{prefix}_err_from", True, TABLE_CHOICE)
    annotated = [n for n in names if annotations is not None and n in annotations.segments]
    if annotations is None or not annotated:
        claim("err_cat", "err_sev", "err_in")
        return PairErrors(annotations)
    side_link = error_side_param(f"{prefix}_err_in", list(PAIR_SIDES))
    apply_links([side_link])
    columns = st.columns([3, 2, 1])
    side = str(
        columns[2].selectbox(
            "Errors of",
            list(PAIR_SIDES),
            format_func=PAIR_SIDES.__getitem__,
            key=side_link.key,
            help="Whose errors the category and severity filter looks at",
        )
    )
    write_links([side_link])
    chosen = _choose_errors(annotations, annotated, prefix, columns)
    if chosen is None:
        return PairErrors(annotations)
    n = testset.n_segments
    a, b = (error_mask(annotations, name, n, *chosen) for name in names)
    mask = {"either": a | b, "A": a, "B": b, "both": a & b}[side]
    what = ", ".join([*chosen[0], *chosen[1]])
    keys = tuple(prefix + suffix for suffix in FILTER_SUFFIXES)
    return PairErrors(
        annotations, np.flatnonzero(mask), f"errors of {PAIR_SIDES[side]}: {md(what)}", keys
    )
