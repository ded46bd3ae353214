"""What every part of the ``Workspace`` shares: its folder, its database, one transaction per call.

The ``Workspace`` (``bleuviz.workspace.store``) is built in layers: this base
opens connections and reads a set's listing; ``NoteStore``
(``bleuviz.workspace.note_store``) adds notes and their history; the
``Workspace`` adds test sets, their outputs and the trash.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bleuviz.errors import InputError, UnknownTestSet, WorkspaceError
from bleuviz.workspace import rows
from bleuviz.workspace.connection import connect, transaction
from bleuviz.workspace.identity import digest
from bleuviz.workspace.opening import Opened


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
        outputs: a digest of the systems' current lines: it changes when an
            output is replaced (a copy loaded before is then stale).
        revision: how many saves changed its systems, imported scores or error
            spans, in any process (a copy loaded at another revision is stale).
    """

    id: str
    name: str
    added: datetime
    n_segments: int
    systems: tuple[str, ...]
    n_refs: int
    deleted: datetime | None = None
    outputs: str = ""
    revision: int = 0


class WorkspaceBase:
    """A workspace's folder and database: connections, transactions, a set's listing.

    Safe to share across threads: it holds no connection, each call opens its own.
    """

    __slots__ = ("_opened", "folder")

    def __init__(self, folder: Path, opened: Opened) -> None:
        """Keep the folder and its opened database; use ``Workspace.open``, which checks it."""
        self.folder = folder
        self._opened = opened

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
        name, added, n_segments, n_refs, deleted, revision = row
        outputs = rows.system_outputs(conn, set_id)
        return SavedSet(
            set_id,
            name,
            datetime.fromisoformat(added),
            n_segments,
            tuple(system for system, _ in outputs),
            n_refs,
            None if deleted is None else datetime.fromisoformat(deleted),
            digest(json.dumps(outputs).encode())[:16],
            revision,
        )

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
        reader = self._opened.reader  # a folder that cannot be written: consistent snapshots
        opening = reader.connect() if reader is not None else connect(self._opened.uri, self.folder)
        with opening as conn:
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


def utc_now() -> datetime:
    """Return the current time in UTC."""
    return datetime.now(UTC)
