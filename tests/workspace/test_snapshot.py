"""Snapshots of a workspace read from a folder that cannot be written (``workspace.snapshot``).

The folder is made to look unwritable (``os.access``), as root may always write;
``test_read_only_and_full.py`` reads with real permissions while the owner writes.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest

from bleuviz.workspace import DB_NAME, Workspace
from bleuviz.workspace.connection import transaction
from bleuviz.workspace.snapshot import QUIET_S, SnapshotReader
from tests.workspace.conftest import sample_testset


@pytest.fixture
def reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Workspace, Workspace]:
    """A reader that cannot write the workspace's folder, and its owner (the sample saved)."""
    owner = Workspace.open(tmp_path)
    owner.save_testset(sample_testset(scores=False), "sample")
    monkeypatch.setattr("bleuviz.workspace.opening.os.access", lambda path, mode: False)
    return Workspace.open(tmp_path), owner


def _count_reads(monkeypatch: pytest.MonkeyPatch, spoil_first: bool = False) -> list[Path]:
    """Record each read of a whole file; ``spoil_first``: the first returns other bytes."""
    reads: list[Path] = []
    read_bytes = Path.read_bytes

    def counted(path: Path) -> bytes:
        reads.append(path)
        data = read_bytes(path)
        if spoil_first and len(reads) == 1:  # as if a checkpoint wrote during the copy
            return data[: len(data) // 2] + b"\0" * (len(data) - len(data) // 2)
        return data

    monkeypatch.setattr(Path, "read_bytes", counted)
    return reads


def test_a_quiet_file_is_copied_once_and_a_later_save_is_seen(
    reading: tuple[Workspace, Workspace], monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, owner = reading
    db = owner.folder / DB_NAME
    past = time.time() - 10 * QUIET_S
    os.utime(db, (past, past))  # last written long ago
    reads = _count_reads(monkeypatch)
    first = workspace.testsets()
    assert workspace.testsets() == first and workspace.load(first[0].id).n_segments > 0
    assert reads == [db, db]  # one copy (read twice to check it), then kept
    owner.rename(first[0].id, "renamed by its owner")  # same size, new time
    assert workspace.testsets()[0].name == "renamed by its owner"


def test_a_copy_that_changed_while_read_is_taken_again(
    reading: tuple[Workspace, Workspace], monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, owner = reading
    expected = owner.testsets()
    reads = _count_reads(monkeypatch, spoil_first=True)
    assert workspace.testsets() == expected
    assert len(reads) == 4  # the spoilt pair, then a good one


def test_a_connection_reading_the_owners_wal_keeps_the_state_it_opened_on(
    tmp_path: Path,
) -> None:
    """Its read begins where a failure is tried again, not at the caller's first query.

    Issue 48's CI: a read that began later met the owner's ``-shm`` mid-change
    (SQLITE_READONLY_CANTINIT) once in about a dozen runs under load.
    """
    Workspace.open(tmp_path).save_testset(sample_testset(scores=False), "sample")
    owner = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    try:
        owner.execute("PRAGMA wal_autocheckpoint = 0")
        owner.execute("UPDATE testsets SET name = 'first'")  # the -wal holds changes
        with SnapshotReader(tmp_path / DB_NAME, tmp_path).connect() as conn:
            owner.execute("UPDATE testsets SET name = 'second'")
            assert conn.in_transaction
            with transaction(conn, write=False):
                assert conn.execute("SELECT name FROM testsets").fetchall() == [("first",)]
        with SnapshotReader(tmp_path / DB_NAME, tmp_path).connect() as conn:
            assert conn.execute("SELECT name FROM testsets").fetchall() == [("second",)]
    finally:
        owner.close()
