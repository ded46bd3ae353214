"""The Learn page's computations and texts: BLEU step by step and the flavours compared."""

from typing import TYPE_CHECKING

from bleuviz.lazy import lazy_exports

if TYPE_CHECKING:
    from bleuviz.teach.corpus_vs_sentence import CorpusVsSentence
    from bleuviz.teach.examples import EXAMPLES, Example
    from bleuviz.teach.flavors import WAYS, compare_ways
    from bleuviz.teach.smoothing import SMOOTHINGS, smoothing_note
    from bleuviz.teach.walkthrough import Walkthrough, build_walkthrough

_EXPORTS = {
    "CorpusVsSentence": "bleuviz.teach.corpus_vs_sentence",
    "EXAMPLES": "bleuviz.teach.examples",
    "Example": "bleuviz.teach.examples",
    "WAYS": "bleuviz.teach.flavors",
    "compare_ways": "bleuviz.teach.flavors",
    "SMOOTHINGS": "bleuviz.teach.smoothing",
    "smoothing_note": "bleuviz.teach.smoothing",
    "Walkthrough": "bleuviz.teach.walkthrough",
    "build_walkthrough": "bleuviz.teach.walkthrough",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = [
    "EXAMPLES",
    "SMOOTHINGS",
    "WAYS",
    "CorpusVsSentence",
    "Example",
    "Walkthrough",
    "build_walkthrough",
    "compare_ways",
    "smoothing_note",
]
