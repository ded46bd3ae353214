"""Notes out as MQM TSV and back through the MQM reader: the same errors, the same scores.

Notes are drawn at random on a small test set (severity or none, marked words or
none, any category, text with tabs and line ends); the expected spans and MQM
scores are computed here from the notes: a note with a severity is one error of
rater ``bleuviz`` (weights Major 5, Minor 1, Neutral 0, as mt-metrics-eval's
defaults for these categories), a note without one a rating with no error (0),
a segment without a note unrated (NaN).
"""

from __future__ import annotations

import math
import tempfile

from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.io.decode import NamedBytes
from bleuviz.io.mqm_score import mqm_scores
from bleuviz.io.mqm_tsv import read_mqm_tsv
from bleuviz.io.testset import TestSet
from bleuviz.workspace import NOTE_CATEGORIES, Workspace
from bleuviz.workspace.notes import MQM_CATEGORIES, NOTE_SEVERITIES

LINES = {"A": ("Ein Haus .", '"Zitat" hier', "  Rand  "), "B": ("x", "ü 🙂 z", "")}
TESTSET = TestSet(LINES, (("a", "b", "c"),), source=("s1", "s2", "s3"), doc_ids=("d", "d", "e"))
WEIGHT = {"major": 5.0, "minor": 1.0, "neutral": 0.0}
#: Note texts with what a TSV field cannot hold (tabs, line ends) and what reads as marks.
COMMENTS = st.text(alphabet=st.sampled_from('ab\t\n\r <v>/"'), max_size=8)
#: (system, segment) -> the note's severity, category, marked span and text.
Drawn = dict[tuple[str, int], tuple[str, str, tuple[int, int] | None, str]]


@st.composite
def notes(draw: st.DrawFn) -> Drawn:
    out = {}
    for system, lines in LINES.items():
        for segment, line in enumerate(lines):
            if not draw(st.booleans()):
                continue
            severity = draw(st.sampled_from(("", *NOTE_SEVERITIES)))
            span = None
            if severity and line and draw(st.booleans()):
                start = draw(st.integers(0, len(line) - 1))
                span = (start, draw(st.integers(start + 1, len(line))))
            category = draw(st.sampled_from(NOTE_CATEGORIES))
            out[system, segment] = (severity, category, span, draw(COMMENTS))
    return out


@settings(max_examples=40, deadline=None)
@given(notes())
def test_notes_read_back_as_the_same_errors_and_scores(drawn: Drawn) -> None:
    with tempfile.TemporaryDirectory() as folder:
        workspace = Workspace.open(folder)
        set_id = workspace.save_testset(TESTSET, "t").id
        for (system, segment), (severity, category, span, text) in drawn.items():
            workspace.save_note(set_id, system, segment, text, category, severity=severity,
                                span=span)  # fmt: skip
        table, left_out = workspace.notes_mqm(set_id)
    assert left_out == ()
    if not drawn:
        assert table.count("\n") == 1  # the header alone
        return
    annotations = read_mqm_tsv(NamedBytes("notes.tsv", table.encode()), TESTSET)
    scores = mqm_scores(annotations)
    for system, lines in LINES.items():
        for segment in range(len(lines)):
            got = annotations.annotation(system, segment)
            if (system, segment) not in drawn:
                assert got is None
                assert system not in scores or math.isnan(scores[system][segment])
                continue
            severity, category, span, _ = drawn[system, segment]
            assert got is not None and got.raters == ("bleuviz",)
            if not severity:
                assert got.spans == () and scores[system][segment] == 0.0
                continue
            (error,) = got.spans
            assert (error.severity, error.category) == (severity, MQM_CATEGORIES[category])
            assert ((error.start, error.end) if not error.omission else None) == span
            assert scores[system][segment] == -WEIGHT[severity]


def test_a_comment_a_spreadsheet_would_run_is_written_inert() -> None:
    # OWASP "CSV Injection": a cell starting with =, +, - or @ runs as a formula in a
    # spreadsheet; the comment is free text (the reader ignores it), so it gets a '.
    texts = {0: '=HYPERLINK("http://x.example","y")', 1: "@SUM(1)", 2: "-3"}
    with tempfile.TemporaryDirectory() as folder:
        workspace = Workspace.open(folder)
        set_id = workspace.save_testset(TESTSET, "t").id
        for segment, text in texts.items():
            workspace.save_note(set_id, "A", segment, text, NOTE_CATEGORIES[0], author="Zoë")
        table, _ = workspace.notes_mqm(set_id)
    comments = [row.split("\t")[-1] for row in table.splitlines()[1:]]
    assert comments == ["'" + texts[0], "'" + texts[1], "-3"]  # a number stays a number
    annotations = read_mqm_tsv(NamedBytes("notes.tsv", table.encode()), TESTSET)
    assert [annotations.annotation("A", k).raters for k in texts] == [("Zoë",)] * 3  # type: ignore[union-attr]
