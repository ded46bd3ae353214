"""A test set's statistics chunk by chunk: bounded memory, both cores, a pure chunk function.

Statistics are per segment, so a test set cut into runs of consecutive
segments can be counted run by run and the rows concatenated: the result
equals counting it whole. ``chunk_stats`` is the unit of work, a pure function
from text (every system's lines and the reference lines of the same segments)
to statistics columns, so chunks can go to threads here and to other machines
later. A chunk always holds whole segments: a segment's hypotheses and its
references are cut at the same line. Its references are indexed once and
reused for every system.

Tokenizers with a columnar replica run in pyarrow and numpy, which release the
GIL, so chunks run in threads. The others are sacrebleu's per-line Python
tokenizers: their chunks run one after another, each tokenized by forked worker
processes (``bleuviz.bleu.tokenize.tokenize_lines``), as before chunking.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise

import numpy as np

from bleuviz.arrays import IntArray
from bleuviz.bleu.columnar import COLUMNAR_TOKENIZERS
from bleuviz.bleu.orders import DEFAULT_ORDER
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.stats import SegmentStats, compute_stats
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import ConfigError
from bleuviz.progress import Progress

#: Characters (over every stream) a chunk holds at most, unless one segment alone is longer.
#: Counting peaks at about 30 bytes per character, so a chunk needs about 120 MiB.
CHUNK_CHARACTERS = 4_000_000
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
    n = len(streams[0]) if streams else 0
    sizes = np.zeros(n, dtype=np.int64)
    for stream in streams:
        sizes += np.fromiter(map(len, stream), np.int64, n)
    ends = np.cumsum(sizes)
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

    Equal to ``chunk_stats`` on the whole test set. ``workers`` threads count
    chunks of ``budget`` characters side by side (columnar tokenizers), or
    ``workers`` processes tokenize each chunk, ``PER_LINE_FACTOR`` times
    larger, in turn (per-line tokenizers); memory is then bounded by
    ``workers`` chunks at a time, not by the test set. ``progress`` hears how
    many segments are counted, chunk by chunk, in order.

    Raises:
        InputError: the streams do not all have the same number of lines.
    """
    columnar = tokenize.name in COLUMNAR_TOKENIZERS
    streams = [*references, *hypotheses.values()]
    aligned = bool(references) and all(len(s) == len(references[0]) for s in streams)
    size = budget if columnar else budget * PER_LINE_FACTOR
    bounds = chunk_bounds(streams, size).tolist() if aligned else []
    cuts = list(pairwise(bounds))
    if len(cuts) < 2:  # one chunk, or none; chunk_stats refuses unaligned streams
        return chunk_stats(hypotheses, references, tokenize, max_order, workers)

    def run(cut: tuple[int, int], inner: int) -> dict[str, SegmentStats]:
        start, stop = cut
        return chunk_stats(
            {name: lines[start:stop] for name, lines in hypotheses.items()},
            [stream[start:stop] for stream in references],
            tokenize,
            max_order,
            inner,
        )

    n = bounds[-1]
    parts: list[dict[str, SegmentStats]] = []

    def counted(part: dict[str, SegmentStats], stop: int) -> None:
        parts.append(part)
        if progress is not None:
            progress(f"{stop:,} of {n:,} segments", stop / n)

    if progress is not None:
        progress(f"0 of {n:,} segments", 0.0)
    if not columnar or workers < 2:
        for cut in cuts:
            counted(run(cut, workers), cut[1])
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for cut, part in zip(cuts, pool.map(run, cuts, [1] * len(cuts)), strict=True):
                counted(part, cut[1])
    return {name: SegmentStats.concat([part[name] for part in parts]) for name in hypotheses}
