"""A test set's statistics chunk by chunk: bounded memory, both cores, a pure chunk function.

Statistics are per segment, so a test set cut into runs of consecutive
segments can be counted run by run and the rows concatenated: the result
equals counting it whole. ``chunk_stats`` is the unit of work, a pure function
from text (every system's lines and the reference lines of the same segments)
to statistics columns, so chunks can go to threads here and to other machines
later. A chunk always holds whole segments: a segment's hypotheses and its
references are cut at the same line. Its references are indexed once and
reused for every system.

On the command line (a process that may fork: ``bleuviz.jobs.fork_context``),
a large test set is counted by forked worker processes, chunk by chunk: each
worker inherits the text when it is forked and is sent only a chunk's bounds;
it sends back the chunk's rows. Per-line tokenizers (sacrebleu's own, pure
Python) go to processes from ``PROCESSES_FROM`` characters, tokenizers with a
columnar replica from ``COLUMNAR_PROCESSES_FROM``. Those run in pyarrow and
numpy, which release the GIL, but a chunk also spends time in Python (each
line encoded to UTF-8, the slices, the glue between kernels), which threads
take turns at: processes share nothing, so they keep scaling past two cores.
Elsewhere (the app's threaded server), or below those sizes, a columnar
tokenizer's chunks run in threads and a per-line tokenizer's one after
another, each tokenized by forked worker processes where forking is safe
(``bleuviz.bleu.tokenize.tokenize_lines``).

Files too large to hold are counted as they are read: ``bleuviz.bleu.streamed``.

``PROCESSES_FROM`` was measured on the 2-core machine bleuviz is developed on
(``python -m benchmarks.bench_jobs --threshold --rounds 5 --tokenize intl``:
BLEU's statistics of bench_core's synthetic lines, two references, lines never
tokenized before, in one process; medians of 5 alternating runs, load average
1.5): one worker / two the way before / two forked processes took 0.060 /
0.056 / 0.087 s at 0.34M characters, 0.19 / 0.16 / 0.18 s at 0.85M, 0.39 /
0.39 / 0.29 s at 1.7M, 0.86 / 0.84 / 0.56 s at 3.4M and 3.36 / 2.75 / 1.75 s
at 13.6M. Processes start from 1.5M characters (about 4,500 segments of 25
words with two references).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np

from bleuviz.arrays import IntArray
from bleuviz.bleu.columnar import COLUMNAR_TOKENIZERS
from bleuviz.bleu.orders import DEFAULT_ORDER
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.stats import SegmentStats, compute_stats
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import ConfigError
from bleuviz.parallel import in_processes, plan
from bleuviz.progress import Progress

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

#: Characters (over every stream) a chunk holds at most, unless one segment alone is longer.
#: Counting peaks at about 30 bytes per character, so a chunk needs about 120 MiB.
CHUNK_CHARACTERS = 4_000_000
#: Chunks each worker process counts at least, so that the work divides evenly.
CHUNKS_PER_WORKER = 4
#: Characters (over every stream) from which worker processes count a per-line tokenizer's
#: chunks (measured: see the module docstring).
PROCESSES_FROM = 1_500_000
#: Characters from which worker processes count a columnar tokenizer's chunks (threads below).
COLUMNAR_PROCESSES_FROM = 1_500_000
#: How many times larger a chunk is for a per-line tokenizer: its tokens are Python
#: strings whatever the chunk, and a chunk must hold enough lines to be worth
#: forking tokenizer processes for (``tokenize.PARALLEL_MIN_LINES``).
PER_LINE_FACTOR = 8


def chunk_stats(
    hypotheses: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str]],
    tokenize: TokenizeConfig,
    max_order: int = DEFAULT_ORDER,
    workers: int = 1,
) -> dict[str, SegmentStats]:
    """Count every system's lines against the references of the same segments.

    ``workers`` > 1 tokenizes per-line tokenizers in forked processes (command line only).

    Raises:
        InputError: the streams do not all have the same number of lines.
    """
    refs = build_reference_index(references, tokenize, max_order, workers)
    return {name: compute_stats(lines, refs, workers) for name, lines in hypotheses.items()}


def chunk_bounds(streams: Sequence[Sequence[str]], budget: int = CHUNK_CHARACTERS) -> IntArray:
    """Return the segment positions where chunks start, and the segment count last.

    Each chunk holds consecutive segments whose lines, over all ``streams``
    (aligned, of N lines each), add up to at most ``budget`` characters, and
    at least one segment.
    """
    if budget < 1:
        raise ConfigError(f"budget: must be at least 1 character, got {budget}")
    return _cut(np.cumsum(_characters(streams)), budget)


def _characters(streams: Sequence[Sequence[str]]) -> IntArray:
    """Return each segment's characters over all ``streams`` (aligned, of N lines each)."""
    n = len(streams[0]) if streams else 0
    sizes = np.zeros(n, dtype=np.int64)
    for stream in streams:
        sizes += np.fromiter(map(len, stream), np.int64, n)
    return sizes


def _cut(ends: IntArray, budget: int) -> IntArray:
    """Cut segments whose characters end at ``ends`` (a cumulative sum) into chunks."""
    n = len(ends)
    bounds = [0]
    while bounds[-1] < n:
        start = bounds[-1]
        before = int(ends[start - 1]) if start else 0
        stop = int(np.searchsorted(ends, before + budget, side="right"))
        bounds.append(max(stop, start + 1))
    return np.asarray(bounds, dtype=np.int64)


