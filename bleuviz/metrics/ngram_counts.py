"""Per-segment n-gram match statistics of integer-id streams, in vectorized passes.

chrF and chrF++ need, for every segment and n-gram order, the hypothesis and
reference n-gram counts and the clipped matches ``sum(min(hyp count, ref count))``
(sacrebleu's ``CHRF._get_match_statistics``). Here a chunk's hypothesis and
reference lines are laid out one after the other, each line followed by a
sentinel id of its side; order n's n-grams are keyed by (the order n-1 n-gram's
rank, next id), with the segment as the order-1 rank, and sorted (one numpy
sort), so equal n-grams of a segment are a run whose two sides are counted from
the positions. Only positions whose n-gram occurs on both sides go on to the
next order; an n-gram that runs into a sentinel never does (the two sides'
sentinels differ), so n-grams never cross a line. No Python object per n-gram,
no per-segment Python, and no pandas (its import alone costs a command 0.2 s).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from bleuviz.arrays import IntArray


@dataclass(frozen=True, slots=True, eq=False)
class IdStream:
    """N lines of integer ids.

    Attributes:
        ids: (T,) non-negative ids, line after line.
        lengths: (N,) ids of every line.
    """

    ids: IntArray
    lengths: IntArray


#: Positions (hypothesis plus reference) per chunk of segments: arrays that fit
#: in the CPU cache, and few enough numpy calls that two threads rarely wait for
#: the GIL (WMT17's 316,000 + 317,000 characters, 6 orders, on 2 cores: 1 << 15
#: positions 67 ms, 1 << 16 60 ms, 1 << 17 67 ms); a position fits in 16 bits
#: of a packed key.
CHUNK_POSITIONS = 1 << 16
#: Bits of a non-negative int64.
_INT64_BITS = 63


def match_statistics(
    hyp: IdStream, ref: IdStream, radix: int, max_order: int, workers: int = 1
) -> IntArray:
    """Return (N, max_order, 3) ``[hyp n-grams, ref n-grams, matches]`` per segment and order.

    ``radix`` is larger than every id. As in sacrebleu, the hypothesis count of an
    order is 0 where the reference has no n-gram of that order ("don't count hits
    if no reference exists for that n-gram"). Segments are independent, so they
    are counted in chunks, by ``workers`` threads (numpy releases the GIL in its
    loops: on 2 cores, two threads count WMT17's 9 systems x 3,004 segments
    about 1.6 times as fast as one).
    """
    out = np.zeros((len(hyp.lengths), max_order, 3), dtype=np.int64)
    orders = np.arange(1, max_order + 1)
    ref_count = np.maximum(ref.lengths[:, None] - orders + 1, 0)
    out[:, :, 1] = ref_count
    out[:, :, 0] = np.where(ref_count > 0, np.maximum(hyp.lengths[:, None] - orders + 1, 0), 0)
    hyp_bounds = np.concatenate([[0], np.cumsum(hyp.lengths)])
    ref_bounds = np.concatenate([[0], np.cumsum(ref.lengths)])
    cuts = _chunks(hyp_bounds + ref_bounds)

    def count(cut: tuple[int, int]) -> None:
        first, last = cut
        chunk_hyp = IdStream(hyp.ids[hyp_bounds[first] : hyp_bounds[last]], hyp.lengths[first:last])
        chunk_ref = IdStream(ref.ids[ref_bounds[first] : ref_bounds[last]], ref.lengths[first:last])
        out[first:last, :, 2] = _chunk_matches(chunk_hyp, chunk_ref, radix, max_order)

    _in_threads(count, cuts, workers)
    return out


def _in_threads(
    work: Callable[[tuple[int, int]], None], cuts: list[tuple[int, int]], workers: int
) -> None:
    """Call ``work`` on every cut, the cuts dealt out to ``workers`` threads (this one included).

    Plain threads rather than ``concurrent.futures``, whose import (with
    ``logging``) costs a chrF command 8 ms; the first error is raised here.
    """
    shares = [cuts[i :: max(1, workers)] for i in range(min(max(1, workers), len(cuts)))]
    errors: list[BaseException] = []

    def run(share: list[tuple[int, int]]) -> None:
        try:
            for cut in share:
                work(cut)
        except BaseException as error:  # re-raised in the calling thread
            errors.append(error)

    helpers = [threading.Thread(target=run, args=(share,)) for share in shares[1:]]
    for helper in helpers:
        helper.start()
    run(shares[0] if shares else [])
    for helper in helpers:
        helper.join()
    if errors:
        raise errors[0]


def _chunks(bounds: IntArray) -> list[tuple[int, int]]:
    """Cut segments into runs of about CHUNK_POSITIONS positions (at least one segment each).

    ``bounds`` (N + 1,) holds the positions before each segment.
    """
    cuts, first = [], 0
    while first < len(bounds) - 1:
        end = int(np.searchsorted(bounds, bounds[first] + CHUNK_POSITIONS, "right")) - 1
        last = min(max(first + 1, end), len(bounds) - 1)
        cuts.append((first, last))
        first = last
    return cuts


def _chunk_matches(hyp: IdStream, ref: IdStream, radix: int, max_order: int) -> IntArray:
    """Return (n, max_order) clipped matches of a few segments.

    An order-n n-gram can only match if the order n-1 n-gram it starts with
    occurs on both sides of its segment; other positions are dropped as the
    order grows (their n-grams still count in the totals, from the lengths).
    Ranks of (segment or order n-1 rank, next id) rise with the segment, so a
    segment's n-grams are a run of ranks.
    """
    n_segments = len(hyp.lengths)
    ids, seg, split_at = _layout(hyp, ref, radix)
    radix += 2  # the two sentinels
    matches = np.zeros((n_segments, max_order), dtype=np.int64)
    # Every position but the last (a sentinel), and its order n-1 n-gram's rank.
    positions = np.arange(len(ids) - 1, dtype=np.int64)
    rank = seg[:-1]
    n_ranks = n_segments
    for order in range(1, max_order + 1):
        if not len(positions):
            break
        keys, where = sort_with_index(rank * radix + ids[positions + order - 1], n_ranks * radix)
        positions = positions[where]
        first = np.empty(len(keys), dtype=bool)
        first[0] = True
        np.not_equal(keys[1:], keys[:-1], out=first[1:])
        starts = np.flatnonzero(first)
        bounds = np.append(starts, len(keys))
        refs_before = np.concatenate([[0], np.cumsum(positions >= split_at)])
        in_ref = np.diff(refs_before[bounds])
        clipped = np.minimum(np.diff(bounds) - in_ref, in_ref)
        matched = np.bincount(seg[positions[starts]], weights=clipped, minlength=n_segments)
        matches[:, order - 1] = matched  # float64 sums of counts: exact below 2**53
        runs = np.cumsum(first) - 1
        shared = (clipped > 0)[runs]
        positions, rank, n_ranks = positions[shared], runs[shared], len(starts)
    return matches


def sort_with_index(keys: IntArray, bound: int) -> tuple[IntArray, IntArray]:
    """Return ``keys`` sorted, and where each sorted key was (equal keys in their order).

    ``keys`` lie in ``[0, bound)``. The keys are sorted with their positions packed
    in the low bits, one ``np.sort`` (numpy's SIMD sort, faster on a chunk than a
    stable ``argsort`` or pandas' hash table); keys too large to share 63 bits with
    a position take a stable ``argsort`` instead.
    """
    n = len(keys)
    bits = max(n - 1, 0).bit_length()
    if (max(bound, 1) - 1).bit_length() + bits <= _INT64_BITS:
        packed = (keys << bits) | np.arange(n, dtype=np.int64)
        packed.sort()
        return packed >> bits, packed & ((1 << bits) - 1)
    where = np.argsort(keys, kind="stable")
    return keys[where], where


def _layout(hyp: IdStream, ref: IdStream, radix: int) -> tuple[IntArray, IntArray, int]:
    """Return both streams' ids, each position's segment, and where the reference side starts.

    Every line is followed by its side's sentinel id: ``radix`` in the
    hypothesis, ``radix + 1`` in the reference.
    """
    ids_parts, seg_parts = [], []
    for stream, sentinel in ((hyp, radix), (ref, radix + 1)):
        rows = len(stream.lengths)
        ids = np.full(len(stream.ids) + rows, sentinel, dtype=np.int64)
        text = np.ones(len(ids), dtype=bool)
        text[np.cumsum(stream.lengths + 1) - 1] = False
        ids[text] = stream.ids
        ids_parts.append(ids)
        seg_parts.append(np.repeat(np.arange(rows, dtype=np.int64), stream.lengths + 1))
    return np.concatenate(ids_parts), np.concatenate(seg_parts), len(ids_parts[0])
