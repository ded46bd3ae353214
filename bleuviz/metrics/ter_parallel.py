"""TER of several systems in worker processes, cached, with progress reports.

TER is the slow metric (a shift search per segment), so the segments of every
system are cut into chunks that worker processes score with the pure
:func:`bleuviz.metrics.ter_score.ter_statistics`; the chunks' statistics
concatenate. A chunk holds at most ``CHUNK_SEGMENTS`` segments and about
``CHUNK_PAIRS`` word pairs, so paragraph-long lines (half a second of TER each)
come a few to a chunk, and progress is reported in segments as each chunk ends,
in order: a bar moves every few seconds and its estimate stays steady.
A system already scored with the same references and options in this process
is taken from an in-memory cache (keyed on a digest of the text and the
options; nothing is written to disk), so it is never scored twice.

The workers are :mod:`bleuviz.parallel`'s, as BLEU's, chrF's and ROUGE's: each
is given the systems once and sent only each chunk's bounds. They are forked
when the caller has a single thread (the command line, on Linux:
``bleuviz.jobs.fork_context``; no start-up cost, nothing copied) and started
from a fork server otherwise (the app's server runs threads, and forking a
threaded process can deadlock); the fork
server imports TER's modules once, before forking its workers, so a worker
starts scoring at once, and never runs the caller's main script (the app's
page: :mod:`bleuviz.metrics.worker_processes`). If the pool breaks anyway, the
chunks not yet scored are scored in this process.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from bleuviz.arrays import FloatArray, IntArray
from bleuviz.jobs import fork_context
from bleuviz.metrics.spec import readonly
from bleuviz.metrics.ter_config import TerConfig
from bleuviz.metrics.ter_score import ter_statistics
from bleuviz.metrics.worker_processes import fork_server
from bleuviz.parallel import in_processes
from bleuviz.progress import Progress

#: Segments per task sent to a worker, at most.
CHUNK_SEGMENTS = 256
#: Word pairs per task (hypothesis words times reference words, summed over its
#: segments), at most, one segment at least: sentences (WMT17 en-de, 20 words) come
#: CHUNK_SEGMENTS a chunk; paragraphs (WMT22 zh-en, 1.7k characters, 0.5 s of TER
#: each) about five, so a chunk takes seconds, not minutes.
CHUNK_PAIRS = 250_000
#: Below this many segments in all, one process does the work (no pool to start).
PARALLEL_FROM = 512
#: Systems the cache keeps (least recently used dropped first).
CACHE_SIZE = 64
#: Work (word pairs, see ``_worth_a_pool``) below which a fork server's workers are not
#: worth starting: about three seconds of TER in one process (WMT17 en-de: 1.4M pairs a second).
FORKSERVER_FROM_PAIRS = 4_000_000
#: What a worker imports to score (numpy, sacrebleu's tokenizer through the adapter).
WORKER_MODULES = ("bleuviz.metrics.ter_score", "bleuviz.metrics.sacrebleu_adapter", "sacrebleu")

#: What the fork server imports before forking a worker (``prepare_workers`` adds to it).
_preload: list[str] = [*WORKER_MODULES]
#: Set once ``prepare_workers`` has started the fork server: its workers start at once.
_prepared = threading.Event()

_cache: OrderedDict[tuple[bytes, TerConfig], FloatArray] = OrderedDict()
_cache_lock = threading.Lock()


def ter_systems(
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str]],
    config: TerConfig,
    workers: int = 2,
    progress: Progress | None = None,
) -> dict[str, FloatArray]:
    """Return every system's (N, 2) TER statistics (read-only), as sacrebleu's ``TER``.

    Streams must be as long as each other (checked by the caller). ``progress``
    hears "1,280 of 22,500 segments (12 systems)" as each chunk ends, then
    "12 systems scored".
    """
    keys = {name: _key(hyps, references, config) for name, hyps in systems.items()}
    out = {name: hit for name in systems if (hit := _cached(keys[name])) is not None}
    todo = [name for name in systems if name not in out]
    pairs = _pairs(systems, todo, references)
    tally = _Tally(progress, sum(len(systems[name]) for name in todo), len(todo))
    tally.add(0)  # the start: a bar names the work at once
    if _worth_a_pool(pairs, workers):
        fresh = _in_pool(systems, pairs, references, config, workers, tally)
    else:
        fresh = _in_process(systems, pairs, references, config, tally)
    for name in todo:
        out[name] = readonly(fresh[name])
        _remember(keys[name], out[name])
    tally.finish()
    return {name: out[name] for name in systems}


@dataclass(slots=True)
class _Tally:
    """Segments scored so far, told to ``progress`` (working state, not a result)."""

    progress: Progress | None
    total: int
    systems: int
    done: int = 0

    def add(self, segments: int) -> None:
        """Count ``segments`` more scored and report the segments done."""
        self.done += segments
        if self.progress is not None and self.total:
            plural = "s" if self.systems != 1 else ""
            self.progress(
                f"{self.done:,} of {self.total:,} segments ({self.systems} system{plural})",
                self.done / self.total,
            )

    def finish(self) -> None:
        """Report that every system is scored."""
        if self.progress is not None:
            plural = "s" if self.systems != 1 else ""
            self.progress(f"{self.systems} system{plural} scored", 1.0)


def _pairs(
    systems: Mapping[str, Sequence[str]], todo: Sequence[str], references: Sequence[Sequence[str]]
) -> dict[str, IntArray]:
    """Each ``todo`` system's word pairs per segment: its words times the references' words
    (the size of the edit distances, which TER's time follows)."""
    ref_words = np.zeros(len(references[0]) if references else 0, dtype=np.int64)
    for stream in references:
        ref_words += np.fromiter((len(line.split()) for line in stream), np.int64, len(stream))
    out = {}
    for name in todo:
        hyps = systems[name]
        out[name] = np.fromiter((len(line.split()) for line in hyps), np.int64, len(hyps))
        out[name] *= ref_words[: len(hyps)]
    return out


def _worth_a_pool(pairs: Mapping[str, IntArray], workers: int) -> bool:
    """Whether worker processes would score the systems of ``pairs`` sooner than this one.

    Forked workers start at once: from ``PARALLEL_FROM`` segments; so do a fork
    server's once ``prepare_workers`` started it. Before, its start (importing
    TER's modules) takes a second or more, so they are started only for at least
    ``FORKSERVER_FROM_PAIRS`` word pairs.
    """
    if workers < 2 or sum(len(p) for p in pairs.values()) < PARALLEL_FROM:
        return False
    if fork_context() is not None or _prepared.is_set():
        return True
    return sum(int(p.sum()) for p in pairs.values()) >= FORKSERVER_FROM_PAIRS


def _chunks(pairs: IntArray) -> list[slice]:
    """Cut a system's segments into chunks of at most ``CHUNK_SEGMENTS`` segments and
    ``CHUNK_PAIRS`` word pairs (one segment at least)."""
    ends = np.cumsum(pairs)
    out, start = [], 0
    while start < len(pairs):
        before = int(ends[start - 1]) if start else 0
        stop = int(np.searchsorted(ends, before + CHUNK_PAIRS, side="right"))
        stop = min(max(stop, start + 1), start + CHUNK_SEGMENTS)
        out.append(slice(start, stop))
        start = stop
    return out


def _in_process(
    systems: Mapping[str, Sequence[str]],
    pairs: Mapping[str, IntArray],
    references: Sequence[Sequence[str]],
    config: TerConfig,
    tally: _Tally,
) -> dict[str, FloatArray]:
    """Score the systems of ``pairs`` here, chunk by chunk, counting each chunk."""
    fresh = {}
    for name, sizes in pairs.items():
        hyps, chunks = systems[name], []
        for part in _chunks(sizes):
            chunks.append(
                ter_statistics(hyps[part], [stream[part] for stream in references], config)
            )
            tally.add(len(chunks[-1]))
        fresh[name] = np.concatenate(chunks) if chunks else np.zeros((0, 2))
    return fresh


def _in_pool(
    systems: Mapping[str, Sequence[str]],
    pairs: Mapping[str, IntArray],
    references: Sequence[Sequence[str]],
    config: TerConfig,
    workers: int,
    tally: _Tally,
) -> dict[str, FloatArray]:
    """Score the systems of ``pairs`` chunk by chunk in ``workers`` processes
    (:func:`bleuviz.parallel.in_processes`), counting each chunk in order."""
    work = _Work({name: systems[name] for name in pairs}, references, config)
    tasks = [(name, c.start, c.stop) for name, sizes in pairs.items() for c in _chunks(sizes)]
    parts: dict[str, list[FloatArray]] = {name: [] for name in pairs}
    scored = in_processes(work, tasks, workers, _context())
    for (name, _, _), stats in zip(tasks, scored, strict=True):
        parts[name].append(stats)
        tally.add(len(stats))
    return {
        name: np.concatenate(chunks) if chunks else np.zeros((0, 2))
        for name, chunks in parts.items()
    }


@dataclass(frozen=True, slots=True)
class _Work:
    """The systems a worker scores chunk by chunk: inherited when it is forked, else
    sent to it once (a fork server's worker)."""

    systems: Mapping[str, Sequence[str]]
    references: Sequence[Sequence[str]]
    config: TerConfig

    def __call__(self, task: tuple[str, int, int]) -> FloatArray:
        """Score segments ``start`` to ``stop`` of the system ``name``."""
        name, start, stop = task
        refs = [stream[start:stop] for stream in self.references]
        return ter_statistics(self.systems[name][start:stop], refs, config=self.config)


def _context() -> multiprocessing.context.BaseContext:
    """Fork when this process has one thread; else a fork server that has imported
    TER's modules once, so that each worker forked from it starts scoring at once."""
    forked = fork_context()
    if forked is not None:
        return forked
    context = fork_server()
    # Read when the fork server starts (the first pool of the process, or prepare_workers).
    context.set_forkserver_preload(_preload)
    return context


def prepare_workers(modules: Sequence[str] = ()) -> None:
    """Start the fork server TER's workers come from, ahead of the first TER.

    A threaded caller (the app's server) calls it when idle. The fork server
    imports TER's modules and ``modules`` once; its workers (which never run
    the caller's main script: :mod:`bleuviz.metrics.worker_processes`) then
    start at once, and TER takes them from ``PARALLEL_FROM`` segments as it
    takes forked ones.
    """
    from multiprocessing import forkserver

    _preload.extend(name for name in modules if name not in _preload)
    fork_server().set_forkserver_preload(_preload)
    forkserver.ensure_running()
    _prepared.set()


def _key(
    hyps: Sequence[str], references: Sequence[Sequence[str]], config: TerConfig
) -> tuple[bytes, TerConfig]:
    """A digest of the text (every line's length, then the lines) and the options."""
    digest = hashlib.blake2b(digest_size=20)
    for stream in (hyps, *references):
        digest.update(len(stream).to_bytes(8, "little"))
        digest.update(np.fromiter(map(len, stream), np.int64, len(stream)).tobytes())
        digest.update("".join(stream).encode("utf-8", "surrogatepass"))
    return digest.digest(), config


def _cached(key: tuple[bytes, TerConfig]) -> FloatArray | None:
    """The cached statistics of ``key``, if any (marked recently used)."""
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
        return hit


def _remember(key: tuple[bytes, TerConfig], stats: FloatArray) -> None:
    """Cache ``stats`` under ``key``, dropping the least recently used beyond CACHE_SIZE."""
    with _cache_lock:
        _cache[key] = stats
        _cache.move_to_end(key)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


def clear_cache() -> None:
    """Forget every cached system (tests, or to free memory)."""
    with _cache_lock:
        _cache.clear()
