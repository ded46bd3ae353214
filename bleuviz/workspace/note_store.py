"""Notes in the workspace: every revision kept, a save over a changed note refused.

Each save is a new revision of the note on (test set, system, segment), with
its author, its time and the digest of the output it was written on; a
deletion is a revision too. A caller that passes the revision its editor
loaded gets ``NoteChanged`` instead of overwriting someone else's save.
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from typing import Any

from bleuviz.workspace import note_rows, rows
from bleuviz.workspace.base import WorkspaceBase, utc_now
from bleuviz.workspace.conflicts import NoteChanged
from bleuviz.workspace.export import notes_tsv
from bleuviz.workspace.note_json import notes_records
from bleuviz.workspace.notes import (
    ANONYMOUS,
    NO_SEVERITY,
    Note,
    check_author,
    check_note,
    check_span,
)


class NoteStore(WorkspaceBase):
    """The notes part of the ``Workspace``."""

    __slots__ = ()

    def save_note(
        self,
        set_id: str,
        system: str,
        segment: int,
        text: str,
        category: str,
        *,
        author: str = ANONYMOUS,
        expected_revision: int | None = None,
        severity: str = NO_SEVERITY,
        span: tuple[int, int] | None = None,
    ) -> Note:
        """Save a new revision of the note on ``system``'s output for ``segment`` (0-based).

        Every revision is kept (``note_history``); the note records ``author``
        (blank: ``ANONYMOUS``) and the system's output it was written on. An
        empty text is saved as it is: the category alone is a finding.
        ``expected_revision``: the revision the editor loaded (0: no note);
        if the note is at another revision now (someone saved or deleted it
        meanwhile), nothing is saved and ``NoteChanged`` says what is there.
        None saves whatever is there. ``severity`` and ``span`` mark an error
        as an MQM rater does (``bleuviz.workspace.notes``): the span is
        character offsets into the system's current line.

        Raises:
            InputError: an unknown category or severity, a note over
                ``NOTE_MAX_CHARS``, a system not in the set, a segment out of
                range, marked words without a severity or outside the line.
            NoteChanged: the note is not at ``expected_revision``.
            UnknownTestSet: no such test set.
        """
        check_note(text, category, severity, span)
        author = check_author(author)
        with self._write() as conn:
            self._check_segment(conn, set_id, system, segment)
            if span is not None:
                check_span(span, note_rows.hypothesis_line(conn, set_id, system, segment))
            self._check_revision(conn, set_id, system, segment, expected_revision)
            revision = note_rows.last_revision(conn, set_id, system, segment) + 1
            note = Note(set_id, system, segment, text, category, utc_now(), revision, author)
            marked = None if span is None else (span[0], span[1])
            note = replace(note, severity=severity, span=marked)
            note_rows.put_note(conn, note, rows.system_digests(conn, set_id)[system])
            return note

    def delete_note(
        self,
        set_id: str,
        system: str,
        segment: int,
        *,
        author: str = ANONYMOUS,
        expected_revision: int | None = None,
    ) -> bool:
        """Delete the note on (``set_id``, ``system``, ``segment``); return whether there was one.

        The deletion is a revision of the note's history; its text stays there.

        Raises:
            NoteChanged: the note is not at ``expected_revision`` (None: no check).
            UnknownTestSet: no such test set.
        """
        author = check_author(author)
        with self._write() as conn:
            self._saved(conn, set_id)
            current = self._check_revision(conn, set_id, system, segment, expected_revision)
            if current is None:
                return False
            revision = note_rows.last_revision(conn, set_id, system, segment) + 1
            gone = replace(
                current,
                saved=utc_now(),
                revision=revision,
                author=author,
                on_earlier_output=False,
                deleted=True,
            )
            note_rows.put_note(conn, gone, rows.system_digests(conn, set_id).get(system, ""))
            return True

    def note_history(self, set_id: str, system: str, segment: int) -> tuple[Note, ...]:
        """Return every revision of one note, oldest first (deletions marked ``deleted``).

        Raises:
            UnknownTestSet: no such test set.
        """
        with self._read() as conn:
            self._saved(conn, set_id)
            return note_rows.revisions(conn, set_id, system, segment)

    def notes(self, set_id: str) -> tuple[Note, ...]:
        """Return the notes on test set ``set_id``, by system (load order) then segment.

        Raises:
            UnknownTestSet: no such test set.
        """
        with self._read() as conn:
            self._saved(conn, set_id)
            return note_rows.notes(conn, set_id)

    def note(self, set_id: str, system: str, segment: int) -> Note | None:
        """Return the note on one system's output for one segment, or None.

        Raises:
            UnknownTestSet: no such test set.
        """
        with self._read() as conn:
            self._saved(conn, set_id)
            return note_rows.note(conn, set_id, system, segment)

    def notes_tsv(self, set_id: str, *, revisions: bool = False) -> str:
        """Return the notes as TSV (see ``bleuviz.workspace.export.notes_tsv``).

        ``revisions``: every revision of every note, not only the current ones.

        Raises:
            UnknownTestSet: no such test set.
        """
        return notes_tsv(*self._exported(set_id, revisions), revisions=revisions)

    def notes_json(self, set_id: str, *, revisions: bool = False) -> list[dict[str, Any]]:
        """Return the notes as JSON records (see ``bleuviz.workspace.note_json``).

        ``revisions``: every revision of every note, not only the current ones.

        Raises:
            UnknownTestSet: no such test set.
        """
        return notes_records(*self._exported(set_id, revisions), revisions=revisions)

    def _exported(
        self, set_id: str, revisions: bool
    ) -> tuple[tuple[Note, ...], tuple[str, ...] | None]:
        """The notes (or every revision) of ``set_id`` and its segment ids, if saved."""
        with self._read() as conn:
            self._saved(conn, set_id)
            notes = (
                note_rows.revisions(conn, set_id) if revisions else note_rows.notes(conn, set_id)
            )
            seg_ids = rows.streams(conn, set_id, kinds=("seg_ids",)).get("seg_ids", {}).get("")
        return notes, seg_ids

    def note_written_on(self, note: Note) -> str | None:
        """Return the line a note on an earlier output was written on (else, or unknown: None)."""
        if not note.on_earlier_output:
            return None
        with self._read() as conn:
            output = note_rows.note_output(conn, note)
            found = rows.earlier_lines(conn, note.set_id, note.system, output) if output else None
        return None if found is None else found[note.segment]

    def _check_revision(
        self,
        conn: sqlite3.Connection,
        set_id: str,
        system: str,
        segment: int,
        expected: int | None,
    ) -> Note | None:
        """Return the current note, refusing it if it is not at revision ``expected`` (0: none)."""
        current = note_rows.note(conn, set_id, system, segment)
        if expected is not None and (current.revision if current else 0) != expected:
            raise NoteChanged(current, expected, f"{system!r}, segment {segment + 1}")
        return current
