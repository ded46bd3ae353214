"""BLEU's statistics, counted once per test set, tokenization and order, with progress.

The command line's files are counted from the moment the server starts
(``start_corpus_stats``); the first page takes those statistics instead of
counting again. Cached (``cached_resource``), keyed on the content id. A test
set's first count (the command line's files, an upload, a saved set opened)
goes to worker processes when it is large (``count_workers``); a count an
interactive rerun asks for (another tokenizer, lowercase, order) runs in this
process, in threads for the columnar tokenizers.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial

from bleuviz.app.ui.cache.background import LatestReport, with_progress
from bleuviz.app.ui.cache.count_workers import (
    characters,
    count_in_workers,
    take_workers,
    worth_workers,
)
from bleuviz.app.ui.cache.keys import cached_resource
from bleuviz.bleu.columnar import COLUMNAR_TOKENIZERS
from bleuviz.bleu.corpus import CorpusStats, compute_corpus_stats
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.io.content_id import LoadedTestSet
from bleuviz.io.testset import TestSet
from bleuviz.jobs import usable_cores
from bleuviz.progress import Progress


def counting_threads(tokenize: TokenizeConfig) -> int:
    """Threads for the columnar tokenizers; the others stay in this process (the
    command line forks tokenizer processes, which a threaded server must not)."""
    return usable_cores() if tokenize.name in COLUMNAR_TOKENIZERS else 1


#: Statistics counted ahead of their page (``start_corpus_stats``), at most one test set's:
#: (content id of the test set, tokenization, order) -> (its statistics to come, and the
#: last report of their progress).
_EARLY: dict[tuple[str, TokenizeConfig, int], tuple[Future[CorpusStats], LatestReport]] = {}
_EARLY_POOL = ThreadPoolExecutor(1, thread_name_prefix="bleuviz-early-stats")


def start_corpus_stats(loaded: LoadedTestSet, tokenize: TokenizeConfig, order: int) -> None:
    """Start counting the test set's n-grams on a background thread; ``corpus_stats`` takes them.

    The command line's files are counted while they are saved in the workspace and
    the sidebar is drawn, work that leaves a core idle, instead of after it.
    """
    _EARLY.clear()  # one test set's at most: statistics nobody took are let go
    report = LatestReport()
    count = _counting(loaded.content_id, loaded.testset, tokenize, order)
    _EARLY[(loaded.content_id, tokenize, order)] = (_EARLY_POOL.submit(count, report), report)


def corpus_stats(loaded: LoadedTestSet, tokenize: TokenizeConfig, order: int) -> CorpusStats:
    """The test set's statistics, with a progress bar while they are counted (seconds at 100k)."""
    content_id, testset = loaded.content_id, loaded.testset
    return with_progress(
        "Counting n-grams",
        lambda report: _corpus_stats(content_id, testset, tokenize, order, _progress=report),
    )


@cached_resource(max_entries=8, show_spinner=False)
def _corpus_stats(
    content_id: str,
    _testset: TestSet,
    tokenize: TokenizeConfig,
    order: int,
    _progress: Progress | None = None,
) -> CorpusStats:
    """Tokenize and count the test set once per (content id, tokenizer, lowercase, order)."""
    early = _EARLY.pop((content_id, tokenize, order), None)
    if early is not None:  # the same content: its statistics are these
        work, report = early
        if _progress is not None:
            report.follow(_progress)
        return work.result()
    return _counting(content_id, _testset, tokenize, order)(_progress)


#: The test sets counted (or being counted) in this server, by content id.
_COUNTED: set[str] = set()
_COUNTED_LOCK = threading.Lock()


def _counting(
    content_id: str, testset: TestSet, tokenize: TokenizeConfig, order: int
) -> Callable[[Progress | None], CorpusStats]:
    """How to count ``testset``: a first count (start-up, an upload, a set opened) from
    ``WORKERS_FROM`` characters in worker processes, any other here
    (``counting_threads``). Call it with the progress to report to."""
    with _COUNTED_LOCK:
        first = content_id not in _COUNTED
        _COUNTED.add(content_id)
    if first and worth_workers(characters(testset)):
        workers = take_workers()  # started now (prepared ones: started already)
        return partial(count_in_workers, testset, tokenize, order, workers)
    threads = counting_threads(tokenize)
    return lambda progress: compute_corpus_stats(
        testset, tokenize, order, threads, progress=progress
    )
