"""The vectorized n-gram match statistics against a plain ``Counter`` count.

Oracles: numpy's stable ``argsort`` for :func:`sort_with_index`, and for
:func:`match_statistics` sacrebleu's definition written out per segment with ``collections.Counter``
(``CHRF._get_match_statistics``: n-gram totals of both sides, a hypothesis total
of 0 where the reference has no n-gram of the order, and ``sum(min(hyp, ref))``
matches). ``tests/metrics/test_chrf_columnar.py`` checks the whole chrF against
sacrebleu itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.metrics import ngram_counts
from bleuviz.metrics.ngram_counts import IdStream, match_statistics, sort_with_index


def reference_statistics(
    hyps: list[list[int]], refs: list[list[int]], max_order: int
) -> list[list[list[int]]]:
    """``[hyp n-grams, ref n-grams, matches]`` per segment and order, one Counter at a time."""
    rows = []
    for hyp, ref in zip(hyps, refs, strict=True):
        row = []
        for n in range(1, max_order + 1):
            h = Counter(tuple(hyp[i : i + n]) for i in range(len(hyp) - n + 1))
            r = Counter(tuple(ref[i : i + n]) for i in range(len(ref) - n + 1))
            n_hyp, n_ref = h.total(), r.total()
            matches = sum(min(count, r[gram]) for gram, count in h.items())
            row.append([n_hyp if n_ref else 0, n_ref, matches])
        rows.append(row)
    return rows


def stream(lines: list[list[int]]) -> IdStream:
    ids = np.array([i for line in lines for i in line], dtype=np.int64)
    return IdStream(ids, np.array([len(line) for line in lines], dtype=np.int64))


@st.composite
def id_streams(draw: st.DrawFn) -> tuple[list[list[int]], list[list[int]]]:
    """Hypothesis and reference lines of ids below a bound, often few (so n-grams repeat)."""
    bound = draw(st.sampled_from([1, 2, 3, 7, 0x110000]))
    alphabet = st.integers(0, min(bound, 4) - 1) | st.integers(0, bound - 1)
    n = draw(st.integers(1, 8))
    lines = st.lists(st.lists(alphabet, max_size=20), min_size=n, max_size=n)
    return draw(lines), draw(lines)


#: sort_with_index's two sorts, by the bits it may pack into (0 forces the argsort).
SORTS = {"packed sort": 63, "argsort": 0}
#: match_statistics' three ways: (prefix key bits, sort bits); 0 prefix bits forces ranks.
COUNTS = {"prefixes": (63, 63), "ranks, packed sort": (0, 63), "ranks, argsort": (0, 0)}


@contextmanager
def sort_path(name: str) -> Iterator[None]:
    """Make :func:`sort_with_index` take the sort ``name`` (the packed one only where keys fit)."""
    with count_path("ranks, packed sort" if SORTS[name] else "ranks, argsort"):
        yield


@contextmanager
def count_path(name: str) -> Iterator[None]:
    """Make :func:`match_statistics` count the way ``name`` (prefixes only where keys fit)."""
    saved = ngram_counts._PREFIX_KEY_BITS, ngram_counts._INT64_BITS
    ngram_counts._PREFIX_KEY_BITS, ngram_counts._INT64_BITS = COUNTS[name]
    try:
        yield
    finally:
        ngram_counts._PREFIX_KEY_BITS, ngram_counts._INT64_BITS = saved


@settings(max_examples=200, deadline=None)
@given(keys=st.lists(st.integers(0, 2**62), max_size=60) | st.lists(st.integers(0, 5)))
def test_sort_with_index_is_a_stable_argsort(keys: list[int]) -> None:
    array = np.array(keys, dtype=np.int64)
    bound = max(keys, default=0) + 1
    want = np.argsort(array, kind="stable")
    for name in SORTS:
        with sort_path(name):
            ordered, where = sort_with_index(array, bound)
        assert where.tolist() == want.tolist()
        assert ordered.tolist() == array[want].tolist()


@settings(max_examples=150, deadline=None)
@given(data=id_streams(), max_order=st.integers(1, 5))
def test_match_statistics_equal_counters(
    data: tuple[list[list[int]], list[list[int]]], max_order: int
) -> None:
    hyps, refs = data
    want = reference_statistics(hyps, refs, max_order)
    for name in COUNTS:
        with count_path(name):
            got = match_statistics(stream(hyps), stream(refs), max_order)
        assert got.tolist() == want, name


@pytest.mark.parametrize("workers", [1, 3])
@pytest.mark.parametrize("way", COUNTS)
def test_many_chunks_equal_one(way: str, workers: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Segments are cut into chunks of CHUNK_POSITIONS (counted by threads); counts stay."""
    rng = np.random.default_rng(11)
    hyps = [rng.integers(0, 5, rng.integers(0, 40)).tolist() for _ in range(60)]
    refs = [rng.integers(0, 5, rng.integers(0, 40)).tolist() for _ in range(60)]
    want = reference_statistics(hyps, refs, 6)
    for positions in (1, 50, 1 << 15):
        monkeypatch.setattr(ngram_counts, "CHUNK_POSITIONS", positions)
        with count_path(way):
            got = match_statistics(stream(hyps), stream(refs), 6, workers)
        assert got.tolist() == want


def test_an_error_in_a_counting_thread_is_raised_in_the_caller() -> None:
    def work(cut: tuple[int, int]) -> None:
        if cut == (3, 4):  # dealt to the second thread
            raise ValueError("chunk 3")

    with pytest.raises(ValueError, match="chunk 3"):
        ngram_counts._in_threads(work, [(i, i + 1) for i in range(6)], 2)


@pytest.mark.parametrize("segments", [2, 4, 5, 8, 40])
def test_keys_at_the_edge_of_63_bits(segments: int) -> None:
    """600 distinct ids take 10 bits, so 6 of them 60: a chunk of up to 4 segments fits
    (2 segment bits, 1 side bit); from 5 segments the chunk is counted by ranks."""
    rng = np.random.default_rng(segments)
    alphabet = np.arange(0, 6000, 10)
    hyps = [rng.choice(alphabet[:40], rng.integers(0, 60)).tolist() for _ in range(segments)]
    refs = [rng.choice(alphabet[:40], rng.integers(0, 60)).tolist() for _ in range(segments)]
    refs[0] = refs[0] + alphabet.tolist()  # every id occurs
    got = match_statistics(stream(hyps), stream(refs), 6)
    assert got.tolist() == reference_statistics(hyps, refs, 6)
