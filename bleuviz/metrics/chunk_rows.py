"""A metric's rows of every system, chunk by chunk, in worker processes for a large test set.

A metric whose rows are a pure function of a run of segments (chrF's
statistics, ROUGE's F-measures) gives that function, ``rows_of_chunk``, to
:func:`chunked_rows`: below the metric's measured threshold (characters over
every stream) or with one worker, it is called once on the whole test set, as
before; above it, on runs of consecutive segments in forked worker processes
(:mod:`bleuviz.parallel`), and each system's parts are concatenated in order.
Either way the rows are the same, bit for bit. A chunk holds at most
``CHUNK_CHARACTERS`` characters, so that a worker's memory is bounded by its
chunk, not by the test set.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from bleuviz.arrays import FloatArray
from bleuviz.parallel import CHUNKS_PER_WORKER, even_cuts, in_order, plan

#: What a metric computes of a run of segments: each system's rows from the systems'
#: lines and the reference streams of those segments, with the threads it may use.
RowsOfChunk = Callable[
    [Mapping[str, Sequence[str]], Sequence[Sequence[str]], int], dict[str, FloatArray]
]

#: Characters (over every stream) a chunk holds at most, unless one segment alone is longer.
CHUNK_CHARACTERS = 4_000_000


def chunked_rows(
    rows_of_chunk: RowsOfChunk,
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str]],
    workers: int,
    processes_from: int,
) -> dict[str, FloatArray]:
    """Return ``rows_of_chunk(systems, references, workers)``, computed chunk by chunk by
    ``workers`` forked processes (one thread each) when the streams hold ``processes_from``
    characters or more.

    The streams must be as long as each other (checked by the caller).
    """
    streams = [*references, *systems.values()]
    weights = _characters(streams)
    context = plan(workers, int(weights.sum()), processes_from)
    if context is None:
        return rows_of_chunk(systems, references, workers)
    parts = max(workers * CHUNKS_PER_WORKER, -(-int(weights.sum()) // CHUNK_CHARACTERS))
    cuts = even_cuts(weights, parts)
    work = _Slices(rows_of_chunk, systems, references)
    done = list(in_order(work, cuts, workers, context))
    return {name: np.concatenate([part[name] for part in done]) for name in systems}


def _characters(streams: Sequence[Sequence[str]]) -> np.ndarray:
    """Each segment's characters over every stream (aligned, of N lines each)."""
    n = len(streams[0]) if streams else 0
    sizes = np.zeros(n, dtype=np.int64)
    for stream in streams:
        sizes += np.fromiter(map(len, stream), np.int64, n)
    return sizes


@dataclass(frozen=True, slots=True)
class _Slices:
    """A test set whose runs of segments a worker computes (inherited when it is forked)."""

    rows_of_chunk: RowsOfChunk
    systems: Mapping[str, Sequence[str]]
    references: Sequence[Sequence[str]]

    def __call__(self, cut: tuple[int, int]) -> dict[str, FloatArray]:
        """Compute segments ``cut[0]`` to ``cut[1]`` of every system."""
        start, stop = cut
        return self.rows_of_chunk(
            {name: lines[start:stop] for name, lines in self.systems.items()},
            [stream[start:stop] for stream in self.references],
            1,
        )
