"""Notes leave the workspace as TSV that any spreadsheet reads back column for column."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from bleuviz.render.spreadsheet import inert_cell
from bleuviz.workspace.notes import Note

#: The TSV's columns; ``segment`` is 1-based, as the app shows it. ``severity`` is
#: empty for a comment; ``span`` is the marked words' character offsets ``START-END``
#: into the line (end exclusive), empty if none. ``output`` is ``current``, or
#: ``earlier`` for a note written on an output since replaced.
NOTES_TSV_HEADER = (
    "set",
    "system",
    "segment",
    "seg_id",
    "category",
    "severity",
    "span",
    "saved",
    "author",
    "output",
    "note",
)
#: The columns a TSV with every revision adds: the revision number, and ``current``,
#: ``earlier`` (a later revision replaced it) or ``deleted`` (this revision deleted the note).
REVISION_COLUMNS = ("revision", "state")


def notes_tsv(
    notes: Sequence[Note], seg_ids: Sequence[str] | None, *, revisions: bool = False
) -> str:
    """Return ``notes`` as TSV with a header row (``NOTES_TSV_HEADER``).

    ``revisions``: ``notes`` is every revision of each note, in order
    (``REVISION_COLUMNS`` go before ``note``).

    Written by the csv module's ``excel-tab`` dialect: a field holding a tab, a
    quote, a carriage return or a newline is quoted, so a note cannot break the
    columns (its default CRLF line end is kept; with a bare LF, Python's csv
    leaves a lone CR unquoted). ``saved`` is ISO 8601 in UTC. A text cell that a
    spreadsheet would read as a formula (``=``, ``+``, ``-``, ``@``, tab or CR first)
    starts with a ``'`` (``bleuviz.render.spreadsheet``).
    """
    out = io.StringIO()
    writer = csv.writer(out, dialect="excel-tab")
    extra = REVISION_COLUMNS if revisions else ()
    writer.writerow((*NOTES_TSV_HEADER[:-1], *extra, NOTES_TSV_HEADER[-1]))
    for k, note in enumerate(notes):
        seg_id = seg_ids[note.segment] if seg_ids is not None else str(note.segment + 1)
        saved = note.saved.isoformat(timespec="seconds")
        output = "earlier" if note.on_earlier_output else "current"
        span = "" if note.span is None else f"{note.span[0]}-{note.span[1]}"
        row = [note.set_id, note.system, note.segment + 1, seg_id, note.category]
        row += [note.severity, span, saved, note.author, output]
        if revisions:
            later = k + 1 < len(notes) and _same_note(notes[k + 1], note)
            state = "deleted" if note.deleted else "earlier" if later else "current"
            row += [note.revision, state]
        writer.writerow([inert_cell(cell) for cell in (*row, note.text)])
    return out.getvalue()


def _same_note(a: Note, b: Note) -> bool:
    """Whether two revisions are of the same note (set, system, segment)."""
    return (a.set_id, a.system, a.segment) == (b.set_id, b.system, b.segment)
