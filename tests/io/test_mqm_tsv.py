"""Tests for bleuviz.io.mqm_tsv: Google's MQM TSV, read into spans and refused when bad.

Expected spans are written out by hand from each small input; the real excerpt
in tests/data/mqm is Google's (see its README).
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from bleuviz.errors import InputError
from bleuviz.io.decode import NamedBytes
from bleuviz.io.error_spans import HUMAN, ErrorSpan, SegmentAnnotation
from bleuviz.io.load import load_paths
from bleuviz.io.mqm_tsv import read_mqm_tsv
from bleuviz.io.span_marks import unmark
from bleuviz.io.testset import TestSet
from tests.data import ROOT

MQM_DATA = ROOT / "tests" / "data" / "mqm"
MQM_SYSTEMS = ("Facebook-AI", "Nemo", "metricsystem2")
HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment"
TESTSET = TestSet(
    {"A": ("Der Hund bellt.", "Gut."), "B": ("Die Katze.", "Schlecht!")},
    (("The dog barks.", "Good."),),
    source=("The dog barks.", "Good."),
)


def tsv(*rows: str, header: str = HEADER) -> NamedBytes:
    """Return an in-memory MQM TSV of ``rows`` (fields joined by tabs already)."""
    return NamedBytes("m.tsv", "\n".join((header, *rows)).encode() + b"\n")


def row(system: str, seg: int, target: str, category: str, severity: str, **kw: str) -> str:
    """Return one row; ``rater``, ``source``, ``doc``, ``doc_id`` default sensibly."""
    fields = [
        system,
        kw.get("doc", "d1"),
        kw.get("doc_id", str(seg)),
        str(seg),
        kw.get("rater", "r1"),
        kw.get("source", "The dog barks."),
        target,
        category,
        severity,
        kw.get("comment", ""),
    ]
    return "\t".join(fields)


def refusal(f: NamedBytes, testset: TestSet = TESTSET) -> str:
    """Return the one-line message reading ``f`` raises."""
    with pytest.raises(InputError) as info:
        read_mqm_tsv(f, testset)
    message = str(info.value)
    assert "\n" not in message and message.startswith(f.name)
    return message


def test_reads_spans_raters_and_no_error_rows() -> None:
    spans = read_mqm_tsv(
        tsv(
            row("A", 1, "Der <v>Hund</v> bellt.", "Accuracy/Mistranslation", "Major"),
            row("A", 1, "Der Hund bellt.", "No-error", "No-error", rater="r2"),
            row("A", 1, "Der Hund bellt<v>.</v>", "Fluency/Punctuation", "minor"),
            row("B", 2, "Schlecht!", "No-error", "No-error"),
        ),
        TESTSET,
    )
    assert spans.name == "MQM" and spans.kind == HUMAN and spans.skipped == ()
    first = spans.annotation("A", 0)
    assert first is not None and first.raters == ("r1", "r2")
    assert first.spans == (
        ErrorSpan(4, 8, "major", "Accuracy/Mistranslation", "r1"),
        ErrorSpan(14, 15, "minor", "Fluency/Punctuation", "r1"),
    )
    assert spans.annotation("A", 1) is None
    assert spans.annotation("B", 0) is None
    last = spans.annotation("B", 1)
    assert last is not None and last.raters == ("r1",) and last.spans == ()


def test_source_side_error_is_marked_on_the_source() -> None:
    spans = read_mqm_tsv(
        tsv(
            row(
                "A",
                1,
                "Der Hund bellt.",
                "Accuracy/Omission",
                "Major",
                source="The <v>dog</v> barks.",
            )
        ),
        TESTSET,
    )
    annotation = spans.annotation("A", 0)
    assert annotation is not None
    assert annotation.spans == (
        ErrorSpan(4, 7, "major", "Accuracy/Omission", "r1", on_source=True),
    )


def test_an_error_marked_nowhere_is_a_marker_and_two_marks_one_error() -> None:
    spans = read_mqm_tsv(
        tsv(
            row("A", 1, "Der Hund bellt.", "Non-translation!", "Major"),
            row("A", 2, "<v>Gut</v><v>.</v>", "Style/Awkward", "Minor"),
        ),
        TESTSET,
    )
    first, second = spans.annotation("A", 0), spans.annotation("A", 1)
    assert first is not None and second is not None
    assert first.spans == (ErrorSpan(0, 0, "major", "Non-translation!", "r1", omission=True),)
    assert second.spans == (
        ErrorSpan(0, 3, "minor", "Style/Awkward", "r1"),
        ErrorSpan(3, 4, "minor", "Style/Awkward", "r1", continued=True),
    )


def test_systems_not_loaded_are_skipped_and_named() -> None:
    spans = read_mqm_tsv(
        tsv(
            row("ref", 1, "Der Hund.", "No-error", "No-error"),
            row("A", 1, "Der Hund bellt.", "No-error", "No-error"),
            row("refA", 2, "x", "No-error", "No-error"),
        ),
        TESTSET,
    )
    assert spans.skipped == ("ref", "refA") and list(spans.segments) == ["A"]


def test_csv_quoted_fields_and_surrounding_spaces_are_read_onto_the_line() -> None:
    testset = TestSet({"A": ('Er sagte "ja".',)}, (("He said yes.",),))
    spans = read_mqm_tsv(
        tsv(
            row("A", 1, '"Er sagte ""<v>ja</v>""."', "Accuracy", "Minor", source="s"),
            row("A", 1, ' Er <v>sagte</v> "ja". ', "Style", "Minor", source="s"),
        ),
        testset,
    )
    annotation = spans.annotation("A", 0)
    assert annotation is not None
    assert [(s.start, s.end) for s in annotation.spans] == [(10, 12), (3, 8)]
    line = testset.systems["A"][0]
    assert [line[s.start : s.end] for s in annotation.spans] == ["ja", "sagte"]


def test_a_last_mark_never_closed_runs_to_the_end() -> None:
    """As line 6444 of Google's TED en-de file marks a final ``?``."""
    testset = TestSet({"A": ("Mobilität. ?",)}, (("x",),))
    spans = read_mqm_tsv(
        tsv(row("A", 1, "Mobilität. <v>?", "Fluency", "Minor", source="")), testset
    )
    annotation = spans.annotation("A", 0)
    assert annotation is not None and (annotation.spans[0].start, annotation.spans[0].end) == (
        11,
        12,
    )


