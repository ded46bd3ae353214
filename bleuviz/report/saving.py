"""A report saved back in a workspace: the test set it holds, with its notes.

``bleuviz add --report`` and the app's sidebar both call ``save_report``: the
report's texts, imported scores (exact), error spans and notes are saved as
``add`` saves files, so that the saved set's scores equal the report's (under
the report's settings, which its provenance states). A report holding a sample
of its segments cannot be reopened whole and is refused (``read_report``). A
note already saved as the report shows it is not saved again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bleuviz.errors import InputError
from bleuviz.io.decode import NamedBytes
from bleuviz.report.reading import ReportNote, read_report

if TYPE_CHECKING:
    from bleuviz.workspace.base import SavedSet
    from bleuviz.workspace.store import Workspace


@dataclass(frozen=True, slots=True)
class SavedReport:
    """A report's test set as saved, and how many of its notes were left out.

    Attributes:
        saved: the saved test set (its id is the content's, as ``add``'s).
        earlier: notes written on an output since replaced (the report shows the
            current lines), not saved.
    """

    saved: SavedSet
    earlier: int


def save_report(
    workspace: Workspace, report: NamedBytes, name: str, *, replace: bool = False
) -> SavedReport:
    """Save the test set and notes of the report file ``report`` in ``workspace`` as ``name``.

    Raises:
        InputError: not UTF-8, not a report, a malformed one, or one holding a
            sample of its segments (the message names the file).
        OutputChanged, SpansChanged: a system or spans saved under the same name
            differ (``replace`` replaces them, as ``add --replace``).
    """
    try:
        text = report.data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(
            f"{report.name}: not UTF-8 at byte {e.start:,}: not a bleuviz report"
        ) from None
    reopened = read_report(text, report.name)
    saved = workspace.save_testset(reopened.testset, name, replace=replace)
    for note in reopened.notes:
        if not _saved_already(workspace, saved.id, note):
            workspace.save_note(
                saved.id,
                note.system,
                note.segment,
                note.text,
                note.category,
                author=note.author,
                severity=note.severity,
                span=note.span,
            )
    return SavedReport(saved, reopened.earlier)


def _saved_already(workspace: Workspace, set_id: str, note: ReportNote) -> bool:
    """Whether the workspace holds ``note`` as the report shows it (saving it again would
    add a revision saying nothing new)."""
    held = workspace.note(set_id, note.system, note.segment)
    if held is None:
        return False
    shown = (note.text, note.category, note.severity, note.author, note.span)
    return (held.text, held.category, held.severity, held.author, held.span) == shown
