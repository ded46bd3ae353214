"""Error spans from outside, the value type: marked words per system, segment and rater.

Human annotation campaigns (WMT's MQM, WMT24's ESA) and span-predicting metrics
(xCOMET) mark the erroneous characters of a translation, each with a severity and
a category. The readers (``bleuviz.io.mqm_tsv`` and its siblings) build one
:class:`ErrorAnnotations` per file; this module imports no reader, so ``TestSet``
can hold them.

Offsets are character offsets into the hypothesis line exactly as the test set
holds it (or into the source line for a source-side error), end exclusive, as
mt-metrics-eval's ``.seg.rating`` files and WMT24's ESA export give them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

#: Severities drawn and counted, lower case (``data-severity`` in the page's markup).
MAJOR = "major"
MINOR = "minor"
NEUTRAL = "neutral"
#: ESA's severity of a span whose annotator chose neither major nor minor (Appraise):
#: drawn and listed, counted apart from major and minor (never an error token's).
UNDECIDED = "undecided"
#: Severities whose spans make a token an error token (issue 31: Major or Minor).
ERROR_SEVERITIES = frozenset({MAJOR, MINOR})
#: Where the annotations come from: people, or a metric predicting spans.
HUMAN = "human"
METRIC = "metric"


@dataclass(frozen=True, slots=True)
class ErrorSpan:
    """One marked error.

    Attributes:
        start: first character's offset in the line (for an omission: where the file
            places it, else 0).
        end: offset one past the last character (equal to ``start`` for an omission).
        severity: lower case: ``major``, ``minor``, ``neutral`` (other values as read,
            lower-cased, e.g. ``critical``).
        category: as the file writes it, e.g. ``Accuracy/Mistranslation``; ``""`` if none.
        rater: who marked it (the file's rater column; the metric's name for a metric).
        on_source: True when the error is marked in the source line, not the hypothesis.
        omission: True for an error with no span (ESA's ``"missing"`` offsets), drawn
            as a marker.
        confidence: the metric's confidence (xCOMET), None for people.
        continued: True for the second and later stretches of one error that marks
            several (an MQM row with two ``<v>`` marks): drawn like any span, but not
            counted again (MQM weights, error counts count the first stretch only).
    """

    start: int
    end: int
    severity: str
    category: str
    rater: str
    on_source: bool = False
    omission: bool = False
    confidence: float | None = None
    continued: bool = False

    @property
    def top_category(self) -> str:
        """Return the category's first level (``Accuracy`` of ``Accuracy/Mistranslation``)."""
        return self.category.split("/", 1)[0].strip()


@dataclass(frozen=True, slots=True)
class SegmentAnnotation:
    """What the raters said about one hypothesis line.

    Attributes:
        raters: every rater who rated the line, including those who found no error
            (MQM's ``No-error`` rows): the MQM score averages over them.
        spans: the errors they marked, in file order.
        score: the file's own segment score where it gives one (ESA's ``esa_score``),
            else None.
    """

    raters: tuple[str, ...]
    spans: tuple[ErrorSpan, ...] = ()
    score: float | None = None

    def by_rater(self, rater: str) -> tuple[ErrorSpan, ...]:
        """Return the spans ``rater`` marked."""
        return tuple(span for span in self.spans if span.rater == rater)


@dataclass(frozen=True, slots=True, eq=False)
class ErrorAnnotations:
    """One file's error spans: per system, one entry per test-set segment.

    Attributes:
        name: ``MQM``, ``ESA`` or the metric's name (``xCOMET``).
        origin: the file it was read from, for messages and signatures.
        kind: :data:`HUMAN` or :data:`METRIC`.
        segments: system -> a tuple of N entries, None for a segment not annotated.
        skipped: systems the file annotates that the test set does not hold
            (``ref``, ``refA``), in file order.
        language_pairs: of a file holding several language pairs (an ESA export),
            the pair read, then the others; empty otherwise.
    """

    name: str
    origin: str
    kind: str
    segments: Mapping[str, tuple[SegmentAnnotation | None, ...]]
    skipped: tuple[str, ...] = ()
    language_pairs: tuple[str, ...] = ()

    def annotation(self, system: str, segment: int) -> SegmentAnnotation | None:
        """Return ``system``'s annotation of segment ``segment`` (0-based), or None."""
        per_segment = self.segments.get(system)
        return None if per_segment is None else per_segment[segment]
