"""A set's notes as error spans (``note_annotations``) equal their MQM export read back.

Oracle: the other road from notes to spans, ``Workspace.notes_mqm`` (Google's
MQM TSV) read by ``bleuviz.io.mqm_tsv.read_mqm_tsv``; notes are drawn at random
as in ``test_notes_mqm.py``. Without a note that marks an error there is nothing.
"""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

from hypothesis import given, settings

from bleuviz.io.decode import NamedBytes
from bleuviz.io.mqm_tsv import read_mqm_tsv
from bleuviz.io.testset import TestSet
from bleuviz.workspace import Workspace
from bleuviz.workspace.note_spans import NOTES_NAME, NOTES_RATER, note_annotations
from tests.workspace.test_notes_mqm import LINES, TESTSET, Drawn, notes


@settings(max_examples=40, deadline=None)
@given(notes())
def test_notes_give_the_spans_their_mqm_export_reads_back_as(drawn: Drawn) -> None:
    with tempfile.TemporaryDirectory() as folder:
        workspace = Workspace.open(folder)
        set_id = workspace.save_testset(TESTSET, "t").id
        for (system, segment), (severity, category, span, text) in drawn.items():
            workspace.save_note(set_id, system, segment, text, category, severity=severity,
                                span=span)  # fmt: skip
        got = note_annotations(workspace.notes(set_id), TESTSET)
        table, _ = workspace.notes_mqm(set_id)
    if not any(severity for severity, _, _, _ in drawn.values()):
        assert got is None  # comments alone draw nothing
        return
    assert got is not None and (got.name, got.kind) == (NOTES_NAME, "human")
    expected = read_mqm_tsv(NamedBytes("notes.tsv", table.encode()), TESTSET)
    for system, lines in LINES.items():
        for segment in range(len(lines)):
            mine, theirs = got.annotation(system, segment), expected.annotation(system, segment)
            if theirs is None:
                assert mine is None
                continue
            assert mine is not None and mine.raters == theirs.raters == (NOTES_RATER,)
            assert mine.spans == theirs.spans


def test_author_is_the_rater_and_replaced_or_deleted_notes_are_left_out(tmp_path: Path) -> None:
    workspace = Workspace.open(tmp_path / "ws")
    set_id = workspace.save_testset(TESTSET, "t").id
    workspace.save_note(set_id, "A", 0, "", "style", severity="minor", span=(4, 8), author="ann")
    workspace.save_note(set_id, "A", 1, "gone", "other", severity="major", span=(0, 3))
    workspace.delete_note(set_id, "A", 1)
    workspace.save_note(set_id, "B", 1, "", "omission", severity="major")  # no words marked
    got = note_annotations(workspace.notes(set_id), TESTSET)
    assert got is not None
    (error,) = got.annotation("A", 0).spans  # type: ignore[union-attr]
    assert (error.rater, LINES["A"][0][error.start : error.end]) == ("ann", "Haus")
    assert got.annotation("A", 1) is None
    (omitted,) = got.annotation("B", 1).spans  # type: ignore[union-attr]
    assert omitted.omission and omitted.category == "Accuracy/Omission"
    # A note on an output since replaced, or whose words no longer fit the line: left out.
    earlier = [
        dataclasses.replace(n, on_earlier_output=n.system == "B") for n in workspace.notes(set_id)
    ]
    left = note_annotations(earlier, TESTSET)
    assert left is not None and "B" not in left.segments
    shorter = TestSet({"A": ("Ein", "x", "y"), "B": LINES["B"]}, TESTSET.references)
    assert "A" not in note_annotations(workspace.notes(set_id), shorter).segments  # type: ignore[union-attr]
    # Every save changes the origin, which keys the app's caches.
    workspace.save_note(set_id, "A", 0, "x", "style", severity="major", span=(4, 8),
                        expected_revision=1)  # fmt: skip
    again = note_annotations(workspace.notes(set_id), TESTSET)
    assert again is not None and again.origin != left.origin
