"""Notes leave the workspace as JSON: the TSV's columns as keys, values typed.

The same records as ``notes_tsv`` (``bleuviz.workspace.export``), one object per
note: ``segment`` and ``revision`` are integers, ``span`` is ``[start, end]``
(character offsets, end exclusive) or null, ``severity`` null for a comment.
Text is written as saved: JSON has no formulas to neutralise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bleuviz.workspace.notes import NO_SEVERITY, Note


def notes_records(
    notes: Sequence[Note], seg_ids: Sequence[str] | None, *, revisions: bool = False
) -> list[dict[str, Any]]:
    """Return one dict per note, keyed as the TSV's columns (``NOTES_TSV_HEADER``).

    ``revisions``: ``notes`` is every revision of each note, in order; each record
    adds ``revision`` and ``state`` (``current``, ``earlier`` or ``deleted``).
    """
    records = []
    for k, note in enumerate(notes):
        record: dict[str, Any] = {
            "set": note.set_id,
            "system": note.system,
            "segment": note.segment + 1,
            "seg_id": seg_ids[note.segment] if seg_ids is not None else str(note.segment + 1),
            "category": note.category,
            "severity": None if note.severity == NO_SEVERITY else note.severity,
            "span": None if note.span is None else list(note.span),
            "saved": note.saved.isoformat(timespec="seconds"),
            "author": note.author,
            "output": "earlier" if note.on_earlier_output else "current",
        }
        if revisions:
            later = k + 1 < len(notes) and _key(notes[k + 1]) == _key(note)
            record["revision"] = note.revision
            record["state"] = "deleted" if note.deleted else "earlier" if later else "current"
        record["note"] = note.text
        records.append(record)
    return records


def _key(note: Note) -> tuple[str, str, int]:
    """Which note a revision is of: (set, system, segment)."""
    return (note.set_id, note.system, note.segment)
