"""Hypothesis strategies for the error-span analysis: segments, references and spans.

The vocabulary makes matches, clipping and repeated n-grams frequent, puts
punctuation next to words (13a splits it off, so spans land on punctuation
tokens and inside tokens), and holds characters that defeat alignment: 13a turns
``&quot;`` into ``"``, and ``İ`` grows when lowercased.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from bleuviz.io.error_spans import HUMAN, ErrorAnnotations, ErrorSpan, SegmentAnnotation
from bleuviz.io.testset import TestSet

WORDS = ("a", "b", "the", "A", "b,", "a.", ",", "!", "c-d", "x1.5", "&quot;", "İ")
SEPARATORS = (" ", " ", "  ", "\t")
SEVERITIES = ("major", "minor", "neutral", "critical")
CATEGORIES = (
    "Accuracy/Mistranslation",
    "fluency/Punctuation",
    "Terminology",
    "Style/Awkward",
    "Locale convention/Date format",
    "Non-translation!",
    "Source error",
    "Other",
    "",
    "Made-up/thing",
)
RATERS = ("r1", "r2")


@st.composite
def lines(draw: st.DrawFn, max_words: int = 10) -> str:
    """A line: words joined by varied whitespace, maybe padded."""
    words = draw(st.lists(st.sampled_from(WORDS), max_size=max_words))
    seps = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(words), max_size=len(words)))
    body = "".join(w + s for w, s in zip(words, seps, strict=True))
    return draw(st.sampled_from(("", " "))) + body


@st.composite
def spans(draw: st.DrawFn, line: str) -> ErrorSpan:
    """One span over ``line`` (any characters, whitespace and punctuation included)."""
    n = len(line)
    start = draw(st.integers(0, n))
    end = draw(st.integers(start, n))
    kind = draw(st.sampled_from(("target", "target", "target", "source", "omission")))
    return ErrorSpan(
        start=start,
        end=start if kind == "omission" else end,
        severity=draw(st.sampled_from(SEVERITIES)),
        category=draw(st.sampled_from(CATEGORIES)),
        rater=draw(st.sampled_from(RATERS)),
        on_source=kind == "source",
        omission=kind == "omission",
        continued=draw(st.booleans()),
    )


@st.composite
def annotation(draw: st.DrawFn, line: str) -> SegmentAnnotation | None:
    """A segment's annotation: none, or one or two raters with 0-4 spans."""
    if draw(st.integers(0, 4)) == 0:
        return None
    raters = tuple(sorted(draw(st.sets(st.sampled_from(RATERS), min_size=1))))
    marked = draw(st.lists(spans(line), max_size=4))
    return SegmentAnnotation(raters, tuple(s for s in marked if s.rater in raters))


@dataclass(frozen=True)
class Case:
    """A test set with error annotations over its systems."""

    testset: TestSet
    annotations: ErrorAnnotations


@st.composite
def cases(draw: st.DrawFn, max_segments: int = 6) -> Case:
    """1-3 systems (the last maybe not annotated), 1-3 references, 1-6 segments."""
    n = draw(st.integers(1, max_segments))
    n_refs = draw(st.integers(1, 3))
    refs = tuple(tuple(draw(st.lists(lines(), min_size=n, max_size=n))) for _ in range(n_refs))
    n_systems = draw(st.integers(1, 3))
    systems = {
        f"S{i}": tuple(draw(st.lists(lines(), min_size=n, max_size=n))) for i in range(n_systems)
    }
    annotated = list(systems)[: max(1, n_systems - draw(st.integers(0, 1)))]
    segments = {name: tuple(draw(annotation(line)) for line in systems[name]) for name in annotated}
    annotations = ErrorAnnotations("MQM", "generated.tsv", HUMAN, segments)
    return Case(TestSet(systems, refs, error_spans=(annotations,)), annotations)
