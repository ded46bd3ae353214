"""Counts of marked errors for the app's tables (``bleuviz.analysis.span_counts``).

The oracle is a brute-force count over the generated annotations, written here
from the definitions: a segment nobody rated has no count; every rater's marks
count; an error's later stretches (``continued``) do not count again.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.analysis.span_counts import (
    categories_and_severities,
    category_breakdown,
    error_counts,
    error_mask,
    error_token_rows,
)
from bleuviz.io.error_spans import ErrorAnnotations, ErrorSpan, SegmentAnnotation

SIX = ("Accuracy", "Fluency", "Terminology", "Style", "Locale convention", "Other")
CATEGORIES = ("Accuracy/Mistranslation", "Fluency/Grammar", "Style/Awkward", "Non-translation!", "")
SEVERITIES = ("major", "minor", "neutral", "critical", "undecided")

spans = st.builds(
    ErrorSpan,
    start=st.just(0),
    end=st.just(1),
    severity=st.sampled_from(SEVERITIES),
    category=st.sampled_from(CATEGORIES),
    rater=st.sampled_from(("r1", "r2")),
    continued=st.booleans(),
)
RATERS = st.sampled_from(("r1", "r2", "r3"))
segments = st.one_of(
    st.none(),
    st.builds(
        SegmentAnnotation,
        raters=st.lists(
            st.sampled_from(("r1", "r2", "r3")), min_size=1, max_size=3, unique=True
        ).map(tuple),
        spans=st.lists(spans, max_size=5).map(tuple),
    ),
)


def top(category: str) -> str:
    """The six top-level categories of issue 31 (Non-translation! is Accuracy)."""
    first = "Accuracy" if category == "Non-translation!" else category.split("/")[0]
    return first if first in SIX else "Other"


@settings(max_examples=100, deadline=None)
@given(a=st.lists(segments, min_size=1, max_size=6), b=st.lists(segments, min_size=1, max_size=6))
def test_counts_mask_and_breakdown_match_a_brute_force_count(
    a: list[SegmentAnnotation | None], b: list[SegmentAnnotation | None]
) -> None:
    n = min(len(a), len(b))
    spans_of = {"A": tuple(a[:n]), "B": tuple(b[:n])}
    annotations = ErrorAnnotations("MQM", "test", "human", spans_of)
    kept = a[:n] + b[:n]
    undecided = any(s.severity == "undecided" for p in kept if p is not None for s in p.spans)
    columns = ["major", "minor", *(["undecided"] if undecided else [])]
    for system, per in spans_of.items():
        counts = error_counts(annotations, system, n)
        assert list(counts) == columns  # ESA's undecided, in its own column where marked
        for i, seg in enumerate(per):
            for severity in columns:
                value = counts[severity][i]
                if seg is None:
                    assert math.isnan(value)
                else:
                    expected = sum(s.severity == severity and not s.continued for s in seg.spans)
                    assert value == expected
        mask = error_mask(annotations, system, n, {"Fluency/Grammar"}, {"minor"})
        assert mask.tolist() == [
            seg is not None
            and any(s.category == "Fluency/Grammar" and s.severity == "minor" for s in seg.spans)
            for seg in per
        ]
        anything = error_mask(annotations, system, n, (), ())
        assert anything.tolist() == [seg is not None and bool(seg.spans) for seg in per]
    frame = category_breakdown(annotations, ["A", "B", "C"], {"major", "minor"})
    assert list(frame.index) == ["A", "B"]  # C is not annotated
    for system, per in spans_of.items():
        rated = [seg for seg in per if seg is not None]
        assert frame.loc[system, "ratings"] == sum(len(seg.raters) for seg in rated)
        for category in SIX:
            expected = sum(
                top(s.category) == category and s.severity in ("major", "minor") and not s.continued
                for seg in rated
                for s in seg.spans
            )
            assert (frame.loc[system, category] if category in frame.columns else 0) == expected


def test_choices_list_usual_severities_first() -> None:
    seg = SegmentAnnotation(
        ("r1",),
        (
            ErrorSpan(0, 1, "critical", "Style/Awkward", "r1"),
            ErrorSpan(0, 1, "minor", "Accuracy/Addition", "r1"),
            ErrorSpan(0, 1, "major", "Accuracy/Addition", "r1"),
        ),
    )
    annotations = ErrorAnnotations("MQM", "test", "human", {"A": (seg, None)})
    assert categories_and_severities(annotations, ["A"]) == (
        ["Accuracy/Addition", "Style/Awkward"],
        ["major", "minor", "critical"],
    )


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_error_token_rows_match_a_character_set_oracle(data: st.DataObject) -> None:
    words = data.draw(st.lists(st.sampled_from(["a", "bb", ",", "ccc"]), min_size=1, max_size=8))
    text = " ".join(words)
    token_spans, cursor = [], 0
    for word in words:
        start = text.index(word, cursor)
        token_spans.append((start, start + len(word)))
        cursor = start + len(word)
    statuses = [data.draw(st.sampled_from(["match", "clip", "miss"])) for _ in words]
    bounds = st.integers(0, len(text))
    errors = []
    for _ in range(data.draw(st.integers(0, 4))):
        a, b = sorted((data.draw(bounds), data.draw(bounds)))
        errors.append(
            ErrorSpan(a, b, "major", "Accuracy", "r1", on_source=data.draw(st.booleans()))
        )
    frame = error_token_rows(text, token_spans, statuses, errors)
    kept = [e for e in errors if not e.on_source]
    assert list(frame["marked"]) == [text[e.start : e.end] for e in kept]
    for (_, row), e in zip(frame.iterrows(), kept, strict=True):
        chars = set(range(e.start, e.end))
        inside = [i for i, (a, b) in enumerate(token_spans) if chars & set(range(a, b))]
        assert row["tokens"] == len(inside)
        assert row["flagged"] == sum(statuses[i] != "match" for i in inside)
    unaligned = error_token_rows(text, None, statuses, errors)
    assert unaligned["tokens"].isna().all() and len(unaligned) == len(kept)
