"""Tests of BLEU counted and reduced chunk by chunk (``streamed.streamed_stats``,
``summary.reduce_stats``): every number equals the whole test set's.

Oracle: ``chunk_stats`` on the whole test set (one chunk, one process), its
``sentence_scores`` and its summed rows; equality is bit for bit.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from itertools import pairwise
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.bleu import streamed
from bleuviz.bleu.chunks import chunk_stats
from bleuviz.bleu.config import BleuConfig
from bleuviz.bleu.flavors import FLAVORS
from bleuviz.bleu.score import sentence_scores
from bleuviz.bleu.stats import SegmentStats
from bleuviz.bleu.streamed import Segments, streamed_stats
from bleuviz.bleu.summary import reduce_stats
from bleuviz.bleu.tokenize import TOKENIZERS, TokenizeConfig
from bleuviz.errors import InputError
from tests.bleu.test_chunks import (
    INTL,
    loadable,
    systems_and_references,
    worker_processes,
)


def cut(
    systems: dict[str, list[str]], refs: list[list[str]], bounds: list[int]
) -> Iterator[Segments]:
    """The test set's chunks between ``bounds`` (empty chunks included)."""
    for start, stop in pairwise(bounds):
        yield (
            {name: lines[start:stop] for name, lines in systems.items()},
            [stream[start:stop] for stream in refs],
        )


@st.composite
def bounds_for(draw: st.DrawFn, n: int) -> list[int]:
    """Chunk bounds from 0 to ``n``: any cut, repeated cuts (empty chunks), one chunk."""
    inner = draw(st.lists(st.integers(0, n), max_size=6))
    return [0, *sorted(inner), n]


@pytest.mark.parametrize("name", TOKENIZERS)
@settings(max_examples=20, deadline=None)
@given(
    data=st.data(),
    test_set=systems_and_references(),
    lowercase=st.booleans(),
    flavor=st.sampled_from(sorted(FLAVORS)),
    jobs=st.integers(1, 3),
)
def test_streamed_rows_and_reduction_equal_the_whole_test_set_s(
    data: st.DataObject,
    name: str,
    test_set: tuple[dict[str, list[str]], list[list[str]]],
    lowercase: bool,
    flavor: str,
    jobs: int,
) -> None:
    """Every tokenizer and flavour, 1-4 references, chunks cut anywhere, 1-3 workers."""
    systems, refs = test_set
    n = len(refs[0])
    if n == 0:
        return
    tok = TokenizeConfig(loadable(name), lowercase)
    config = BleuConfig(flavor=flavor)
    order = config.stats_order
    bounds = data.draw(bounds_for(n))
    whole = chunk_stats(systems, refs, tok, order)
    with worker_processes():
        parts = list(streamed_stats(cut(systems, refs, bounds), tok, order, jobs, characters=1))
    assert len(parts) == len(bounds) - 1
    for system in systems:
        joined = SegmentStats.concat([part[system] for part in parts])
        for got, expected in zip(joined._columns(), whole[system]._columns(), strict=True):
            np.testing.assert_array_equal(got, expected, strict=True)
    reduced = reduce_stats(iter(parts), config, keep_columns=True, keep_rows=True)
    for system, result in reduced.items():
        stats = whole[system]
        np.testing.assert_array_equal(
            result.sentence, sentence_scores(stats, config).score, strict=True
        )
        np.testing.assert_array_equal(result.corpus.total().to_matrix(), stats.total().to_matrix())
        last = result.corpus.select([len(result.corpus) - 1])
        np.testing.assert_array_equal(last.to_matrix(), stats.select([n - 1]).to_matrix())
        assert len(result.corpus) == min(n, 2)
        columns = result.columns
        assert columns is not None
        k = config.max_order
        np.testing.assert_array_equal(columns.matches, stats.matches[:, :k])
        np.testing.assert_array_equal(columns.totals, stats.totals[:, :k])
        np.testing.assert_array_equal(columns.hyp_len, stats.hyp_len)
        np.testing.assert_array_equal(columns.ref_len, config.flavor_spec.ref_lengths(stats))
        assert result.rows is not None
        np.testing.assert_array_equal(result.rows, stats.to_matrix(), strict=True)


def test_streamed_chunks_are_read_no_further_ahead_than_the_workers() -> None:
    """At most ``workers`` chunks wait beyond the one yielded: the text is never read whole."""
    lines = [f"w{i % 7} w{i % 5} , w{i % 3} ." for i in range(40)]
    bounds = list(range(0, 41, 2))
    read: list[int] = []

    def reading() -> Iterator[Segments]:
        for i, chunk in enumerate(cut({"a": lines}, [lines[::-1]], bounds)):
            read.append(i)
            yield chunk

    for tokenize, workers in (("13a", 2), ("intl", 2), ("13a", 1)):
        read.clear()
        with worker_processes():
            parts = streamed_stats(reading(), TokenizeConfig(tokenize), 4, workers, 1)
            for yielded, _ in enumerate(parts):
                assert len(read) <= yielded + 1 + workers
        assert len(read) == len(bounds) - 1


def test_no_chunk_or_no_segment_is_refused() -> None:
    with pytest.raises(InputError, match="no segments"):
        reduce_stats(iter([]), BleuConfig())
    empty = chunk_stats({"a": []}, [[]], TokenizeConfig())
    with pytest.raises(InputError, match="no segments"):
        reduce_stats(iter([empty]), BleuConfig())


PARENT = os.getpid()
REAL_COUNT = streamed._ChunkCount.__call__


def die_in_a_worker(
    self: streamed._ChunkCount, chunk: Segments, workers: int = 1
) -> dict[str, SegmentStats]:
    """Count a chunk, but die in a worker from the chunk holding line ``w10`` on (OOM-killed)."""
    if os.getpid() != PARENT and "w10 x" in chunk[0]["a"]:
        os._exit(1)
    return REAL_COUNT(self, chunk, workers)


def test_a_broken_pool_leaves_the_chunks_left_to_this_process() -> None:
    lines = [f"w{i} x" for i in range(30)]
    bounds = [0, 5, 10, 15, 20, 25, 30]
    whole = chunk_stats({"a": lines}, [lines[::-1]], INTL)["a"]
    with worker_processes(), mock.patch.object(streamed._ChunkCount, "__call__", die_in_a_worker):
        parts = list(streamed_stats(cut({"a": lines}, [lines[::-1]], bounds), INTL, 4, 2, 1))
    joined = SegmentStats.concat([part["a"] for part in parts])
    np.testing.assert_array_equal(joined.to_matrix(), whole.to_matrix())
