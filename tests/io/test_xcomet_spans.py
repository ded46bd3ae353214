"""Tests for bleuviz.io.xcomet_spans: xCOMET's spans in COMET's JSON output, read and refused.

Records follow COMET's ``comet-score --to_json`` (``comet/cli/score.py``) and
``UnifiedMetric.decode``'s span dictionaries; expectations are written out by
hand from each small input.
"""

from __future__ import annotations

import json

import pytest

from bleuviz.errors import InputError
from bleuviz.io.decode import NamedBytes
from bleuviz.io.error_spans import METRIC, ErrorAnnotations, ErrorSpan, SegmentAnnotation
from bleuviz.io.testset import TestSet
from bleuviz.io.xcomet_spans import read_xcomet_spans

TESTSET = TestSet({"A": (" Der Hund bellt.", "Gut.")}, (("The dog barks.", "Good."),))
SPAN = {"text": "Hund", "confidence": 0.75, "severity": "major", "start": 4, "end": 8}


def records(first: dict[str, object] | None = None) -> list[dict[str, object]]:
    """Return system A's two records (COMET strips the lines it scores)."""
    one = {"src": "s", "mt": "Der Hund bellt.", "ref": "r", "COMET": 0.5, "errors": [SPAN]}
    two = {"src": "s", "mt": "Gut.", "ref": "r", "COMET": 0.9}
    return [{**one, **(first or {})}, two]


def read(data: object) -> ErrorAnnotations:
    """Read ``data`` as COMET's JSON output."""
    return read_xcomet_spans(NamedBytes("x.json", json.dumps(data).encode()), TESTSET)


def test_spans_are_a_metrics_shifted_onto_the_line() -> None:
    spans = read({"out/hyp.A.txt": records(), "refA.txt": records()})
    assert (spans.name, spans.kind, spans.skipped) == ("xCOMET", METRIC, ("refA",))
    # the line starts with a space COMET stripped: offsets move by one
    assert spans.segments["A"] == (
        SegmentAnnotation(
            ("xCOMET",), (ErrorSpan(5, 9, "major", "", "xCOMET", confidence=0.75),), 0.5
        ),
        SegmentAnnotation(("xCOMET",), (), 0.9),
    )
    assert TESTSET.systems["A"][0][5:9] == "Hund"


def test_the_python_apis_key_is_read_too() -> None:
    first = records()[0]
    del first["errors"]
    spans = read({"A": [{**first, "error_spans": [SPAN]}, records()[1]]})
    annotation = spans.segments["A"][0]
    assert annotation is not None and annotation.spans[0].severity == "major"


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ([], "expected COMET's --to_json object {file: [records]}"),
        ({"A": records()[:1]}, "'A' has 1 record but the test set has 2 segments"),
        ({"A": records({"mt": "Der Hund."})}, "'A' record 1: its 'mt' text differs"),
        ({"A": records({"errors": [{**SPAN, "end": 99}]})}, "span 1: offsets 4-99 are outside"),
        ({"A": records({"errors": [{**SPAN, "start": "4"}]})}, "start '4' is not a character"),
        ({"A": records({"errors": [{**SPAN, "severity": "x"}]})}, "unknown severity 'x'"),
        ({"A": records({"errors": {}})}, "'errors' is not a list of spans"),
        ({"A": records({"COMET": "high"})}, "COMET 'high' is not a number"),
        ({"B.txt": records()}, "no system it scores is in the test set (it scores B;"),
    ],
)
def test_bad_files_are_refused(data: object, problem: str) -> None:
    with pytest.raises(InputError) as info:
        read(data)
    message = str(info.value)
    assert message.startswith("x.json: ") and "\n" not in message
    assert problem in message


def test_comets_scores_without_spans_are_refused() -> None:
    plain = [{k: v for k, v in r.items() if k != "errors"} for r in records()]
    with pytest.raises(InputError, match="no record holds xCOMET's error spans"):
        read({"A": plain})
