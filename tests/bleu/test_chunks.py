"""Tests of chunked counting (bleuviz.bleu.chunks): chunks concatenate to the whole.

Oracles: ``chunk_stats`` on the whole test set (one reference index, no
chunking, one process), and sacrebleu 2.6.0 ``BLEU()._extract_corpus_statistics``
for the rows ``[hyp_len, ref_len, correct_1..N, total_1..N]``. Worker processes
are tested with both thresholds (``PROCESSES_FROM``, ``COLUMNAR_PROCESSES_FROM``)
set to 0, so that a few segments go to them.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import pairwise
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU

from bleuviz import parallel
from bleuviz.bleu import chunks
from bleuviz.bleu.chunks import chunk_bounds, chunk_stats, chunked_stats
from bleuviz.bleu.corpus import compute_corpus_stats
from bleuviz.bleu.stats import SegmentStats
from bleuviz.bleu.tokenize import TOKENIZERS, TokenizeConfig, get_tokenizer
from bleuviz.errors import ConfigError, InputError
from bleuviz.io.assemble import build_testset
from tests.conftest import TINY_VOCABULARY

tokenize_configs = st.builds(
    TokenizeConfig, st.sampled_from(["13a", "intl", "zh", "char", "none"]), st.booleans()
)


def sacrebleu_rows(hyps, refs, tokenize, max_order):  # type: ignore[no-untyped-def]
    """The oracle: sacrebleu's per-segment statistics as an int64 array."""
    metric = BLEU(tokenize=tokenize.name, lowercase=tokenize.lowercase, max_ngram_order=max_order)
    rows = metric._extract_corpus_statistics(hyps, refs)
    return np.asarray(rows, dtype=np.int64).reshape(len(hyps), 2 + 2 * max_order)


def assert_same_rows(got: SegmentStats, expected: SegmentStats) -> None:
    np.testing.assert_array_equal(got.to_matrix(), expected.to_matrix())


@settings(max_examples=80, deadline=None)
@given(
    data=st.data(),
    tok=tokenize_configs,
    max_order=st.integers(1, 5),
    budget=st.integers(1, 60),
    workers=st.sampled_from([1, 2]),
)
def test_chunked_rows_equal_whole_and_sacrebleu(
    data: st.DataObject, corpora, tok: TokenizeConfig, max_order: int, budget: int, workers: int
) -> None:
    """Small budgets cut the test set into many chunks, often one segment each."""
    hyps, refs = data.draw(corpora)
    other = list(reversed(hyps))
    systems = {"a": hyps, "b": other}
    got = chunked_stats(systems, refs, tok, max_order, workers, budget)
    whole = chunk_stats(systems, refs, tok, max_order)
    for name, lines in systems.items():
        assert_same_rows(got[name], whole[name])
        np.testing.assert_array_equal(
            got[name].sacrebleu_rows(), sacrebleu_rows(lines, refs, tok, max_order)
        )


@given(
    lengths=st.lists(st.lists(st.integers(0, 30), min_size=2, max_size=2), max_size=20),
    budget=st.integers(1, 80),
)
def test_chunk_bounds_cut_whole_segments_within_budget(
    lengths: list[list[int]], budget: int
) -> None:
    streams = [["x" * pair[s] for pair in lengths] for s in range(2)]
    bounds = chunk_bounds(streams, budget)
    sizes = [sum(pair) for pair in lengths]
    assert bounds[0] == 0
    assert bounds[-1] == len(lengths)
    assert len(bounds) == 1 or (np.diff(bounds) > 0).all()
    for start, stop in pairwise(bounds.tolist()):
        # Within the budget, unless one segment alone is over it; never one more that fits.
        assert stop - start == 1 or sum(sizes[start:stop]) <= budget
        if stop < len(sizes):
            assert sum(sizes[start : stop + 1]) > budget


