"""Notes on segments: one per set, system and segment; checked input; TSV that keeps columns."""

from __future__ import annotations

import csv
import io

import pytest

from bleuviz.errors import InputError
from bleuviz.io.testset import TestSet
from bleuviz.workspace import NOTE_CATEGORIES, NOTE_MAX_CHARS, Workspace
from bleuviz.workspace.export import NOTES_TSV_HEADER
from tests.workspace.conftest import sample_testset


@pytest.fixture
def set_id(workspace: Workspace) -> str:
    return workspace.save_testset(sample_testset(), "sample").id


def test_categories_are_mqm_style_in_order() -> None:
    assert NOTE_CATEGORIES == (
        "accuracy/mistranslation",
        "omission",
        "addition",
        "fluency/grammar",
        "terminology",
        "style",
        "other",
    )


def test_a_second_save_overwrites_the_note(workspace: Workspace, set_id: str) -> None:
    first = workspace.save_note(set_id, "terse", 5, "drops 'not'", "omission")
    second = workspace.save_note(
        set_id, "terse", 5, "drops 'not': meaning flips", "accuracy/mistranslation"
    )
    assert workspace.note(set_id, "terse", 5) == second
    assert workspace.notes(set_id) == (second,)
    assert second.saved >= first.saved
    assert workspace.note(set_id, "terse", 6) is None
    assert workspace.note(set_id, "literal", 5) is None


def test_notes_are_listed_by_system_then_segment(workspace: Workspace, set_id: str) -> None:
    for system, segment in [("repeat", 0), ("literal", 9), ("terse", 1), ("literal", 2)]:
        workspace.save_note(set_id, system, segment, f"{system} {segment}", "style")
    keys = [(n.system, n.segment) for n in workspace.notes(set_id)]
    assert keys == [("literal", 2), ("literal", 9), ("terse", 1), ("repeat", 0)]


def test_an_empty_note_keeps_its_category_and_delete_removes_it(
    workspace: Workspace, set_id: str
) -> None:
    note = workspace.save_note(set_id, "literal", 0, "", "other")
    assert workspace.note(set_id, "literal", 0) == note and note.text == ""
    assert workspace.delete_note(set_id, "literal", 0) is True
    assert workspace.delete_note(set_id, "literal", 0) is False
    assert workspace.notes(set_id) == ()


@pytest.mark.parametrize(
    ("system", "segment", "category", "text", "message"),
    [
        ("literal", 0, "typo", "x", "category: 'typo' is not one of accuracy/mistranslation, "),
        ("nobody", 0, "style", "x",
         r"system: 'nobody' is not in test set \w+ \(literal, terse, repeat\)"),
        ("literal", 126, "style", "x",
         r"segment: 126 is out of range \(test set \w+ has 126 segments, 0-based\)"),
        ("literal", -1, "style", "x", "segment: -1 is out of range"),
        ("literal", 0, "style", "x" * (NOTE_MAX_CHARS + 1),
         f"note: {NOTE_MAX_CHARS + 1} characters, at most"),
    ],
)  # fmt: skip
def test_bad_notes_are_refused_in_one_line(
    workspace: Workspace,
    set_id: str,
    system: str,
    segment: int,
    category: str,
    text: str,
    message: str,
) -> None:
    with pytest.raises(InputError, match=message) as caught:
        workspace.save_note(set_id, system, segment, text, category)
    assert "\n" not in str(caught.value)
    assert workspace.notes(set_id) == ()


NASTY = ["tab\there", "new\nline", "carriage\rreturn", "crlf\r\n", '"quoted"', "trailing ", ""]


def test_tsv_reads_back_column_for_column(workspace: Workspace, set_id: str) -> None:
    for segment, text in enumerate(NASTY):
        severity = ("", "major", "minor", "neutral")[segment % 4]
        span = (segment, segment + 2) if severity and segment % 3 else None
        workspace.save_note(
            set_id, "terse", segment, text, NOTE_CATEGORIES[segment], severity=severity, span=span
        )
    table = workspace.notes_tsv(set_id)
    rows = list(csv.reader(io.StringIO(table, newline=""), dialect="excel-tab"))
    assert tuple(rows[0]) == NOTES_TSV_HEADER
    assert len(rows) == len(NASTY) + 1
    for row, note, text in zip(rows[1:], workspace.notes(set_id), NASTY, strict=True):
        assert row == [
            set_id,
            "terse",
            str(note.segment + 1),
            str(note.segment + 1),  # the sample has no segment ids: 1-based numbers
            note.category,
            ("", "major", "minor", "neutral")[note.segment % 4],
            f"{note.segment}-{note.segment + 2}" if note.span else "",
            note.saved.isoformat(timespec="seconds"),
            "anonymous",
            "current",
            text,
        ]
        assert row[7].endswith("+00:00")
    assert sum(note.span is not None for note in workspace.notes(set_id)) == 3


def test_tsv_names_the_input_segment_ids(workspace: Workspace) -> None:
    testset = TestSet(systems={"s": ("a", "b")}, references=(("a", "b"),), seg_ids=("s7", "s9"))
    set_id = workspace.save_testset(testset, "ids").id
    workspace.save_note(set_id, "s", 1, "n", "style")
    row = workspace.notes_tsv(set_id).splitlines()[1].split("\t")
    assert row[2:4] == ["2", "s9"]


def test_tsv_cells_that_a_spreadsheet_would_run_start_with_a_quote(
    workspace: Workspace, set_id: str
) -> None:
    texts = ['=HYPERLINK("http://x")', "+1+1", "-x", "@SUM(A1)", "\t=1", "-5", "fine"]
    for segment, text in enumerate(texts):
        workspace.save_note(set_id, "terse", segment, text, "style", author="=cmd|' /C calc'!A0")
    rows = list(
        csv.reader(io.StringIO(workspace.notes_tsv(set_id), newline=""), dialect="excel-tab")
    )
    for row, text in zip(rows[1:], texts, strict=True):
        safe = text if text in ("-5", "fine") else "'" + text  # a plain number stays one
        assert (row[2], row[8], row[10]) == (
            str(texts.index(text) + 1),
            "'=cmd|' /C calc'!A0",
            safe,
        )
