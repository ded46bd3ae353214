"""A test set's first count in worker processes gives the statistics the server's own count gives.

The start-up count (``start_up.count_ahead``) and any first count of a test set go to
worker processes from ``count_workers.WORKERS_FROM`` characters; a count an interactive
rerun asks for stays in the server. Oracle: the same count in this process
(``compute_corpus_stats``, the path every other test holds against sacrebleu), column by
column; the sidebar's scores against sacrebleu 2.6's ``corpus_bleu``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import fields
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
import streamlit
from hypothesis import given
from hypothesis import strategies as hst
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.cache import count_workers, counting
from bleuviz.app.ui.frame.start_up import count_ahead
from bleuviz.bleu.corpus import CorpusStats, compute_corpus_stats
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.io.load import load_paths
from bleuviz.io.testset import TestSet
from tests.app.test_upload_order import give, uploading
from tests.data import ROOT, SAMPLE_HYPS, SAMPLE_REF_LINES, SAMPLE_REFS, SAMPLE_SYSTEM_LINES

ARGV = ("--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS))
SAMPLE = load_paths(list(map(str, SAMPLE_HYPS)), list(map(str, SAMPLE_REFS)))


def assert_same_statistics(got: CorpusStats, expected: CorpusStats) -> None:
    """Every system's every column (``SegmentStats``' fields) holds the same numbers."""
    assert list(got.systems) == list(expected.systems)
    assert (got.tokenize, got.n_refs) == (expected.tokenize, expected.n_refs)
    for name, stats in expected.systems.items():
        for column in fields(stats):
            want = getattr(stats, column.name)
            have = getattr(got.systems[name], column.name)
            assert have.dtype == want.dtype, (name, column.name)
            np.testing.assert_array_equal(have, want, err_msg=f"{name}: {column.name}")


@pytest.fixture
def only_in_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail any count that ``count_in_workers`` would do in this process instead."""

    def refuse(_: TestSet, cuts: list[tuple[int, int]], *__: object) -> None:
        if cuts:
            raise AssertionError("counted in the server's process, not in worker processes")

    monkeypatch.setattr(count_workers, "_count_here", refuse)


def start_up_count(
    monkeypatch: pytest.MonkeyPatch, workspace: Path, workers_from: int
) -> CorpusStats:
    """Run the server's start-up count on the sample's files, as a new server would."""
    streamlit.cache_resource.clear()
    counting._EARLY.clear()
    counting._COUNTED.clear()
    monkeypatch.setenv("BLEUVIZ_WORKSPACE", str(workspace))
    monkeypatch.setattr("sys.argv", ["serve.py", *ARGV])
    monkeypatch.setattr(count_workers, "WORKERS_FROM", workers_from)
    assert count_ahead() is not None
    ((work, _),) = counting._EARLY.values()
    return work.result(timeout=120)


