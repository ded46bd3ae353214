"""Error spans on the bundled sample, built here (no reader involved), for the app's tests.

``with_spans`` patches the cache boundary so that every page's evaluation holds
them, as it will once a span file is loaded: the pages only read
``evaluation.testset.error_spans``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bleuviz.app.ui.cache import data
from bleuviz.io.error_spans import ErrorAnnotations, ErrorSpan, SegmentAnnotation
from bleuviz.metrics.evaluation import Evaluation
from tests.data import SAMPLE_SYSTEM_LINES

N = len(SAMPLE_SYSTEM_LINES["literal"])
HOSTILE = '<img src=x onerror="alert(1)">'
LINE1 = SAMPLE_SYSTEM_LINES["literal"][0]  # "City council quarrels over new street rail"


def _find(line: str, words: str) -> tuple[int, int]:
    start = line.index(words)
    return start, start + len(words)


QUARRELS = _find(LINE1, "quarrels")
#: A line 13a rewrites ("&amp;" becomes "&"), so its tokens cannot be placed in it.
ENTITY_SEGMENT = 1 + SAMPLE_SYSTEM_LINES["literal"].index(
    next(line for line in SAMPLE_SYSTEM_LINES["literal"] if "&amp;" in line)
)
STREET_RAIL = _find(LINE1, "street rail")


def sample_annotations() -> ErrorAnnotations:
    """MQM-like spans for 'literal' (segments 1-4, 26) and 'terse' (segment 1), the rest unrated.

    Segment 1 of 'literal': rater r1 marks "quarrels" Major Accuracy/Mistranslation,
    rater r2 marks "street rail" Minor Fluency/Grammar; segment 2: a Major
    source-side error on the source's first word; segment 3: an omission;
    segment 4: no error; segment 26: a hostile category and comment-like rater;
    ``ENTITY_SEGMENT``: a Minor error on "&amp;", in a line 13a rewrites.
    """
    literal: list[SegmentAnnotation | None] = [None] * N
    literal[0] = SegmentAnnotation(
        ("r1", "r2"),
        (
            ErrorSpan(*QUARRELS, "major", "Accuracy/Mistranslation", "r1"),
            ErrorSpan(*STREET_RAIL, "minor", "Fluency/Grammar", "r2"),
        ),
    )
    literal[1] = SegmentAnnotation(
        ("r1",), (ErrorSpan(0, 3, "major", "Accuracy/Source", "r1", on_source=True),)
    )
    literal[2] = SegmentAnnotation(
        ("r1",), (ErrorSpan(0, 0, "major", "Accuracy/Omission", "r1", omission=True),)
    )
    literal[3] = SegmentAnnotation(("r1",))
    literal[25] = SegmentAnnotation(("r3",), (ErrorSpan(0, 4, "minor", HOSTILE, "<b>r3</b>"),))
    entity = SAMPLE_SYSTEM_LINES["literal"][ENTITY_SEGMENT - 1]
    literal[ENTITY_SEGMENT - 1] = SegmentAnnotation(
        ("r1",), (ErrorSpan(*_find(entity, "&amp;"), "minor", "Fluency/Spelling", "r1"),)
    )
    terse: list[SegmentAnnotation | None] = [None] * N
    terse[0] = SegmentAnnotation(("r1",), (ErrorSpan(0, 4, "minor", "Fluency/Spelling", "r1"),))
    return ErrorAnnotations(
        "MQM", "test spans", "human", {"literal": tuple(literal), "terse": tuple(terse)}
    )


def metric_annotations() -> ErrorAnnotations:
    """xCOMET-like spans on 'literal' segment 1: "council quarrels" Major, with a confidence."""
    literal: list[SegmentAnnotation | None] = [None] * N
    council = _find(LINE1, "council quarrels")
    literal[0] = SegmentAnnotation(
        ("xCOMET",), (ErrorSpan(*council, "major", "", "xCOMET", confidence=0.9),)
    )
    return ErrorAnnotations("xCOMET", "test metric spans", "metric", {"literal": tuple(literal)})


def with_spans(monkeypatch: pytest.MonkeyPatch, *spans: Callable[[], ErrorAnnotations]) -> None:
    """Make every page's evaluation hold each ``spans()`` (as loading span files will)."""
    original = data.current_data

    def current_data() -> Evaluation:
        evaluation = original()
        testset = evaluation.testset
        if not testset.error_spans:
            testset = testset.with_error_spans(tuple(make() for make in spans))
        return evaluation.with_testset(testset)

    monkeypatch.setattr(data, "current_data", current_data)
