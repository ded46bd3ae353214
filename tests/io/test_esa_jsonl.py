"""Tests for bleuviz.io.esa_jsonl: WMT24's ESA JSON lines, read and refused.

Records use the keys of the WMT24 ESA release (see the module's docstring);
expectations are written out by hand from each small input.
"""

from __future__ import annotations

import json
import math

import pytest

from bleuviz.errors import InputError
from bleuviz.io.decode import NamedBytes
from bleuviz.io.error_spans import ErrorAnnotations, ErrorSpan, SegmentAnnotation
from bleuviz.io.esa_jsonl import read_esa_jsonl
from bleuviz.io.testset import TestSet

TESTSET = TestSet({"A": ("Der Hund bellt.", "Gut.")}, (("The dog barks.", "Good."),))


def record(**changes: object) -> dict[str, object]:
    """Return line 0's record of system A, with ``changes``."""
    base: dict[str, object] = {
        "langs": "en-de",
        "line_id": 0,
        "src": "The dog barks.",
        "tgt": "Der Hund bellt.",
        "doc_id": "d1",
        "domain": "news",
        # "Hund" as Appraise marks it: its first and last character, both included
        "esa_spans": [{"start_i": 4, "end_i": 7, "severity": "major", "error_type": None}],
        "esa_score": 40,
        "system": "A",
    }
    return {**base, **changes}


def read(*records: dict[str, object]) -> ErrorAnnotations:
    """Read ``records`` as a JSON-lines file."""
    text = "\n".join(json.dumps(r) for r in records) + "\n"
    return read_esa_jsonl(NamedBytes("esa.jsonl", text.encode()), TESTSET)


def test_spans_scores_omissions_and_several_annotators() -> None:
    missing = {"start_i": "missing", "end_i": "missing", "severity": "minor", "error_type": None}
    spans = read(
        record(annotator="a1"),
        record(annotator="a2", esa_spans=[missing], esa_score=70),
        record(system="ref", tgt="x"),
        record(line_id=1, tgt="Gut.", esa_spans=[], esa_score=None),
    )
    assert spans.name == "ESA" and spans.skipped == ("ref",)
    assert spans.segments["A"] == (
        SegmentAnnotation(
            ("a1", "a2"),
            (
                ErrorSpan(4, 8, "major", "", "a1"),
                ErrorSpan(0, 0, "minor", "", "a2", omission=True),
            ),
            score=55.0,
        ),
        SegmentAnnotation(("ESA",), (), None),
    )


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"line_id": 2}, "line_id 2 is past the test set's 2 segments (line_id counts from 0)"),
        ({"line_id": "1"}, "line_id '1' is not a 0-based line number"),
        ({"tgt": "Der Hund bellte."}, "segment 1: tgt differs from the hypothesis"),
        ({"esa_score": "good"}, "esa_score 'good' is not a number"),
        ({"esa_spans": {}}, "esa_spans is not a list"),
        (
            {"esa_spans": [{"start_i": 4, "end_i": 16, "severity": "major"}]},
            "span 1: offsets 4-16 (first and last character, both included) are outside "
            "the hypothesis (15 UTF-16 code units)",
        ),
        (
            {"esa_spans": [{"start_i": 4, "end_i": 15, "severity": "major"}]},
            "span 1: offsets 4-15 (first and last character, both included) are outside",
        ),
        (
            {"esa_spans": [{"start_i": 5, "end_i": 4, "severity": "major"}]},
            "span 1: offsets 5-4 (first and last character, both included) are outside",
        ),
        (
            {"esa_spans": [{"start_i": 4, "end_i": "missing", "severity": "major"}]},
            "span 1: end_i 'missing' is not a character offset or 'missing'",
        ),
        (
            {"esa_spans": [{"start_i": 4, "end_i": 8, "severity": "bad"}]},
            "span 1: unknown severity 'bad'",
        ),
        ({"system": "C"}, "no system it annotates is in the test set (it annotates C;"),
        ({"system": 3}, "expected an object with system, line_id, tgt, esa_spans"),
    ],
)
def test_bad_records_are_refused(changes: dict[str, object], problem: str) -> None:
    with pytest.raises(InputError) as info:
        read(record(**changes))
    message = str(info.value)
    assert message.startswith("esa.jsonl: ") and "\n" not in message
    assert problem in message


