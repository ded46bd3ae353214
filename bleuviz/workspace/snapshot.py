"""Reading a workspace from a folder this process cannot write, while its owner may write it.

SQLite reads a WAL-mode database through the ``-wal`` file and its ``-shm``
index beside it, which a process that cannot write the folder cannot create.
While they exist (the owner has the workspace open), SQLite reads them
read-only (``mode=ro``, SQLite 3.22 and later: "Read-Only Databases",
https://sqlite.org/wal.html#readonly) and keeps the reader consistent with the
writer. While they do not, the main file holds every committed change, and
the only way SQLite opens it is ``immutable=1``, a promise that the file never
changes: the owner's next checkpoint breaks it in the middle of a read
("database disk image is malformed" on 38% of reads, issue 44). So the main
file is never read in place: each read gets a snapshot of it in memory, its
bytes read twice with a check between them that no ``-wal`` holds changes
(nor a rollback ``-journal`` exists). Each byte of two equal copies was the
same from its first reading to its second, so the copy is the file as it was
at the check, when no checkpoint was running: a committed state. The copy is
kept while the file shows no change (``_Copy.still_valid``).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bleuviz.errors import WorkspaceError
from bleuviz.workspace.connection import BUSY_TIMEOUT_S, database_uri, describe, unmerged

#: How long a ``-wal`` holding changes may lack its ``-shm`` before it is taken for one a
#: killed writer left (its owner deletes the ``-shm`` just before the ``-wal`` when closing).
SETTLE_S = 1.0
#: The pause between two tries while the owner's files come and go (seconds).
PAUSE_S = 0.002
#: A file unchanged for this long before a copy is taken shows any later write in its
#: modification time, however coarse the file system's clock (seconds).
QUIET_S = 1.0
#: SQLite's primary result codes that mean "the owner's files came or went: try again".
_TRANSIENT = {
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_BUSY,
    sqlite3.SQLITE_LOCKED,
}


@dataclass(frozen=True, slots=True)
class _Copy:
    """A snapshot of the database file, and what the file looked like when it was taken.

    Attributes:
        data: the file's bytes, marked as a rollback-journal database (see ``_in_memory``).
        signature: the file's (device, inode, size, modification and change times in ns)
            before the copy.
        taken_ns: when the copy was checked (``time.time_ns``).
    """

    data: bytes
    signature: tuple[int, ...]
    taken_ns: int

    def still_valid(self, signature: tuple[int, ...]) -> bool:
        """Whether the file is certainly unchanged: same signature, and quiet before the copy.

        A write after the copy sets the modification time to a time after
        ``taken_ns`` less the clock's granularity (milliseconds); if the file
        was last modified over ``QUIET_S`` before that, the time differs.
        """
        modified_ns = self.signature[3]
        quiet = modified_ns < self.taken_ns - int(QUIET_S * 1e9)
        return quiet and signature == self.signature


class SnapshotReader:
    """Consistent read-only connections to a database in a folder this process cannot write.

    Safe to share across threads. Each connection reads the owner's ``-wal``
    through SQLite (``mode=ro``) if it holds changes, else a snapshot of the
    file in memory.
    """

    __slots__ = ("_copy", "_lock", "folder", "path")

    def __init__(self, path: Path, folder: Path) -> None:
        """Read the database file ``path`` of the workspace in ``folder``."""
        self.path = path
        self.folder = folder
        self._copy: _Copy | None = None
        self._lock = threading.Lock()

    @contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        """Yield a connection reading one committed state; close it afterwards.

        A connection reading the owner's ``-wal`` comes inside the read transaction
        that pins that state (``connection.transaction`` keeps it); one reading a
        copy in memory is in autocommit, as nothing else changes the copy.

        Raises:
            WorkspaceError: the file cannot be read, is not SQLite, or its ``-wal``
                holds changes without the ``-shm`` to read them (a killed writer's).
        """
        conn = self._open()
        try:
            yield conn
        except sqlite3.Error as e:
            raise WorkspaceError(describe(e, self.folder)) from None
        finally:
            conn.close()

    def _open(self) -> sqlite3.Connection:
        """Open a connection, trying again while the owner's files come and go."""
        start = time.monotonic()
        last: sqlite3.Error | None = None
        while True:
            try:
                conn = self._try_open()
            except sqlite3.Error as e:
                if getattr(e, "sqlite_errorcode", 0) & 0xFF not in _TRANSIENT:
                    raise WorkspaceError(describe(e, self.folder)) from None
                conn, last = None, e
            if conn is not None:
                return conn
            waited = time.monotonic() - start
            if waited > SETTLE_S and self._size("-wal") and not self._exists("-shm"):
                raise unmerged(self.folder, self.path)
            if waited > BUSY_TIMEOUT_S:
                if last is not None:
                    raise WorkspaceError(describe(last, self.folder))
                raise WorkspaceError(
                    f"workspace {self.folder} is busy: it kept changing while read "
                    f"over {BUSY_TIMEOUT_S:g} s"
                )
            time.sleep(PAUSE_S)

    def _try_open(self) -> sqlite3.Connection | None:
        """A connection reading a committed state, or None if the files are changing."""
        if self._size("-wal"):  # changes in the -wal: SQLite reads them through the -shm
            if not self._exists("-shm"):
                return None
            uri = database_uri(self.path, read_only=True)
            conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
            try:
                # The read begins here, where a failure can be tried again, and lasts as long
                # as the connection: SQLite checks the owner's -shm as each read begins, and
                # one it cannot write may be caught mid-change (SQLITE_READONLY_CANTINIT,
                # https://sqlite.org/rescode.html#readonly_cantinit) by any later read.
                conn.execute("BEGIN")
                conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()  # opens the -wal
            except BaseException:
                conn.close()
                raise
            return conn
        data = self._snapshot()
        return None if data is None else _in_memory(data)

    def _snapshot(self) -> bytes | None:
        """The file's bytes at one moment no checkpoint was running, or None if it changed."""
        try:
            signature = _signature(self.path)
            with self._lock:
                kept = self._copy
            if kept is not None and kept.still_valid(signature):
                return kept.data
            first = self.path.read_bytes()
            taken_ns = time.time_ns()
            if self._size("-wal") or self._exists("-journal"):
                return None
            if self.path.read_bytes() != first:
                return None
        except OSError as e:  # the file itself (the -wal and -journal may come and go)
            message = f"workspace {self.folder}: cannot read {self.path.name} ({e})"
            raise WorkspaceError(message) from None
        copy = _Copy(_as_rollback(first), signature, taken_ns)
        with self._lock:
            self._copy = copy
        return copy.data

    def _size(self, suffix: str) -> int:
        """The size of the file beside the database with ``suffix`` (0 if there is none)."""
        try:
            return os.stat(f"{self.path}{suffix}").st_size
        except FileNotFoundError:
            return 0

    def _exists(self, suffix: str) -> bool:
        """Whether the file beside the database with ``suffix`` exists."""
        return os.path.exists(f"{self.path}{suffix}")


def _signature(path: Path) -> tuple[int, ...]:
    """What shows a change of the file: device, inode, size, modification and change times."""
    s = os.stat(path)
    return (s.st_dev, s.st_ino, s.st_size, s.st_mtime_ns, s.st_ctime_ns)


def _as_rollback(data: bytes) -> bytes:
    """Mark a WAL-mode database image as a rollback-journal one, which memory can hold.

    An in-memory database cannot be in WAL mode, and SQLite refuses to open an
    image whose header says it is ("unable to open database file"): bytes 18
    and 19, the read and write format versions, are 2 for WAL and 1 for rollback
    (https://sqlite.org/fileformat2.html#file_format_version_numbers).
    """
    if data[18:20] != b"\x02\x02":
        return data
    return data[:18] + b"\x01\x01" + data[20:]


def _in_memory(data: bytes) -> sqlite3.Connection:
    """An autocommit connection to a copy of ``data`` in memory, refusing writes."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        if data:  # an empty file is an empty database, as SQLite reads it
            conn.deserialize(data)
        conn.execute("PRAGMA query_only = ON")
    except BaseException:
        conn.close()
        raise
    return conn
