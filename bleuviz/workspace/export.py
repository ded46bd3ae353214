"""Notes leave the workspace as TSV that any spreadsheet reads back column for column."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from bleuviz.workspace.notes import Note

#: The TSV's columns; ``segment`` is 1-based, as the app shows it.
NOTES_TSV_HEADER = ("set", "system", "segment", "seg_id", "category", "saved", "note")


def notes_tsv(notes: Sequence[Note], seg_ids: Sequence[str] | None) -> str:
    """Return ``notes`` as TSV with a header row (``NOTES_TSV_HEADER``).

    Written by the csv module's ``excel-tab`` dialect: a field holding a tab, a
    quote, a carriage return or a newline is quoted, so a note cannot break the
    columns (its default CRLF line end is kept; with a bare LF, Python's csv
    leaves a lone CR unquoted). ``saved`` is ISO 8601 in UTC.
    """
    out = io.StringIO()
    writer = csv.writer(out, dialect="excel-tab")
    writer.writerow(NOTES_TSV_HEADER)
    for note in notes:
        seg_id = seg_ids[note.segment] if seg_ids is not None else str(note.segment + 1)
        saved = note.saved.isoformat(timespec="seconds")
        row = (note.set_id, note.system, note.segment + 1, seg_id, note.category, saved, note.text)
        writer.writerow(row)
    return out.getvalue()
