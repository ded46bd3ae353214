"""Per-segment n-gram match statistics of integer-id streams, in vectorized passes.

chrF and chrF++ need, for every segment and n-gram order, the hypothesis and
reference n-gram counts and the clipped matches ``sum(min(hyp count, ref count))``
(sacrebleu's ``CHRF._get_match_statistics``). The totals follow from the line
lengths; the matches are counted in chunks of segments whose hypothesis and
reference lines are laid out one after the other, each line followed by a pad
id of its side. Ids are renumbered 1..A over both streams first (A distinct
ids; the hypothesis pad is 0, the reference pad A + 1), so that an n-gram of
small ids packs into one integer:

* prefixes (the usual case, when the segment, ``max_order`` ids and a side bit
  fit in 63 bits: characters of alphabets up to a few hundred letters, chrF++'s
  word pairs): every position's key is (segment, the ``max_order`` ids from it,
  side). One numpy sort of the keys puts, for every order n at once, each
  segment's equal n-grams in a run (the keys' top bits), whose two sides are
  counted from the side bits.
* ranks (larger alphabets): order n's n-grams are keyed by (the order n-1
  n-gram's rank, next id), with the segment as the order-1 rank, and sorted once
  per order; only positions whose n-gram occurs on both sides go on.

Either way an n-gram that runs into a pad never matches (the two sides' pads
differ), so n-grams never cross a line. No Python object per n-gram, no
per-segment Python, and no pandas (its import alone costs a command 0.2 s).
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
#: the GIL (WMT17's 316,000 + 317,000 characters, 6 orders, by prefixes, medians
#: with 1 and 2 threads: 1 << 14 positions 41 and 44 ms, 1 << 15 39 and 35 ms,
#: 1 << 16 43 and 33 ms, 1 << 17 56 and 39 ms).
CHUNK_POSITIONS = 1 << 16
#: Bits of a non-negative int64.
_INT64_BITS = 63
#: Bits a prefix key may take (a chunk whose keys need more is counted by ranks).
_PREFIX_KEY_BITS = _INT64_BITS


def match_statistics(hyp: IdStream, ref: IdStream, max_order: int, workers: int = 1) -> IntArray:
    """Return (N, max_order, 3) ``[hyp n-grams, ref n-grams, matches]`` per segment and order.

    As in sacrebleu, the hypothesis count of an order is 0 where the reference
    has no n-gram of that order ("don't count hits if no reference exists for
    that n-gram"). Segments are independent, so they are counted in chunks, by
    ``workers`` threads (numpy releases the GIL in its loops).
    """
    out = np.zeros((len(hyp.lengths), max_order, 3), dtype=np.int64)
    orders = np.arange(1, max_order + 1)
    ref_count = np.maximum(ref.lengths[:, None] - orders + 1, 0)
    out[:, :, 1] = ref_count
    out[:, :, 0] = np.where(ref_count > 0, np.maximum(hyp.lengths[:, None] - orders + 1, 0), 0)
    new_id = _renumbering(hyp.ids, ref.ids)
    alphabet = int(new_id[-1])
    hyp_bounds = np.concatenate([[0], np.cumsum(hyp.lengths)])
    ref_bounds = np.concatenate([[0], np.cumsum(ref.lengths)])
    id_bits = (alphabet + 1).bit_length()

    def count(cut: tuple[int, int]) -> None:
        first, last = cut
        hyp_ids = new_id[hyp.ids[hyp_bounds[first] : hyp_bounds[last]]]
        ref_ids = new_id[ref.ids[ref_bounds[first] : ref_bounds[last]]]
        chunk = _layout(
            IdStream(hyp_ids, hyp.lengths[first:last]),
            IdStream(ref_ids, ref.lengths[first:last]),
            alphabet + 1,
            max_order,
        )
        segment_bits = max(last - first - 1, 0).bit_length()
        if segment_bits + max_order * id_bits + 1 <= _PREFIX_KEY_BITS:
            out[first:last, :, 2] = _prefix_matches(chunk, id_bits, max_order)
        else:
            out[first:last, :, 2] = _ranked_matches(chunk, alphabet + 2, max_order)

    _in_threads(count, _chunks(hyp_bounds + ref_bounds), workers)
    return out


def _renumbering(hyp_ids: IntArray, ref_ids: IntArray) -> IntArray:
    """Return each old id's new one, 1..A in the order of the old ids (A is the last).

    Applied a chunk at a time, so the streams are never copied whole.
    """
    size = int(max(hyp_ids.max(initial=0), ref_ids.max(initial=0))) + 1
    present = np.zeros(size, dtype=bool)
    present[hyp_ids] = True
    present[ref_ids] = True
    new_id: IntArray = np.cumsum(present)
    return new_id


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


@dataclass(frozen=True, slots=True, eq=False)
class _Chunk:
    """A few segments' lines laid out for counting.

    Attributes:
        ids: (M + max_order,) the hypothesis lines, then the reference lines,
            each line followed by its side's pad, then ``max_order`` reference
            pads (so that every position has ``max_order`` ids from it).
        segment: (M,) each position's segment in the chunk.
        split_at: where the reference lines start.
        n_segments: segments in the chunk.
    """

    ids: IntArray
    segment: IntArray
    split_at: int
    n_segments: int


def _layout(hyp: IdStream, ref: IdStream, ref_pad: int, max_order: int) -> _Chunk:
    """Lay a chunk's lines out: ids ``1..ref_pad - 1``, the hypothesis pad 0."""
    ids_parts, seg_parts = [], []
    for stream, pad in ((hyp, 0), (ref, ref_pad)):
        rows = len(stream.lengths)
        ids = np.full(len(stream.ids) + rows, pad, dtype=np.int64)
        text = np.ones(len(ids), dtype=bool)
        text[np.cumsum(stream.lengths + 1) - 1] = False
        ids[text] = stream.ids
        ids_parts.append(ids)
        seg_parts.append(np.repeat(np.arange(rows, dtype=np.int64), stream.lengths + 1))
    tail = np.full(max_order, ref_pad, dtype=np.int64)
    return _Chunk(
        np.concatenate([*ids_parts, tail]),
        np.concatenate(seg_parts),
        len(ids_parts[0]),
        len(hyp.lengths),
    )


def _prefix_matches(chunk: _Chunk, id_bits: int, max_order: int) -> IntArray:
    """Return (n, max_order) clipped matches, every order from one sort of packed keys.

    A position's key is (segment, its ``max_order`` ids, side); sorted, the keys
    sharing their top bits down to the n-th id are one segment's occurrences of
    one n-gram, hypothesis and reference mixed.
    """
    size = len(chunk.segment)
    keys = chunk.segment << (max_order * id_bits + 1)
    keys[chunk.split_at :] |= 1
    for k in range(max_order):
        keys |= chunk.ids[k : k + size] << ((max_order - 1 - k) * id_bits + 1)
    keys.sort(kind="stable")  # runs: hypotheses then references, each by segment
    # References among the first i sorted keys: a run's own count is a difference.
    refs_before = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(keys & 1, out=refs_before[1:])
    # Neighbours differ in order n's n-gram where their keys differ above its bits.
    change = np.empty(size, dtype=np.int64)
    np.bitwise_xor(keys[1:], keys[:-1], out=change[1:])
    change[0] = np.iinfo(np.int64).max  # the first key starts a run of every order
    # The keys are sorted by segment first: where each segment's keys start, and
    # the end (the segment after the last may not fit in 63 bits).
    first_keys = np.arange(chunk.n_segments, dtype=np.int64) << (max_order * id_bits + 1)
    segment_starts = np.append(np.searchsorted(keys, first_keys), size)
    matches = np.zeros((chunk.n_segments, max_order), dtype=np.int64)
    for order in range(1, max_order + 1):
        starts = np.flatnonzero(change >= 1 << ((max_order - order) * id_bits + 1))
        bounds = np.append(starts, size)
        in_ref = np.diff(refs_before[bounds])
        clipped = np.minimum(np.diff(bounds) - in_ref, in_ref)
        # A segment's matches: the running sum of its runs' clipped counts, differenced.
        matched_before = np.zeros(len(starts) + 1, dtype=np.int64)
        np.cumsum(clipped, out=matched_before[1:])
        matches[:, order - 1] = np.diff(matched_before[np.searchsorted(starts, segment_starts)])
    return matches


def _ranked_matches(chunk: _Chunk, radix: int, max_order: int) -> IntArray:
    """Return (n, max_order) clipped matches, one sort per order of ranked n-grams.

    An order-n n-gram can only match if the order n-1 n-gram it starts with
    occurs on both sides of its segment; other positions are dropped as the
    order grows (their n-grams still count in the totals, from the lengths).
    Ranks of (segment or order n-1 rank, next id) rise with the segment, so a
    segment's n-grams are a run of ranks. Ids lie in ``[0, radix)``.
    """
    seg, split_at = chunk.segment, chunk.split_at
    matches = np.zeros((chunk.n_segments, max_order), dtype=np.int64)
    # Every position, and its order n-1 n-gram's rank.
    positions = np.arange(len(seg), dtype=np.int64)
    rank = seg
    n_ranks = chunk.n_segments
    for order in range(1, max_order + 1):
        if not len(positions):
            break
        keys = rank * radix + chunk.ids[positions + order - 1]
        keys, where = sort_with_index(keys, n_ranks * radix)
        positions = positions[where]
        first = np.empty(len(keys), dtype=bool)
        first[0] = True
        np.not_equal(keys[1:], keys[:-1], out=first[1:])
        starts = np.flatnonzero(first)
        bounds = np.append(starts, len(keys))
        refs_before = np.concatenate([[0], np.cumsum(positions >= split_at)])
        in_ref = np.diff(refs_before[bounds])
        clipped = np.minimum(np.diff(bounds) - in_ref, in_ref)
        matched = np.bincount(seg[positions[starts]], weights=clipped, minlength=chunk.n_segments)
        matches[:, order - 1] = matched  # float64 sums of counts: exact below 2**53
        runs = np.cumsum(first) - 1
        shared = (clipped > 0)[runs]
        positions, rank, n_ranks = positions[shared], runs[shared], len(starts)
    return matches


def sort_with_index(keys: IntArray, bound: int) -> tuple[IntArray, IntArray]:
    """Return ``keys`` sorted, and where each sorted key was (equal keys in their order).

    ``keys`` lie in ``[0, bound)``. The keys are sorted with their positions packed
    in the low bits, one ``np.sort`` (faster on a chunk than an ``argsort`` or
    pandas' hash table); keys too large to share 63 bits with a position take a
    stable ``argsort`` instead. The callers' keys come in runs (grouped by segment,
    or by the rank of the order below), which numpy's stable sort (timsort for
    int64) merges: chrF's whole command at 100,000 segments spent 0.85 s sorting
    against 1.69 s with the default sort (cProfile, in one process).
    """
    n = len(keys)
    bits = max(n - 1, 0).bit_length()
    if (max(bound, 1) - 1).bit_length() + bits <= _INT64_BITS:
        packed = (keys << bits) | np.arange(n, dtype=np.int64)
        packed.sort(kind="stable")
        return packed >> bits, packed & ((1 << bits) - 1)
    where = np.argsort(keys, kind="stable")
    return keys[where], where
