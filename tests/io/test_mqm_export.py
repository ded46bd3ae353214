"""The MQM TSV writer against Google's layout, written out by hand from the published files.

The expected rows follow ``ted/ende/mqm_ted_ende.tsv`` of google/wmt-mqm-human-evaluation:
its header, ``<v>…</v>`` around the marked words in ``target``, capitalised severities,
``No-error`` in both columns for a segment without errors, ``doc``/``doc_id`` as the
document and the 1-based position in it.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleuviz.errors import InputError
from bleuviz.io.mqm_export import MqmRow, mqm_tsv, normalise_comment
from bleuviz.io.testset import TestSet

TESTSET = TestSet(
    systems={"sysA": ("Ich sehe ein Haus.", "Gut.", '"Zitat" hier'), "sysB": ("a", "b", "c")},
    references=(("I see a house.", "Good.", "quote"),),
    source=("Je vois une maison.", "Bien.", "citation"),
    doc_ids=("talk.1", "talk.1", "talk.2"),
)


def test_rows_are_written_as_google_writes_them() -> None:
    rows = [
        MqmRow("sysA", 0, "major", "Accuracy/Mistranslation", (13, 17), "house, not home"),
        MqmRow("sysA", 1, "", "Style", None, "looked: fine"),
        MqmRow("sysA", 2, "Minor", "Fluency/Punctuation", (0, 7), rater="r2"),
        MqmRow("sysB", 2, "neutral", "Other"),
    ]
    assert mqm_tsv(rows, TESTSET).split("\n") == [
        "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment",
        "sysA\ttalk.1\t1\t1\tbleuviz\tJe vois une maison.\tIch sehe ein <v>Haus</v>.\t"
        "Accuracy/Mistranslation\tMajor\thouse, not home",
        "sysA\ttalk.1\t2\t2\tbleuviz\tBien.\tGut.\tNo-error\tNo-error\tlooked: fine",
        'sysA\ttalk.2\t1\t3\tr2\tcitation\t<v>"Zitat"</v> hier\tFluency/Punctuation\tMinor\t',
        "sysB\ttalk.2\t1\t3\tbleuviz\tcitation\tc\tOther\tNeutral\t",
        "",
    ]


def test_without_documents_or_source() -> None:
    plain = TestSet(systems={"s": ("x y", "z")}, references=(("x", "z"),))
    assert mqm_tsv([MqmRow("s", 1, "minor", "Other", (0, 1))], plain).splitlines()[1] == (
        "s\t-\t2\t2\tbleuviz\t\t<v>z</v>\tOther\tMinor\t"
    )


def test_documents_that_are_not_runs_of_lines_are_located_by_line() -> None:
    """A document resuming after another has no position that names its line: ``-``."""
    split = TestSet(systems={"s": ("a", "b", "c")}, references=(("x",) * 3,),
                    doc_ids=("d1", "d2", "d1"))  # fmt: skip
    rows = [MqmRow("s", k, "") for k in range(3)]
    assert [r.split("\t")[1:4] for r in mqm_tsv(rows, split).splitlines()[1:]] == [
        ["-", "1", "1"],
        ["-", "2", "2"],
        ["-", "3", "3"],
    ]


@pytest.mark.parametrize(
    ("testset", "row", "message"),
    [
        (TESTSET, MqmRow("nope", 0, "major"), "system 'nope': not in the test set"),
        (TESTSET, MqmRow("sysA", 3, "major"), "segment 3 is out of range"),
        (TESTSET, MqmRow("sysA", -1, "major"), "segment -1 is out of range"),
        (TESTSET, MqmRow("sysA", 1, "major", "Other", (2, 5)), r"span \(2, 5\) is outside"),
        (TESTSET, MqmRow("sysA", 1, "major", "Other", (2, 2)), r"span \(2, 2\) is outside"),
        (TESTSET, MqmRow("sysA", 0, "major", rater="a\tb"), "the rater holds a tab"),
        (
            TestSet(systems={"s": ("a\tb",)}, references=(("r",),)),
            MqmRow("s", 0, ""),
            "system 's', segment 1: the target holds a tab, which an MQM TSV cannot hold",
        ),
        (
            TestSet(systems={"s": ("a\rb",)}, references=(("r",),)),
            MqmRow("s", 0, ""),
            "the target holds a carriage return",
        ),
        (
            TestSet(systems={"s": ("a",)}, references=(("r",),), source=("x\ny",)),
            MqmRow("s", 0, ""),
            "the source holds a line feed",
        ),
        (
            TestSet(systems={"s": ("a <v>b",)}, references=(("r",),)),
            MqmRow("s", 0, ""),
            "the target holds <v>, which would read as a mark",
        ),
        (
            TestSet(systems={"s": ("a",)}, references=(("r",),), source=("b</v>",)),
            MqmRow("s", 0, ""),
            "the source holds </v>",
        ),
        (
            TestSet(systems={"s": ("a",)}, references=(("r",),), doc_ids=("d\t1",)),
            MqmRow("s", 0, ""),
            "the doc holds a tab",
        ),
    ],
)
def test_what_the_format_cannot_hold_is_refused(
    testset: TestSet, row: MqmRow, message: str
) -> None:
    with pytest.raises(InputError, match=message):
        mqm_tsv([row], testset)


@pytest.mark.parametrize(
    ("comment", "written"),
    [
        ("a\tb", "a b"),
        ("line one\nline two", "line one line two"),
        ("crlf \r\n  next", "crlf next"),
        ("keeps  double spaces", "keeps  double spaces"),
        ("\ttrailing\n", " trailing "),
    ],
)
def test_a_comment_is_normalised_onto_one_field(comment: str, written: str) -> None:
    line = mqm_tsv([MqmRow("sysB", 0, "minor", "Other", comment=comment)], TESTSET)
    assert line.split("\n")[1].split("\t")[-1] == written


@given(st.text())
def test_a_normalised_comment_never_breaks_a_row(comment: str) -> None:
    text = normalise_comment(comment)
    assert not any(c in text for c in "\t\n\r")
    assert text.split() == comment.split()  # only white space changes
