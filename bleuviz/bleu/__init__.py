"""A ``TestSet`` to BLEU: tokens, n-gram ids, reference index, segment statistics, scores."""

from typing import TYPE_CHECKING

from bleuviz.lazy import lazy_exports

if TYPE_CHECKING:
    from bleuviz.bleu.config import BleuConfig
    from bleuviz.bleu.corpus import CorpusStats, compute_corpus_stats
    from bleuviz.bleu.explain import NgramRow, SegmentExplanation, explain_segment
    from bleuviz.bleu.flavors import DEFAULT_FLAVOR, FLAVORS, Flavor, get_flavor
    from bleuviz.bleu.orders import DEFAULT_ORDER, MAX_ORDER
    from bleuviz.bleu.references import ReferenceIndex, build_reference_index
    from bleuviz.bleu.result import BleuArrays, BleuScore
    from bleuviz.bleu.score import corpus_score, group_scores, score_rows, sentence_scores, to_score
    from bleuviz.bleu.stats import SegmentStats, compute_stats
    from bleuviz.bleu.tokenize import TOKENIZERS, TokenizeConfig

# ``signature`` is not re-exported: it is also the name of its submodule, which
# would shadow it once imported. Import it from ``bleuviz.bleu.signature``.
_EXPORTS = {
    "DEFAULT_ORDER": "bleuviz.bleu.orders",
    "MAX_ORDER": "bleuviz.bleu.orders",
    "BleuConfig": "bleuviz.bleu.config",
    "CorpusStats": "bleuviz.bleu.corpus",
    "compute_corpus_stats": "bleuviz.bleu.corpus",
    "NgramRow": "bleuviz.bleu.explain",
    "SegmentExplanation": "bleuviz.bleu.explain",
    "explain_segment": "bleuviz.bleu.explain",
    "DEFAULT_FLAVOR": "bleuviz.bleu.flavors",
    "FLAVORS": "bleuviz.bleu.flavors",
    "Flavor": "bleuviz.bleu.flavors",
    "get_flavor": "bleuviz.bleu.flavors",
    "ReferenceIndex": "bleuviz.bleu.references",
    "build_reference_index": "bleuviz.bleu.references",
    "BleuArrays": "bleuviz.bleu.result",
    "BleuScore": "bleuviz.bleu.result",
    "corpus_score": "bleuviz.bleu.score",
    "group_scores": "bleuviz.bleu.score",
    "score_rows": "bleuviz.bleu.score",
    "sentence_scores": "bleuviz.bleu.score",
    "to_score": "bleuviz.bleu.score",
    "SegmentStats": "bleuviz.bleu.stats",
    "compute_stats": "bleuviz.bleu.stats",
    "TOKENIZERS": "bleuviz.bleu.tokenize",
    "TokenizeConfig": "bleuviz.bleu.tokenize",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
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
    "to_score",
]
