"""The ``Workspace``: test sets and notes saved in one SQLite file, shared by threads and processes.

The schema is documented in ``bleuviz.workspace.schema``. Every write is one
transaction, so a failed save (bad input found midway, a full disk, a killed
process) leaves everything saved before it as it was.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bleuviz.errors import InputError, UnknownTestSet, WorkspaceError
from bleuviz.io.testset import TestSet
from bleuviz.workspace import rows
from bleuviz.workspace.connection import connect, database_uri, read_only_uri, transaction
from bleuviz.workspace.export import notes_tsv
from bleuviz.workspace.identity import DefiningStreams
from bleuviz.workspace.location import resolve_folder
from bleuviz.workspace.notes import Note, check_note
from bleuviz.workspace.schema import DB_NAME, prepare


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
    """

    id: str
    name: str
    added: datetime
    n_segments: int
    systems: tuple[str, ...]
    n_refs: int


class Workspace:
    """A folder holding ``bleuviz.sqlite3``: saved test sets and notes on their segments.

    Safe to share across threads: it holds no connection, each call opens its own.
    """

    __slots__ = ("_uri", "folder", "read_only")

    def __init__(self, folder: Path, uri: str, read_only: bool) -> None:
        """Keep the folder and URI; use ``Workspace.open``, which checks the file."""
        self.folder = folder
        self._uri = uri
        self.read_only = read_only

    @classmethod
    def open(cls, folder: str | Path | None = None, *, read_only: bool = False) -> Workspace:
        """Open (creating if needed) the workspace in ``folder`` (see ``resolve_folder``).

        A workspace the user cannot write is opened read-only: reading works,
        saving raises ``WorkspaceError``. ``read_only=True`` asks for that.

        Raises:
            WorkspaceError: the folder cannot be created, the database is corrupt
                or not a bleuviz workspace, it was written by a newer bleuviz, or
                it is read-only and does not exist yet.
        """
        path = resolve_folder(folder)
        db = path / DB_NAME
        if path.exists() and not path.is_dir():
            raise WorkspaceError(f"workspace {path}: not a folder")
        if not read_only:
            try:
                path.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise WorkspaceError(f"workspace {path}: cannot create the folder ({e})") from None
            writable = os.access(path, os.W_OK) and (not db.exists() or os.access(db, os.W_OK))
            read_only = not writable
        if read_only and not db.is_file():
            raise WorkspaceError(f"workspace {path} is read-only and holds no {DB_NAME}")
        uri = read_only_uri(db) if read_only else database_uri(db, read_only=False)
        workspace = cls(path, uri, read_only)
        with workspace._connection() as conn:
            prepare(conn, path, writable=not read_only)
        return workspace

    # -- test sets ---------------------------------------------------------------

    def save_testset(
        self, testset: TestSet, name: str, defining: DefiningStreams | None = None
    ) -> SavedSet:
        """Save ``testset`` under its content-derived id; return what is saved there now.

        The id derives from the references, source, document and segment ids, not
        the systems. If a set with that id is saved already, its name and time
        are kept and the upload's systems are merged in: a system with the same
        name and the same lines is left as it is (a no-op); one with the same
        name and other lines is replaced (and the imported scores it had are
        dropped, since they scored the old lines); a new name is added.
        Imported segment scores are added or replaced per metric and system.
        Saving the same files twice changes nothing. One transaction. ``defining``:
        ``DefiningStreams.of(testset)`` if the caller has it already (it has the id).

        Raises:
            InputError: ``name`` is empty.
            WorkspaceError: the workspace is read-only or cannot be written.
        """
        name = _check_name(name)
        if defining is None:
            defining = DefiningStreams.of(testset)
        set_id = defining.id
        with self._write() as conn:
            if rows.find_testset(conn, set_id) is None:
                rows.insert_testset(conn, set_id, name, _now(), testset, defining)
            rows.put_systems(conn, set_id, testset.systems)
            for scores in testset.seg_scores:
                rows.put_seg_scores(conn, set_id, scores)
            return self._saved(conn, set_id)

    def add_system(self, set_id: str, name: str, lines: Sequence[str]) -> SavedSet:
        """Add (or replace, as ``save_testset`` does) one system's output; the id stays.

        Raises:
            InputError: ``name`` is empty, or ``lines`` has another count than the set.
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
            rows.put_systems(conn, set_id, {name: tuple(lines)})
            return self._saved(conn, set_id)

    def testsets(self) -> tuple[SavedSet, ...]:
        """Return every saved test set, newest first."""
        with self._read() as conn:
            return tuple(self._saved(conn, i) for i in rows.testset_ids_newest_first(conn))

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

    def delete(self, set_id: str) -> None:
        """Delete test set ``set_id`` with its systems, imported scores and notes.

        Raises:
            UnknownTestSet: no such test set.
        """
        with self._write() as conn:
            self._saved(conn, set_id)
            conn.execute("DELETE FROM testsets WHERE id = ?", (set_id,))

    # -- notes -------------------------------------------------------------------

    def save_note(self, set_id: str, system: str, segment: int, text: str, category: str) -> Note:
        """Save (or overwrite) the note on ``system``'s output for ``segment`` (0-based).

        An empty text is saved as it is: the category alone is a finding, with
        any category, "other" included. ``delete_note`` removes a note.

        Raises:
            InputError: an unknown category, a note over ``NOTE_MAX_CHARS``, a
                system not in the set, or a segment out of range.
            UnknownTestSet: no such test set.
        """
        check_note(text, category)
        with self._write() as conn:
            self._check_segment(conn, set_id, system, segment)
            note = Note(set_id, system, segment, text, category, _now())
            rows.put_note(conn, note)
            return note

    def delete_note(self, set_id: str, system: str, segment: int) -> bool:
        """Delete the note on (``set_id``, ``system``, ``segment``); return whether there was one.

        Raises:
            UnknownTestSet: no such test set.
        """
        with self._write() as conn:
            self._saved(conn, set_id)
            cursor = conn.execute(
                "DELETE FROM notes WHERE set_id = ? AND system = ? AND segment = ?",
                (set_id, system, segment),
            )
            return cursor.rowcount > 0

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

    def notes_tsv(self, set_id: str) -> str:
        """Return the notes as TSV (see ``bleuviz.workspace.export.notes_tsv``).

        Raises:
            UnknownTestSet: no such test set.
        """
        with self._read() as conn:
            self._saved(conn, set_id)
            notes = rows.notes(conn, set_id)
            seg_ids = rows.streams(conn, set_id, kinds=("seg_ids",)).get("seg_ids", {}).get("")
        return notes_tsv(notes, seg_ids)

    # -- helpers -----------------------------------------------------------------

    def _saved(self, conn: sqlite3.Connection, set_id: str) -> SavedSet:
        """Return the listing of ``set_id``, refusing an unknown id."""
        row = rows.find_testset(conn, set_id)
        if row is None:
            raise UnknownTestSet(f"set={set_id}: no such test set in workspace {self.folder}")
        name, added, n_segments, n_refs = row
        systems = rows.system_names(conn, set_id)
        return SavedSet(set_id, name, datetime.fromisoformat(added), n_segments, systems, n_refs)

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
        with connect(self._uri, self.folder) as conn:
            yield conn

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._connection() as conn, transaction(conn, write=False):
            yield conn

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        if self.read_only:
            raise WorkspaceError(f"workspace {self.folder} is read-only: nothing can be saved")
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