def test_corpus_stats_chunked_in_threads_equal_one_chunk() -> None:
    lines = [f"w{i % 7} w{i % 5} , w{i % 3} w{i % 11} ." for i in range(300)]
    refs = [[f"w{i % 5} w{i % 7} , w{i % 3} ." for i in range(300)], lines[::-1]]
    testset = build_testset([("a", tuple(lines)), ("b", tuple(refs[0]))], [tuple(r) for r in refs])
    chunked = compute_corpus_stats(testset, TokenizeConfig(), 4, workers=2, budget=500)
    whole = compute_corpus_stats(testset, TokenizeConfig(), 4, workers=1, budget=10**9)
    assert (chunked.tokenize, chunked.n_refs) == (TokenizeConfig(), 2)
    for name in ("a", "b"):
        assert_same_rows(chunked.systems[name], whole.systems[name])


@pytest.mark.parametrize(("workers", "tokenize"), [(2, "13a"), (1, "13a"), (1, "intl")])
def test_progress_counts_the_segments_chunk_by_chunk(workers: int, tokenize: str) -> None:
    lines = [f"w{i % 7} w{i % 5} , w{i % 3} w{i % 11} ." for i in range(300)]
    refs = [[f"w{i % 5} w{i % 7} , w{i % 3} ." for i in range(300)]]
    config = TokenizeConfig(tokenize)
    seen: list[tuple[str, float]] = []
    budget = 500 if tokenize == "13a" else 60  # per-line tokenizers get chunks 8 times larger
    stats = chunked_stats(
        {"a": lines}, refs, config, 4, workers, budget, progress=lambda *r: seen.append(r)
    )
    assert_same_rows(stats["a"], chunked_stats({"a": lines}, refs, config, 4, 1, 10**9)["a"])
    counted = [int(what.split(" of ")[0].replace(",", "")) for what, _ in seen]
    assert seen[0] == ("0 of 300 segments", 0.0) and seen[-1] == ("300 of 300 segments", 1.0)
    assert len(seen) > 3 and counted == sorted(set(counted))  # every chunk, in order
    assert all(f == c / 300 for c, (_, f) in zip(counted, seen, strict=True))


def test_unaligned_streams_are_refused_as_before() -> None:
    with pytest.raises(InputError, match="hypotheses: 1 lines but the references have 2"):
        chunked_stats({"a": ["x"]}, [["x", "y"]], TokenizeConfig(), budget=1)
    with pytest.raises(InputError, match="stream 1 has 2 lines but stream 2 has 1"):
        chunked_stats({"a": ["x", "y"]}, [["x", "y"], ["x"]], TokenizeConfig(), budget=1)
    with pytest.raises(InputError, match="at least one reference stream"):
        chunked_stats({"a": ["x"]}, [], TokenizeConfig())


def test_bad_budget_and_no_parts_are_refused() -> None:
    with pytest.raises(ConfigError, match="budget: must be at least 1"):
        chunk_bounds([["x"]], 0)
    with pytest.raises(ConfigError, match="parts: at least one"):
        SegmentStats.concat([])


@contextmanager
def worker_processes() -> Iterator[None]:
    """Count in forked worker processes from the first character (both thresholds 0).

    Forked even beside another thread (pytest-xdist's): the workers only count.
    """
    if not sys.platform.startswith("linux"):
        pytest.skip("worker processes are forked on Linux only")
    fork = multiprocessing.get_context("fork")
    with (
        mock.patch.object(chunks, "PROCESSES_FROM", 0),
        mock.patch.object(chunks, "COLUMNAR_PROCESSES_FROM", 0),
        mock.patch.object(parallel, "fork_context", lambda: fork),
    ):
        yield


def loadable(name: str) -> str:
    """Return ``name``, skipping a tokenizer whose optional extra is not installed."""
    try:
        get_tokenizer(name)
    except ConfigError as exc:
        pytest.skip(str(exc))
    return name


