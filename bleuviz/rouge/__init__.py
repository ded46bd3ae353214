"""ROUGE as google-research rouge-score computes it: tokenize, statistics, score, explain."""

from bleuviz.rouge.explain import TypeExplanation, explain_segment
from bleuviz.rouge.score import ROUGE_TYPES, CorpusRouge, RougeConfig, score_corpus, score_segment
from bleuviz.rouge.stats import RougeScore, RougeStats, pair_stats
from bleuviz.rouge.tokenize import SENTENCE_BREAK, TokenizedText, tokenize

__all__ = [
    "ROUGE_TYPES",
    "SENTENCE_BREAK",
    "CorpusRouge",
    "RougeConfig",
    "RougeScore",
    "RougeStats",
    "TokenizedText",
    "TypeExplanation",
    "explain_segment",
    "pair_stats",
    "score_corpus",
    "score_segment",
    "tokenize",
]
