"""The Learn page's computations and texts: BLEU step by step and the flavours compared."""

from bleuviz.teach.corpus_vs_sentence import CorpusVsSentence, corpus_vs_sentence
from bleuviz.teach.examples import EXAMPLES, Example
from bleuviz.teach.flavors import WAYS, compare_ways
from bleuviz.teach.smoothing import SMOOTHINGS, smoothing_note
from bleuviz.teach.walkthrough import Walkthrough, build_walkthrough

__all__ = [
    "EXAMPLES",
    "SMOOTHINGS",
    "WAYS",
    "CorpusVsSentence",
    "Example",
    "Walkthrough",
    "build_walkthrough",
    "compare_ways",
    "corpus_vs_sentence",
    "smoothing_note",
]