@pytest.mark.parametrize(
    ("target", "problem"),
    [
        ("Der Hund</v> bellt.", "</v> at character 9 closes no <v>"),
        ("<v>Der <v>Hund</v></v> bellt.", "<v> at character 8 is inside another <v>"),
        ("<v>Der</v> Hund</v> bellt.", "</v> at character 16 closes no <v>"),
    ],
)
def test_unbalanced_or_nested_marks_are_refused(target: str, problem: str) -> None:
    message = refusal(tsv(row("A", 1, target, "Fluency", "Minor")))
    assert "line 2: system 'A' segment 1" in message and message.endswith(problem)


def test_text_that_differs_from_the_hypothesis_is_refused_with_both_texts() -> None:
    message = refusal(tsv(row("A", 1, "Der <v>Hund</v> bellte.", "Fluency", "Minor")))
    assert "line 2: system 'A' segment 1: the annotated text differs" in message
    assert "'Der Hund bellte.'" in message and "'Der Hund bellt.'" in message


@pytest.mark.parametrize(
    ("rows", "problem"),
    [
        ((row("A", 1, "Der Hund bellt.", "Fluency", "Critcal"),), "unknown severity 'Critcal'"),
        ((row("A", 3, "x", "No-error", "No-error"),), "seg_id 3 is past the test set's 2 segments"),
        ((row("A", 0, "x", "No-error", "No-error", doc_id="1"),), "seg_id 0 names no line"),
        ((row("A", 1, "x", "No-error", "No-error", doc_id="0"),), "doc_id '0' is not a whole"),
        ((row("A", 1, "x", "No-error", "No_Error"),), "the annotated text differs"),
        (
            ("A\td1\t1\t1\tr1",),
            "line 2: 5 fields, expected 10 (system doc doc_id seg_id rater source target",
        ),
        ((row("", 1, "x", "No-error", "No-error"),), "line 2: the system is empty"),
        ((row("C", 1, "x", "No-error", "No-error"),), "no system it annotates is in the test set"),
    ],
)
def test_bad_rows_are_refused(rows: tuple[str, ...], problem: str) -> None:
    assert problem in refusal(tsv(*rows))


