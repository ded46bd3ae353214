"""System outputs stored by content: a changed output is refused unless replaced, and kept."""

from __future__ import annotations

import dataclasses

import pytest

from bleuviz.workspace import OutputChanged, Workspace
from tests.workspace.conftest import assert_same_testset, sample_testset


def _upper(lines: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(line.upper() for line in lines)


def test_other_lines_under_a_saved_name_are_refused_and_change_nothing(
    workspace: Workspace,
) -> None:
    testset = sample_testset()
    saved = workspace.save_testset(testset, "sample")
    changed = dict(testset.systems, terse=_upper(testset.systems["terse"]))
    changed["repeat"] = _upper(testset.systems["repeat"])
    changed["new"] = testset.systems["literal"]
    with pytest.raises(OutputChanged) as caught:
        workspace.save_testset(dataclasses.replace(testset, systems=changed), "again")
    assert caught.value.systems == ("terse", "repeat")
    message = str(caught.value)
    assert "\n" not in message and "'terse', 'repeat'" in message and saved.id in message
    assert "'sample'" in message
    assert_same_testset(workspace.load(saved.id), testset)  # "new" was not added either
    with pytest.raises(OutputChanged, match="'literal'"):
        workspace.add_system(saved.id, "literal", _upper(testset.systems["literal"]))
    assert workspace.earlier_outputs(saved.id) == ()


def test_the_same_lines_again_are_a_no_op(workspace: Workspace) -> None:
    testset = sample_testset()
    saved = workspace.save_testset(testset, "sample")
    assert workspace.save_testset(testset, "again") == saved
    assert workspace.add_system(saved.id, "terse", testset.systems["terse"]) == saved
    assert workspace.earlier_outputs(saved.id) == ()


def test_a_replaced_output_stays_as_an_earlier_version(workspace: Workspace) -> None:
    testset = sample_testset(scores=False)
    set_id = workspace.save_testset(testset, "sample").id
    old = testset.systems["terse"]
    workspace.add_system(set_id, "terse", _upper(old), replace=True)
    workspace.add_system(set_id, "terse", old[::-1], replace=True)
    assert workspace.load(set_id).systems["terse"] == old[::-1]
    earlier = workspace.earlier_outputs(set_id)
    assert [(e.system, e.version) for e in earlier] == [("terse", 1), ("terse", 2)]
    assert earlier[0].replaced <= earlier[1].replaced
    assert workspace.earlier_lines(set_id, "terse", 1) == old
    assert workspace.earlier_lines(set_id, "terse", 2) == _upper(old)


def test_a_note_stays_with_the_output_it_was_written_on(workspace: Workspace) -> None:
    testset = sample_testset(scores=False)
    set_id = workspace.save_testset(testset, "sample").id
    old = testset.systems["terse"]
    workspace.save_note(set_id, "terse", 3, "drops the verb", "omission")
    workspace.save_note(set_id, "literal", 3, "fine", "other")
    upload = dataclasses.replace(testset, systems={"terse": _upper(old)})
    workspace.save_testset(upload, "sample", replace=True)
    notes = {n.system: n for n in workspace.notes(set_id)}
    assert notes["terse"].on_earlier_output and not notes["literal"].on_earlier_output
    assert workspace.note_written_on(notes["terse"]) == old[3]
    assert workspace.note_written_on(notes["literal"]) is None
    assert "\tearlier\tdrops the verb" in workspace.notes_tsv(set_id)
    rewritten = workspace.save_note(set_id, "terse", 3, "still drops it", "omission")
    assert workspace.note(set_id, "terse", 3) == rewritten
    assert not rewritten.on_earlier_output