@st.composite
def systems_and_references(draw: st.DrawFn) -> tuple[dict[str, list[str]], list[list[str]]]:
    """0-12 segments, 1-4 references, 1-2 systems; empty lines and all-empty segments common."""
    n = draw(st.integers(0, 12))
    word = st.sampled_from([*TINY_VOCABULARY, "Über", "日本語", "x.y", "1,000"])
    line = st.lists(word, max_size=12).map(" ".join)
    stream = st.lists(line | st.just(""), min_size=n, max_size=n)
    refs = draw(st.lists(stream, min_size=1, max_size=4))
    systems = draw(st.lists(stream, min_size=1, max_size=2))
    return {f"s{i}": lines for i, lines in enumerate(systems)}, refs


@pytest.mark.parametrize("name", TOKENIZERS)
@settings(max_examples=25, deadline=None)
@given(
    test_set=systems_and_references(),
    lowercase=st.booleans(),
    max_order=st.integers(1, 4),
    budget=st.integers(1, 80),
    jobs=st.integers(1, 3),
)
def test_rows_are_the_same_whatever_the_jobs_and_the_chunks(
    name: str,
    test_set: tuple[dict[str, list[str]], list[list[str]]],
    lowercase: bool,
    max_order: int,
    budget: int,
    jobs: int,
) -> None:
    """Every tokenizer, 1-4 references, chunks of a segment or more, 1-3 worker processes."""
    systems, refs = test_set
    tok = TokenizeConfig(loadable(name), lowercase)
    with worker_processes():
        got = chunked_stats(systems, refs, tok, max_order, jobs, budget)
    whole = chunk_stats(systems, refs, tok, max_order)
    assert list(got) == list(systems)
    for system in systems:
        for got_column, whole_column in zip(
            got[system]._columns(), whole[system]._columns(), strict=True
        ):
            assert got_column.dtype == whole_column.dtype
            np.testing.assert_array_equal(got_column, whole_column, strict=True)


#: A per-line tokenizer (sacrebleu's own): its chunks go to worker processes.
INTL = TokenizeConfig("intl")


def small_test_set() -> tuple[list[str], list[list[str]]]:
    lines = [f"w{i % 7} w{i % 5} , w{i % 3} w{i % 11} ." for i in range(300)]
    return lines, [[f"w{i % 5} w{i % 7} , w{i % 3} ." for i in range(300)], lines[::-1]]


@pytest.mark.parametrize("tokenize", ["13a", "intl"])  # threads, processes
def test_worker_processes_report_progress_chunk_by_chunk_in_order(tokenize: str) -> None:
    lines, refs = small_test_set()
    config = TokenizeConfig(tokenize)
    seen: list[tuple[str, float]] = []
    with worker_processes():
        stats = chunked_stats({"a": lines}, refs, config, 4, 2, 500, lambda *r: seen.append(r))
    assert_same_rows(stats["a"], chunk_stats({"a": lines}, refs, config, 4)["a"])
    counted = [int(what.split(" of ")[0].replace(",", "")) for what, _ in seen]
    assert seen[0] == ("0 of 300 segments", 0.0) and seen[-1] == ("300 of 300 segments", 1.0)
    assert len(seen) > 3 and counted == sorted(set(counted))


def test_a_worker_process_is_sent_bounds_and_counts_chunks_at_least_per_worker() -> None:
    """Each worker counts several chunks of about an even share (``CHUNKS_PER_WORKER``)."""
    lines, refs = small_test_set()
    sent: list[tuple[int, int]] = []
    real = chunks._in_processes

    def spy(work, cuts, workers, context, counted):  # type: ignore[no-untyped-def]
        sent.extend(cuts)
        return real(work, cuts, workers, context, counted)

    with (
        worker_processes(),
        mock.patch.object(chunks, "_in_processes", spy),
    ):
        chunked_stats({"a": lines}, refs, INTL, 4, 3, 10**9)
    assert len(sent) >= 3 * chunks.CHUNKS_PER_WORKER
    assert sent[0][0] == 0 and sent[-1][1] == 300
    assert all(isinstance(bound, int) for cut in sent for bound in cut)


