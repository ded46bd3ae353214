"""The SQL of notes: the current note per segment and every revision of it.

Each function takes a connection inside the caller's transaction and never
commits (see ``bleuviz.workspace.rows``). Tables: ``notes`` and
``note_revisions`` of ``bleuviz.workspace.schema``.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

from bleuviz.workspace.codec import decode_all
from bleuviz.workspace.notes import Note


def count_notes(conn: sqlite3.Connection, set_id: str) -> int:
    """Return how many current notes the set has."""
    return int(conn.execute("SELECT count(*) FROM notes WHERE set_id = ?", (set_id,)).fetchone()[0])


#: A note's columns as ``_note`` reads them; ``n`` is ``notes``, ``s`` its system's stream.
_NOTE_COLUMNS = (
    "n.system, n.segment, n.text, n.category, n.saved, n.revision, n.author, "
    "coalesce(n.output != s.digest, 1), n.severity, n.span_start, n.span_end"
)
_NOTE_JOIN = (
    "LEFT JOIN streams AS s ON s.set_id = n.set_id AND s.kind = 'system' AND s.name = n.system"
)


def put_note(conn: sqlite3.Connection, note: Note, output: str) -> None:
    """Save ``note`` as the current note and as a revision of its history.

    ``output``: the digest of the system's lines it was written on.
    """
    key = (note.set_id, note.system, note.segment)
    start, end = note.span if note.span is not None else (None, None)
    fields = (
        note.text,
        note.category,
        note.saved.isoformat(),
        note.revision,
        note.author,
        note.severity,
        start,
        end,
    )
    conn.execute(
        "INSERT INTO note_revisions (set_id, system, segment, text, category, saved, revision, "
        "author, severity, span_start, span_end, output, deleted) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (*key, *fields, output, int(note.deleted)),
    )
    if note.deleted:
        conn.execute("DELETE FROM notes WHERE set_id = ? AND system = ? AND segment = ?", key)
        return
    conn.execute(
        "INSERT INTO notes (set_id, system, segment, text, category, saved, revision, author, "
        "severity, span_start, span_end, output) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (set_id, system, segment) "
        "DO UPDATE SET text = excluded.text, category = excluded.category, "
        "saved = excluded.saved, revision = excluded.revision, author = excluded.author, "
        "severity = excluded.severity, span_start = excluded.span_start, "
        "span_end = excluded.span_end, output = excluded.output",
        (*key, *fields, output),
    )


def hypothesis_line(conn: sqlite3.Connection, set_id: str, system: str, segment: int) -> str:
    """Return ``system``'s current line of ``segment`` (the line a note's span marks)."""
    row = conn.execute(
        "SELECT lines FROM streams WHERE set_id = ? AND kind = 'system' AND name = ?",
        (set_id, system),
    ).fetchone()
    return decode_all([row[0]])[0][segment]


def last_revision(conn: sqlite3.Connection, set_id: str, system: str, segment: int) -> int:
    """Return the highest revision number of the note (deletions count), 0 if it has none."""
    row = conn.execute(
        "SELECT coalesce(max(revision), 0) FROM note_revisions "
        "WHERE set_id = ? AND system = ? AND segment = ?",
        (set_id, system, segment),
    ).fetchone()
    return int(row[0])


def notes(conn: sqlite3.Connection, set_id: str) -> tuple[Note, ...]:
    """Return the set's notes ordered by system (load order), then segment."""
    cursor = conn.execute(
        f"SELECT {_NOTE_COLUMNS} FROM notes AS n {_NOTE_JOIN} "
        "WHERE n.set_id = ? ORDER BY s.position, n.system, n.segment",
        (set_id,),
    )
    return tuple(_note(set_id, row) for row in cursor)


def note(conn: sqlite3.Connection, set_id: str, system: str, segment: int) -> Note | None:
    """Return the note on (set, system, segment), or None."""
    row = conn.execute(
        f"SELECT {_NOTE_COLUMNS} FROM notes AS n {_NOTE_JOIN} "
        "WHERE n.set_id = ? AND n.system = ? AND n.segment = ?",
        (set_id, system, segment),
    ).fetchone()
    return None if row is None else _note(set_id, row)


def note_output(conn: sqlite3.Connection, note: Note) -> str | None:
    """Return the digest of the output a note's revision was written on, or None."""
    row = conn.execute(
        "SELECT output FROM note_revisions WHERE set_id = ? AND system = ? AND segment = ? "
        "AND revision = ?",
        (note.set_id, note.system, note.segment, note.revision),
    ).fetchone()
    return None if row is None else str(row[0])


def revisions(
    conn: sqlite3.Connection, set_id: str, system: str | None = None, segment: int | None = None
) -> tuple[Note, ...]:
    """Return every revision of the set's notes (of one system's segment, if given).

    Ordered by system (load order), segment, then revision, oldest first.
    """
    where = "n.set_id = ?"
    params_any: list[Any] = [set_id]
    if system is not None and segment is not None:
        where += " AND n.system = ? AND n.segment = ?"
        params_any += [system, segment]
    cursor = conn.execute(
        f"SELECT {_NOTE_COLUMNS}, n.deleted FROM note_revisions AS n {_NOTE_JOIN} "
        f"WHERE {where} ORDER BY s.position, n.system, n.segment, n.revision",
        params_any,
    )
    return tuple(_note(set_id, row[:-1], deleted=bool(row[-1])) for row in cursor)


def _note(set_id: str, row: tuple[Any, ...], deleted: bool = False) -> Note:
    system, segment, text, category, saved, revision, author, earlier, severity, start, end = row
    return Note(
        set_id,
        system,
        segment,
        text,
        category,
        datetime.fromisoformat(saved),
        revision,
        author,
        bool(earlier),
        deleted,
        severity,
        None if start is None else (start, end),
    )
