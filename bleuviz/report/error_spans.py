"""Error spans: the category breakdown and what BLEU sees of them, as on the Overview.

The spans are the first people's (else the first loaded), as ``bleuviz spans``
chooses them; the numbers are ``category_breakdown``'s (major and minor errors)
and ``what_bleu_sees``'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from bleuviz.analysis.error_tokens import ErrorTokenAnalysis, shown_categories, what_bleu_sees
from bleuviz.analysis.span_counts import COUNTED, category_breakdown
from bleuviz.io.error_spans import HUMAN, ErrorAnnotations
from bleuviz.metrics.evaluation import Evaluation


@dataclass(frozen=True, slots=True, eq=False)
class ErrorView:
    """One error-span file: errors per system and category, and what BLEU sees of them.

    Attributes:
        annotations: the file's name (``MQM``...) and origin.
        breakdown: ``category_breakdown`` of major and minor errors.
        analysis: ``what_bleu_sees``.
        categories: the categories given a row (those with error tokens, when any span
            names one), as ``bleuviz spans`` shows them.
    """

    name: str
    origin: str
    breakdown: pd.DataFrame
    analysis: ErrorTokenAnalysis
    categories: tuple[str, ...]


def chosen_spans(evaluation: Evaluation) -> ErrorAnnotations | None:
    """The first people's error spans, else the first loaded, else None."""
    loaded = evaluation.testset.error_spans
    return next((a for a in loaded if a.kind == HUMAN), loaded[0]) if loaded else None


def error_view(evaluation: Evaluation) -> ErrorView | None:
    """The chosen spans' breakdown and analysis (None when no spans are loaded)."""
    annotations = chosen_spans(evaluation)
    if annotations is None:
        return None
    testset, settings = evaluation.testset, evaluation.settings
    breakdown = category_breakdown(annotations, list(testset.systems), COUNTED)
    analysis = what_bleu_sees(testset, annotations, settings.tokenize, settings.bleu)
    return ErrorView(
        annotations.name,
        annotations.origin,
        breakdown,
        analysis,
        shown_categories(analysis, annotations),
    )
