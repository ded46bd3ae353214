"""Counts of marked errors for the app's tables: per segment, and per system and category.

Plain counting over :class:`~bleuviz.io.error_spans.ErrorAnnotations`, no
BLEU involved (what BLEU sees of the errors is ``bleuviz.analysis.error_*``).
A segment no rater rated has no count (NaN), not zero errors; several raters'
marks on one segment are all counted; an error marking several stretches
(``ErrorSpan.continued``) counts once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from bleuviz.analysis.error_categories import top_category
from bleuviz.arrays import FloatArray
from bleuviz.io.error_spans import (
    MAJOR,
    MINOR,
    UNDECIDED,
    ErrorAnnotations,
    ErrorSpan,
    SegmentAnnotation,
)

#: Severities the segment table counts, as its columns name them.
COUNTED = (MAJOR, MINOR)
#: Severity order in choices: the usual ones first, then any other the file has.
SEVERITY_ORDER = (MAJOR, MINOR, "neutral")


def rater_spans(annotation: SegmentAnnotation | None, rater: str | None) -> tuple[ErrorSpan, ...]:
    """The spans of one segment: every rater's (``rater`` None) or one rater's."""
    if annotation is None:
        return ()
    return annotation.spans if rater is None else annotation.by_rater(rater)


def error_counts(
    annotations: ErrorAnnotations, system: str, n_segments: int
) -> dict[str, FloatArray]:
    """Per segment, the Major and Minor errors every rater marked (NaN where nobody rated).

    A file with ESA's ``undecided`` spans (anywhere, so that every system gets the
    same columns) counts them too, in a column of their own.
    """
    per_segment = annotations.segments.get(system, (None,) * n_segments)
    severities = COUNTED + ((UNDECIDED,) if _has_severity(annotations, UNDECIDED) else ())
    counts = {severity: np.full(n_segments, np.nan) for severity in severities}
    for i, annotation in enumerate(per_segment):
        if annotation is None:
            continue
        found = Counter(span.severity for span in annotation.spans if not span.continued)
        for severity in severities:
            counts[severity][i] = found[severity]
    return counts


def _has_severity(annotations: ErrorAnnotations, severity: str) -> bool:
    """Whether some span of ``annotations`` has ``severity``."""
    return any(
        span.severity == severity
        for per_segment in annotations.segments.values()
        for a in per_segment
        if a is not None
        for span in a.spans
    )


def categories_and_severities(
    annotations: ErrorAnnotations, systems: Sequence[str]
) -> tuple[list[str], list[str]]:
    """The categories (sorted) and severities (usual order first) marked for ``systems``."""
    categories: set[str] = set()
    severities: set[str] = set()
    for system in systems:
        for annotation in annotations.segments.get(system, ()):
            for span in annotation.spans if annotation is not None else ():
                categories.add(span.category)
                severities.add(span.severity)
    ordered = [s for s in SEVERITY_ORDER if s in severities]
    return sorted(categories), ordered + sorted(severities - set(SEVERITY_ORDER))


def error_mask(
    annotations: ErrorAnnotations,
    system: str,
    n_segments: int,
    categories: Collection[str],
    severities: Collection[str],
) -> NDArray[np.bool_]:
    """Segments with at least one error of a chosen category *and* a chosen severity.

    An empty choice admits every value of its kind, so with both empty every
    segment with an error of any kind passes.
    """
    per_segment = annotations.segments.get(system, (None,) * n_segments)
    mask = np.zeros(n_segments, dtype=bool)
    for i, annotation in enumerate(per_segment):
        if annotation is not None:
            mask[i] = any(
                (not categories or span.category in categories)
                and (not severities or span.severity in severities)
                for span in annotation.spans
            )
    return mask


def category_breakdown(
    annotations: ErrorAnnotations, systems: Sequence[str], severities: Collection[str]
) -> pd.DataFrame:
    """Errors of ``severities`` per system (rows) and top-level category (columns).

    Top-level categories are the analysis's six (``error_categories.top_category``:
    ``Non-translation!`` is Accuracy, anything unknown Other), so that this table and
    "what BLEU sees" group errors alike.

    Two more columns: ``ratings`` (a rater's rating of a segment, counted once
    per rater, errors or not) and ``errors per rating``. Categories are ordered
    by their total over the systems, most first; systems without annotations
    are left out.
    """
    rows: dict[str, Counter[str]] = {}
    ratings: dict[str, int] = {}
    for system in systems:
        per_segment = annotations.segments.get(system)
        if per_segment is None:
            continue
        counted: Counter[str] = Counter()
        ratings[system] = 0
        for annotation in per_segment:
            if annotation is None:
                continue
            ratings[system] += len(annotation.raters)
            counted.update(
                _top(s) for s in annotation.spans if s.severity in severities and not s.continued
            )
        rows[system] = counted
    totals: Counter[str] = Counter()
    for counted in rows.values():
        totals.update(counted)
    columns = [c for c, _ in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))]
    frame = pd.DataFrame(
        [[rows[s][c] for c in columns] for s in rows], index=list(rows), columns=columns, dtype=int
    )
    frame.index.name = "system"
    frame["ratings"] = [ratings[s] for s in rows]
    errors = frame[columns].sum(axis=1).to_numpy(dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        frame["errors per rating"] = errors / frame["ratings"].to_numpy(dtype=float)
    return frame


def _top(span: ErrorSpan) -> str:
    """A span's top-level category, as the analysis groups them (unknown or none: Other)."""
    return top_category(span.category)


def error_token_rows(
    text: str,
    token_spans: Sequence[tuple[int, int]] | None,
    statuses: Sequence[str],
    errors: Sequence[ErrorSpan],
) -> pd.DataFrame:
    """One row per error marked on the hypothesis: its words and how BLEU treats its tokens.

    ``token_spans`` and ``statuses`` are the segment's tokens (``align_tokens``) and
    their status at one order (``match``, ``clip``, ``miss``); a token belongs to
    an error when their characters overlap (the analysis's rule). ``flagged`` counts
    the error's tokens no matched n-gram covers; both counts are None where the
    tokens cannot be placed in the line. Omissions and source-side errors mark no
    hypothesis token and are left out.
    """
    rows = []
    for e in errors:
        if e.on_source or e.omission:
            continue
        row: dict[str, object] = {
            "severity": e.severity,
            "category": e.category,
            "rater": e.rater,
            "marked": text[e.start : e.end],
            "tokens": None,
            "flagged": None,
        }
        if token_spans is not None:
            inside = [
                status
                for (a, b), status in zip(token_spans, statuses, strict=True)
                if min(b, e.end) > max(a, e.start)  # share a character
            ]
            row["tokens"], row["flagged"] = len(inside), sum(s != "match" for s in inside)
        rows.append(row)
    return pd.DataFrame(
        rows, columns=["severity", "category", "rater", "marked", "tokens", "flagged"]
    )
