"""The Overview's Report download: ``bleuviz report``'s file of what is loaded and chosen.

The file is the command line's (``bleuviz.report``): the same evaluation (the
sidebar's settings, lowercase among them), the metrics chosen in the sidebar
beside BLEU, every imported score, the human score if one is chosen, and the
notes of a saved set, ranked and clustered on BLEU with the tests ``compare
--all-pairs --holm`` runs. Its provenance says "built in the app" where the
command line states itself, and names the files read (or the saved set).

Building takes seconds, so it runs only on request: "Build the report" notes
the request (what is chosen, and the date the report states), and every run
that finds the same evaluation and choices builds it through a cached function
(a rerun is a cache hit) with a progress bar, then offers the bytes for
download. Other choices show the button again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable
from dataclasses import replace

import streamlit as st

from bleuviz import __version__
from bleuviz.app.ui.cache.background import with_progress
from bleuviz.app.ui.cache.keys import cached_data
from bleuviz.app.ui.cache.loading import sample_paths
from bleuviz.app.ui.cache.workspace import SAVED, open_workspace
from bleuviz.app.ui.sections.note_editing import current_set_id
from bleuviz.app.ui.state.settings import human_metric
from bleuviz.errors import BleuvizError
from bleuviz.io.decode import NamedBytes
from bleuviz.metrics import BLEU, EXTRA_METRICS
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.progress import Progress
from bleuviz.render.labels import escape_markdown as md
from bleuviz.report.options import (
    InputFile,
    Provenance,
    ReportOptions,
    build_date,
    file_digest,
    paired_counts,
)

#: What the report's provenance says instead of a command line.
BUILT_IN_APP = "built in the app"
#: Session-state key of the request: (what was chosen, the date, the files read).
REQUEST_KEY = "ov_report_request"
#: The file offered for download.
FILE_NAME = "bleuviz-report.html"


def report_download(evaluation: Evaluation) -> None:
    """A "Build the report" button; once built, a "Download the report" button."""
    try:
        options = report_options(evaluation)
    except BleuvizError as exc:  # a notes read that failed: say so, keep the page
        st.caption(f"No report: {md(str(exc))}")
        return
    wanted = (evaluation.key, options)
    request = st.session_state.get(REQUEST_KEY)
    if request is None or request[0] != wanted:
        st.button(
            "Build the report",
            key="ov_report_build",
            icon=":material/description:",
            on_click=_request,
            args=(wanted,),
            help="One HTML file with this whole analysis and every segment, opened offline "
            "(as bleuviz report writes it); building takes a few seconds.",
        )
        return
    _, date, inputs = request
    provenance = replace(options.provenance, date=date, inputs=inputs)
    built = replace(options, provenance=provenance)
    try:
        data = with_progress(
            "Building the report", lambda report: report_bytes(evaluation, built, _progress=report)
        )
    except BleuvizError as exc:  # what the core refuses (the page's other sections stay)
        st.error(md(str(exc)), icon=":material/error:")
        return
    st.download_button(
        "Download the report",
        lambda: data,
        file_name=FILE_NAME,
        mime="text/html",
        key="ov_report_download",
        icon=":material/download:",
        on_click="ignore",
    )


def report_options(evaluation: Evaluation) -> ReportOptions:
    """The report's options from the sidebar: metrics, human score, notes (date: the click's).

    The notes are those the app shows: of the saved set on screen, or of the set the
    workspace holds with the same content as the sample or files shown.

    Raises:
        BleuvizError: the saved set's notes cannot be read.
    """
    chosen = [label for label in st.session_state.get("metrics", []) if label in EXTRA_METRICS]
    labels = tuple(dict.fromkeys([BLEU.label, *chosen]))
    set_id = current_set_id()
    workspace = open_workspace()
    notes = workspace.notes(set_id) if set_id is not None and workspace is not None else ()
    return ReportOptions(
        labels,
        paired_counts(BLEU.label, len(evaluation.testset.systems)),
        Provenance(__version__, BUILT_IN_APP, ""),
        human=human_metric(),
        notes=tuple(notes),
        set_id=set_id,  # files the workspace holds too: their notes are the set's
    )


def _request(wanted: Hashable) -> None:
    """Note the request with the date the report states and the files read (callback).

    A file no longer readable (a command-line file deleted since) is left out of
    the provenance rather than refusing the report of what is loaded.
    """
    try:
        inputs = input_files()
    except BleuvizError:
        inputs = ()
    st.session_state[REQUEST_KEY] = (wanted, build_date(), inputs)


@cached_data(max_entries=4, show_spinner=False)
def report_bytes(
    evaluation: Evaluation, options: ReportOptions, _progress: Progress | None = None
) -> bytes:
    """The report's file (cached; run on a worker thread, reading no session state)."""
    from bleuviz.report.build import build_report
    from bleuviz.report.page import render_page

    report = build_report(evaluation, options, _progress)
    if _progress is not None:
        _progress("the page and its charts", 0.8)
    return render_page(report).encode("utf-8")


def input_files() -> tuple[InputFile, ...]:
    """The files the loaded test set was read from, as ``bleuviz report`` names them."""
    state = st.session_state
    source = state.get("data_source", "sample")
    if source == SAVED:
        return (InputFile("saved test set", str(state.get("saved_set")), "(workspace)"),)
    files: list[InputFile] = []
    if source == "upload" and state.get("uploads") is not None:
        up = state["uploads"]
        named = [("reference", f) for f in up["ref"]] + [("system", f) for f in up["hyp"]]
        named += [(role, up[k]) for role, k in (("source", "src"), ("documents", "docids"))]
        files += [_digest(role, f) for role, f in named if f is not None]
    elif source in ("sample", "cli"):
        paths = state["cli_paths"] if source == "cli" else sample_paths()
        named_paths = [("reference", p) for p in paths.ref] + [("system", p) for p in paths.hyp]
        named_paths += [("source", paths.src), ("documents", paths.docids)]
        files += [file_digest(role, p) for role, p in named_paths if p]
        if source == "cli":
            files += [file_digest("segment scores", p) for p in state.get("cli_seg_scores") or ()]
    files += [_digest("segment scores", f) for f, _ in state.get("seg_score_uploads") or ()]
    return tuple(files)


def _digest(role: str, f: NamedBytes) -> InputFile:
    """An uploaded file by role, name and SHA-256."""
    return InputFile(role, f.name, hashlib.sha256(f.data).hexdigest())
