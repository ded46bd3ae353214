"""The batched TER (edits, statistics, parallel and cached scoring) against sacrebleu 2.6.

Oracles, run live: ``sacrebleu.metrics.lib_ter.translation_edit_rate`` for the
edits of a pair of word lists, and ``TER(...)._extract_corpus_statistics`` for a
corpus's statistics. Equality is exact.
"""

from __future__ import annotations

import itertools
import random
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import lib_ter
from sacrebleu.metrics.ter import TER

from bleuviz.metrics import ter_parallel
from bleuviz.metrics.ter_config import TerConfig
from bleuviz.metrics.ter_parallel import clear_cache, ter_systems
from bleuviz.metrics.ter_score import ter_statistics
from bleuviz.metrics.ter_shifts import edit_counts
from tests.data import SAMPLE_HYPS, SAMPLE_REFS

WORDS = ["a", "b", "c", "d", "the", "cat", ",", "."]


def check_edits(pairs: Sequence[tuple[list[str], list[str]]]) -> None:
    vocabulary: dict[str, int] = {}

    def ids(words: list[str]) -> list[int]:
        return [vocabulary.setdefault(w, len(vocabulary)) for w in words]

    got = edit_counts([ids(h) for h, _ in pairs], [ids(r) for _, r in pairs])
    want = [lib_ter.translation_edit_rate(h, r)[0] for h, r in pairs]
    assert got == want


sentences = st.lists(st.sampled_from(WORDS), max_size=30)


@settings(max_examples=200, deadline=None)
@given(pairs=st.lists(st.tuples(sentences, sentences), min_size=1, max_size=6))
def test_edits_equal_sacrebleu_on_random_word_lists(
    pairs: list[tuple[list[str], list[str]]],
) -> None:
    check_edits(pairs)


@settings(max_examples=15, deadline=None)
@given(
    short=st.lists(st.sampled_from(WORDS), min_size=1, max_size=2),
    long=st.lists(st.sampled_from(WORDS), min_size=51, max_size=110),
)
def test_very_unequal_lengths_widen_the_beam_as_sacrebleu(
    short: list[str], long: list[str]
) -> None:
    """A reference over 50 times longer than the hypothesis widens sacrebleu's beam."""
    check_edits([(short, long), (long, short)])


def test_long_repetitive_segments_stop_at_sacrebleus_candidate_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rnd = random.Random(0)
    hyp = [rnd.choice("ab") for _ in range(50)]
    ref = hyp[25:] + [rnd.choice("abc") for _ in range(10)] + hyp[:25]
    capped = []
    shift = lib_ter._shift

    def counting(*args):  # type: ignore[no-untyped-def]
        result = shift(*args)
        capped.append(result[2] >= lib_ter._MAX_SHIFT_CANDIDATES)
        return result

    monkeypatch.setattr(lib_ter, "_shift", counting)
    check_edits([(hyp, ref)])
    assert any(capped)  # the case this test is about


def sacrebleu_stats(
    hyps: Sequence[str], refs: Sequence[Sequence[str]], config: TerConfig
) -> list[list[float]]:
    metric = TER(
        normalized=config.normalized,
        no_punct=config.no_punct,
        asian_support=config.asian_support,
        case_sensitive=config.case_sensitive,
    )
    return metric._extract_corpus_statistics(hyps, refs)


CONFIGS = [
    TerConfig(),
    TerConfig(case_sensitive=True),
    TerConfig(normalized=True),
    TerConfig(no_punct=True),
    TerConfig(normalized=True, no_punct=True, asian_support=True),
]


