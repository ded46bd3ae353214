"""Opening a workspace: create it, or read it when it cannot be written.

A workspace the user cannot write (a shared folder, a read-only mount, a file
without write permission) is opened read-only, and every reading command and
page works on it. SQLite needs to write beside a WAL-mode database even to
read it (its ``-shm`` index); where it cannot, it refuses to open the file
(SQLITE_READONLY_DIRECTORY, or SQLITE_CANTOPEN in older versions), and the
file is read without them: the owner may write it meanwhile, so each read
gets a consistent snapshot (``bleuviz.workspace.snapshot``), never the file in
place. A file of an older schema is read from an up-to-date copy in a temporary
folder, since it cannot be migrated in place.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

from bleuviz.errors import WorkspaceError
from bleuviz.workspace.connection import connect, database_uri, read_only_uri
from bleuviz.workspace.schema import DB_NAME, SCHEMA_VERSION, prepare, schema_version
from bleuviz.workspace.snapshot import SnapshotReader


@dataclass(frozen=True, slots=True)
class Opened:
    """An opened workspace database.

    Attributes:
        uri: the SQLite URI every connection opens (unless ``reader`` is given).
        why_read_only: why nothing can be saved ("" if the workspace can be written).
        keep: a temporary folder holding a migrated copy, kept as long as this is.
        reader: what opens every connection to a file in a folder that cannot be
            written, whose owner may write it meanwhile (None: ``uri`` is opened).
    """

    uri: str
    why_read_only: str
    keep: tempfile.TemporaryDirectory[str] | None = None
    reader: SnapshotReader | None = None

    def connect(self, folder: Path) -> AbstractContextManager[sqlite3.Connection]:
        """Open one connection (see ``bleuviz.workspace.connection.connect``)."""
        return self.reader.connect() if self.reader is not None else connect(self.uri, folder)


def open_database(path: Path, read_only: bool) -> Opened:
    """Create, migrate or just read the database in folder ``path``.

    Raises:
        WorkspaceError: the folder cannot be created, the database is corrupt
            or not a bleuviz workspace, it was written by a newer bleuviz, or it
            is read-only and does not exist yet.
    """
    db = path / DB_NAME
    if path.exists() and not path.is_dir():
        raise WorkspaceError(f"workspace {path}: not a folder")
    why = "as asked" if read_only else ""
    if not read_only:
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise WorkspaceError(f"workspace {path}: cannot create the folder ({e})") from None
        why = _why_not_writable(path, db)
    if why and not db.is_file():
        raise WorkspaceError(f"workspace {path} is read-only and holds no {DB_NAME}")
    if not why:
        uri = database_uri(db, read_only=False)
        with connect(uri, path) as conn:
            prepare(conn, path, writable=True)
        return Opened(uri, "")
    # A folder that cannot be written: the reader waits out the owner's files coming and going
    # (a -wal whose -shm was just deleted is its owner closing, not one a writer left).
    live = not os.access(path, os.W_OK)
    uri = database_uri(db, read_only=True) if live else read_only_uri(db, path)
    live = live or uri.endswith("&immutable=1")
    opened = Opened(uri, why, reader=SnapshotReader(db, path) if live else None)
    with opened.connect(path) as conn:
        version = schema_version(conn, path)
        if version in (0, SCHEMA_VERSION):
            prepare(conn, path, writable=False)  # refuses an empty file
            return opened
    copy_uri, keep = _migrated_copy(opened, path)
    return Opened(copy_uri, why, keep)


def _why_not_writable(path: Path, db: Path) -> str:
    """Why the workspace in ``path`` cannot be written, or "" if it can."""
    if not os.access(path, os.W_OK):
        return "its folder cannot be written"
    if db.exists() and not os.access(db, os.W_OK):
        return f"{DB_NAME} cannot be written"
    return ""


def _migrated_copy(opened: Opened, path: Path) -> tuple[str, tempfile.TemporaryDirectory[str]]:
    """Copy an older read-only database into a temporary folder and migrate the copy."""
    keep = tempfile.TemporaryDirectory(prefix="bleuviz-read-only-")
    copy = Path(keep.name) / DB_NAME
    with opened.connect(path) as source:
        target = sqlite3.connect(copy)
        try:
            source.backup(target)
        finally:
            target.close()
    with connect(database_uri(copy, read_only=False), path) as conn:
        prepare(conn, path, writable=True)
    return database_uri(copy, read_only=True), keep