def test_a_line_that_is_not_json_names_its_line() -> None:
    text = json.dumps(record()) + "\n{not json\n"
    with pytest.raises(InputError, match=r"^esa\.jsonl: line 2: invalid JSON"):
        read_esa_jsonl(NamedBytes("esa.jsonl", text.encode()), TESTSET)


def test_segments_nobody_rated_have_no_score() -> None:
    spans = read(record())
    assert spans.segments["A"][1] is None
    first = spans.segments["A"][0]
    assert first is not None and first.score == 40.0 and not math.isnan(first.score)


def test_a_file_without_any_esa_score_is_refused() -> None:
    with pytest.raises(InputError, match="no line of a loaded system gives an esa_score"):
        read(record(esa_score=None), record(line_id=1, tgt="Gut.", esa_score=None, esa_spans=[]))


@pytest.mark.parametrize(
    ("written", "read_as"), [("66", 66.0), ("0", 0.0), ("99.5", 99.5), (100, 100.0)]
)
def test_scores_written_as_strings_are_read(written: object, read_as: float) -> None:
    # WMT24's release writes esa_score as the CSV's string ("66"), see tests/data/esa
    first = read(record(esa_score=written)).segments["A"][0]
    assert first is not None and first.score == read_as


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        (-5, "-5"),
        (150, "150"),
        (1e300, "1e+300"),
        ("150", "150"),
        ("-0.5", "-0.5"),
        (100.0000001, "100.0000001"),  # not "100", which is inside
    ],
)
def test_scores_outside_0_to_100_are_refused(written: object, shown: str) -> None:
    text = (
        json.dumps(record()) + "\n" + json.dumps(record(line_id=1, tgt="Gut.", esa_score=written))
    )
    with pytest.raises(InputError) as info:
        read_esa_jsonl(NamedBytes("esa.jsonl", text.encode()), TESTSET)
    message = str(info.value)
    assert message == f"esa.jsonl: line 2: esa_score {shown} is outside ESA's 0-100"


@pytest.mark.parametrize("written", ["", None])
def test_an_empty_score_is_no_score(written: object) -> None:
    spans = read(record(), record(line_id=1, tgt="Gut.", esa_spans=[], esa_score=written))
    second = spans.segments["A"][1]
    assert second is not None and second.score is None


def test_undecided_spans_keep_their_own_severity() -> None:
    undecided = {"start_i": 9, "end_i": 14, "severity": "undecided", "error_type": None}
    spans = read(record(esa_spans=[undecided, *record()["esa_spans"]]))  # type: ignore[misc]
    first = spans.segments["A"][0]
    assert first is not None
    assert [(s.start, s.end, s.severity) for s in first.spans] == [
        (9, 15, "undecided"),
        (4, 8, "major"),
    ]


def test_offsets_are_appraise_s_first_and_last_character_in_utf16_units() -> None:
    # Appraise's ESA page (AppraiseDev/Appraise, EvalView/static/EvalView/js/
    # direct-assessment-document-mqm-esa.js) cuts the hypothesis with JavaScript's
    # split(""), one UTF-16 code unit each, and draws char_id in a span when
    # start_i <= char_id <= end_i: "🙌" is units 6-7, "Hund" units 9-12.
    tgt = "Super 🙌 Hund."
    testset = TestSet({"A": (tgt,)}, (("Great, dog.",),))
    marks = [(9, 12, "major"), (6, 7, "minor"), (13, 13, "minor"), (0, 0, "major")]
    line = record(
        tgt=tgt,
        esa_spans=[
            {"start_i": a, "end_i": b, "severity": sev, "error_type": None} for a, b, sev in marks
        ],
    )
    text = json.dumps(line) + "\n"
    spans = read_esa_jsonl(NamedBytes("esa.jsonl", text.encode()), testset).segments["A"][0]
    assert spans is not None
    assert [tgt[s.start : s.end] for s in spans.spans] == ["Hund", "🙌", ".", "S"]
    assert not any(s.omission for s in spans.spans)