@pytest.mark.parametrize("config", CONFIGS)
def test_statistics_equal_sacrebleu_on_the_sample(config: TerConfig) -> None:
    refs = [path.read_text(encoding="utf-8").splitlines() for path in SAMPLE_REFS]
    for path in SAMPLE_HYPS if config == TerConfig() else SAMPLE_HYPS[:1]:
        hyps = path.read_text(encoding="utf-8").splitlines()
        assert ter_statistics(hyps, refs, config).tolist() == sacrebleu_stats(hyps, refs, config)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_statistics_equal_sacrebleu_on_random_text(data: st.DataObject) -> None:
    text = st.lists(
        st.one_of(
            st.sampled_from([*WORDS, "A", "&quot;", "中文", "。", " ", "\t", "'s"]),
            st.text(max_size=3),
        ),
        max_size=12,
    ).map(" ".join)
    n = data.draw(st.integers(1, 5))
    hyps = data.draw(st.lists(text, min_size=n, max_size=n))
    refs = [
        data.draw(st.lists(text, min_size=n, max_size=n))
        for _ in range(data.draw(st.integers(1, 3)))
    ]
    config = data.draw(st.sampled_from(CONFIGS))
    assert ter_statistics(hyps, refs, config).tolist() == sacrebleu_stats(hyps, refs, config)


def _segments_done(reports: Sequence[tuple[str, float]]) -> list[int]:
    """The segments done each report says ("1,280 of 22,500 segments (12 systems)")."""
    return [int(text.split(" of ")[0].replace(",", "")) for text, _ in reports[:-1]]


