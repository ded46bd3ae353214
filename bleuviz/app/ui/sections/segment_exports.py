"""The Sentences page's downloads: the segments shown, and every system in long form.

Each file holds every column the table shows (sentence BLEU and its parts, every
chosen and imported metric, the error counts of the chosen span file, the lengths,
the notes) with whole texts, and the
LaTeX writes each to the page's decimals. A download's file is built when it is
clicked, on a server thread that has no session: everything that reads the
session (the chosen metrics, the notes, the settings) is read here, on the
script's thread, and the builders below call only the core.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pandas as pd
import streamlit as st
from numpy.typing import ArrayLike

from bleuviz.analysis.segments import add_columns, export_columns, segment_export, segment_table
from bleuviz.analysis.span_counts import error_counts
from bleuviz.app.ui.sections.error_filter import add_error_counts
from bleuviz.app.ui.sections.notes import note_column, notes_by_system, notes_download
from bleuviz.app.ui.sections.segment_view import sentence_signature
from bleuviz.app.ui.widgets.export import export_buttons
from bleuviz.arrays import FloatArray
from bleuviz.io.error_spans import ErrorAnnotations
from bleuviz.metrics import BLEU
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.export import export_style

#: The height ``sentence_exports`` takes with the gap above it (px): two captions and two rows
#: of buttons, each followed by Streamlit's 16 px gap (measured in chromium at 1400 px wide).
EXPORTS_PX = 16 + 2 * (22 + 16 + 40) + 16


def sentence_exports(
    evaluation: Evaluation,
    system: str,
    table: pd.DataFrame,
    rows: Sequence[int],
    labels: Sequence[str],
    spans: ErrorAnnotations | None = None,
) -> None:
    """Download the shown segments of ``system`` and every system's, each with every column.

    ``table``: the page's table of ``system`` (before filtering); ``rows``: the
    0-based segments shown; ``labels``: the chosen and imported metrics; ``spans``:
    the span file whose error counts the table shows (every system's go in the long
    form).
    """
    testset = evaluation.testset
    systems = list(testset.systems)
    style = _style(evaluation, system, labels)
    st.caption("Download the segments shown (whole texts, references and source, every score):")
    shown = export_columns({system: table})
    export_buttons(
        lambda: style(segment_export(testset, [system], shown, rows)),
        f"{system}-segments",
        "sent_export",
        signature=sentence_signature(evaluation),
    )
    notes_download("sent_notes_export")
    st.caption("…or every segment of every system, in long form (one row per segment and system):")
    metrics = {
        label: {n: scores.sentence for n, scores in evaluation.scores(label, systems).items()}
        for label in labels
    }
    noted = notes_by_system()
    notes = {n: note_column(noted[n], testset.n_segments) for n in systems if noted.get(n)}
    export_buttons(
        lambda: style(
            segment_export(testset, systems, _every_system(evaluation, metrics, notes, spans))
        ),
        "all-systems-segments",
        "sent_export_all",
        signature=sentence_signature(evaluation),
    )


def _every_system(
    evaluation: Evaluation,
    metrics: Mapping[str, Mapping[str, FloatArray]],
    notes: Mapping[str, list[str]],
    spans: ErrorAnnotations | None,
) -> dict[str, dict[str, ArrayLike]]:
    """Every system's table columns (core only: runs on the download's thread).

    With ``spans``, each system's error counts, blank for a system nobody rated.
    """
    n_segments = evaluation.testset.n_segments
    empty = [""] * n_segments
    tables = {}
    for n in evaluation.testset.systems:
        tables[n] = add_columns(
            segment_table(evaluation, n),
            {label: by_system[n] for label, by_system in metrics.items()},
            notes.get(n, empty) if notes else None,
        )
        if spans is not None:  # after the metrics, as the page's table has them
            add_error_counts(tables[n], error_counts(spans, n, n_segments))
    return export_columns(tables)


def _style(
    evaluation: Evaluation, system: str, labels: Sequence[str]
) -> Callable[[pd.DataFrame], pd.DataFrame]:
    """The page's decimals and every metric's signature, for a segment export.

    Sentence BLEU's signature is its sentence-level one (not the corpus score's).
    """
    orders = range(evaluation.settings.bleu.max_order)
    digits = {BLEU.label: BLEU.digits, "bp": 3} | {f"p{n + 1}": 1 for n in orders}
    digits |= {label: evaluation.metric(label).digits for label in labels}
    signatures = {BLEU.label: sentence_signature(evaluation)}
    signatures |= {label: evaluation.detail(label, system).signature for label in labels}
    return lambda frame: export_style(frame, digits, signatures=signatures)
