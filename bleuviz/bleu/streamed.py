"""BLEU's statistics of files too large to hold, counted chunk by chunk as they are read.

Files too large to hold are read chunk by chunk (``bleuviz.io.line_chunks``), and
``streamed_stats`` counts each chunk as ``bleuviz.bleu.chunks`` counts a chunk of a
whole test set (the same rows, the same threads or processes) as it is read,
at most ``workers`` chunks ahead of the one counted; a worker process is sent
its chunk's bytes, undecoded, since there is no whole text to inherit: it
decodes them itself. Sent as lines, a chunk of 4M characters took about 40 ms
to pickle here and 35 to unpickle there, beside 40 to decode; bytes pickle as
a copy, and this process only finds where lines end (``bleuviz.io.line_chunks``).
Streamed chunks hold ``STREAMED_CHARACTERS``: peak memory of the whole ``score
--sentence-level`` command at 100,000 segments x 2 references (bench_core's
lines, 34M characters) was 339 / 216 / 161 / 127 MiB with chunks of 4M / 2M /
1M / 0.5M characters under 13a (two threads), 611 / 492 / 416 / 395 MiB under
intl (two forked processes, RSS), for the same CPU time (4.0-4.4 s and 8.8-9.7 s);
but ``--jobs 1`` took 3.08 / 2.99 / 3.09 s with chunks of 4M / 2M / 1M characters
against 2.92 s reading the whole text (medians of 3 alternating runs), so 2M.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Protocol

from bleuviz.bleu.chunks import CHUNK_CHARACTERS, chunk_plan, chunk_stats
from bleuviz.bleu.columnar import COLUMNAR_TOKENIZERS
from bleuviz.bleu.orders import DEFAULT_ORDER
from bleuviz.bleu.stats import SegmentStats
from bleuviz.bleu.tokenize import TokenizeConfig

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

#: Characters (over every stream) a streamed chunk holds at most (``streamed_budget``;
#: measured: see the module docstring).
STREAMED_CHARACTERS = 2_000_000


#: One chunk of a test set read as it is counted: each system's lines, and the references'
#: lines of the same segments.
Segments = tuple[Mapping[str, Sequence[str]], Sequence[Sequence[str]]]


class Undecoded(Protocol):
    """A chunk still to be decoded (a file's bytes), by whoever counts it: a worker process
    is sent the bytes and pays for the decoding and the strings, not this process."""

    def segments(self) -> Segments:
        """Decode the chunk's lines.

        Raises:
            InputError: they cannot be decoded (the message names the file and line).
        """
        ...


def streamed_budget(characters: int, tokenize: TokenizeConfig, workers: int) -> int:
    """Return the characters a streamed chunk holds at most, for a test set of ``characters``.

    ``STREAMED_CHARACTERS``, or less for worker processes (as ``chunked_stats`` plans
    them: ``CHUNKS_PER_WORKER`` each at least). A per-line tokenizer counted here is
    not given chunks ``PER_LINE_FACTOR`` times larger: with no whole text held, a
    larger chunk would only hold more tokens at once.
    """
    context, size = chunk_plan(characters, tokenize, workers, STREAMED_CHARACTERS)
    return size if context is not None else STREAMED_CHARACTERS


def streamed_stats(
    chunks: Iterable[Segments | Undecoded],
    tokenize: TokenizeConfig,
    max_order: int = DEFAULT_ORDER,
    workers: int = 1,
    characters: int = 0,
) -> Iterator[dict[str, SegmentStats]]:
    """Count chunks as they are read; yield each chunk's rows, in order.

    The same rows as ``chunk_stats`` on each chunk, counted as ``chunked_stats``
    counts a test set of ``characters`` (its size, known before it is read):
    ``workers`` forked processes in a process that may fork, from
    ``COLUMNAR_PROCESSES_FROM`` or ``PROCESSES_FROM`` characters, each sent its
    chunk (the whole text is never held, so there is none to inherit; an
    ``Undecoded`` chunk is decoded by whoever counts it);
    else ``workers`` threads for a columnar tokenizer, or here, one chunk after
    another. At most ``workers`` chunks are read ahead of the one yielded, so
    memory holds a few chunks, not the test set.

    Raises:
        InputError: a chunk's streams do not all have the same number of lines.
    """
    context, _ = chunk_plan(characters, tokenize, workers, CHUNK_CHARACTERS)
    count = _ChunkCount(tokenize, max_order)
    if context is not None:
        yield from _stream_in_processes(chunks, count, workers, context)
    elif tokenize.name in COLUMNAR_TOKENIZERS and workers > 1:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            yield from _in_threads(pool, count, chunks, workers)
    else:
        for chunk in chunks:
            yield count(chunk, workers)


@dataclass(frozen=True, slots=True)
class _ChunkCount:
    """``chunk_stats`` of one chunk under fixed settings (sent to worker processes)."""

    tokenize: TokenizeConfig
    max_order: int

    def __call__(self, chunk: Segments | Undecoded, workers: int = 1) -> dict[str, SegmentStats]:
        hypotheses, references = chunk if isinstance(chunk, tuple) else chunk.segments()
        return chunk_stats(hypotheses, references, self.tokenize, self.max_order, workers)


def _in_threads(
    pool: Executor, count: _ChunkCount, chunks: Iterable[Segments | Undecoded], ahead: int
) -> Iterator[dict[str, SegmentStats]]:
    """Count each chunk in ``pool`` while at most ``ahead`` more wait; yield the rows in order.

    ``Executor.map`` would read every chunk first, hence the whole text.
    """
    pending: deque[Future[dict[str, SegmentStats]]] = deque()
    for chunk in chunks:
        pending.append(pool.submit(count, chunk))
        if len(pending) > ahead:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def _stream_in_processes(
    chunks: Iterable[Segments | Undecoded],
    count: _ChunkCount,
    workers: int,
    context: BaseContext,
) -> Iterator[dict[str, SegmentStats]]:
    """Count chunks in ``workers`` forked processes, in order, each sent its chunk.

    At most ``workers`` chunks wait beyond the one yielded. If the pool breaks (a
    worker killed), the chunks not yet counted are counted here.
    """
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    todo = iter(chunks)
    waiting: deque[Segments | Undecoded] = deque()  # sent, or being sent, and not yet yielded
    futures: deque[Future[dict[str, SegmentStats]]] = deque()
    try:
        with ProcessPoolExecutor(workers, context) as pool:
            for chunk in todo:
                waiting.append(chunk)
                futures.append(pool.submit(count, chunk))
                while len(futures) > workers:
                    yield _next_part(waiting, futures)
            while futures:
                yield _next_part(waiting, futures)
    except BrokenProcessPool:
        pass
    for chunk in chain(list(waiting), todo):  # the rest one at a time, never all read
        yield count(chunk)


def _next_part(
    waiting: deque[Segments | Undecoded], futures: deque[Future[dict[str, SegmentStats]]]
) -> dict[str, SegmentStats]:
    """The first waiting chunk's rows, once counted; it waits no more."""
    part = futures[0].result()
    waiting.popleft()
    futures.popleft()
    return part