@pytest.mark.parametrize("workers", [1, 2])
def test_workers_cache_and_progress(monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    """Progress counts segments, chunk by chunk, within a system and across systems."""
    refs = [path.read_text(encoding="utf-8").splitlines() for path in SAMPLE_REFS]
    systems = {path.name: path.read_text(encoding="utf-8").splitlines() for path in SAMPLE_HYPS}
    monkeypatch.setattr(ter_parallel, "PARALLEL_FROM", 1)
    monkeypatch.setattr(ter_parallel, "FORKSERVER_FROM_PAIRS", 0)  # a pool, threads or not
    monkeypatch.setattr(ter_parallel, "CHUNK_SEGMENTS", 50)
    monkeypatch.setattr(ter_parallel, "CHUNK_PAIRS", 4_000)  # a few hundred a segment here
    clear_cache()
    reports: list[tuple[str, float]] = []
    first = ter_systems(
        systems, refs, TerConfig(), workers=workers, progress=lambda *r: reports.append(r)
    )
    n, total = len(systems), sum(len(hyps) for hyps in systems.values())
    assert reports[-1] == (f"{n} systems scored", 1.0)
    done = _segments_done(reports)
    assert all(text.endswith(f" of {total:,} segments ({n} systems)") for text, _ in reports[:-1])
    steps = np.diff(done)
    assert done[0] == 0 and done[-1] == total and (steps > 0).all()
    assert [fraction for _, fraction in reports[:-1]] == [d / total for d in done]
    # Each chunk is counted as it ends: several within the first system.
    assert sum(0 < d < len(refs[0]) for d in done) >= 2
    assert steps.max() <= 50
    for name, hyps in systems.items():
        assert first[name].tolist() == sacrebleu_stats(hyps, refs, TerConfig())
        with pytest.raises(ValueError):
            first[name][0, 0] = 1.0  # read-only: shared with the cache
    reports.clear()
    again = ter_systems(
        systems, refs, TerConfig(), workers=2, progress=lambda *r: reports.append(r)
    )
    assert all(again[name] is first[name] for name in systems)  # not scored twice
    assert reports == [("0 systems scored", 1.0)]
    other = ter_systems(systems, refs[:1], TerConfig(), workers=1)  # here, chunk by chunk
    assert not np.array_equal(other["hyp.terse.en"], first["hyp.terse.en"])
    for name, hyps in systems.items():
        assert other[name].tolist() == sacrebleu_stats(hyps, refs[:1], TerConfig())


@pytest.mark.parametrize(
    ("words", "most"),
    [
        (20, ter_parallel.CHUNK_SEGMENTS),  # sentences (WMT17 en-de): the segment cap
        (220, 5),  # paragraphs (WMT22 zh-en, 1.7k characters): a few seconds a chunk
        (2_000, 1),  # past the budget alone: one segment, never none
    ],
)
def test_chunks_hold_a_budget_of_word_pairs(words: int, most: int) -> None:
    pairs = np.full(1_875, words * words, dtype=np.int64)  # one reference as long
    chunks = ter_parallel._chunks(pairs)
    assert chunks[0].start == 0 and chunks[-1].stop == len(pairs)
    assert all(a.stop == b.start for a, b in itertools.pairwise(chunks))
    sizes = [c.stop - c.start for c in chunks]
    assert max(sizes) == most
    assert all(size >= 1 for size in sizes)
    budget = ter_parallel.CHUNK_PAIRS
    assert all(int(pairs[c].sum()) <= budget or len(pairs[c]) == 1 for c in chunks)


@pytest.mark.parametrize("threads", [1, 2])
def test_worker_processes_are_started_only_for_work_worth_it(
    monkeypatch: pytest.MonkeyPatch, threads: int
) -> None:
    """Forked workers from PARALLEL_FROM segments; a fork server's (a threaded caller's,
    a second's start-up each) from FORKSERVER_FROM_PAIRS word pairs."""
    refs = [["a b c", "d e"], ["a b", "d e f g"]]
    systems = {"x": ["a b c d", "e"], "y": ["a", "b c"]}
    pairs = 4 * (3 + 2) + 1 * (2 + 4) + 1 * (3 + 2) + 2 * (2 + 4)  # hyp words x ref words
    monkeypatch.setattr(ter_parallel.threading, "active_count", lambda: threads)
    monkeypatch.setattr(ter_parallel, "_prepared", threading.Event())  # no fork server yet
    monkeypatch.setattr(ter_parallel, "PARALLEL_FROM", 4)
    monkeypatch.setattr(ter_parallel, "FORKSERVER_FROM_PAIRS", pairs + 1)

    def worth(todo: list[str], workers: int) -> bool:
        return ter_parallel._worth_a_pool(ter_parallel._pairs(systems, todo, refs), workers)

    assert worth(["x", "y"], 2) is (threads == 1)
    assert worth(["x"], 2) is False  # 2 segments: below PARALLEL_FROM
    assert worth(["x", "y"], 1) is False  # one worker: this process
    monkeypatch.setattr(ter_parallel, "FORKSERVER_FROM_PAIRS", pairs)
    assert worth(["x", "y"], 2) is True
    monkeypatch.setattr(ter_parallel, "FORKSERVER_FROM_PAIRS", 10**9)
    ter_parallel._prepared.set()  # prepare_workers started the fork server: workers start at once
    assert worth(["x", "y"], 2) is True


def test_prepared_workers_score_a_threaded_callers_systems(monkeypatch: pytest.MonkeyPatch) -> None:
    """After prepare_workers, a threaded caller's systems go to the fork server's workers."""
    refs = [path.read_text(encoding="utf-8").splitlines() for path in SAMPLE_REFS]
    systems = {path.name: path.read_text(encoding="utf-8").splitlines() for path in SAMPLE_HYPS}
    pools: list[int] = []
    real_in_pool = ter_parallel._in_pool

    def in_pool(*args: Any) -> Any:
        pools.append(len(args[1]))
        return real_in_pool(*args)

    monkeypatch.setattr(ter_parallel, "_in_pool", in_pool)
    monkeypatch.setattr(ter_parallel, "_prepared", threading.Event())
    monkeypatch.setattr(ter_parallel, "PARALLEL_FROM", 1)
    monkeypatch.setattr(ter_parallel, "CHUNK_SEGMENTS", 40)
    monkeypatch.setattr(ter_parallel.threading, "active_count", lambda: 3)  # a server's
    ter_parallel.prepare_workers(["json"])
    assert "json" in ter_parallel._preload
    clear_cache()
    stats = ter_systems(systems, refs, TerConfig(), workers=2)
    assert pools == [len(systems)]
    for name, hyps in systems.items():
        assert stats[name].tolist() == sacrebleu_stats(hyps, refs, TerConfig())
