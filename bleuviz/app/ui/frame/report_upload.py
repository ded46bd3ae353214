"""The sidebar's report upload: a ``bleuviz report`` file opened again as a live test set.

The test set the report holds (texts, imported scores, error spans, notes) is
saved in the workspace as ``bleuviz add --report`` saves it
(``bleuviz.report.saving``), so that its scores equal the report's, and the
sidebar switches to it. A report holding only a sample of its segments, a file
that is not a report, or a save the workspace refuses is shown as one error
line (escaped: it quotes the file's name) while the file stays in the uploader.
"""

from __future__ import annotations

import streamlit as st

from bleuviz.app.ui.cache.workspace import forget_listings, open_workspace, workspace_problem
from bleuviz.errors import BleuvizError
from bleuviz.io.decode import NamedBytes
from bleuviz.render.labels import escape_markdown as md

#: The uploader's key.
REPORT_UPLOADER = "up_report"
#: Session-state key of the report handled last: its file id and the refusal (None: saved).
HANDLED_KEY = "up_report_handled"


def report_upload() -> None:
    """An uploader for a report; a new one is saved and shown, or its refusal shown."""
    bar, state = st.sidebar, st.session_state
    report = bar.file_uploader(
        "Or a bleuviz report (.html): open the test set it holds",
        type=["html", "htm"],
        key=REPORT_UPLOADER,
        help="A file written by bleuviz report (or the Overview's Report download) holding "
        "every segment: its texts, imported scores, error spans and notes are saved in the "
        "workspace, as bleuviz add --report saves them.",
    )
    if report is None:
        state.pop(HANDLED_KEY, None)
        return
    handled = state.get(HANDLED_KEY)
    if handled is None or handled[0] != report.file_id:
        state[HANDLED_KEY] = (report.file_id, None)  # a save reruns at once: noted first
        refusal = save_and_show(NamedBytes(report.name, report.getvalue()))
        handled = state[HANDLED_KEY] = (report.file_id, refusal)
    if handled[1] is not None:
        bar.error(md(handled[1]), icon=":material/error:")


def save_and_show(report: NamedBytes) -> str:
    """Save the report's test set and show it on the next run (a rerun); else say why not."""
    from bleuviz.report.saving import save_report

    workspace = open_workspace()
    if workspace is None or workspace.read_only:
        problem = workspace_problem() or "no workspace is open"
        return f"{report.name}: cannot be opened: the test set is saved first, and {problem}"
    try:
        saved = save_report(workspace, report, report.name).saved
    except BleuvizError as exc:
        return str(exc)
    finally:
        forget_listings()
    st.session_state["pending_set"] = saved.id  # the next run shows it
    st.rerun()
