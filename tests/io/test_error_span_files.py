"""Tests for bleuviz.io.error_span_files: layouts recognised, spans and scores attached.

Oracles: the MQM scores come from tests/io/test_mqm_score.py's independent
re-implementation of mt-metrics-eval's ``score_mqm.py``; the rest is written out
by hand from each small input.
"""

from __future__ import annotations

import json
import math

import pytest

from bleuviz.errors import ConfigError, InputError
from bleuviz.io.decode import NamedBytes
from bleuviz.io.error_span_files import attach_error_spans, read_error_spans
from bleuviz.io.error_spans import HUMAN, METRIC
from bleuviz.io.mqm_score import parse_weights
from bleuviz.io.seg_scores import ScoresNameTaken
from bleuviz.io.testset import TestSet
from tests.io.test_mqm_score import oracle_scores
from tests.io.test_mqm_tsv import HEADER, MQM_DATA, MQM_SYSTEMS, ted_excerpt

TESTSET = TestSet({"A": ("Der Hund bellt.", "Gut.")}, (("The dog barks.", "Good."),))
MQM_ROWS = (
    "A\td\t1\t1\tr1\tThe dog barks.\tDer <v>Hund</v> bellt.\tAccuracy\tMajor\t",
    "A\td\t1\t1\tr2\tThe dog barks.\tDer Hund bellt<v>.</v>\tFluency/Punctuation\tMinor\t",
    "A\td\t2\t2\tr1\tGood.\tGut.\tNo-error\tNo-error\t",
)
MQM_TEXT = "\n".join((HEADER, *MQM_ROWS)) + "\n"
ERROR = {"start": 4, "end": 8, "category": "Accuracy", "severity": "major"}
RATING = json.dumps({"errors": [{**ERROR, "score": 5, "is_source_error": False}]})
OMISSION = {"start_i": "missing", "end_i": "missing", "severity": "minor", "error_type": None}
ESA_LINES = [
    {
        "system": "A",
        "line_id": 0,
        "tgt": "Der Hund bellt.",
        "esa_score": 60,
        "esa_spans": [
            {"start_i": 4, "end_i": 7, "severity": "major", "error_type": None},
            OMISSION,
        ],
    },
    {"system": "ref", "line_id": 0, "tgt": "x", "esa_score": 90, "esa_spans": []},
]
PREDICTED = {"text": "Hund", "confidence": 0.7, "severity": "critical", "start": 4, "end": 8}
XCOMET_JSON = {
    "hyp.A.txt": [
        {"src": "s", "mt": "Der Hund bellt.", "ref": "r", "COMET": 0.5, "errors": [PREDICTED]},
        {"src": "s", "mt": "Gut.", "ref": "r", "COMET": 0.9},
    ]
}


def nb(name: str, text: str) -> NamedBytes:
    """Return an in-memory file."""
    return NamedBytes(name, text.encode())


@pytest.mark.parametrize(
    ("name", "text", "spans_name", "kind"),
    [
        ("mqm.tsv", MQM_TEXT, "MQM", HUMAN),
        ("annotations.txt", MQM_TEXT, "MQM", HUMAN),  # recognised by its header
        ("en-de.mqm.seg.rating", f"A\t{RATING}\trater7\nA\tNone\n", "mqm", HUMAN),
        ("esa.jsonl", "\n".join(json.dumps(x) for x in ESA_LINES), "ESA", HUMAN),
        ("xcomet.json", json.dumps(XCOMET_JSON), "xCOMET", METRIC),
    ],
)
def test_each_layout_is_recognised(name: str, text: str, spans_name: str, kind: str) -> None:
    spans = read_error_spans(nb(name, text), TESTSET)
    assert (spans.name, spans.kind, list(spans.segments)) == (spans_name, kind, ["A"])
    first = spans.annotation("A", 0)
    assert first is not None and (first.spans[0].start, first.spans[0].end) == (4, 8)


