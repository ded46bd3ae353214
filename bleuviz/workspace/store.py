"""The ``Workspace``: test sets and notes saved in one SQLite file, shared by threads and processes.

The schema is documented in ``bleuviz.workspace.schema``. Every write is one
transaction, so a failed save (bad input found midway, a full disk, a killed
process) leaves everything saved before it as it was. Nothing is overwritten
silently: a system's replaced output stays as an earlier version, a note keeps
every revision (``bleuviz.workspace.note_store``), and a deleted test set goes
to the trash for ``TRASH_DAYS`` days.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from bleuviz.errors import InputError
from bleuviz.io.mqm_export import mqm_tsv
from bleuviz.io.testset import TestSet
from bleuviz.workspace import note_rows, rows, span_rows
from bleuviz.workspace.base import SavedSet, utc_now
from bleuviz.workspace.identity import DefiningStreams
from bleuviz.workspace.location import resolve_folder
from bleuviz.workspace.note_store import NoteStore
from bleuviz.workspace.notes import Note, mqm_rows
from bleuviz.workspace.opening import open_database

#: How long a deleted test set stays in the trash, restorable, before it is deleted for good.
TRASH_DAYS = 30


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


class Workspace(NoteStore):
    """A folder holding ``bleuviz.sqlite3``: saved test sets and notes on their segments.

    Safe to share across threads: it holds no connection, each call opens its own.
    """

    __slots__ = ()

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

    # -- test sets ---------------------------------------------------------------

    def save_testset(
        self,
        testset: TestSet,
        name: str,
        defining: DefiningStreams | None = None,
        *,
        replace: bool = False,
        replace_scores: Collection[str] = (),
        replace_spans: Collection[str] = (),
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
        or replaced per metric and system, except the metrics named in
        ``replace_scores``: the user chose to replace those with a new file, so
        systems the new file does not score lose their old values too (a merge
        would mix two files' judgements). Error spans (``testset.error_spans``)
        are saved per name: a repeat is a no-op, more systems agreeing with the
        saved ones are added, and other spans under a saved name are refused
        (``SpansChanged``) unless the name is in ``replace_spans`` or ``replace``
        is given: the saved spans, and the imported metric of the same name (their
        score, ``MQM``), are then dropped for every system first. A replaced
        output drops the spans marked on its old lines. One transaction. ``defining``:
        ``DefiningStreams.of(testset)`` if the caller has it already (it has the id).

        Raises:
            InputError: ``name`` is empty.
            OutputChanged: a system is saved with other lines and ``replace`` is
                False (``.systems`` names them); nothing is saved.
            SpansChanged: error spans saved under a name differ from the ones
                given, which are not to replace them; nothing is saved.
            WorkspaceError: the workspace is read-only or cannot be written.
        """
        name = _check_name(name)
        if defining is None:
            defining = DefiningStreams.of(testset)
        set_id = defining.id
        with self._write() as conn:
            before, now = conn.total_changes, utc_now()
            found = rows.find_testset(conn, set_id)
            if found is None:
                rows.insert_testset(conn, set_id, name, now, testset, defining)
            elif found[4] is not None:  # in the trash: back with the new upload
                rows.set_trashed(conn, set_id, None)
                conn.execute("UPDATE testsets SET name = ? WHERE id = ?", (name, set_id))
                replace = True
            replaced_at = now if replace else None
            _merge(
                conn, set_id, testset, testset.systems, replaced_at, replace_scores, replace_spans
            )
            if conn.total_changes > before:
                rows.bump_revision(conn, set_id)
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
            before = conn.total_changes
            rows.put_systems(conn, set_id, {name: tuple(lines)}, utc_now() if replace else None)
            if conn.total_changes > before:
                rows.bump_revision(conn, set_id)
            return self._saved(conn, set_id)

    def add_to_testset(
        self,
        set_id: str,
        change: Callable[[TestSet], TestSet],
        *,
        name: str | None = None,
        replace: bool = False,
    ) -> SavedSet:
        """Merge into saved set ``set_id`` what ``change`` makes of it, in one write transaction.

        ``change`` gets the set as saved (its streams and systems, without scores or
        spans) and returns the test set to merge, as ``save_testset`` merges it (the
        same refusals; ``replace`` as there). The set is read under the write lock,
        so a save another process made since cannot be undone by a copy read before
        it, and only the systems ``change`` adds or alters are written. ``name``
        renames the set. Whatever ``change`` raises leaves the set as it was.

        Raises:
            InputError: ``name`` is empty.
            UnknownTestSet: no such test set (or it is in the trash).
            OutputChanged, SpansChanged: as ``save_testset``; nothing is saved.
            WorkspaceError: the workspace is read-only or cannot be written.
        """
        name = None if name is None else _check_name(name)
        with self._write() as conn:
            base = self._load(conn, set_id)
            streams = TestSet(
                base.systems, base.references, base.source, base.doc_ids, base.seg_ids
            )
            testset = change(streams)
            changed = {
                system: lines
                for system, lines in testset.systems.items()
                if base.systems.get(system) != lines
            }
            before = conn.total_changes
            replaced_at = utc_now() if replace else None
            _merge(conn, set_id, testset, changed, replaced_at, (), ())
            if conn.total_changes > before:
                rows.bump_revision(conn, set_id)
            if name is not None:
                conn.execute("UPDATE testsets SET name = ? WHERE id = ?", (name, set_id))
            return self._saved(conn, set_id)

    def earlier_outputs(self, set_id: str, *, trashed: bool = False) -> tuple[EarlierOutput, ...]:
        """Return the outputs replaced in test set ``set_id``, by system then version.

        ``trashed``: the set is in the trash.

        Raises:
            UnknownTestSet: no such test set.
        """
        with self._read() as conn:
            self._saved(conn, set_id, trashed=trashed)
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

    def restore_output(self, set_id: str, system: str, version: int) -> SavedSet:
        """Make ``system``'s earlier output ``version`` its output again (an undo of a replace).

        The output it replaces is kept as the next earlier version, and notes
        written on the restored lines are no longer "on an earlier output".

        Raises:
            UnknownTestSet: no such test set.
            InputError: the system has no such earlier version.
        """
        lines = self.earlier_lines(set_id, system, version)  # never changes once kept
        return self.add_system(set_id, system, lines, replace=True)

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
        """Return test set ``set_id`` exactly as saved (systems, streams, scores, error spans).

        Raises:
            UnknownTestSet: no such test set.
        """
        with self._read() as conn:
            return self._load(conn, set_id)

    def _load(self, conn: sqlite3.Connection, set_id: str) -> TestSet:
        """Read test set ``set_id`` in the caller's transaction (see ``load``)."""
        self._saved(conn, set_id)
        streams = rows.streams(conn, set_id)
        scores = rows.seg_scores(conn, set_id)
        spans = span_rows.error_spans(conn, set_id)
        return TestSet(
            systems=streams.get("system", {}),
            references=tuple(streams["reference"].values()),
            source=streams.get("source", {}).get(""),
            doc_ids=streams.get("doc_ids", {}).get(""),
            seg_ids=streams.get("seg_ids", {}).get(""),
            seg_scores=scores,
            error_spans=spans,
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
            now = utc_now()
            rows.set_trashed(conn, set_id, now)
            rows.purge_trash(conn, now - timedelta(days=TRASH_DAYS))
            return self._saved(conn, set_id, trashed=True)

    def discard(self, set_id: str) -> None:
        """Delete test set ``set_id`` for good, skipping the trash: a set with nothing of its own.

        For a set whose content lives on in another (an upload given a source
        afterwards is saved again under a new id); one with notes or earlier
        outputs is refused, checked in the same transaction as the delete.

        Raises:
            UnknownTestSet: no such test set.
            InputError: it has notes or earlier outputs (``delete`` moves it to the trash).
        """
        with self._write() as conn:
            self._saved(conn, set_id)
            if note_rows.count_notes(conn, set_id) or rows.earlier_outputs(conn, set_id):
                raise InputError(
                    f"test set {set_id}: has notes or earlier outputs; move it to the trash instead"
                )
            conn.execute("DELETE FROM testsets WHERE id = ?", (set_id,))

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
        cutoff = (now or utc_now()) - timedelta(days=TRASH_DAYS)
        with self._read() as conn:
            oldest = rows.oldest_in_trash(conn)
        if oldest is None or oldest >= cutoff:
            return 0
        with self._write() as conn:
            return rows.purge_trash(conn, cutoff)

    def notes_mqm(self, set_id: str) -> tuple[str, tuple[Note, ...]]:
        """Return the notes as Google's MQM TSV (rater ``bleuviz``) and the notes left out.

        Rows as ``bleuviz.workspace.notes.mqm_rows`` makes them (a note with a
        severity is an error; one without is a comment, a ``No-error`` row;
        notes on a replaced output are left out), on the set's current lines:
        the file reads back through ``bleuviz.io.mqm_tsv``.

        Raises:
            UnknownTestSet: no such test set.
            InputError: a line the format cannot hold (``bleuviz.io.mqm_export``).
        """
        rows_, left_out = mqm_rows(self.notes(set_id))
        return mqm_tsv(rows_, self.load(set_id)), left_out

    def error_span_names(self, set_id: str) -> tuple[str, ...]:
        """Return the names of the error spans kept with test set ``set_id`` (``MQM``, ...).

        Raises:
            UnknownTestSet: no such test set.
        """
        with self._read() as conn:
            self._saved(conn, set_id)
            return span_rows.error_span_names(conn, set_id)

    def count_notes(self, set_id: str) -> int:
        """Return how many notes test set ``set_id`` has (what a delete takes to the trash).

        Raises:
            UnknownTestSet: no such test set.
        """
        with self._read() as conn:
            self._saved(conn, set_id)
            return note_rows.count_notes(conn, set_id)

    # -- helpers -----------------------------------------------------------------


def _merge(
    conn: sqlite3.Connection,
    set_id: str,
    testset: TestSet,
    systems: Mapping[str, Sequence[str]],
    replaced_at: datetime | None,
    replace_scores: Collection[str],
    replace_spans: Collection[str],
) -> None:
    """Write ``systems`` (of ``testset``), its imported scores and error spans into a saved set.

    As ``Workspace.save_testset`` describes: ``replaced_at`` (None: refuse other
    lines) replaces systems and every error span file given.
    """
    rows.put_systems(conn, set_id, systems, replaced_at)
    replace = replaced_at is not None
    new_spans = {a.name for a in testset.error_spans if replace or a.name in replace_spans}
    for scores in testset.seg_scores:
        if scores.name in replace_scores or scores.name in new_spans:
            rows.clear_seg_score_values(conn, set_id, scores.name)
        rows.put_seg_scores(conn, set_id, scores)
    for spans in testset.error_spans:
        span_rows.put_error_spans(conn, set_id, spans, spans.name in new_spans)


def _check_name(name: str) -> str:
    """Return a test set's name on one line (whitespace runs collapsed), refusing an empty one."""
    stripped = " ".join(name.split())
    if not stripped:
        raise InputError("name: a test set's name must not be empty")
    return stripped