def test_below_the_threshold_no_process_is_started() -> None:
    lines, refs = small_test_set()
    started = mock.Mock(side_effect=AssertionError("a process pool was started"))
    fork = multiprocessing.get_context("fork")
    with (
        mock.patch.object(parallel, "fork_context", lambda: fork),
        mock.patch.object(chunks, "_in_processes", started),
    ):
        stats = chunked_stats({"a": lines}, refs, INTL, 4, 2, 500)
    started.assert_not_called()
    assert_same_rows(stats["a"], chunk_stats({"a": lines}, refs, INTL, 4)["a"])


PARENT = os.getpid()


def die_in_a_worker(cut: tuple[int, int]) -> dict[str, SegmentStats]:
    """A chunk function whose worker dies from segment 100 on (as killed by the OOM killer)."""
    if os.getpid() == PARENT:
        raise AssertionError("a chunk was sent to a worker but counted in the parent")
    if cut[0] >= 100:
        os._exit(1)
    return parallel._adopted[0](cut)


def test_a_broken_pool_leaves_the_chunks_left_to_this_process() -> None:
    lines, refs = small_test_set()
    seen: list[tuple[str, float]] = []
    with (
        worker_processes(),
        mock.patch.object(parallel, "_run_adopted", die_in_a_worker),
    ):
        stats = chunked_stats({"a": lines}, refs, INTL, 4, 2, 500, lambda *r: seen.append(r))
    assert_same_rows(stats["a"], chunk_stats({"a": lines}, refs, INTL, 4)["a"])
    counted = [int(what.split(" of ")[0].replace(",", "")) for what, _ in seen]
    assert counted[-1] == 300 and counted == sorted(set(counted))


@pytest.mark.parametrize("tokenize", ["13a", "intl"])
def test_each_tokenizer_goes_to_processes_from_its_own_threshold(tokenize: str) -> None:
    """Columnar tokenizers from ``COLUMNAR_PROCESSES_FROM``, per-line ones ``PROCESSES_FROM``."""
    lines, refs = small_test_set()
    config = TokenizeConfig(tokenize)
    characters = sum(len(line) for stream in (lines, *refs) for line in stream)
    own, other = ("PROCESSES_FROM", "COLUMNAR_PROCESSES_FROM")[:: -1 if tokenize == "13a" else 1]
    for start, pooled in ((characters + 1, False), (characters, True)):
        pool = mock.Mock(side_effect=chunks._in_processes)
        with (
            worker_processes(),
            mock.patch.object(chunks, own, start),
            mock.patch.object(chunks, other, 0),  # the other kind's threshold is no matter
            mock.patch.object(chunks, "_in_processes", pool),
        ):
            stats = chunked_stats({"a": lines}, refs, config, 4, 2, 500)
        assert pool.called == pooled
        assert_same_rows(stats["a"], chunk_stats({"a": lines}, refs, config, 4)["a"])


def test_columnar_chunks_count_in_threads_where_forking_is_unsafe() -> None:
    """The app's threaded server (no fork context): two threads, no process pool."""
    lines, refs = small_test_set()
    started = mock.Mock(side_effect=AssertionError("a process pool was started"))
    threads = mock.Mock(side_effect=chunks.ThreadPoolExecutor)
    with (
        mock.patch.object(chunks, "COLUMNAR_PROCESSES_FROM", 0),
        mock.patch.object(parallel, "fork_context", lambda: None),
        mock.patch.object(chunks, "_in_processes", started),
        mock.patch.object(chunks, "ThreadPoolExecutor", threads),
    ):
        stats = chunked_stats({"a": lines}, refs, TokenizeConfig("13a"), 4, 2, 500)
    started.assert_not_called()
    threads.assert_called_once_with(max_workers=2)
    assert_same_rows(stats["a"], chunk_stats({"a": lines}, refs, TokenizeConfig(), 4)["a"])