def test_an_unknown_layout_is_refused() -> None:
    with pytest.raises(InputError, match=r"^notes\.txt: not an error-span file; bleuviz reads"):
        read_error_spans(nb("notes.txt", "hello\n"), TESTSET)
    with pytest.raises(InputError, match=r"segment scores go to --seg-scores$"):
        read_error_spans(nb("COMET.seg.score", "A\t0.5\nA\t0.1\n"), TESTSET)


def test_attach_adds_spans_and_the_mqm_score() -> None:
    testset = attach_error_spans(TESTSET, [nb("mqm.tsv", MQM_TEXT)])
    assert [a.name for a in testset.error_spans] == ["MQM"]
    scores = testset.seg_score("MQM")
    assert not scores.lower_is_better
    oracle = oracle_scores(MQM_TEXT)
    assert list(scores.values["A"]) == pytest.approx([oracle["A", "d", 1], oracle["A", "d", 2]])
    assert list(scores.values["A"]) == pytest.approx([-(5 + 0.1) / 2, 0.0])


def test_weights_change_the_score() -> None:
    weights = parse_weights("major:10 minor:1")
    testset = attach_error_spans(TESTSET, [nb("mqm.tsv", MQM_TEXT)], weights=weights)
    assert testset.seg_score("MQM").values["A"][0] == pytest.approx(-(10 + 1) / 2)


def test_esa_and_xcomet_give_their_own_scores() -> None:
    esa = nb("esa.jsonl", "\n".join(json.dumps(x) for x in ESA_LINES))
    xcomet = nb("x.json", json.dumps(XCOMET_JSON))
    testset = attach_error_spans(TESTSET, [esa, xcomet])
    assert testset.seg_score("ESA").values["A"][0] == 60.0
    assert math.isnan(testset.seg_score("ESA").values["A"][1])
    assert list(testset.seg_score("xCOMET").values["A"]) == [0.5, 0.9]
    esa_spans = testset.error_spans[0]
    assert esa_spans.skipped == ("ref",)
    first = esa_spans.annotation("A", 0)
    assert first is not None and first.spans[1].omission


def test_the_same_file_twice_adds_nothing_and_another_is_refused() -> None:
    once = attach_error_spans(TESTSET, [nb("mqm.tsv", MQM_TEXT)])
    twice = attach_error_spans(once, [nb("copy/mqm.tsv", MQM_TEXT)])
    assert len(twice.error_spans) == 1 and len(twice.seg_scores) == 1
    other = nb("other.tsv", "\n".join((HEADER, MQM_ROWS[2])) + "\n")
    with pytest.raises(
        ScoresNameTaken,
        match=r"other\.tsv: error spans or scores named 'MQM' are already loaded from mqm\.tsv",
    ):
        attach_error_spans(once, [other])
    replaced = attach_error_spans(once, [other], replace_names={"MQM"})
    assert [a.origin for a in replaced.error_spans] == ["other.tsv"]
    assert math.isnan(replaced.seg_score("MQM").values["A"][0])


def test_a_severity_without_weight_is_refused_when_attached() -> None:
    critical = MQM_TEXT.replace("\tMajor\t", "\tCritical\t")
    with pytest.raises(ConfigError, match="severity 'critical' has no weight"):
        attach_error_spans(TESTSET, [nb("mqm.tsv", critical)])


def test_the_published_excerpt_attaches_with_googles_scores() -> None:
    path = MQM_DATA / "mqm_ted_ende.tsv"
    testset = attach_error_spans(ted_excerpt(), [NamedBytes(str(path), path.read_bytes())])
    values = testset.seg_score("MQM").values
    assert set(values) == set(MQM_SYSTEMS)
    published = {}
    for line in (MQM_DATA / "mqm_ted_ende.avg_seg_scores.tsv").read_text().splitlines()[1:]:
        system, rest = line.split("\t")
        value, seg_id = rest.split(" ")
        published[system, int(seg_id)] = float(value)
    for system in MQM_SYSTEMS:
        got = list(values[system])
        want = [published[system, s] for s in [*range(1, 21), *range(218, 223)]]
        assert got == pytest.approx(want, abs=1e-6)
