"""Deleting a test set moves it to the trash: restorable for TRASH_DAYS days, then gone."""

from __future__ import annotations

import dataclasses
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from bleuviz.errors import InputError, UnknownTestSet
from bleuviz.workspace import DB_NAME, TRASH_DAYS, Workspace
from tests.workspace.conftest import assert_same_testset, sample_testset


def test_a_deleted_set_waits_in_the_trash_and_comes_back_whole(workspace: Workspace) -> None:
    testset = sample_testset()
    saved = workspace.save_testset(testset, "sample")
    note = workspace.save_note(saved.id, "terse", 3, "drops the verb", "omission")
    trashed = workspace.delete(saved.id)
    assert trashed.deleted is not None and trashed.id == saved.id
    assert workspace.testsets() == () and workspace.trash() == (trashed,)
    with pytest.raises(UnknownTestSet, match=f"in the trash: bleuviz restore {saved.id}"):
        workspace.load(saved.id)
    with pytest.raises(UnknownTestSet, match="no such test set in workspace"):
        workspace.delete(saved.id)
    assert workspace.restore(saved.id) == saved
    assert workspace.trash() == ()
    assert_same_testset(workspace.load(saved.id), testset)
    assert workspace.notes(saved.id) == (note,)
    with pytest.raises(UnknownTestSet, match="no such test set in the trash of"):
        workspace.restore(saved.id)


def test_a_discarded_set_is_gone_for_good_and_one_with_notes_is_refused(
    workspace: Workspace,
) -> None:
    """``discard`` skips the trash (an upload's set saved again under a new id, issue 44)."""
    testset = sample_testset()
    saved = workspace.save_testset(testset, "sample")
    workspace.save_note(saved.id, "terse", 3, "drops the verb", "omission")
    with pytest.raises(InputError, match=f"test set {saved.id}: has notes"):
        workspace.discard(saved.id)
    assert workspace.testsets() == (saved,)
    workspace.delete_note(saved.id, "terse", 3)
    workspace.discard(saved.id)
    assert workspace.testsets() == () and workspace.trash() == ()
    with pytest.raises(UnknownTestSet):
        workspace.discard(saved.id)


def _age(workspace: Workspace, set_id: str, days: float) -> None:
    """Pretend the set was moved to the trash ``days`` days ago."""
    when = (datetime.now(UTC) - timedelta(days=days)).isoformat()
    with sqlite3.connect(workspace.folder / DB_NAME) as conn:
        conn.execute("UPDATE testsets SET deleted = ? WHERE id = ?", (when, set_id))
    conn.close()


def test_the_trash_is_emptied_after_its_days_on_the_next_open(workspace: Workspace) -> None:
    old = workspace.save_testset(sample_testset(), "old").id
    recent_set = dataclasses.replace(sample_testset(), source=None)
    recent = workspace.save_testset(recent_set, "recent").id
    workspace.save_note(old, "terse", 0, "x", "style")
    workspace.delete(old)
    workspace.delete(recent)
    _age(workspace, old, TRASH_DAYS + 0.01)
    _age(workspace, recent, TRASH_DAYS - 0.01)
    reopened = Workspace.open(workspace.folder)
    assert [s.id for s in reopened.trash()] == [recent]
    with sqlite3.connect(workspace.folder / DB_NAME) as conn:  # nothing of it is left behind
        for table in ("streams", "notes", "note_revisions", "seg_scores", "output_versions"):
            count = conn.execute(f"SELECT count(*) FROM {table} WHERE set_id = ?", (old,))
            assert count.fetchone() == (0,), table
    conn.close()


def test_saving_a_trashed_set_again_brings_it_back_with_its_history(
    workspace: Workspace,
) -> None:
    testset = sample_testset(scores=False)
    set_id = workspace.save_testset(testset, "first").id
    workspace.save_note(set_id, "terse", 1, "kept", "style")
    workspace.delete(set_id)
    changed = dict(testset.systems, terse=tuple(s.upper() for s in testset.systems["terse"]))
    again = workspace.save_testset(dataclasses.replace(testset, systems=changed), "again")
    assert again.id == set_id and again.name == "again" and again.deleted is None
    assert workspace.load(set_id).systems["terse"] == changed["terse"]
    assert workspace.earlier_lines(set_id, "terse", 1) == testset.systems["terse"]
    (note,) = workspace.notes(set_id)
    assert note.text == "kept" and note.on_earlier_output
