"""A metric's predicted error spans (xCOMET) against people's, measured as BLEU's are.

BLEU's evidence (runs of flagged tokens, :mod:`bleuviz.analysis.error_tokens`)
and a span-predicting metric's spans are both scored against the human spans
with the same MPP, micro-averaged (:mod:`bleuviz.analysis.span_agreement`), so
the two read on one scale. The same rules as for BLEU: gold spans are the union
of every rater's target-side major, minor and critical spans (or one ``rater``'s), only
segments both files annotate count, and each side's spans are merged where
they share a character. A metric's spans count whatever their severity (its
own scale), except omissions and source-side spans, which mark no characters
of the hypothesis.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bleuviz.analysis.error_reports import GOLD_SEVERITIES
from bleuviz.analysis.span_agreement import Span, SpanCredit, merge_spans, span_agreement
from bleuviz.errors import InputError
from bleuviz.io.error_spans import ErrorAnnotations, SegmentAnnotation


@dataclass(frozen=True, slots=True)
class SystemSpanAgreement:
    """One system's (or all systems', ``name == "all"``) agreement.

    Attributes:
        name: the system, or ``all``.
        segments: segments both files annotate (by ``rater``, when given).
        credit: MPP's summed credit; ``credit.precision``, ``.recall``, ``.f1``.
    """

    name: str
    segments: int
    credit: SpanCredit


def metric_agreement(
    predicted: ErrorAnnotations, gold: ErrorAnnotations, rater: str | None = None
) -> tuple[SystemSpanAgreement, ...]:
    """Score ``predicted``'s spans against ``gold``'s, per system both annotate, then all.

    Raises:
        InputError: the two annotate no system in common.
    """
    names = [name for name in gold.segments if name in predicted.segments]
    if not names:
        raise InputError(
            f"{predicted.origin}: {predicted.name} and {gold.name} annotate no system in common"
        )
    out = [_system(name, predicted, gold, rater) for name in names]
    total = SpanCredit()
    for report in out:
        total += report.credit
    return (*out, SystemSpanAgreement("all", sum(r.segments for r in out), total))


def _system(
    name: str, predicted: ErrorAnnotations, gold: ErrorAnnotations, rater: str | None
) -> SystemSpanAgreement:
    """Score one system's segments that both files annotate."""
    pred_side: list[tuple[Span, ...]] = []
    gold_side: list[tuple[Span, ...]] = []
    for guess, truth in zip(predicted.segments[name], gold.segments[name], strict=True):
        if guess is None or truth is None or (rater is not None and rater not in truth.raters):
            continue
        pred_side.append(merge_spans(_marked(guess, None, severities=None)))
        gold_side.append(merge_spans(_marked(truth, rater, severities=GOLD_SEVERITIES)))
    return SystemSpanAgreement(name, len(pred_side), span_agreement(pred_side, gold_side))


def _marked(
    annotation: SegmentAnnotation, rater: str | None, severities: frozenset[str] | None
) -> Sequence[Span]:
    """The characters a segment's spans mark in the hypothesis (one rater's, some severities)."""
    return [
        (s.start, s.end)
        for s in annotation.spans
        if not s.on_source
        and not s.omission
        and (rater is None or s.rater == rater)
        and (severities is None or s.severity in severities)
    ]