@pytest.mark.usefixtures("only_in_workers")
def test_the_start_up_count_in_workers_equals_the_count_in_the_server(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    in_workers = start_up_count(monkeypatch, tmp_path / "a", workers_from=0)
    in_server = start_up_count(monkeypatch, tmp_path / "b", workers_from=10**18)
    assert_same_statistics(in_workers, in_server)
    assert count_workers._ready is None  # the workers started ahead were taken, not left


def many_references(n_refs: int) -> TestSet:
    """The sample's systems against ``n_refs`` references (its two, then its systems)."""
    streams = [*SAMPLE.references, *SAMPLE.systems.values()]
    return TestSet(dict(SAMPLE.systems), tuple(streams[:n_refs]))


@pytest.mark.usefixtures("only_in_workers")
@pytest.mark.parametrize(
    ("tokenizer", "lowercase", "n_refs"),
    [
        ("13a", False, 2),  # columnar, the default
        ("13a", True, 1),
        ("intl", False, 3),  # sacrebleu's own, per line
        ("char", False, 4),
        ("zh", True, 2),
        ("none", False, 1),
    ],
)
def test_counting_in_workers_equals_counting_here(
    tokenizer: str, lowercase: bool, n_refs: int
) -> None:
    testset = many_references(n_refs)
    tokenize = TokenizeConfig(tokenizer, lowercase=lowercase)
    workers = count_workers.take_workers()
    got = count_workers.count_in_workers(testset, tokenize, 4, workers)
    assert_same_statistics(got, compute_corpus_stats(testset, tokenize, 4))


def test_the_count_reports_its_chunks_in_order() -> None:
    tokenize = TokenizeConfig("13a")
    heard: list[tuple[str, float]] = []
    workers = count_workers.take_workers()
    count_workers.count_in_workers(SAMPLE, tokenize, 4, workers, lambda *r: heard.append(r))
    n = SAMPLE.n_segments
    assert len(heard) > 3  # the start, then one report per chunk
    assert heard[0] == (f"0 of {n:,} segments", 0.0)
    assert heard[-1] == (f"{n:,} of {n:,} segments", 1.0)
    assert [f for _, f in heard] == sorted(f for _, f in heard)


@pytest.mark.parametrize(
    "failure", [BrokenProcessPool("a worker was killed"), OSError(24, "Too many open files")]
)
def test_without_workers_the_server_counts_the_chunks_itself(failure: Exception) -> None:
    tokenize = TokenizeConfig("13a")
    broken: Future[ProcessPoolExecutor] = Future()
    broken.set_exception(failure)
    got = count_workers.count_in_workers(SAMPLE, tokenize, 4, broken)
    assert_same_statistics(got, compute_corpus_stats(SAMPLE, tokenize, 4))


def test_workers_that_fail_to_start_leave_the_count_to_the_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_pool() -> ProcessPoolExecutor:
        raise ValueError("no worker today")

    monkeypatch.setattr(count_workers, "_new_pool", no_pool)
    count_workers.prepare_counting()  # starts them on a thread, which fails
    tokenize = TokenizeConfig("13a")
    got = count_workers.count_in_workers(SAMPLE, tokenize, 4, count_workers.take_workers())
    assert_same_statistics(got, compute_corpus_stats(SAMPLE, tokenize, 4))


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry each time a count takes the workers, from the first character on."""
    taken: list[int] = []
    real = counting.take_workers

    def take() -> Future[ProcessPoolExecutor]:
        taken.append(1)
        return real()

    monkeypatch.setattr(counting, "take_workers", take)
    monkeypatch.setattr(count_workers, "WORKERS_FROM", 0)
    counting._COUNTED.clear()
    return taken


def test_a_first_count_goes_to_workers_and_a_recount_stays_in_the_server(
    new_app: Callable[..., AppTest], taken: list[int]
) -> None:
    app = new_app(*ARGV)
    app.run()
    assert not app.exception and not app.error
    assert taken == [1]  # the files' first count
    app.selectbox(key="tokenize").set_value("intl").run()
    assert not app.exception and not app.error
    assert taken == [1]  # another tokenizer: counted in the server
    expected = {
        name: f"{sacrebleu.corpus_bleu(lines, SAMPLE_REF_LINES, tokenize='intl').score:.2f}"
        for name, lines in SAMPLE_SYSTEM_LINES.items()
    }
    assert {m.label.split(" · ")[-1]: m.value for m in app.metric} == expected


def test_workers_started_for_nothing_are_stopped() -> None:
    count_workers.prepare_counting()
    prepared = count_workers._ready
    assert prepared is not None
    count_workers.release_counting()
    assert count_workers._ready is None
    pool = prepared.result(timeout=120)
    deadline = time.monotonic() + 30  # the pool is shut down once started (on its thread)
    while time.monotonic() < deadline:
        try:
            pool.submit(int)
        except RuntimeError as exc:
            assert "shutdown" in str(exc)
            return
        time.sleep(0.05)
    raise AssertionError("the workers started for nothing are still running")


@pytest.mark.parametrize(("jobs", "expected"), [("1", False), ("2", True), ("3", True)])
def test_bleuviz_jobs_sets_the_workers_as_on_the_command_line(
    monkeypatch: pytest.MonkeyPatch, jobs: str, expected: bool
) -> None:
    monkeypatch.setenv("BLEUVIZ_JOBS", jobs)
    assert count_workers.jobs() == int(jobs)
    assert count_workers.worth_workers(count_workers.WORKERS_FROM) is expected
    assert not count_workers.worth_workers(count_workers.WORKERS_FROM - 1)


def test_an_upload_is_counted_in_workers(new_app: Callable[..., AppTest], taken: list[int]) -> None:
    app = uploading(new_app)  # the bundled sample first: its own first count
    before = len(taken)
    give(give(app, "hyp"), "ref")
    assert not app.error, [e.value for e in app.error]
    assert len(taken) == before + 1  # the uploaded set's first count
    uploaded = {name: SAMPLE_SYSTEM_LINES[name] for name in ("literal", "terse")}
    expected = {
        name: f"{sacrebleu.corpus_bleu(lines, SAMPLE_REF_LINES).score:.2f}"
        for name, lines in uploaded.items()
    }
    assert {m.label.split(" · ")[-1]: m.value for m in app.metric} == expected


@given(
    lengths=hst.lists(hst.integers(0, 400), min_size=1, max_size=300),
    workers=hst.integers(1, 4),
)
def test_the_chunks_cover_every_segment_once_with_even_shares(
    lengths: list[int], workers: int
) -> None:
    lines = tuple("x" * n for n in lengths)
    testset = TestSet({"sys": lines}, (lines,))
    cuts = count_workers._cuts(testset, workers)
    assert cuts[0][0] == 0 and cuts[-1][1] == len(lines)
    assert all(a < b for a, b in cuts)  # no empty chunk
    assert all(stop == start for (_, stop), (start, _) in pairwise(cuts))  # contiguous
    pieces = workers * count_workers.CHUNKS_PER_WORKER
    assert len(cuts) <= pieces
    share, longest = 2 * sum(lengths) / pieces, 2 * max(lengths)
    for start, stop in cuts:  # a share, give or take the segment that reaches it
        assert 2 * sum(lengths[start:stop]) <= share + longest


def test_a_worker_imports_no_streamlit() -> None:
    """The fork server imports ``COUNTING_MODULES`` for every worker (the initializer's too)."""
    code = (
        "import importlib, sys\n"
        f"for name in {count_workers.COUNTING_MODULES!r}: importlib.import_module(name)\n"
        "from bleuviz.heap import keep_freed_memory\n"
        "keep_freed_memory()\n"
        "print(sorted(n for n in sys.modules if n.split('.')[0] == 'streamlit'))\n"
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout
