"""chrF, chrF++, TER and ROUGE rows chunk by chunk, in worker processes or not: the same bits.

Oracles: the metric's rows of the whole test set in one process (``--jobs 1``'s
path), and sacrebleu 2.6's ``CHRF`` and ``TER`` statistics run live on the same
text. The chunk functions are pure, so any cut of the segments (empty runs and
empty lines included) concatenates to the whole.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from itertools import pairwise
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.ter import TER

from bleuviz import parallel
from bleuviz.io.testset import TestSet
from bleuviz.metrics import chrf_scorers, chunk_rows, rouge_metric, ter_parallel
from bleuviz.metrics.chrf_score import ChrfConfig
from bleuviz.metrics.registry import METRICS
from bleuviz.metrics.spec import MetricOptions, Settings
from bleuviz.metrics.ter_config import TerConfig
from tests.conftest import TINY_VOCABULARY
from tests.data import SAMPLE_REF_LINES, SAMPLE_SYSTEM_LINES

TER_CONFIGS = [
    TerConfig(),
    TerConfig(case_sensitive=True),
    TerConfig(normalized=True),
    TerConfig(no_punct=True),
    TerConfig(normalized=True, no_punct=True, asian_support=True),
]
CHRF_CONFIGS = (
    st.tuples(st.integers(0, 6), st.sampled_from([0, 2]), st.integers(1, 3))
    .filter(lambda orders: orders[0] + orders[1] > 0)
    .flatmap(
        lambda o: st.builds(ChrfConfig, st.just(o[0]), st.just(o[1]), st.just(o[2]), st.booleans())
    )
)
line = st.lists(st.sampled_from([*TINY_VOCABULARY, "(hi)", "Ünï"]), max_size=12).map(" ".join)


@st.composite
def corpora_of_two(draw: st.DrawFn) -> tuple[dict[str, list[str]], list[list[str]]]:
    """Two systems and 1-4 reference streams of 1-9 segments, empty lines often."""
    n = draw(st.integers(1, 9))
    lines = st.lists(line, min_size=n, max_size=n)
    systems = {"a": draw(lines), "b": draw(lines)}
    return systems, [draw(lines) for _ in range(draw(st.integers(1, 4)))]


@st.composite
def cuts(draw: st.DrawFn, n: int, empty: bool = True) -> list[tuple[int, int]]:
    """Runs covering ``0..n`` in order; with ``empty``, some may hold no segment."""
    inner = draw(st.lists(st.integers(0 if empty else 1, n), max_size=6))
    bounds = [0, *sorted(inner), n] if empty else sorted({0, *inner, n})
    return list(pairwise(bounds))


def concatenated(work, runs: Sequence[tuple[int, int]], names: Sequence[str]):  # type: ignore[no-untyped-def]
    """Each system's rows of ``runs``, computed one after another and concatenated."""
    parts = [work(run) for run in runs]
    return {name: np.concatenate([part[name] for part in parts]) for name in names}


@settings(max_examples=60, deadline=None)
@given(data=st.data(), test_set=corpora_of_two(), config=CHRF_CONFIGS)
def test_chrf_rows_of_any_chunks_equal_the_whole_and_sacrebleu(
    data: st.DataObject, test_set, config: ChrfConfig
) -> None:
    systems, refs = test_set
    count = partial(chrf_scorers._chrf_rows, config=config)
    whole = count(systems, refs, 1)
    runs = data.draw(cuts(len(refs[0])))
    got = concatenated(chunk_rows._Slices(count, systems, refs), runs, list(systems))
    oracle = CHRF(config.char_order, config.word_order, config.beta, config.lowercase)
    for name, hyps in systems.items():
        np.testing.assert_array_equal(got[name], whole[name])
        assert got[name].tolist() == oracle._extract_corpus_statistics(hyps, refs)


def sacrebleu_ter(hyps: Sequence[str], refs: Sequence[Sequence[str]], config: TerConfig):  # type: ignore[no-untyped-def]
    metric = TER(
        normalized=config.normalized,
        no_punct=config.no_punct,
        asian_support=config.asian_support,
        case_sensitive=config.case_sensitive,
    )
    return [list(row) for row in metric._extract_corpus_statistics(hyps, refs)]


@settings(max_examples=40, deadline=None)
@given(data=st.data(), test_set=corpora_of_two(), config=st.sampled_from(TER_CONFIGS))
def test_ter_rows_of_any_chunks_equal_the_whole_and_sacrebleu(
    data: st.DataObject, test_set, config: TerConfig
) -> None:
    systems, refs = test_set
    work = ter_parallel._Work(systems, refs, config)
    for name, hyps in systems.items():
        runs = data.draw(cuts(len(hyps)))
        got = np.concatenate([work((name, start, stop)) for start, stop in runs])
        np.testing.assert_array_equal(got, work((name, 0, len(hyps))))
        assert got.tolist() == sacrebleu_ter(hyps, refs, config)


