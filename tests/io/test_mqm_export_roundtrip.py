"""The MQM TSV bleuviz writes reads back through ``bleuviz.io.mqm_tsv`` with the same spans
and the same MQM scores.

The expected scores are computed here from mt-metrics-eval's rules
(``converters/score_mqm.py``: the most specific ``severity[/category[/sub]]`` weight,
summed per rater, averaged over raters, negated), independently of ``bleuviz.io.mqm_score``.
"""

from __future__ import annotations

import math
from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.io.decode import NamedBytes
from bleuviz.io.error_spans import ErrorSpan
from bleuviz.io.mqm_export import MqmRow, mqm_tsv
from bleuviz.io.mqm_score import mqm_scores
from bleuviz.io.mqm_tsv import read_mqm_tsv
from bleuviz.io.testset import TestSet

WEIGHTS = {"major": 5.0, "minor": 1.0, "neutral": 0.0, "major/non-translation!": 25.0,
           "minor/fluency/punctuation": 0.1}  # fmt: skip
CATEGORIES = ["Accuracy/Mistranslation", "Fluency/Punctuation", "Non-translation!", "Style",
              "Terminology/Inappropriate for context", "Other"]  # fmt: skip
# Lines the format can hold: quotes, angle brackets, surrounding spaces, other scripts.
line_text = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\t\n\r"), max_size=20
).filter(lambda t: "<v>" not in t and "</v>" not in t)


def weight(severity: str, category: str) -> float:
    parts = category.lower().split("/")
    for k in range(len(parts), -1, -1):
        key = "/".join([severity, *parts[:k]])
        if key in WEIGHTS:
            return WEIGHTS[key]
    raise AssertionError(severity)


@st.composite
def cases(draw: st.DrawFn) -> tuple[TestSet, list[MqmRow]]:
    n = draw(st.integers(1, 5))
    systems = {s: tuple(draw(st.lists(line_text, min_size=n, max_size=n))) for s in ("A", "B")}
    doc_ids = None
    if draw(st.booleans()):  # documents as runs of lines, or resuming after another
        docs = draw(st.lists(st.sampled_from("xyz"), min_size=n, max_size=n))
        doc_ids = tuple(sorted(docs) if draw(st.booleans()) else docs)
    testset = TestSet(systems, (("r",) * n,), doc_ids=doc_ids)
    rows = []
    for _ in range(draw(st.integers(0, 8))):
        system = draw(st.sampled_from("AB"))
        segment = draw(st.integers(0, n - 1))
        line = systems[system][segment]
        severity = draw(st.sampled_from(["", "major", "minor", "neutral", "Major"]))
        span = None
        if severity and line and draw(st.booleans()):
            start = draw(st.integers(0, len(line) - 1))
            span = (start, draw(st.integers(start + 1, len(line))))
        category = draw(st.sampled_from(CATEGORIES))
        rater = draw(st.sampled_from(["bleuviz", "r2"]))
        rows.append(MqmRow(system, segment, severity, category, span, draw(line_text), rater))
    return testset, rows


@settings(max_examples=200, deadline=None)
@given(cases())
def test_spans_and_scores_read_back(case: tuple[TestSet, list[MqmRow]]) -> None:
    testset, rows = case
    written = mqm_tsv(rows, testset).encode()
    if not rows:
        return  # a file of no rows annotates nothing: the reader refuses it
    annotations = read_mqm_tsv(NamedBytes("notes.mqm.tsv", written), testset)
    raters: dict[tuple[str, int], list[str]] = defaultdict(list)
    spans: dict[tuple[str, int], list[ErrorSpan]] = defaultdict(list)
    totals: dict[tuple[str, int], dict[str, float]] = defaultdict(dict)
    for row in rows:
        where = (row.system, row.segment)
        if row.rater not in raters[where]:
            raters[where].append(row.rater)
        totals[where].setdefault(row.rater, 0.0)
        if not row.severity:
            continue
        severity = row.severity.lower()
        start, end = row.span or (0, 0)
        spans[where].append(
            ErrorSpan(start, end, severity, row.category, row.rater, omission=row.span is None)
        )
        totals[where][row.rater] += weight(severity, row.category)
    scores = mqm_scores(annotations)
    assert set(annotations.segments) == {row.system for row in rows}
    for system, segments in annotations.segments.items():
        for segment, got in enumerate(segments):
            where = (system, segment)
            if where not in raters:
                assert got is None and math.isnan(scores[system][segment])
                continue
            assert got is not None
            assert (list(got.raters), list(got.spans)) == (raters[where], spans[where])
            expected = -sum(totals[where].values()) / len(totals[where])
            assert math.isclose(scores[system][segment], expected, rel_tol=1e-12, abs_tol=1e-12)
