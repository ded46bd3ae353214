"""BLEU's statistics of a test set's first count in worker processes: start-up and uploads.

The server runs threads, so it must not fork (``bleuviz.jobs.fork_context``).
Its worker processes come from the fork server TER's come from
(``bleuviz.metrics.ter_parallel.prepare_workers``), which imports BLEU's
counting modules too; its workers never run the page script
(``bleuviz.metrics.worker_processes``). A task is the pure
``bleuviz.bleu.chunks.chunk_stats`` over one chunk of consecutive segments,
its text sent pickled; the chunks' rows concatenate to the statistics of the
whole. Sending the text costs 0.09-0.13 s to pickle (here) and 0.06-0.09 s to
unpickle (in the workers) for the 50M characters of 100,000 segments x 3
streams; one string and its line lengths per stream cost the same, and a
worker reading the files itself would decode every file (0.2 s a worker, and
every format the loaders read). Counted in threads, the same chunks hold the
interpreter lock in their Python parts, which the server's other start-up work
needs (reading and saving the files, importing the pages' modules, serving the
browser's first requests); in workers, more cores count (the command line's
``--jobs``, here ``BLEUVIZ_JOBS``, else the usable cores).

Only a test set's first count goes here, from ``WORKERS_FROM`` characters: the
command line's files at start-up (``prepare_counting`` starts the fork server
and the workers while the files are read) and an upload. A count that an
interactive rerun asks for (another tokenizer) stays in the server's threads
(``counting``). If the workers cannot start or their pool breaks, the chunks
left are counted here.

``WORKERS_FROM`` was measured on the 2-core machine bleuviz is developed on,
shared with other work (load average 6-9): bench_app's synthetic lines, two
references and one system, in a threaded process with the fork server running,
medians of 5 alternating runs. Under 13a, two threads / two workers took 0.15 /
0.27 s at 1.5M characters, 0.62 / 0.78 s at 6M, 1.45 / 1.59 s at 12.5M and
2.64 / 2.75 s at 25M: a fixed 0.1-0.2 s to start two workers and send the
text, never won back on two busy cores. Under intl (lines never tokenized
before), one thread / two workers took 1.5-1.9 / 2.1-2.3 s at 5M characters:
each new worker compiles sacrebleu's regexes (about a second) before it
counts at twice the speed. Workers start from 16M characters, about 30,000
segments of 25 words with two references. At 100,000 segments, bench_app's
first Overview on cold servers took 11.68 s with workers and 11.31 s with
``BLEUVIZ_JOBS=1`` (medians of 6 alternating pairs, load average 12): on two
busy cores the fork server (0.28 s of CPU) and the text sent (0.14 s) are what
the workers cost more; their count takes the threads' CPU time.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from itertools import pairwise

import numpy as np

from bleuviz.bleu.chunks import CHUNK_CHARACTERS, CHUNKS_PER_WORKER, chunk_stats
from bleuviz.bleu.corpus import CorpusStats
from bleuviz.bleu.stats import SegmentStats
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import ConfigError
from bleuviz.heap import keep_freed_memory
from bleuviz.io.testset import TestSet
from bleuviz.jobs import job_count, usable_cores
from bleuviz.metrics.ter_parallel import prepare_workers
from bleuviz.metrics.worker_processes import fork_server
from bleuviz.progress import Progress

#: Characters (over every stream) from which a first count goes to worker processes
#: (measured: see the module docstring).
WORKERS_FROM = 4 * CHUNK_CHARACTERS
#: What a counting worker imports (the fork server imports it once, for every worker): no
#: Streamlit (tests/app/test_count_workers.py).
COUNTING_MODULES = ("bleuviz.bleu.chunks", "bleuviz.app.ui.cache.count_workers")
#: Workers started ahead of the start-up count (``prepare_counting``), for the next count.
_ready: Future[ProcessPoolExecutor] | None = None
_ready_lock = threading.Lock()


def jobs() -> int:
    """The worker processes a count uses: ``BLEUVIZ_JOBS``, else the usable cores.

    The command line's rule (``bleuviz.jobs.job_count``); a value it refuses counts
    as unset here, where no command line can report it.
    """
    try:
        return job_count(None, os.environ)
    except ConfigError:
        return usable_cores()


def worth_workers(characters: int) -> bool:
    """Whether worker processes count ``characters`` (over every stream): from
    ``WORKERS_FROM``, with two jobs or more (``BLEUVIZ_JOBS=1``: the server's threads)."""
    if jobs() < 2 or "forkserver" not in multiprocessing.get_all_start_methods():
        return False
    return characters >= WORKERS_FROM


def characters(testset: TestSet) -> int:
    """The characters of every stream a count reads (references and systems)."""
    streams = [*testset.references, *testset.systems.values()]
    return sum(len(line) for stream in streams for line in stream)


def prepare_counting() -> None:
    """Start the workers the next first count takes.

    Returns at once; the fork server and its workers start on a thread (half a
    second of imports in another process, while the server reads the files).
    """
    global _ready
    future: Future[ProcessPoolExecutor] = Future()
    with _ready_lock:
        if _ready is not None:
            return
        _ready = future
    threading.Thread(
        target=_start, args=(future,), name="bleuviz-count-workers", daemon=True
    ).start()


def _start(future: Future[ProcessPoolExecutor]) -> None:
    """Start a pool's workers and put it in ``future`` (or the error that stopped it)."""
    try:
        pool = _new_pool()
        pool.submit(int).result()  # a pool starts its workers with its first task
    except Exception as exc:  # whatever stopped them, the count must not wait forever
        future.set_exception(exc)
    else:
        future.set_result(pool)


def release_counting() -> None:
    """Stop the workers ``prepare_counting`` started, if no count took them."""
    global _ready
    with _ready_lock:
        ready, _ready = _ready, None
    if ready is not None:
        ready.add_done_callback(_shut_down)


def _shut_down(future: Future[ProcessPoolExecutor]) -> None:
    """Stop the pool in ``future`` without waiting (nothing was given to it)."""
    if future.exception() is None:
        future.result().shutdown(wait=False)


def take_workers() -> Future[ProcessPoolExecutor]:
    """The workers ``prepare_counting`` started (maybe still starting), else new ones."""
    global _ready
    with _ready_lock:
        ready, _ready = _ready, None
    if ready is not None:
        return ready
    future: Future[ProcessPoolExecutor] = Future()
    try:
        future.set_result(_new_pool())
    except OSError as exc:
        future.set_exception(exc)
    return future


def _new_pool() -> ProcessPoolExecutor:
    """A pool of ``jobs()`` workers from the fork server (started with its first task)."""
    prepare_workers(COUNTING_MODULES)  # the fork server, with TER's modules and these
    return ProcessPoolExecutor(jobs(), fork_server(), initializer=keep_freed_memory)


def count_in_workers(
    testset: TestSet,
    tokenize: TokenizeConfig,
    order: int,
    workers: Future[ProcessPoolExecutor],
    progress: Progress | None = None,
) -> CorpusStats:
    """Count ``testset`` chunk by chunk in ``workers``' processes; equal to counting it here.

    ``progress`` hears how many segments are counted, chunk by chunk, in order.
    The pool is shut down once the count ends.
    """
    cuts = _cuts(testset, jobs())
    parts: list[dict[str, SegmentStats]] = []
    _report(progress, 0, testset.n_segments)
    if workers.exception() is None:  # else they could not start: all counted here
        try:
            with workers.result() as pool:
                futures = [
                    pool.submit(chunk_stats, *_chunk(testset, cut, tokenize, order)) for cut in cuts
                ]
                for (_, stop), future in zip(cuts, futures, strict=True):
                    parts.append(future.result())
                    _report(progress, stop, testset.n_segments)
        except (OSError, BrokenProcessPool):  # a worker killed: the rest counted here
            pass
    _count_here(testset, cuts[len(parts) :], tokenize, order, parts, progress)
    systems = {
        name: SegmentStats.concat([part[name] for part in parts]) for name in testset.systems
    }
    return CorpusStats(testset, tokenize, len(testset.references), systems)


def _cuts(testset: TestSet, workers: int) -> list[tuple[int, int]]:
    """Cut the segments into chunks of about the same characters, as many for every worker.

    ``CHUNKS_PER_WORKER`` each at least, more where a chunk would hold more than
    ``CHUNK_CHARACTERS``; each ends at the segment where its share of the
    characters is reached (``chunk_bounds`` cuts greedily instead, which leaves
    the last chunk short and one worker idle while another counts it).
    """
    sizes = np.zeros(testset.n_segments, dtype=np.int64)
    for stream in (*testset.references, *testset.systems.values()):
        sizes += np.fromiter(map(len, stream), np.int64, testset.n_segments)
    ends = np.cumsum(sizes)
    total = int(ends[-1]) if len(ends) else 0
    per_worker = max(CHUNKS_PER_WORKER, -(-total // (workers * CHUNK_CHARACTERS)))
    pieces = workers * per_worker
    shares = total * np.arange(1, pieces) // pieces
    inner = np.searchsorted(ends, shares, side="left") + 1  # the segment reaching the share
    bounds = np.unique(np.concatenate([[0], inner, [testset.n_segments]]))
    cuts = list(pairwise(np.minimum(bounds, testset.n_segments).tolist()))
    return [(start, stop) for start, stop in cuts if stop > start] or [(0, testset.n_segments)]


def _count_here(
    testset: TestSet,
    cuts: list[tuple[int, int]],
    tokenize: TokenizeConfig,
    order: int,
    parts: list[dict[str, SegmentStats]],
    progress: Progress | None,
) -> None:
    """Count the chunks between ``cuts`` in this process, adding their rows to ``parts``."""
    for cut in cuts:
        parts.append(chunk_stats(*_chunk(testset, cut, tokenize, order)))
        _report(progress, cut[1], testset.n_segments)


def _chunk(
    testset: TestSet, cut: tuple[int, int], tokenize: TokenizeConfig, order: int
) -> tuple[Mapping[str, Sequence[str]], list[Sequence[str]], TokenizeConfig, int]:
    """``chunk_stats``' arguments for segments ``cut[0]`` to ``cut[1]``."""
    start, stop = cut
    hypotheses = {name: lines[start:stop] for name, lines in testset.systems.items()}
    return hypotheses, [stream[start:stop] for stream in testset.references], tokenize, order


def _report(progress: Progress | None, counted: int, segments: int) -> None:
    """Tell ``progress`` that ``counted`` of ``segments`` are counted."""
    if progress is not None:
        progress(f"{counted:,} of {segments:,} segments", counted / segments if segments else 1.0)
