"""The ``Workspace``: test sets and notes saved in one SQLite file, shared by threads and processes.

The schema is documented in ``bleuviz.workspace.schema``. Every write is one
transaction, so a failed save (bad input found midway, a full disk, a killed
process) leaves everything saved before it as it was.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bleuviz.errors import InputError, UnknownTestSet, WorkspaceError
from bleuviz.io.testset import TestSet
from bleuviz.workspace import rows
from bleuviz.workspace.conflicts import NoteChanged
from bleuviz.workspace.connection import connect, transaction
from bleuviz.workspace.export import notes_tsv
from bleuviz.workspace.identity import DefiningStreams
from bleuviz.workspace.location import resolve_folder
from bleuviz.workspace.notes import ANONYMOUS, Note, check_author, check_note
from bleuviz.workspace.opening import Opened, open_database

#: How long a deleted test set stays in the trash, restorable, before it is deleted for good.
TRASH_DAYS = 30


@dataclass(frozen=True, slots=True)
class SavedSet:
    """What the workspace lists about a saved test set.

    Attributes:
        id: content-derived (references, source, document and segment ids).
        name: the user's name for it.
        added: when it was first saved (UTC).
        n_segments: its number of segments.
        systems: its systems' names, in the order they were added.
        n_refs: its number of reference streams.
        deleted: when it was moved to the trash (None: it is not in the trash).
    """

    id: str
    name: str
    added: datetime
    n_segments: int
    systems: tuple[str, ...]
    n_refs: int
    deleted: datetime | None = None


@dataclass(frozen=True, slots=True)
class EarlierOutput:
    """A system's output that was replaced under its name, kept in the workspace.

    Attributes:
        system: the system's name.
        version: 1 for the first output replaced, 2 for the next, ...
        digest: SHA-256 of its lines (notes written on it name it).
        replaced: when another output replaced it (UTC).
    """

    system: str
    version: int
    digest: str
    replaced: datetime


class Workspace:
    """A folder holding ``bleuviz.sqlite3``: saved test sets and notes on their segments.

    Safe to share across threads: it holds no connection, each call opens its own.
    """

    __slots__ = ("_opened", "folder")

    def __init__(self, folder: Path, opened: Opened) -> None:
        """Keep the folder and its opened database; use ``Workspace.open``, which checks it."""
        self.folder = folder
        self._opened = opened

    @classmethod
    def open(cls, folder: str | Path | None = None, *, read_only: bool = False) -> Workspace:
        """Open (creating if needed) the workspace in ``folder`` (see ``resolve_folder``).

        A workspace the user cannot write is opened read-only: reading works,
        saving raises ``WorkspaceError`` saying why. ``read_only=True`` asks for that.

        Raises:
            WorkspaceError: the folder cannot be created, the database is corrupt
                or not a bleuviz workspace, it was written by a newer bleuviz, or
                it is read-only and does not exist yet.
        """
        path = resolve_folder(folder)
        workspace = cls(path, open_database(path, read_only))
        if not workspace.read_only:
            workspace.purge_trash()
        return workspace

    @property
    def read_only(self) -> bool:
        """Whether saving is refused (see ``refusal``)."""
        return bool(self._opened.why_read_only)

    @property
    def refusal(self) -> str | None:
        """Why nothing can be saved, in one line naming the workspace, or None if it can."""
        why = self._opened.why_read_only
        return (
            f"workspace {self.folder} is read-only ({why}): nothing can be saved" if why else None
        )

    # -- test sets ---------------------------------------------------------------

    def save_testset(
        self,
        testset: TestSet,
        name: str,
        defining: DefiningStreams | None = None,
        *,
        replace: bool = False,
    ) -> SavedSet:
        """Save ``testset`` under its content-derived id; return what is saved there now.

        The id derives from the references, source, document and segment ids, not
        the systems. If a set with that id is saved already, its name and time
        are kept and the upload's systems are merged in: a system with the same
        name and the same lines is left as it is (a no-op); a new name is added;
        one with the same name and other lines is refused, or with ``replace``
        replaced: the old lines stay as an earlier version (``earlier_outputs``)
        with the notes written on them, and the imported scores of the old lines
        are dropped. A set in the trash is brought back (named ``name``), its
        systems replaced as with ``replace``. Imported segment scores are added
        or replaced per metric and system. One transaction. ``defining``:
        ``DefiningStreams.of(testset)`` if the caller has it already (it has the id).

        Raises:
            InputError: ``name`` is empty.
            OutputChanged: a system is saved with other lines and ``replace`` is
                False (``.systems`` names them); nothing is saved.
            WorkspaceError: the workspace is read-only or cannot be written.
        """
        name = _check_name(name)
        if defining is None:
            defining = DefiningStreams.of(testset)
        set_id = defining.id
        with self._write() as conn:
            now = _now()
            found = rows.find_testset(conn, set_id)
            if found is None:
                rows.insert_testset(conn, set_id, name, now, testset, defining)
            elif found[4] is not None:  # in the trash: back with the new upload
                rows.set_trashed(conn, set_id, None)
                conn.execute("UPDATE testsets SET name = ? WHERE id = ?", (name, set_id))
                replace = True
            rows.put_systems(conn, set_id, testset.systems, now if replace else None)
            for scores in testset.seg_scores:
                rows.put_seg_scores(conn, set_id, scores)
            return self._saved(conn, set_id)

    def add_system(
        self, set_id: str, name: str, lines: Sequence[str], *, replace: bool = False
    ) -> SavedSet:
        """Add one system's output (or replace it, as ``save_testset`` does); the id stays.

        Raises:
            InputError: ``name`` is empty, or ``lines`` has another count than the set.
            OutputChanged: ``name`` is saved with other lines and ``replace`` is False.
            UnknownTestSet: no such test set.
        """
        if not name.strip():
            raise InputError("system name: must not be empty")
        with self._write() as conn:
            saved = self._saved(conn, set_id)
            if len(lines) != saved.n_segments:
                raise InputError(
                    f"system {name!r}: {len(lines)} lines, but test set {set_id} "
                    f"has {saved.n_segments} segments"
                )
            rows.put_systems(conn, set_id, {name: tuple(lines)}, _now() if replace else None)
            return self._saved(conn, set_id)

    def earlier_outputs(self, set_id: str) -> tuple[EarlierOutput, ...]:
        """Return the outputs replaced in test set ``set_id``, by system then version.

        Raises:
            UnknownTestSet: no such test set.
        """
        with self._read() as conn:
            self._saved(conn, set_id)
            return tuple(EarlierOutput(*row) for row in rows.earlier_outputs(conn, set_id))

    def earlier_lines(self, set_id: str, system: str, version: int) -> tuple[str, ...]:
        """Return the lines of ``system``'s earlier output ``version``.

        Raises:
            UnknownTestSet: no such test set.
            InputError: the system has no such earlier version.
        """
        with self._read() as conn:
            self._saved(conn, set_id)
            found = [e for e in rows.earlier_outputs(conn, set_id) if e[:2] == (system, version)]
            lines = rows.earlier_lines(conn, set_id, system, found[0][2]) if found else None
        if lines is None:
            raise InputError(
                f"system {system!r} of test set {set_id} has no earlier version {version}"
            )
        return lines

    def note_written_on(self, note: Note) -> str | None:
        """Return the line a note on an earlier output was written on (else, or unknown: None)."""
        if not note.on_earlier_output:
            return None
        with self._read() as conn:
            output = rows.note_output(conn, note)
            found = rows.earlier_lines(conn, note.set_id, note.system, output) if output else None
        return None if found is None else found[note.segment]

    def testsets(self) -> tuple[SavedSet, ...]:
        """Return every saved test set not in the trash, newest first."""
        with self._read() as conn:
            return tuple(self._saved(conn, i) for i in rows.testset_ids_newest_first(conn))

    def trash(self) -> tuple[SavedSet, ...]:
        """Return the test sets in the trash, the most recently deleted first."""
        with self._read() as conn:
            ids = rows.testset_ids_newest_first(conn, trashed=True)
            return tuple(self._saved(conn, i, trashed=True) for i in ids)

    def get(self, set_id: str) -> SavedSet:
        """Return what the workspace lists about test set ``set_id``.

        Raises:
            UnknownTestSet: no such test set.
        """
        with self._read() as conn:
            return self._saved(conn, set_id)

    def load(self, set_id: str) -> TestSet:
        """Return test set ``set_id`` exactly as saved (systems, streams, imported scores).

        Raises:
            UnknownTestSet: no such test set.
        """
        with self._read() as conn:
            self._saved(conn, set_id)
            streams = rows.streams(conn, set_id)
            scores = rows.seg_scores(conn, set_id)
        return TestSet(
            systems=streams.get("system", {}),
            references=tuple(streams["reference"].values()),
            source=streams.get("source", {}).get(""),
            doc_ids=streams.get("doc_ids", {}).get(""),
            seg_ids=streams.get("seg_ids", {}).get(""),
            seg_scores=scores,
        )

    def rename(self, set_id: str, name: str) -> None:
        """Rename test set ``set_id`` (names need not be unique; the id is).

        Raises:
            InputError: ``name`` is empty.
            UnknownTestSet: no such test set.
        """
        name = _check_name(name)
        with self._write() as conn:
            self._saved(conn, set_id)
            conn.execute("UPDATE testsets SET name = ? WHERE id = ?", (name, set_id))

    def delete(self, set_id: str) -> SavedSet:
        """Move test set ``set_id`` (systems, scores, notes) to the trash; return its listing.

        It is restorable (``restore``) for ``TRASH_DAYS`` days, then deleted for good.

        Raises:
            UnknownTestSet: no such test set (or it is in the trash already).
        """
        with self._write() as conn:
            self._saved(conn, set_id)
            now = _now()
            rows.set_trashed(conn, set_id, now)
            rows.purge_trash(conn, now - timedelta(days=TRASH_DAYS))
            return self._saved(conn, set_id, trashed=True)

    def restore(self, set_id: str) -> SavedSet:
        """Bring test set ``set_id`` back from the trash, as it was; return its listing.

        Raises:
            UnknownTestSet: the trash holds no such set.
        """
        with self._write() as conn:
            self._saved(conn, set_id, trashed=True)
            rows.set_trashed(conn, set_id, None)
            return self._saved(conn, set_id)

    def purge_trash(self, now: datetime | None = None) -> int:
        """Delete for good the sets in the trash for over ``TRASH_DAYS`` days; return how many.

        Reads first, so an open with nothing to purge takes no write lock.
        """
        cutoff = (now or _now()) - timedelta(days=TRASH_DAYS)
        with self._read() as conn:
            oldest = rows.oldest_in_trash(conn)
        if oldest is None or oldest >= cutoff:
            return 0
        with self._write() as conn:
            return rows.purge_trash(conn, cutoff)

    def count_notes(self, set_id: str) -> int:
        """Return how many notes test set ``set_id`` has (what a delete takes to the trash).

        Raises:
            UnknownTestSet: no such test set.
        """
        with self._read() as conn:
            self._saved(conn, set_id)
            return rows.count_notes(conn, set_id)

    # -- notes -------------------------------------------------------------------

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
    ) -> Note:
        """Save a new revision of the note on ``system``'s output for ``segment`` (0-based).

        Every revision is kept (``note_history``); the note records ``author``
        (blank: ``ANONYMOUS``) and the system's output it was written on. An
        empty text is saved as it is: the category alone is a finding.
        ``expected_revision``: the revision the editor loaded (0: no note);
        if the note is at another revision now (someone saved or deleted it
        meanwhile), nothing is saved and ``NoteChanged`` says what is there.
        None saves whatever is there.

        Raises:
            InputError: an unknown category, a note over ``NOTE_MAX_CHARS``, a
                system not in the set, or a segment out of range.
            NoteChanged: the note is not at ``expected_revision``.
            UnknownTestSet: no such test set.
        """
        check_note(text, category)
        author = check_author(author)
        with self._write() as conn:
            self._check_segment(conn, set_id, system, segment)
            self._check_revision(conn, set_id, system, segment, expected_revision)
            revision = rows.last_revision(conn, set_id, system, segment) + 1
            note = Note(set_id, system, segment, text, category, _now(), revision, author)
            rows.put_note(conn, note, rows.system_digests(conn, set_id)[system])
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
            revision = rows.last_revision(conn, set_id, system, segment) + 1
            gone = Note(
                set_id,
                system,
                segment,
                current.text,
                current.category,
                _now(),
                revision,
                author,
                deleted=True,
            )
            rows.put_note(conn, gone, rows.system_digests(conn, set_id).get(system, ""))
            return True

    def note_history(self, set_id: str, system: str, segment: int) -> tuple[Note, ...]:
        """Return every revision of one note, oldest first (deletions marked ``deleted``).

        Raises:
            UnknownTestSet: no such test set.
        """
        with self._read() as conn:
            self._saved(conn, set_id)
            return rows.revisions(conn, set_id, system, segment)

    def notes(self, set_id: str) -> tuple[Note, ...]:
        """Return the notes on test set ``set_id``, by system (load order) then segment.

        Raises:
            UnknownTestSet: no such test set.
        """
        with self._read() as conn:
            self._saved(conn, set_id)
            return rows.notes(conn, set_id)

    def note(self, set_id: str, system: str, segment: int) -> Note | None:
        """Return the note on one system's output for one segment, or None.

        Raises:
            UnknownTestSet: no such test set.
        """
        with self._read() as conn:
            self._saved(conn, set_id)
            return rows.note(conn, set_id, system, segment)

    def notes_tsv(self, set_id: str, *, revisions: bool = False) -> str:
        """Return the notes as TSV (see ``bleuviz.workspace.export.notes_tsv``).

        ``revisions``: every revision of every note, not only the current ones.

        Raises:
            UnknownTestSet: no such test set.
        """
        with self._read() as conn:
            self._saved(conn, set_id)
            notes = rows.revisions(conn, set_id) if revisions else rows.notes(conn, set_id)
            seg_ids = rows.streams(conn, set_id, kinds=("seg_ids",)).get("seg_ids", {}).get("")
        return notes_tsv(notes, seg_ids, revisions=revisions)

    # -- helpers -----------------------------------------------------------------

    def _saved(self, conn: sqlite3.Connection, set_id: str, trashed: bool = False) -> SavedSet:
        """Return the listing of ``set_id``, refusing an unknown id.

        ``trashed``: the set must be in the trash; else it must not be.
        """
        row = rows.find_testset(conn, set_id)
        if row is None or (row[4] is None) == trashed:
            where = "the trash of" if trashed else "workspace"
            hint = ""
            if row is not None and not trashed:
                hint = f" (it is in the trash: bleuviz restore {set_id})"
            raise UnknownTestSet(f"set={set_id}: no such test set in {where} {self.folder}{hint}")
        name, added, n_segments, n_refs, deleted = row
        systems = rows.system_names(conn, set_id)
        return SavedSet(
            set_id,
            name,
            datetime.fromisoformat(added),
            n_segments,
            systems,
            n_refs,
            None if deleted is None else datetime.fromisoformat(deleted),
        )

    def _check_revision(
        self,
        conn: sqlite3.Connection,
        set_id: str,
        system: str,
        segment: int,
        expected: int | None,
    ) -> Note | None:
        """Return the current note, refusing it if it is not at revision ``expected`` (0: none)."""
        current = rows.note(conn, set_id, system, segment)
        if expected is not None and (current.revision if current else 0) != expected:
            raise NoteChanged(current, expected, f"{system!r}, segment {segment + 1}")
        return current

    def _check_segment(
        self, conn: sqlite3.Connection, set_id: str, system: str, segment: int
    ) -> None:
        """Refuse a system the set lacks or a segment index out of range."""
        saved = self._saved(conn, set_id)
        if system not in saved.systems:
            known = ", ".join(saved.systems)
            raise InputError(f"system: {system!r} is not in test set {set_id} ({known})")
        if isinstance(segment, bool) or not 0 <= segment < saved.n_segments:
            raise InputError(
                f"segment: {segment!r} is out of range (test set {set_id} has "
                f"{saved.n_segments} segments, 0-based)"
            )

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        with connect(self._opened.uri, self.folder) as conn:
            yield conn

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._connection() as conn, transaction(conn, write=False):
            yield conn

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        if self.refusal is not None:
            raise WorkspaceError(self.refusal)
        with self._connection() as conn, transaction(conn, write=True):
            yield conn


def _check_name(name: str) -> str:
    """Return a test set's name on one line (whitespace runs collapsed), refusing an empty one."""
    stripped = " ".join(name.split())
    if not stripped:
        raise InputError("name: a test set's name must not be empty")
    return stripped


def _now() -> datetime:
    """Return the current time in UTC."""
    return datetime.now(UTC)
