"""Connections to the workspace database: one per call, so a ``Workspace`` is safe across threads.

Streamlit runs each browser session on its own thread, and several processes
may share a workspace, so no connection is kept: every call opens one (a
fraction of a millisecond), runs one transaction and closes it. Writers take
the write lock up front (``BEGIN IMMEDIATE``) and wait up to ``BUSY_TIMEOUT_S``
for another writer; in WAL mode readers never wait. Any SQLite error becomes a
one-line ``WorkspaceError`` naming the workspace.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from urllib.parse import quote

from bleuviz.errors import WorkspaceError

#: How long a writer waits for another writer's transaction (seconds).
BUSY_TIMEOUT_S = 30.0


def database_uri(path: Path, read_only: bool, immutable: bool = False) -> str:
    """Return the SQLite URI of ``path``: read-write-create, read-only, or read-only immutable."""
    mode = "ro" if read_only else "rwc"
    extra = "&immutable=1" if immutable else ""
    return f"file:{quote(str(path))}?mode={mode}{extra}"


def read_only_uri(path: Path, folder: Path) -> str:
    """Return the URI to read ``path`` without writing: read-only, or immutable if need be.

    In a folder the user cannot write, SQLite cannot create the WAL's ``-shm``
    index beside the file and refuses to open it (SQLITE_READONLY_DIRECTORY;
    SQLITE_CANTOPEN before SQLite 3.22). That happens only when no ``-wal``
    file is left (a clean close removes both), so every committed change is
    in the main file, which the immutable URI names; the caller reads it through
    consistent snapshots (``bleuviz.workspace.snapshot``), since its owner may
    write it meanwhile. A ``-wal`` file holding changes can only be merged by a
    writer: that is refused. Any other failure is left for the caller to report.

    Raises:
        WorkspaceError: the folder cannot be written and a ``-wal`` file holds changes.
    """
    uri = database_uri(path, read_only=True)
    try:
        conn = sqlite3.connect(uri, uri=True)
        try:
            conn.execute("PRAGMA user_version")
        finally:
            conn.close()
    except sqlite3.Error as e:
        code = getattr(e, "sqlite_errorcode", 0)
        if code == sqlite3.SQLITE_READONLY_DIRECTORY or code & 0xFF == sqlite3.SQLITE_CANTOPEN:
            wal = path.with_name(path.name + "-wal")
            if wal.exists() and wal.stat().st_size > 0:
                raise unmerged(folder, path) from None
            return database_uri(path, read_only=True, immutable=True)
    return uri


def unmerged(folder: Path, path: Path) -> WorkspaceError:
    """The refusal of a read-only database ``path`` whose ``-wal`` holds changes to merge."""
    return WorkspaceError(
        f"workspace {folder} is read-only and its latest changes are in "
        f"{path.name}-wal, which only a writer can merge: open it once with write access"
    )


@contextmanager
def connect(uri: str, folder: Path) -> Iterator[sqlite3.Connection]:
    """Yield an autocommit connection with foreign keys on; close it afterwards.

    Raises:
        WorkspaceError: SQLite refused to open or use the file.
    """
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    except sqlite3.Error as e:
        raise WorkspaceError(describe(e, folder)) from None
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        yield conn
    except sqlite3.Error as e:
        raise WorkspaceError(describe(e, folder)) from None
    finally:
        conn.close()


@contextmanager
def transaction(conn: sqlite3.Connection, write: bool) -> Iterator[sqlite3.Connection]:
    """Run the block in one transaction: committed if it ends, rolled back if it raises.

    A read transaction sees one snapshot however many statements it runs. A
    connection already reading in one (a ``SnapshotReader``'s, which began it
    where it could try again) keeps it: it ends when the connection is closed.
    """
    if not write and conn.in_transaction:
        yield conn
        return
    conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        # SQLite may have rolled back already (a full disk, an I/O error: see
        # https://sqlite.org/lang_transaction.html, "Response To Errors Within A
        # Transaction"); a second ROLLBACK would then replace the real error with
        # "cannot rollback - no transaction is active".
        if conn.in_transaction:
            with suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise


def describe(error: sqlite3.Error, folder: Path) -> str:
    """Return a one-line message for an SQLite error on the workspace in ``folder``.

    The kind of failure is read from SQLite's primary result code
    (``sqlite_errorcode & 0xFF``, https://sqlite.org/rescode.html), not its text.
    """
    text = " ".join(str(error).split())
    code = getattr(error, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else -1
    if primary == sqlite3.SQLITE_IOERR and disk_full(folder):
        primary = sqlite3.SQLITE_FULL
    template = _MESSAGES.get(primary, "workspace {folder}")
    return template.format(folder=folder, timeout=BUSY_TIMEOUT_S) + f" ({text})"


#: Free space below which an I/O error is put down to a full disk (bytes): less than
#: SQLite's next growth of the WAL index (32 KiB) and a few pages of the log.
DISK_FULL_BYTES = 1 << 20


def disk_full(folder: Path) -> bool:
    """Return whether the file system holding ``folder`` has (almost) no space left.

    SQLite reports SQLITE_FULL only where a write returns ENOSPC; on a disk with
    no block left the first failure is often growing the WAL index or the log
    (SQLITE_IOERR_SHMSIZE, _WRITE, _TRUNCATE: "disk I/O error"), and Python does
    not expose the errno (``sqlite3_system_errno``), so the free space is asked.
    """
    try:
        return shutil.disk_usage(folder).free < DISK_FULL_BYTES
    except OSError:  # the folder is gone or cannot be examined: say what SQLite said
        return False


#: SQLite's primary result code -> what it means for the workspace.
_MESSAGES = {
    sqlite3.SQLITE_NOTADB: "workspace {folder}: the database is corrupt or not SQLite",
    sqlite3.SQLITE_CORRUPT: "workspace {folder}: the database is corrupt",
    sqlite3.SQLITE_READONLY: "workspace {folder} is read-only: nothing can be saved",
    sqlite3.SQLITE_PERM: "workspace {folder} is read-only: nothing can be saved",
    sqlite3.SQLITE_BUSY: "workspace {folder} is busy: another process held it over {timeout:g} s",
    sqlite3.SQLITE_LOCKED: "workspace {folder} is busy: another process held it over {timeout:g} s",
    sqlite3.SQLITE_CANTOPEN: "workspace {folder}: the database cannot be opened",
    sqlite3.SQLITE_FULL: "workspace {folder}: the disk is full, nothing was saved",
    sqlite3.SQLITE_IOERR: "workspace {folder}: the disk could not be read or written",
}
