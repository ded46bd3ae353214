"""Tests for bleuviz.io.content_id: equal content, equal id; any difference, another id.

The test sets are written out by hand. Each row of the table changes one thing
of BASE, including the changes a naive digest of joined text would miss (a
line break moved between lines, text moved between a name and its lines).
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from bleuviz.io.content_id import LoadedTestSet, content_id
from bleuviz.io.error_spans import ErrorAnnotations, ErrorSpan, SegmentAnnotation
from bleuviz.io.scores import SegmentScores
from bleuviz.io.testset import TestSet

SCORES = SegmentScores("COMET", "comet.json", {"A": np.array([0.5, np.nan])})
MAJOR = ErrorSpan(0, 1, "major", "Accuracy/Mistranslation", "rater1")
SPANS = ErrorAnnotations(
    "MQM", "mqm.tsv", "human", {"A": (SegmentAnnotation(("rater1",), (MAJOR,)), None)}
)
BASE = TestSet(
    {"A": ("x y", "z"), "B": ("x", "q")},
    (("x y", "z"),),
    source=("s1", "s2"),
    doc_ids=("d", "d"),
    seg_ids=("1", "2"),
    seg_scores=(SCORES,),
    error_spans=(SPANS,),
)


def test_equal_content_gives_the_same_id() -> None:
    copy = TestSet(
        {"A": ("x" + " y", "z"), "B": ("x", "q")},
        (("x y", "z"),),
        source=("s1", "s2"),
        doc_ids=("d", "d"),
        seg_ids=("1", "2"),
        seg_scores=(SegmentScores("COMET", "comet.json", {"A": np.array([0.5, np.nan])}),),
        error_spans=(
            ErrorAnnotations(
                "MQM",
                "mqm.tsv",
                "human",
                {"A": (SegmentAnnotation(("rater1",), (replace(MAJOR),)), None)},
            ),
        ),
    )
    assert copy is not BASE and content_id(copy) == content_id(BASE)
    assert LoadedTestSet.of(copy) == LoadedTestSet(copy, content_id(BASE))


CHANGED = {
    "a hypothesis line": replace(BASE, systems={"A": ("x y", "Z"), "B": ("x", "q")}),
    "a system's name": replace(BASE, systems={"A": ("x y", "z"), "C": ("x", "q")}),
    "the systems' order": replace(BASE, systems={"B": ("x", "q"), "A": ("x y", "z")}),
    "text moved between lines": replace(BASE, systems={"A": ("x", " yz"), "B": ("x", "q")}),
    "text moved from a name to a line": replace(BASE, systems={"A": ("x y", "z"), "": ("Bx", "q")}),
    "a line break inside a line": replace(BASE, systems={"A": ("x\ny", "z"), "B": ("x", "q")}),
    "a reference line": replace(BASE, references=(("x y", "z."),)),
    "a second reference": replace(BASE, references=(("x y", "z"), ("x y", "z"))),
    "the source": replace(BASE, source=("s1", "s3")),
    "no source": replace(BASE, source=None),
    "the document ids": replace(BASE, doc_ids=("d", "e")),
    "no document ids": replace(BASE, doc_ids=None),
    "the segment ids": replace(BASE, seg_ids=("1", "3")),
    "no segment ids": replace(BASE, seg_ids=None),
    "a segment score": replace(
        BASE, seg_scores=(replace(SCORES, values={"A": np.array([0.25, np.nan])}),)
    ),
    "a missing score given": replace(
        BASE, seg_scores=(replace(SCORES, values={"A": np.array([0.5, 0.0])}),)
    ),
    "the scores' system": replace(
        BASE, seg_scores=(replace(SCORES, values={"B": np.array([0.5, np.nan])}),)
    ),
    "the scores' name": replace(BASE, seg_scores=(replace(SCORES, name="COMET-22"),)),
    "the scores' file": replace(BASE, seg_scores=(replace(SCORES, origin="other.json"),)),
    "the scores' direction": replace(BASE, seg_scores=(replace(SCORES, lower_is_better=True),)),
    "no imported scores": replace(BASE, seg_scores=()),
    "an error span's end": replace(
        BASE,
        error_spans=(
            replace(
                SPANS,
                segments={"A": (SegmentAnnotation(("rater1",), (replace(MAJOR, end=2),)), None)},
            ),
        ),
    ),
    "an error's severity": replace(
        BASE,
        error_spans=(
            replace(
                SPANS,
                segments={
                    "A": (SegmentAnnotation(("rater1",), (replace(MAJOR, severity="minor"),)), None)
                },
            ),
        ),
    ),
    "a rater who found no error": replace(
        BASE,
        error_spans=(
            replace(
                SPANS,
                segments={"A": (SegmentAnnotation(("rater1", "rater2"), (MAJOR,)), None)},
            ),
        ),
    ),
    "the annotated segment": replace(
        BASE,
        error_spans=(
            replace(SPANS, segments={"A": (None, SegmentAnnotation(("rater1",), (MAJOR,)))}),
        ),
    ),
    "the spans' name": replace(BASE, error_spans=(replace(SPANS, name="ESA"),)),
    "the spans' kind": replace(BASE, error_spans=(replace(SPANS, kind="metric"),)),
    "no error spans": replace(BASE, error_spans=()),
}


@pytest.mark.parametrize("changed", list(CHANGED.values()), ids=list(CHANGED))
def test_any_change_gives_another_id(changed: TestSet) -> None:
    assert content_id(changed) != content_id(BASE)


def test_the_ids_of_the_table_are_all_distinct() -> None:
    ids = [content_id(t) for t in (BASE, *CHANGED.values())]
    assert len(set(ids)) == len(ids)


def test_the_id_is_the_same_in_another_process() -> None:
    """Stable across processes: nothing in it depends on Python's per-process hash seed."""
    code = (
        "from tests.io.test_content_id import BASE; "
        "from bleuviz.io.content_id import content_id; print(content_id(BASE))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    ).stdout.strip()
    assert shown == content_id(BASE)
    assert len(shown) == 32 and int(shown, 16) >= 0
