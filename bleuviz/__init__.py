"""bleuviz: look inside BLEU scores. A small public API for scripts and notebooks.

The stages in the order data flows: load files into a ``TestSet``
(:mod:`bleuviz.io`), tokenize and count them once into per-segment statistics
(:mod:`bleuviz.bleu`), score any selection of segments from summed statistics,
compare systems with sacrebleu's paired tests (:mod:`bleuviz.significance`) and
explain one segment's n-grams::

    import bleuviz

    testset = bleuviz.load_paths(["hyp.A.txt", "hyp.B.txt"], ["ref.txt"])
    corpus = bleuviz.compute_corpus_stats(testset, bleuviz.TokenizeConfig("13a"))
    config = bleuviz.BleuConfig()  # sacrebleu's defaults; BleuConfig("nltk") for NLTK
    score = bleuviz.corpus_score(corpus.systems["A"], config, corpus.tokenize, corpus.n_refs)
    print(score.format(), score.signature)
    first_ten = bleuviz.corpus_score(
        corpus.systems["A"], config, corpus.tokenize, corpus.n_refs, index=range(10)
    )
    rows = bleuviz.compare_systems("A", corpus.systems["A"], {"B": corpus.systems["B"]}, config)
    detail = bleuviz.explain_segment(testset.systems["A"][0], [r[0] for r in testset.references],
                                     corpus.tokenize)

In Jupyter, ``score`` (any ``corpus_score``) draws as a row of the app's
systems table with its signature, ``detail`` as the app's highlight of the
segment's unigrams (``detail.highlight(2)`` for bigrams), and
``bleuviz.score_metric("chrF", hyps, refs)`` as the metric's column; text from
the files shows literally, as in the app. They are the core's ``BleuScore``,
``SegmentExplanation`` and ``MetricScores`` (subclasses from
:mod:`bleuviz.render.notebook`).

A ``Workspace`` keeps test sets and notes in an SQLite file (``--workspace DIR``)::

    saved = bleuviz.Workspace.open("my-workspace").save_testset(testset, "newstest")
    print(saved.id)  # the app opens it at /?set=ID

Names are imported on first use, so ``import bleuviz`` is cheap.
"""

from typing import TYPE_CHECKING

from bleuviz.lazy import lazy_exports

#: The release: the one place it is written (the wheel's metadata and ``bleuviz --version``).
__version__ = "0.2.0"

if TYPE_CHECKING:
    from bleuviz.bleu.config import BleuConfig
    from bleuviz.bleu.corpus import CorpusStats, compute_corpus_stats
    from bleuviz.bleu.explain import SegmentExplanation
    from bleuviz.bleu.result import BleuScore
    from bleuviz.bleu.score import sentence_scores
    from bleuviz.bleu.tokenize import TokenizeConfig
    from bleuviz.errors import BleuvizError, ConfigError, InputError, WorkspaceError
    from bleuviz.io.load import load_files, load_paths
    from bleuviz.io.testset import TestSet
    from bleuviz.metrics.evaluation import Evaluation
    from bleuviz.metrics.registry import METRICS, get_metric
    from bleuviz.metrics.spec import MetricSpec, Settings
    from bleuviz.render.notebook import explained_segment as explain_segment
    from bleuviz.render.notebook import metric_table as score_metric
    from bleuviz.render.notebook import score_table as corpus_score
    from bleuviz.significance.bleu import compare_systems
    from bleuviz.significance.resampling import PairedResult
    from bleuviz.workspace.store import Workspace

_EXPORTS = {
    "load_paths": "bleuviz.io.load",
    "load_files": "bleuviz.io.load",
    "TestSet": "bleuviz.io.testset",
    "TokenizeConfig": "bleuviz.bleu.tokenize",
    "compute_corpus_stats": "bleuviz.bleu.corpus",
    "CorpusStats": "bleuviz.bleu.corpus",
    "BleuConfig": "bleuviz.bleu.config",
    "corpus_score": "bleuviz.render.notebook:score_table",
    "sentence_scores": "bleuviz.bleu.score",
    "BleuScore": "bleuviz.bleu.result",
    "score_metric": "bleuviz.render.notebook:metric_table",
    "compare_systems": "bleuviz.significance.bleu",
    "PairedResult": "bleuviz.significance.resampling",
    "explain_segment": "bleuviz.render.notebook:explained_segment",
    "SegmentExplanation": "bleuviz.bleu.explain",
    "BleuvizError": "bleuviz.errors",
    "ConfigError": "bleuviz.errors",
    "InputError": "bleuviz.errors",
    "WorkspaceError": "bleuviz.errors",
    "Workspace": "bleuviz.workspace.store",
    "Evaluation": "bleuviz.metrics.evaluation",
    "METRICS": "bleuviz.metrics.registry",
    "get_metric": "bleuviz.metrics.registry",
    "MetricSpec": "bleuviz.metrics.spec",
    "Settings": "bleuviz.metrics.spec",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = [
    "METRICS",
    "BleuConfig",
    "BleuScore",
    "BleuvizError",
    "ConfigError",
    "CorpusStats",
    "Evaluation",
    "InputError",
    "MetricSpec",
    "PairedResult",
    "SegmentExplanation",
    "Settings",
    "TestSet",
    "TokenizeConfig",
    "Workspace",
    "WorkspaceError",
    "compare_systems",
    "compute_corpus_stats",
    "corpus_score",
    "explain_segment",
    "get_metric",
    "load_files",
    "load_paths",
    "score_metric",
    "sentence_scores",
]
