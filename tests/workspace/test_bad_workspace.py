"""A corrupt, foreign, read-only or newer workspace, and failed writes: one line, nothing lost."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import sqlite3
from pathlib import Path

import pytest

from bleuviz.errors import InputError, WorkspaceError
from bleuviz.workspace import DB_NAME, SCHEMA_VERSION, Workspace, rows
from tests.workspace.conftest import assert_same_testset, sample_testset


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def one_line(error: pytest.ExceptionInfo[BaseException]) -> str:
    message = str(error.value)
    assert "\n" not in message and "Traceback" not in message
    return message


@pytest.mark.parametrize(
    "content", [b"this is not a database\n" * 100, b"SQLite format 3\x00" + b"\xff" * 4000]
)
def test_a_corrupt_file_is_refused_and_left_alone(tmp_path: Path, content: bytes) -> None:
    (tmp_path / DB_NAME).write_bytes(content)
    with pytest.raises(WorkspaceError) as caught:
        Workspace.open(tmp_path)
    assert one_line(caught).startswith(f"workspace {tmp_path}: the database is corrupt")
    assert (tmp_path / DB_NAME).read_bytes() == content


def test_an_sqlite_file_of_another_program_is_refused(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / DB_NAME) as conn:
        conn.execute("CREATE TABLE mine (x)")
    before = digest(tmp_path / DB_NAME)
    with pytest.raises(WorkspaceError, match="is an SQLite file but not a bleuviz workspace"):
        Workspace.open(tmp_path)
    assert digest(tmp_path / DB_NAME) == before


def test_a_newer_schema_is_refused_and_left_alone(tmp_path: Path) -> None:
    Workspace.open(tmp_path).save_testset(sample_testset(), "sample")
    with sqlite3.connect(tmp_path / DB_NAME) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = digest(tmp_path / DB_NAME)
    for read_only in (False, True):
        with pytest.raises(WorkspaceError) as caught:
            Workspace.open(tmp_path, read_only=read_only)
        assert one_line(caught) == (
            f"workspace {tmp_path} was written by a newer bleuviz "
            f"(schema {SCHEMA_VERSION + 1}, this one reads up to {SCHEMA_VERSION})"
        )
    assert digest(tmp_path / DB_NAME) == before


def test_a_folder_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(WorkspaceError, match="file: not a folder"):
        Workspace.open(tmp_path / "file")


def test_read_only_reads_but_refuses_every_write(tmp_path: Path) -> None:
    saved = Workspace.open(tmp_path).save_testset(sample_testset(), "sample")
    Workspace.open(tmp_path).save_note(saved.id, "literal", 0, "kept", "style")
    before = digest(tmp_path / DB_NAME)
    workspace = Workspace.open(tmp_path, read_only=True)
    assert workspace.read_only and workspace.testsets() == (saved,)
    assert_same_testset(workspace.load(saved.id), sample_testset())
    writes = [
        lambda: workspace.save_testset(sample_testset(), "x"),
        lambda: workspace.add_system(saved.id, "x", ["a"] * 126),
        lambda: workspace.rename(saved.id, "x"),
        lambda: workspace.delete(saved.id),
        lambda: workspace.save_note(saved.id, "literal", 0, "changed", "style"),
        lambda: workspace.delete_note(saved.id, "literal", 0),
    ]
    for write in writes:
        with pytest.raises(WorkspaceError) as caught:
            write()
        expected = f"workspace {tmp_path} is read-only (as asked): nothing can be saved"
        assert one_line(caught) == expected
    assert digest(tmp_path / DB_NAME) == before
    assert Workspace.open(tmp_path).note(saved.id, "literal", 0).text == "kept"  # type: ignore[union-attr]


def test_read_only_without_a_database_is_refused(tmp_path: Path) -> None:
    with pytest.raises(WorkspaceError, match=f"is read-only and holds no {DB_NAME}"):
        Workspace.open(tmp_path, read_only=True)


@pytest.mark.skipif(
    os.geteuid() == 0, reason="running as root: chmod does not stop root from writing"
)
def test_a_folder_the_user_cannot_write_opens_read_only(tmp_path: Path) -> None:
    saved = Workspace.open(tmp_path).save_testset(sample_testset(), "sample")
    tmp_path.chmod(0o555)
    (tmp_path / DB_NAME).chmod(0o444)
    try:
        workspace = Workspace.open(tmp_path)
        assert workspace.read_only and workspace.get(saved.id) == saved
        with pytest.raises(WorkspaceError, match="is read-only: nothing can be saved"):
            workspace.rename(saved.id, "x")
    finally:
        tmp_path.chmod(0o755)
        (tmp_path / DB_NAME).chmod(0o644)


def test_a_failed_save_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure midway (after a system was replaced) rolls the whole save back."""
    workspace = Workspace.open(tmp_path)
    testset = sample_testset()
    saved = workspace.save_testset(testset, "sample")
    workspace.save_note(saved.id, "terse", 1, "kept", "style")
    before = (workspace.testsets(), workspace.notes(saved.id))
    changed = dict(testset.systems, terse=tuple(s.upper() for s in testset.systems["terse"]))

    def fail(*args: object) -> None:
        raise OSError("disk full (simulated)")

    monkeypatch.setattr(rows, "put_seg_scores", fail)
    upload = dataclasses.replace(testset, systems=changed)
    with pytest.raises(OSError, match="simulated"):
        workspace.save_testset(upload, "x", replace=True)
    other_task = dataclasses.replace(testset, references=(("other",) * 126,), source=None)
    with pytest.raises(OSError, match="simulated"):  # a new set, half saved when it fails
        workspace.save_testset(other_task, "half")
    assert_same_testset(workspace.load(saved.id), testset)
    assert (workspace.testsets(), workspace.notes(saved.id)) == before


def test_refused_input_changes_nothing(workspace: Workspace) -> None:
    saved = workspace.save_testset(sample_testset(), "sample")
    before = digest(workspace.folder / DB_NAME)
    with pytest.raises(InputError):
        workspace.add_system(saved.id, "short", ["a"])
    with pytest.raises(InputError):
        workspace.save_note(saved.id, "literal", 999, "x", "style")
    assert digest(workspace.folder / DB_NAME) == before
