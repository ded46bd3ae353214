"""ROUGE as google-research rouge-score computes it: tokenize, statistics, score, explain."""

from typing import TYPE_CHECKING

from bleuviz.lazy import lazy_exports

if TYPE_CHECKING:
    from bleuviz.rouge.explain import TypeExplanation, explain_rouge_types
    from bleuviz.rouge.score import (
        ROUGE_TYPES,
        CorpusRouge,
        RougeConfig,
        score_corpus,
        score_segment,
    )
    from bleuviz.rouge.stats import RougeScore, RougeStats, pair_stats
    from bleuviz.rouge.tokenize import SENTENCE_BREAK, TokenizedText

_EXPORTS = {
    "TypeExplanation": "bleuviz.rouge.explain",
    "explain_rouge_types": "bleuviz.rouge.explain",
    "ROUGE_TYPES": "bleuviz.rouge.score",
    "CorpusRouge": "bleuviz.rouge.score",
    "RougeConfig": "bleuviz.rouge.score",
    "score_corpus": "bleuviz.rouge.score",
    "score_segment": "bleuviz.rouge.score",
    "RougeScore": "bleuviz.rouge.stats",
    "RougeStats": "bleuviz.rouge.stats",
    "pair_stats": "bleuviz.rouge.stats",
    "SENTENCE_BREAK": "bleuviz.rouge.tokenize",
    "TokenizedText": "bleuviz.rouge.tokenize",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = [
    "ROUGE_TYPES",
    "SENTENCE_BREAK",
    "CorpusRouge",
    "RougeConfig",
    "RougeScore",
    "RougeStats",
    "TokenizedText",
    "TypeExplanation",
    "explain_rouge_types",
    "pair_stats",
    "score_corpus",
    "score_segment",
]