def test_a_header_without_the_columns_is_refused() -> None:
    message = refusal(tsv(header="system\tdoc\ttarget"))
    assert "line 1: the header lacks doc_id, seg_id, rater, source, category, severity" in message


def test_rows_may_leave_off_the_last_comment_column() -> None:
    short = row("A", 2, "Gut.", "No-error", "No-error").rsplit("\t", 1)[0]
    assert read_mqm_tsv(tsv(short), TESTSET).annotation("A", 1) is not None


def test_doc_past_its_end_is_refused_when_rows_map_by_document() -> None:
    testset = TestSet({"A": ("a", "b")}, (("a", "b"),), doc_ids=("d1", "d2"))
    message = refusal(tsv(row("A", 1, "b", "No-error", "No-error", doc="d2", doc_id="2")), testset)
    assert "doc_id 2 is past the end of document 'd2' (1 segment in the test set)" in message


def ted_excerpt() -> TestSet:
    """Google's TED en-de excerpt's 25 lines (tests/data/mqm)."""
    return load_paths(
        [MQM_DATA / f"{system}.txt" for system in MQM_SYSTEMS],
        [MQM_DATA / "Nemo.txt"],  # any reference: the spans do not depend on it
        MQM_DATA / "src.en.txt",
        MQM_DATA / "docids.txt",
    )


def test_the_published_ted_excerpt_maps_by_document_and_matches_every_line() -> None:
    path = MQM_DATA / "mqm_ted_ende.tsv"
    spans = read_mqm_tsv(NamedBytes(str(path), path.read_bytes()), ted_excerpt())
    assert spans.skipped == ("ref",)
    assert all(a is not None for system in MQM_SYSTEMS for a in spans.segments[system])
    # seg_id 218 (talk.3, doc_id 1) is line 21: Nemo's first error there, by hand
    annotation = spans.annotation("Nemo", 20)
    assert annotation is not None and annotation.raters
    rows = [
        r.split("\t")
        for r in path.read_text(encoding="utf-8").splitlines()[1:]
        if r.startswith("Nemo\t") and r.split("\t")[3] == "218" and "<v>" in r.split("\t")[6]
    ]
    marked = rows[0][6].split("<v>")[1].split("</v>")[0]
    first = annotation.spans[0]
    assert ted_excerpt().systems["Nemo"][20][first.start : first.end] == marked


def test_without_document_ids_a_seg_id_past_the_end_is_refused() -> None:
    testset = load_paths(
        [MQM_DATA / f"{system}.txt" for system in MQM_SYSTEMS], [MQM_DATA / "Nemo.txt"]
    )
    path = MQM_DATA / "mqm_ted_ende.tsv"
    message = refusal(NamedBytes(str(path), path.read_bytes()), testset)
    assert "seg_id 218 is past the test set's 25 segments" in message
    assert message.endswith(
        "rows map by doc and doc_id, as in files whose seg_id counts segments the test set lacks)"
    )


#: Texts that hold no tag (no ``<``), marked stretch by stretch, marks possibly adjacent.
marked_texts = st.lists(st.tuples(st.text(alphabet="ab v/.ä>", max_size=6), st.booleans()))


@given(marked_texts)
def test_unmark_returns_the_plain_text_and_each_marked_stretch(
    parts: list[tuple[str, bool]],
) -> None:
    text, spans = unmark("".join(f"<v>{t}</v>" if marked else t for t, marked in parts))
    assert text == "".join(t for t, _ in parts)
    expected, at = [], 0
    for t, marked in parts:
        if marked:
            expected.append((at, at + len(t)))
        at += len(t)
    assert list(spans) == expected


def test_rows_that_do_not_fit_their_document_are_read_by_seg_id() -> None:
    """doc_id counting something else than the position in the document: seg_id fits."""
    testset = TestSet({"A": ("a", "b")}, (("a", "b"),), doc_ids=("d1", "d1"))
    spans = read_mqm_tsv(tsv(row("A", 2, "<v>b</v>", "Fluency", "Minor", doc_id="7")), testset)
    annotation = spans.annotation("A", 1)
    assert annotation is not None and annotation.spans[0].end == 1


#: Hypothesis lines: words, punctuation, quotes and spaces (no tab, no ``<``).
lines_text = st.text(alphabet='ab "„ä.,-', min_size=1, max_size=20)


