"""Notes keep every revision, and a save over a note changed meanwhile is refused."""

from __future__ import annotations

import csv
import io
import sqlite3
from pathlib import Path

import pytest

from bleuviz.errors import InputError
from bleuviz.workspace import DB_NAME, SCHEMA_VERSION, NoteChanged, Workspace
from bleuviz.workspace.export import NOTES_TSV_HEADER, REVISION_COLUMNS
from bleuviz.workspace.schema import CREATE
from tests.workspace.conftest import assert_same_testset, sample_testset


@pytest.fixture
def set_id(workspace: Workspace) -> str:
    return workspace.save_testset(sample_testset(), "sample").id


def test_every_revision_is_kept_with_its_author(workspace: Workspace, set_id: str) -> None:
    workspace.save_note(set_id, "terse", 5, "drops 'not'", "omission", author=" ann  lee ")
    workspace.save_note(set_id, "terse", 5, "meaning flips", "accuracy/mistranslation")
    assert workspace.delete_note(set_id, "terse", 5, author="bob")
    last = workspace.save_note(set_id, "terse", 5, "back", "style", author="carl")
    history = workspace.note_history(set_id, "terse", 5)
    assert [(h.revision, h.author, h.text, h.deleted) for h in history] == [
        (1, "ann lee", "drops 'not'", False),
        (2, "anonymous", "meaning flips", False),
        (3, "bob", "meaning flips", True),
        (4, "carl", "back", False),
    ]
    assert workspace.notes(set_id) == (last,)
    with pytest.raises(InputError, match="author: 101 characters"):
        workspace.save_note(set_id, "terse", 5, "x", "style", author="a" * 101)


def test_a_save_over_a_note_changed_meanwhile_is_refused(workspace: Workspace, set_id: str) -> None:
    """Two editors load the note at revision 1; the second save must not win silently."""
    loaded = workspace.save_note(set_id, "terse", 5, "first", "other", author="ann")
    theirs = workspace.save_note(
        set_id, "terse", 5, "bob's", "style", author="bob", expected_revision=loaded.revision
    )
    with pytest.raises(NoteChanged) as caught:
        workspace.save_note(
            set_id, "terse", 5, "ann's", "style", author="ann", expected_revision=loaded.revision
        )
    assert caught.value.current == theirs and caught.value.expected == 1
    message = str(caught.value)
    assert "\n" not in message and "revision 2 by bob" in message and "segment 6" in message
    assert workspace.note(set_id, "terse", 5) == theirs
    with pytest.raises(NoteChanged, match="no note"):  # a new note on a segment noted meanwhile
        workspace.save_note(set_id, "terse", 5, "new", "style", expected_revision=0)
    workspace.delete_note(set_id, "terse", 5, expected_revision=2)
    with pytest.raises(NoteChanged, match="now deleted") as caught:
        workspace.save_note(set_id, "terse", 5, "x", "style", expected_revision=2)
    assert caught.value.current is None
    with pytest.raises(NoteChanged):
        workspace.delete_note(set_id, "terse", 5, expected_revision=2)
    again = workspace.save_note(set_id, "terse", 5, "again", "style", expected_revision=0)
    assert again.revision == 4


def test_the_tsv_can_hold_every_revision(workspace: Workspace, set_id: str) -> None:
    workspace.save_note(set_id, "literal", 2, "a", "style", author="ann")
    workspace.save_note(set_id, "literal", 2, "b\tc", "other", author="bob")
    workspace.save_note(set_id, "terse", 0, "gone", "other")
    workspace.delete_note(set_id, "terse", 0)
    table = workspace.notes_tsv(set_id, revisions=True)
    rows = list(csv.reader(io.StringIO(table, newline=""), dialect="excel-tab"))
    assert rows[0] == [*NOTES_TSV_HEADER[:-1], *REVISION_COLUMNS, "note"]
    got = [(r[1], r[2], r[8], r[10], r[11], r[12]) for r in rows[1:]]
    assert got == [
        ("literal", "3", "ann", "1", "earlier", "a"),
        ("literal", "3", "bob", "2", "current", "b\tc"),
        ("terse", "1", "anonymous", "1", "earlier", "gone"),
        ("terse", "1", "anonymous", "2", "deleted", "gone"),
    ]
    current = list(csv.reader(io.StringIO(workspace.notes_tsv(set_id), newline=""), "excel-tab"))
    assert [r[-1] for r in current[1:]] == ["b\tc"]


def test_a_version_1_workspace_is_migrated_with_its_notes(tmp_path: Path) -> None:
    """A file written by bleuviz before history (schema 1) keeps its sets and notes."""
    testset = sample_testset(scores=False)
    made = Workspace.open(tmp_path / "new")  # the rows a version-1 file holds, copied over
    set_id = made.save_testset(testset, "sample").id
    old = tmp_path / "old"
    old.mkdir()
    with sqlite3.connect(old / DB_NAME) as conn, sqlite3.connect(made.folder / DB_NAME) as new:
        for statement in CREATE:
            conn.execute(statement)
        for table, columns in [
            ("testsets", "id, name, added, n_segments, n_refs"),
            ("streams", "set_id, kind, name, position, digest, lines"),
        ]:
            found = new.execute(f"SELECT {columns} FROM {table}").fetchall()
            marks = ", ".join("?" * len(found[0]))
            conn.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", found)
        conn.execute(
            "INSERT INTO notes VALUES (?, 'terse', 3, 'old note', 'omission', "
            "'2025-01-02T03:04:05+00:00')",
            (set_id,),
        )
        conn.execute("PRAGMA user_version = 1")
    conn.close()
    new.close()
    workspace = Workspace.open(old)
    with sqlite3.connect(old / DB_NAME) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    conn.close()
    assert_same_testset(workspace.load(set_id), testset)
    (note,) = workspace.notes(set_id)
    assert (note.text, note.revision, note.author, note.on_earlier_output) == (
        "old note", 1, "anonymous", False,
    )  # fmt: skip
    assert workspace.note_history(set_id, "terse", 3) == (note,)
    workspace.add_system(set_id, "terse", ["x"] * testset.n_segments, replace=True)
    assert workspace.note(set_id, "terse", 3).on_earlier_output
    assert (
        workspace.note_written_on(workspace.note(set_id, "terse", 3))
        == (testset.systems["terse"][3])
    )
