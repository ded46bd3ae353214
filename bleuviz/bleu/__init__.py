"""A ``TestSet`` to BLEU: tokens, n-gram ids, reference index, segment statistics, scores."""

from bleuviz.bleu.config import DEFAULT_ORDER, MAX_ORDER, BleuConfig
from bleuviz.bleu.corpus import CorpusStats, compute_corpus_stats
from bleuviz.bleu.explain import NgramRow, SegmentExplanation, explain_segment
from bleuviz.bleu.flavors import DEFAULT_FLAVOR, FLAVORS, Flavor, get_flavor
from bleuviz.bleu.references import ReferenceIndex, build_reference_index
from bleuviz.bleu.result import BleuArrays, BleuScore
from bleuviz.bleu.score import corpus_score, group_scores, score_rows, sentence_scores, to_score
from bleuviz.bleu.signature import signature
from bleuviz.bleu.stats import SegmentStats, compute_stats
from bleuviz.bleu.tokenize import TOKENIZERS, TokenizeConfig

__all__ = [
    "DEFAULT_FLAVOR",
    "DEFAULT_ORDER",
    "FLAVORS",
    "MAX_ORDER",
    "TOKENIZERS",
    "BleuArrays",
    "BleuConfig",
    "BleuScore",
    "CorpusStats",
    "Flavor",
    "NgramRow",
    "ReferenceIndex",
    "SegmentExplanation",
    "SegmentStats",
    "TokenizeConfig",
    "build_reference_index",
    "compute_corpus_stats",
    "compute_stats",
    "corpus_score",
    "explain_segment",
    "get_flavor",
    "group_scores",
    "score_rows",
    "sentence_scores",
    "signature",
    "to_score",
]
