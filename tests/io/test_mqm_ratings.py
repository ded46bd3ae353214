"""Tests for bleuviz.io.mqm_ratings: mt-metrics-eval's NAME.seg.rating, read and refused.

The layout is mt-metrics-eval's ``ratings.py`` (``ReadRatingFile``, ``Rating``,
``Error``); expectations are written out by hand from each small input.
"""

from __future__ import annotations

import json

import pytest

from bleuviz.errors import InputError
from bleuviz.io.decode import NamedBytes
from bleuviz.io.error_spans import ErrorAnnotations, ErrorSpan, SegmentAnnotation
from bleuviz.io.mqm_ratings import rating_name, read_mqm_ratings
from bleuviz.io.testset import TestSet

TESTSET = TestSet(
    {"A": ("Der Hund bellt.", "Gut."), "B": ("x", "y")},
    (("The dog barks.", "Good."),),
    source=("The dog barks.", "Good."),
)


def rating(*errors: dict[str, object]) -> str:
    """Return a Rating's JSON, as mt-metrics-eval's ``Rating.ToDict`` writes it."""
    full = [
        {"category": None, "severity": None, "score": None, "is_source_error": False, **e}
        for e in errors
    ]
    return json.dumps({"errors": full})


MAJOR = {"start": 4, "end": 8, "category": "Accuracy/Mistranslation", "severity": "major"}


def read(
    text: str, name: str = "en-de.mqm.seg.rating", testset: TestSet = TESTSET
) -> ErrorAnnotations:
    """Read ``text`` as a ratings file."""
    return read_mqm_ratings(NamedBytes(name, text.encode()), testset)


def refusal(text: str) -> str:
    """Return the one-line message reading ``text`` raises."""
    with pytest.raises(InputError) as info:
        read(text)
    message = str(info.value)
    assert "\n" not in message and message.startswith("en-de.mqm.seg.rating: ")
    return message


@pytest.mark.parametrize(
    ("file_name", "name"),
    [
        ("en-de.mqm.seg.rating", "mqm"),
        ("dir/en-de.mqm.rater1.seg.rating", "mqm.rater1"),
        ("mqm.seg.rating", "mqm"),
        ("my.ratings.seg.rating", "my.ratings"),
    ],
)
def test_the_rating_is_named_as_mt_metrics_eval_names_it(file_name: str, name: str) -> None:
    assert rating_name(file_name) == name


def test_lines_are_segments_in_order_with_a_rater_or_the_files_name() -> None:
    source_error = {"start": 0, "end": 4, "severity": "minor", "is_source_error": True}
    text = (
        f"A\t{rating(MAJOR)}\trater1\n"
        f"A\t{rating(source_error)}\n"
        f"B\tNone\n"
        f"B\t{rating()}\trater2\n"
        f"ref\t{rating()}\n"
    )
    spans = read(text)
    assert spans.name == "mqm" and spans.skipped == ("ref",)
    assert spans.segments == {
        "A": (
            SegmentAnnotation(
                ("rater1",), (ErrorSpan(4, 8, "major", "Accuracy/Mistranslation", "rater1"),)
            ),
            SegmentAnnotation(("mqm",), (ErrorSpan(0, 4, "minor", "", "mqm", on_source=True),)),
        ),
        "B": (None, SegmentAnnotation(("rater2",))),
    }


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("A\n", "line 1: expected SYSTEM<TAB>RATING[<TAB>RATER], got 1 field"),
        ("A\t{}\n", 'line 1: expected a rating {"errors": [...]} or None'),
        ("A\t{bad\n", "line 1: invalid JSON"),
        (f"A\t{rating({**MAJOR, 'end': 16})}\n", "outside the hypothesis line (15 characters)"),
        (f"A\t{rating({**MAJOR, 'start': 9})}\n", "offsets 9-8"),
        (f"A\t{rating({**MAJOR, 'start': 1.5})}\n", "start 1.5 is not a character offset"),
        (f"A\t{rating({**MAJOR, 'start': -1})}\n", "start -1 is negative"),
        (f"A\t{rating({**MAJOR, 'severity': 'huge'})}\n", "unknown severity 'huge'"),
        (f"A\t{rating({**MAJOR, 'severity': None})}\n", "unknown severity None"),
        (f"A\t{rating({**MAJOR, 'is_source_error': 1})}\n", "is not true or false"),
        (f"A\t{rating(MAJOR)}\n", "system 'A' has 1 line but the test set has 2 segments"),
        ("A\tNone\nA\tNone\nA\tNone\n", "line 3: system 'A' has more lines than"),
        ("C\tNone\n", "no system it rates is in the test set (it rates C;"),
    ],
)
def test_bad_files_are_refused(text: str, problem: str) -> None:
    assert problem in refusal(text)