@settings(max_examples=30, deadline=None)
@given(data=st.data(), test_set=corpora_of_two(), label=st.sampled_from(["ROUGE-1", "ROUGE-L"]))
def test_rouge_rows_of_any_chunks_equal_the_whole(data: st.DataObject, test_set, label) -> None:
    """rouge-score scores no empty run, and ``even_cuts`` cuts none."""
    systems, refs = test_set
    score = partial(rouge_metric._rouge_rows, spec=METRICS[label], stemmer=True)
    whole = score(systems, refs, 1)
    runs = data.draw(cuts(len(refs[0]), empty=False))
    got = concatenated(chunk_rows._Slices(score, systems, refs), runs, list(systems))
    for name in systems:
        np.testing.assert_array_equal(got[name], whole[name])


@contextmanager
def worker_processes(metric_module) -> Iterator[list[int]]:  # type: ignore[no-untyped-def]
    """Compute in forked processes from the first character (even beside pytest's threads);
    yield the number of tasks each pool was given."""
    if not sys.platform.startswith("linux"):
        pytest.skip("worker processes are forked on Linux only")
    fork = multiprocessing.get_context("fork")
    pools: list[int] = []
    real = parallel.in_processes

    def counted(work, tasks, workers, context):  # type: ignore[no-untyped-def]
        pools.append(len(tasks))
        return real(work, tasks, workers, context)

    with (
        mock.patch.object(metric_module, THRESHOLDS[metric_module], 0),
        mock.patch.object(parallel, "fork_context", lambda: fork),
        mock.patch.object(parallel, "in_processes", counted),
        mock.patch.object(ter_parallel, "in_processes", counted),
        mock.patch.object(ter_parallel, "CHUNK_SEGMENTS", 7),
        mock.patch.object(ter_parallel, "fork_context", lambda: fork),
    ):
        yield pools


SAMPLE = TestSet(
    {name: tuple(lines) for name, lines in SAMPLE_SYSTEM_LINES.items()},
    tuple(tuple(stream) for stream in SAMPLE_REF_LINES),
)
CASES = [
    ("chrF", Settings()),
    ("chrF++", Settings(options=MetricOptions(lowercase=True))),
    ("chrF", Settings(chrf=ChrfConfig(char_order=4, word_order=1, beta=1))),
    ("TER", Settings(ter=TerConfig(normalized=True, no_punct=True))),
    ("ROUGE-L", Settings(options=MetricOptions(stemmer=True))),
    ("ROUGE-2", Settings()),
]
MODULES = {"chrF": chrf_scorers, "chrF++": chrf_scorers, "TER": ter_parallel}
THRESHOLDS = {
    chrf_scorers: "PROCESSES_FROM",
    rouge_metric: "PROCESSES_FROM",
    ter_parallel: "PARALLEL_FROM",
}


@pytest.mark.parametrize(("label", "settings_"), CASES)
@pytest.mark.parametrize("workers", [2, 3])
def test_rows_from_worker_processes_equal_one_process(label: str, settings_, workers) -> None:  # type: ignore[no-untyped-def]
    metric = METRICS[label]
    ter_parallel.clear_cache()
    one = metric.rows(SAMPLE, settings_)  # workers 1
    ter_parallel.clear_cache()
    with worker_processes(MODULES.get(label, rouge_metric)) as pools:
        many = metric.rows(SAMPLE, Settings(**_fields(settings_, workers=workers)))
    assert pools and all(tasks >= workers for tasks in pools)
    assert list(many) == list(one)
    for name in one:
        np.testing.assert_array_equal(many[name], one[name])
    if label.startswith("chrF"):
        config = metric.config(settings_)  # type: ignore[attr-defined]
        oracle = CHRF(config.char_order, config.word_order, config.beta, config.lowercase)
        for name, hyps in SAMPLE.systems.items():
            assert many[name].tolist() == oracle._extract_corpus_statistics(hyps, SAMPLE.references)
    if label == "TER":
        for name, hyps in SAMPLE.systems.items():
            assert many[name].tolist() == sacrebleu_ter(hyps, SAMPLE.references, settings_.ter)


def _fields(settings_: Settings, **changes: object) -> dict[str, object]:
    names = ("bleu", "tokenize", "options", "chrf", "ter", "workers")
    return {name: getattr(settings_, name) for name in names} | changes


@pytest.mark.parametrize("label", ["chrF", "ROUGE-1"])
def test_below_the_threshold_no_pool_is_started(label: str) -> None:
    module = chrf_scorers if label == "chrF" else rouge_metric
    started = mock.Mock(side_effect=AssertionError("a process pool was started"))
    fork = multiprocessing.get_context("fork")
    characters = sum(len(line) for stream in (*SAMPLE.systems.values(), *SAMPLE.references)
                     for line in stream)  # fmt: skip
    with (
        mock.patch.object(module, "PROCESSES_FROM", characters + 1),
        mock.patch.object(parallel, "fork_context", lambda: fork),
        mock.patch.object(parallel, "in_processes", started),
    ):
        METRICS[label].rows(SAMPLE, Settings(workers=2))
    started.assert_not_called()
