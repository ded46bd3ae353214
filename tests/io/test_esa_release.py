"""WMT24's ESA release read as published: its JSON lines (flat and unified) and the Appraise CSV.

Data: the excerpt in tests/data/esa (see its README). The oracle
(``tests.data.esa_release.esa_oracle``) reads the CSV with plain Python and the
release script's own row filter; both layouts must give exactly its spans,
raters and scores, including the ``undecided`` spans, and the release's string
scores (``"95"``). The unified excerpt holds the same judgements grouped by segment,
so it must give the same annotations, its annotators renamed as the release renames them.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace

import pytest

from bleuviz.errors import InputError
from bleuviz.io.appraise_csv import read_appraise_csv
from bleuviz.io.decode import NamedBytes, read_path
from bleuviz.io.error_span_files import attach_error_spans, read_error_spans, same_annotations
from bleuviz.io.error_spans import UNDECIDED, ErrorAnnotations
from bleuviz.io.esa_jsonl import read_esa_jsonl
from bleuviz.io.testset import TestSet
from tests.data.esa_release import (
    ESA_CSV,
    ESA_JSONL,
    ESA_UNIFIED,
    UNIFIED_RATERS,
    esa_oracle,
    esa_testset,
)


def as_oracle(annotations: ErrorAnnotations) -> dict[tuple[str, int], object]:
    """The annotations in the oracle's terms."""
    out: dict[tuple[str, int], object] = {}
    for system, segments in annotations.segments.items():
        for i, a in enumerate(segments):
            if a is not None:
                spans = [(s.start, s.end, s.severity, s.omission) for s in a.spans]
                out[(system, i)] = (list(a.raters), spans, a.score)
    return out


def check_against_oracle(annotations: ErrorAnnotations) -> None:
    oracle, skipped = esa_oracle()
    assert as_oracle(annotations) == oracle
    assert list(annotations.skipped) == skipped
    assert annotations.name == "ESA"


def test_the_release_json_lines_read_as_published() -> None:
    raw = ESA_JSONL.read_bytes()
    assert b'"esa_score": "95"' in raw and b'"undecided"' in raw  # the quirks are there
    annotations = read_esa_jsonl(NamedBytes(ESA_JSONL.name, raw), esa_testset())
    check_against_oracle(annotations)
    aya = annotations.annotation("Aya23", 261)
    assert aya is not None and [s.severity for s in aya.spans].count(UNDECIDED) == 2


def test_the_appraise_export_reads_as_published_and_equals_the_release() -> None:
    testset = esa_testset()
    from_csv = read_error_spans(read_path(ESA_CSV), testset)
    check_against_oracle(from_csv)
    from_jsonl = read_error_spans(read_path(ESA_JSONL), testset)
    assert same_annotations(from_csv, from_jsonl)


def test_an_appraise_export_is_known_by_its_first_row() -> None:
    renamed = NamedBytes("campaign-export.txt", ESA_CSV.read_bytes())
    check_against_oracle(read_error_spans(renamed, esa_testset()))


def test_the_scores_attach_as_esa() -> None:
    testset = attach_error_spans(esa_testset(), [read_path(ESA_CSV)])
    oracle, _ = esa_oracle()
    values = testset.seg_score("ESA").values
    assert {(s, i): values[s][i] for s, i in oracle} == {k: v[2] for k, v in oracle.items()}


def renamed(annotations: ErrorAnnotations, raters: dict[str, str]) -> ErrorAnnotations:
    """The annotations with each rater (of the segments and of their spans) renamed."""
    segments = {
        system: tuple(
            None
            if a is None
            else replace(
                a,
                raters=tuple(raters[r] for r in a.raters),
                spans=tuple(replace(s, rater=raters[s.rater]) for s in a.spans),
            )
            for a in column
        )
        for system, column in annotations.segments.items()
    }
    return replace(annotations, segments=segments)


def test_the_release_unified_layout_gives_what_its_flat_lines_give() -> None:
    # both files hold the same judgements (see tests/data/esa/README.md); the unified
    # one names the annotators through the release's annotator_mapping.json
    testset = esa_testset()
    flat = read_error_spans(read_path(ESA_JSONL), testset)
    unified = read_error_spans(read_path(ESA_UNIFIED), testset)
    assert unified.origin == str(ESA_UNIFIED) and unified.language_pairs == flat.language_pairs
    assert sorted(unified.skipped) == sorted(flat.skipped)
    assert same_annotations(unified, renamed(flat, UNIFIED_RATERS))
    scored = [attach_error_spans(testset, [read_path(f)]) for f in (ESA_JSONL, ESA_UNIFIED)]
    flat_scores, unified_scores = (t.seg_score("ESA") for t in scored)
    assert unified_scores.same_values(flat_scores)
    assert any(a is not None and a.spans for a in unified.segments["Aya23"])


def _row(**changes: str) -> str:
    """One export row of Aya23 on line 261, with ``changes``."""
    fields = dict(
        user="u1",
        system="Aya23",
        line_id="261",
        tgt_type="TGT",
        lang1="eng",
        lang2="ces",
        esa_score="90",
        document_id="test-en-social_1",
        _="False",
        esa_spans='[{"start_i":56,"end_i":57,"severity":"minor","error_type":null}]',
        t0="1.0",
        t1="2.0",
    )
    fields.update(changes)
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(fields.values())
    return out.getvalue()