def unified(langs: str = "en-de", line: object = 0, **systems: object) -> dict[str, object]:
    """One line of the release's unified layout (``convert_to_unified_format``'s keys)."""
    tgt_text = {s: TESTSET.systems[s][int(str(line))] for s in systems}
    return {
        "scores": systems,
        "src_text": "The dog barks.",
        "tgt_text": tgt_text,
        "doc_id": f"{langs}_#_news_#_test-en-news_d1_#_{line}",
    }


def judgement(score: float, annotator: str, *spans: dict[str, object]) -> dict[str, object]:
    """One annotator's ESA judgement, as the unified layout writes it."""
    times = ["1.0", "2.0"]
    return {"score": score, "annotator": annotator, "errors": list(spans), "times": times}


HUND = {"start_i": 4, "end_i": 7, "severity": "major", "error_type": None}


def test_the_unified_layout_reads_as_its_flat_lines() -> None:
    missing = {"start_i": "missing", "end_i": "missing", "severity": "minor", "error_type": None}
    line = unified(A=[judgement(40.0, "a1", HUND), judgement(70.0, "a2", missing)])
    spans = read(line, unified(line=1, A=[judgement(90.0, "a1")]))
    flat = read(
        record(annotator="a1"),
        record(annotator="a2", esa_spans=[missing], esa_score=70),
        record(line_id=1, tgt="Gut.", esa_spans=[], esa_score=90, annotator="a1"),
    )
    assert spans.segments == flat.segments
    first = spans.segments["A"][0]
    assert first is not None and first.score == 55.0 and first.raters == ("a1", "a2")


def test_a_unified_tgt_text_other_than_the_hypothesis_is_refused() -> None:
    line = unified(A=[judgement(40.0, "a1", HUND)])
    line["tgt_text"] = {"A": "Der Hund bellte."}
    with pytest.raises(InputError) as info:
        read(line)
    assert str(info.value).startswith(
        "esa.jsonl: line 1: judgement 1 of 'A': system 'A' segment 1: tgt differs from the "
        "hypothesis: 'Der Hund bellte.' vs 'Der Hund bellt.'"
    )


def test_unified_lines_of_several_pairs_that_fit_alike_are_refused() -> None:
    lines = [unified(langs, A=[judgement(40.0, "a1")]) for langs in ("en-de", "cs-de")]
    with pytest.raises(InputError) as info:
        read(*lines)
    assert str(info.value).startswith(
        "esa.jsonl: the rows of 2 language pairs (en-de, cs-de) fit the test set"
    )


def test_of_unified_lines_the_pair_that_fits_is_read() -> None:
    other = unified("en-ja", A=[judgement(10.0, "j")])
    other["tgt_text"] = {"A": "犬が吠える。"}
    spans = read(other, unified(A=[judgement(40.0, "a1", HUND)]))
    assert spans.language_pairs == ("en-de", "en-ja")
    first = spans.segments["A"][0]
    assert first is not None and first.score == 40.0 and first.raters == ("a1",)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"doc_id": "d1"}, "line 1: doc_id 'd1' is not LANGS_#_DOMAIN_#_DOC_#_LINE_ID"),
        ({"doc_id": "en-de_#_news_#_d1_#_x"}, "line_id 'x' is not a 0-based line number"),
        ({"doc_id": "en-de_#_news_#_d1_#_7"}, "line_id 7 is past the test set's 2 segments"),
        ({"tgt_text": {}}, "line 1: tgt_text of system 'A' None is not a text"),
        ({"scores": {"A": {}}}, "line 1: scores of system 'A' is not a list"),
        ({"scores": {"A": [5]}}, "judgement 1 of 'A': expected an object with score"),
        (
            {"scores": {"A": [judgement(150.0, "a1")]}},
            "line 1: judgement 1 of 'A': esa_score 150 is outside ESA's 0-100",
        ),
    ],
)
def test_bad_unified_lines_are_refused_with_their_line(
    change: dict[str, object], problem: str
) -> None:
    with pytest.raises(InputError) as info:
        read({**unified(A=[judgement(40.0, "a1")]), **change})
    message = str(info.value)
    assert message.startswith("esa.jsonl: ") and "\n" not in message
    assert problem in message