def chunked_stats(
    hypotheses: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str]],
    tokenize: TokenizeConfig,
    max_order: int = DEFAULT_ORDER,
    workers: int = 1,
    budget: int = CHUNK_CHARACTERS,
    progress: Progress | None = None,
) -> dict[str, SegmentStats]:
    """Count a whole test set chunk by chunk and concatenate each system's rows.

    Equal to ``chunk_stats`` on the whole test set, whatever ``workers`` and
    ``budget``. With ``workers`` > 1, in a process that may fork
    (``bleuviz.jobs.fork_context``: the command line), ``workers`` forked
    processes count the chunks, ``CHUNKS_PER_WORKER`` each at least, from
    ``COLUMNAR_PROCESSES_FROM`` characters (columnar tokenizers) or
    ``PROCESSES_FROM`` (per-line ones). Otherwise ``workers`` threads count a
    columnar tokenizer's chunks of ``budget`` characters side by side, and a
    per-line tokenizer's chunks, ``PER_LINE_FACTOR`` times larger, are counted
    here one after another, each tokenized by ``workers`` processes. Memory is
    bounded by ``workers`` chunks at a time, not by the test set. ``progress``
    hears how many segments are counted, chunk by chunk, in order.

    Raises:
        InputError: the streams do not all have the same number of lines.
    """
    work = _Work(hypotheses, references, tokenize, max_order)
    streams = [*references, *hypotheses.values()]
    aligned = bool(references) and all(len(s) == len(references[0]) for s in streams)
    if budget < 1:
        raise ConfigError(f"budget: must be at least 1 character, got {budget}")
    ends = np.cumsum(_characters(streams)) if aligned else np.zeros(0, np.int64)
    context, size = chunk_plan(int(ends[-1]) if len(ends) else 0, tokenize, workers, budget)
    cuts = list(pairwise(_cut(ends, size).tolist()))
    if len(cuts) < 2:  # one chunk, or none; chunk_stats refuses unaligned streams
        return chunk_stats(hypotheses, references, tokenize, max_order, workers)
    counted = _Counted(progress, cuts[-1][1])
    if context is not None:
        _in_processes(work, cuts, workers, context, counted)
    elif tokenize.name in COLUMNAR_TOKENIZERS and workers > 1:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for cut, part in zip(cuts, pool.map(work.count, cuts), strict=True):
                counted.add(part, cut[1])
    else:
        for cut in cuts:
            counted.add(work.count(cut, workers), cut[1])
    return {
        name: SegmentStats.concat([part[name] for part in counted.parts]) for name in hypotheses
    }


def chunk_plan(
    characters: int, tokenize: TokenizeConfig, workers: int, budget: int
) -> tuple[BaseContext | None, int]:
    """Return how to fork worker processes (None: count here) and a chunk's characters at most.

    ``budget``: the characters a chunk holds at most when counted here, for a columnar tokenizer.
    """
    columnar = tokenize.name in COLUMNAR_TOKENIZERS
    start = COLUMNAR_PROCESSES_FROM if columnar else PROCESSES_FROM
    context = plan(workers, characters, start)
    if context is not None:  # a worker tokenizes and counts whole chunks
        return context, min(budget, max(1, -(-characters // (workers * CHUNKS_PER_WORKER))))
    return None, budget if columnar else budget * PER_LINE_FACTOR


@dataclass(frozen=True, slots=True)
class _Work:
    """A test set's text to count, chunk by chunk: each chunk is a pure function of it."""

    hypotheses: Mapping[str, Sequence[str]]
    references: Sequence[Sequence[str]]
    tokenize: TokenizeConfig
    max_order: int

    def count(self, cut: tuple[int, int], workers: int = 1) -> dict[str, SegmentStats]:
        """Count segments ``cut[0]`` to ``cut[1]`` (``workers`` > 1: see ``chunk_stats``)."""
        start, stop = cut
        return chunk_stats(
            {name: lines[start:stop] for name, lines in self.hypotheses.items()},
            [stream[start:stop] for stream in self.references],
            self.tokenize,
            self.max_order,
            workers,
        )


@dataclass(slots=True)
class _Counted:
    """The chunks counted so far, in order, told to ``progress`` (working state)."""

    progress: Progress | None
    segments: int
    parts: list[dict[str, SegmentStats]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.add(None, 0)

    def add(self, part: dict[str, SegmentStats] | None, stop: int) -> None:
        """Keep the next chunk's rows (None: none yet) and report ``stop`` segments counted."""
        if part is not None:
            self.parts.append(part)
        if self.progress is not None:
            self.progress(f"{stop:,} of {self.segments:,} segments", stop / self.segments)


def _in_processes(
    work: _Work,
    cuts: list[tuple[int, int]],
    workers: int,
    context: BaseContext,
    counted: _Counted,
) -> None:
    """Count the chunks between ``cuts`` in ``workers`` forked processes, in order.

    A worker inherits ``work`` when it is forked: it is sent only each chunk's
    bounds, and sends back the chunk's rows; if the pool breaks, the chunks not
    yet counted are counted here (:func:`bleuviz.parallel.in_processes`).
    """
    for cut, part in zip(cuts, in_processes(work.count, cuts, workers, context), strict=True):
        counted.add(part, cut[1])