@pytest.mark.parametrize(
    "dropped",
    [
        {"tgt_type": "BAD"},
        {"document_id": "test-en-social_1#bad"},
        {"document_id": "test-en-social_1#dup"},
        {"document_id": "test-en-social_1#incomplete"},
        {"document_id": "ende-tutorial1"},
    ],
)
def test_rows_the_release_drops_are_dropped(dropped: dict[str, str]) -> None:
    # the dropped row would be refused if read: its line is past the test set's end
    text = _row() + _row(line_id="5000", user="u2", **dropped)
    spans = read_appraise_csv(NamedBytes("export.csv", text.encode()), esa_testset())
    a = spans.annotation("Aya23", 261)
    assert a is not None and a.raters == ("u1",) and a.score == 90.0


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (_row().replace(",False,", ",False,x,"), "line 1: expected Appraise's 12 fields"),
        (_row(line_id="2a"), "line 1: line_id '2a' is not a 0-based line number"),
        (_row(esa_score="good"), "line 1: esa_score 'good' is not a number"),
        (_row(esa_score="150"), "line 1: esa_score 150 is outside ESA's 0-100"),
        (_row(esa_spans="[{"), "line 1: invalid JSON"),
    ],
    ids=["13 fields", "line_id", "score", "range", "spans"],
)
def test_bad_rows_are_refused_with_their_line(text: str, problem: str) -> None:
    with pytest.raises(InputError) as info:
        read_appraise_csv(NamedBytes("export.csv", text.encode()), esa_testset())
    message = str(info.value)
    assert message.startswith("export.csv") and problem in message and "\n" not in message


def test_a_header_row_is_skipped() -> None:
    header = "user,system,line_id,tgt_type,lang1,lang2,esa_score,document_id,_,esa_spans,t0,t1\n"
    spans = read_error_spans(NamedBytes("x.csv", (header + _row()).encode()), esa_testset())
    assert spans.annotation("Aya23", 261) is not None


TWO = TestSet({"A": ("Der Hund bellt.", "Gut.")}, (("The dog barks.", "Good."),))


def _line(langs: str, tgt: str, start: int = 0, end: int = 3) -> str:
    span = {"start_i": start, "end_i": end, "severity": "major", "error_type": None}
    record = {"langs": langs, "line_id": 0, "tgt": tgt, "system": "A", "esa_score": "50"}
    return json.dumps({**record, "esa_spans": [span]})


def test_of_several_language_pairs_the_one_that_fits_is_read() -> None:
    text = "\n".join([_line("en-ja", "犬が吠える。"), _line("en-de", "Der Hund bellt.")])
    spans = read_esa_jsonl(NamedBytes("all.jsonl", text.encode()), TWO)
    a = spans.annotation("A", 0)
    assert a is not None and a.score == 50.0 and a.spans[0].end == 4  # units 0-3, both in


def test_of_csv_rows_several_pairs_that_fit_are_refused_whatever_their_count() -> None:
    # WMT24's wave 2 on en-cs's ONLINE-B, GPT-4 and IKUN: its en-zh rows fit the lines of
    # 3 loaded systems, its en-cs rows 2; the CSV quotes no tgt to tell them apart
    testset = TestSet({"A": ("Der Hund bellt.",), "B": ("Gut.",)}, (("The dog barks.",),))
    spans = '[{"start_i":0,"end_i":2,"severity":"minor","error_type":null}]'
    rows = _row(system="A", line_id="0", esa_spans=spans)
    rows += _row(system="B", line_id="0", esa_spans=spans)
    rows += _row(system="A", line_id="0", lang2="deu", esa_score="10", esa_spans=spans)
    with pytest.raises(InputError) as info:
        read_appraise_csv(NamedBytes("wave2.csv", rows.encode()), testset)
    assert str(info.value) == (
        "wave2.csv: the rows of 2 language pairs (eng-ces, eng-deu) fit the test set (2 "
        "systems at most); keep one pair's rows (for eng-ces: grep ',eng,ces,' wave2.csv > "
        "eng-ces.csv)"
    )


def test_language_pairs_that_fit_alike_are_refused() -> None:
    rows = _row(system="A", line_id="0", esa_spans="[]") + _row(
        system="A", line_id="0", lang2="deu", esa_spans="[]"
    )
    with pytest.raises(
        InputError, match=r"^x\.csv: the rows of 2 language pairs \(eng-ces, eng-deu\)"
    ):
        read_appraise_csv(NamedBytes("x.csv", rows.encode()), TWO)


def test_no_pair_that_fits_gives_the_closest_pairs_refusal() -> None:
    text = "\n".join(
        [_line("en-ja", "犬が吠える。"), _line("en-ja", "犬が吠える。"), _line("en-zh", "狗叫。")]
    )
    with pytest.raises(InputError) as info:
        read_esa_jsonl(NamedBytes("all.jsonl", text.encode()), TWO)
    assert str(info.value) == (
        "all.jsonl: line 1: system 'A' segment 1: tgt differs from the hypothesis: "
        "'犬が吠える。' vs 'Der Hund bellt.' (none of the file's 2 language pairs, en-ja, "
        "en-zh, fits the test set; this is why en-ja's rows, the closest, do not)"
    )


def test_waves_of_one_campaign_given_apart_say_to_join_them() -> None:
    # WMT24 publishes its campaign in waves (humeval/esa_generalMT2024_wave2.csv, wave3.csv)
    rows = ESA_CSV.read_text("utf-8").splitlines(keepends=True)
    halves = [
        NamedBytes(f"wave{k}.csv", "".join(part).encode())
        for k, part in enumerate((rows[:14], rows[14:]), start=2)
    ]
    with pytest.raises(InputError) as info:
        attach_error_spans(esa_testset(), halves)
    assert str(info.value).startswith("wave3.csv: error spans or scores named 'ESA'")
    assert str(info.value).endswith("(cat wave2.csv wave3.csv > waves.csv)")
    joined = NamedBytes("waves.csv", b"".join(h.data for h in halves))
    check_against_oracle(attach_error_spans(esa_testset(), [joined]).error_spans[0])