@given(lines_text, st.data())
def test_a_marked_stretch_reads_back_onto_the_line(line: str, data: st.DataObject) -> None:
    """Any stretch marked in the line, written as is, CSV-quoted or padded, reads back."""
    start = data.draw(st.integers(0, len(line)), label="start")
    end = data.draw(st.integers(start, len(line)), label="end")
    marked = f"{line[:start]}<v>{line[start:end]}</v>{line[end:]}"
    form = data.draw(st.sampled_from(["plain", "quoted", "padded"]), label="form")
    if form == "quoted":
        marked = '"' + marked.replace('"', '""') + '"'
    elif form == "padded":  # a file that pads the line; the line itself is not padded
        assume(line == line.strip())
        marked = f" {marked} "
    testset = TestSet({"A": (line,)}, ((line,),))
    spans = read_mqm_tsv(tsv(row("A", 1, marked, "Fluency", "Minor", source="s")), testset)
    annotation = spans.annotation("A", 0)
    assert annotation is not None
    (span,) = annotation.spans
    assert (span.start, span.end, span.omission) == (start, end, start == end)


MAROT_HEADER = (
    "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\tmetadata"
)


@pytest.mark.parametrize("header", [MAROT_HEADER, None])
def test_marots_layout_reads_with_or_without_its_header(header: str | None) -> None:
    """google-research/marot's README: docSegId, globalSegId (0 if none), metadata."""
    testset = TestSet({"A": ("a", "b c")}, (("a", "b c"),), doc_ids=("d1", "d1"))
    rows = (
        "A\td1\t2\t0\tr1\ts\tb <v>c</v>\tFluency/Grammar\tmajor\t{}",
        "A\td1\t1\t0\tr1\ts\ta\tno_error\tno_error\t{}",
        'A\td1\t1\t0\t\ts\ta\t\t\t{"segment": {"metrics": {"BLEURT": 0.5}}}',
    )
    text = "\n".join(rows if header is None else (header, *rows)) + "\n"
    spans = read_mqm_tsv(NamedBytes("marot.tsv", text.encode()), testset)
    assert spans.segments["A"] == (
        SegmentAnnotation(("r1",)),
        SegmentAnnotation(("r1",), (ErrorSpan(2, 3, "major", "Fluency/Grammar", "r1"),)),
    )


def test_a_file_of_another_layout_says_which_columns_a_row_needs() -> None:
    """Google's avg_seg_scores.tsv starts with no MQM header: read as rows, refused."""
    text = "system mqm_avg_score seg_id\nNemo\t-1.000000 1\n"
    message = refusal(NamedBytes("m.tsv", text.encode()))
    assert message == (
        "m.tsv: line 1: 1 field, expected 10 "
        "(system doc doc_id seg_id rater source target category severity comment)"
    )


@pytest.mark.parametrize(
    ("file_name", "name"),
    [
        ("m.tsv", "MQM"),
        ("mqm_ted_ende.tsv", "MQM"),
        ("/data/notes-1a2b.mqm.tsv", "notes-1a2b"),
        ("Mine.MQM.TSV", "Mine"),
        (".mqm.tsv", "MQM"),
    ],
)
def test_a_file_named_name_mqm_tsv_is_read_under_name(file_name: str, name: str) -> None:
    f = tsv(row("A", 1, "Der Hund bellt.", "No-error", "No-error"))
    spans = read_mqm_tsv(NamedBytes(file_name, f.data), TESTSET)
    assert spans.name == name and spans.origin == file_name


def test_exported_notes_join_googles_file_in_one_test_set() -> None:
    from bleuviz.io.error_span_files import attach_error_spans

    google = tsv(row("A", 1, "Der <v>Hund</v> bellt.", "Accuracy/Mistranslation", "Major"))
    notes = NamedBytes(
        "notes-1a2b.mqm.tsv",
        tsv(row("A", 2, "<v>Gut</v>.", "Fluency/Grammar", "Minor", rater="bleuviz")).data,
    )
    both = attach_error_spans(TESTSET, [google, notes])
    assert [s.name for s in both.error_spans] == ["MQM", "notes-1a2b"]
    assert {s.name for s in both.seg_scores} == {"MQM", "notes-1a2b"}
