"""A note may mark the erroneous words (character offsets into the hypothesis) and a severity."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.errors import InputError
from bleuviz.io.testset import TestSet
from bleuviz.workspace import NoteChanged, Workspace
from bleuviz.workspace.notes import NOTE_SEVERITIES

LINES = ("Das ist ein Haus .", "a", "ümlaut 🙂 end")
TESTSET = TestSet(systems={"s": LINES}, references=(("x", "y", "z"),))


@pytest.fixture
def set_id(workspace: Workspace) -> str:
    return workspace.save_testset(TESTSET, "spans").id


def test_severity_and_span_are_kept_in_every_revision(workspace: Workspace, set_id: str) -> None:
    first = workspace.save_note(set_id, "s", 0, "wrong noun", "accuracy/mistranslation",
                                severity="major", span=(12, 16))  # fmt: skip
    assert (first.severity, first.span, first.is_error) == ("major", (12, 16), True)
    assert LINES[0][slice(*first.span)] == "Haus"
    second = workspace.save_note(set_id, "s", 0, "only a comment", "other", expected_revision=1)
    assert (second.severity, second.span, second.is_error) == ("", None, False)
    workspace.delete_note(set_id, "s", 0)
    history = workspace.note_history(set_id, "s", 0)
    assert [(n.severity, n.span, n.deleted) for n in history] == [
        ("major", (12, 16), False),
        ("", None, False),
        ("", None, True),
    ]
    workspace.save_note(set_id, "s", 2, "", "style", severity="minor", span=(7, 8))
    assert workspace.note(set_id, "s", 2).span == (7, 8)  # offsets in code points: the emoji


def test_a_conflict_shows_the_saved_severity_and_span(workspace: Workspace, set_id: str) -> None:
    workspace.save_note(set_id, "s", 0, "ann's", "omission", severity="neutral", span=(0, 3))
    with pytest.raises(NoteChanged) as caught:
        workspace.save_note(set_id, "s", 0, "mine", "other", severity="minor", expected_revision=0)
    assert (caught.value.current.severity, caught.value.current.span) == ("neutral", (0, 3))


@pytest.mark.parametrize(
    ("severity", "span", "message"),
    [
        ("", (0, 3), "severity: marked words are an error and need a severity"),
        ("critical", None, "severity: 'critical' is not one of major, minor, neutral"),
        ("Major", None, "severity: 'Major' is not one of"),
        ("minor", (3, 3), r"span: \(3, 3\) is not a run .*0 <= start < end <= 18"),
        ("minor", (-1, 2), r"span: \(-1, 2\)"),
        ("minor", (10, 19), r"span: \(10, 19\)"),
        ("minor", (True, 2), r"span: \(True, 2\)"),
    ],
)
def test_bad_marks_are_refused_and_nothing_is_saved(
    workspace: Workspace, set_id: str, severity: str, span: tuple[int, int], message: str
) -> None:
    with pytest.raises(InputError, match=message):
        workspace.save_note(set_id, "s", 0, "x", "other", severity=severity, span=span)
    assert workspace.note_history(set_id, "s", 0) == ()


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_any_run_of_the_line_round_trips(tmp_path_factory, data: st.DataObject) -> None:
    workspace = Workspace.open(tmp_path_factory.mktemp("ws"))
    set_id = workspace.save_testset(TESTSET, "spans").id
    segment = data.draw(st.integers(0, len(LINES) - 1))
    n = len(LINES[segment])
    start = data.draw(st.integers(0, n - 1))
    end = data.draw(st.integers(start + 1, n))
    severity = data.draw(st.sampled_from(NOTE_SEVERITIES))
    saved = workspace.save_note(set_id, "s", segment, "t", "other", severity=severity,
                                span=(start, end))  # fmt: skip
    assert workspace.note(set_id, "s", segment) == saved
    assert workspace.notes(set_id) == (saved,)
