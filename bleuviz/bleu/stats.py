"""Columnar per-segment sufficient statistics for BLEU.

One row per segment, as in sacrebleu's ``_compute_segment_statistics``
(``[hyp_len, ref_len, correct_1..N, total_1..N]``), but stored as numpy columns
for the whole corpus. Any subset (a filter, a bucket, a document, a bootstrap
sample) is scored from the sum of its rows, never by re-tokenizing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
from numpy.typing import NDArray

from bleuviz.arrays import Index, IntArray
from bleuviz.bleu.encode import encode_lines, ids_in
from bleuviz.bleu.ngrams import UNSEEN, gram_keys, lookup, room
from bleuviz.bleu.references import OrderIndex, ReferenceIndex
from bleuviz.errors import ConfigError, InputError


@dataclass(frozen=True, slots=True, eq=False)
class SegmentStats:
    """Sufficient statistics of M rows: segments, or sums over sets of segments.

    Attributes:
        hyp_len: (M,) hypothesis length.
        closest_ref_len: (M,) reference length closest to the hypothesis; ties go to
            the shorter (sacrebleu ``_get_closest_ref_len``, nltk ``closest_ref_length``).
        shortest_ref_len: (M,) shortest reference length (tensorflow/nmt ``compute_bleu``).
        matches: (M, K) clipped n-gram matches per order.
        totals: (M, K) hypothesis n-grams per order.
        floor_totals: (M, K) ``max(1, totals)`` per segment before summing: nltk's
            ``modified_precision`` never returns a zero denominator, so in its
            corpus sum a segment shorter than n adds 1 to the n-gram denominator.
    """

    hyp_len: IntArray
    closest_ref_len: IntArray
    shortest_ref_len: IntArray
    matches: IntArray
    totals: IntArray
    floor_totals: IntArray

    def __len__(self) -> int:
        return len(self.hyp_len)

    @property
    def max_order(self) -> int:
        """Number of n-gram orders held (K)."""
        return int(self.matches.shape[1])

    def select(self, index: Index) -> SegmentStats:
        """Return the rows at ``index`` (positions, a boolean mask or a slice)."""
        idx = index if isinstance(index, slice) else np.asarray(index)
        if not isinstance(idx, slice) and idx.size == 0:
            idx = idx.astype(np.int64)  # np.asarray([]) is float64, which cannot index
        return SegmentStats(
            self.hyp_len[idx],
            self.closest_ref_len[idx],
            self.shortest_ref_len[idx],
            self.matches[idx],
            self.totals[idx],
            self.floor_totals[idx],
        )

    @classmethod
    def concat(cls, parts: Sequence[SegmentStats]) -> SegmentStats:
        """Return the rows of every part, one part after another (chunks of a test set)."""
        if not parts:
            raise ConfigError("parts: at least one set of rows is required")
        columns = zip(*(part._columns() for part in parts), strict=True)
        return cls(*(np.concatenate(column) for column in columns))

    def _columns(self) -> tuple[IntArray, ...]:
        """Every column, in field order."""
        return (
            self.hyp_len,
            self.closest_ref_len,
            self.shortest_ref_len,
            self.matches,
            self.totals,
            self.floor_totals,
        )

    def total(self) -> SegmentStats:
        """Return a single row holding the sum of all rows (the corpus statistics)."""
        return SegmentStats(
            self.hyp_len.sum(keepdims=True),
            self.closest_ref_len.sum(keepdims=True),
            self.shortest_ref_len.sum(keepdims=True),
            self.matches.sum(axis=0, keepdims=True),
            self.totals.sum(axis=0, keepdims=True),
            self.floor_totals.sum(axis=0, keepdims=True),
        )

    def group_totals(self, groups: IntArray, n_groups: int) -> SegmentStats:
        """Return one summed row per group label in ``0..n_groups-1`` (buckets, documents)."""

        def add(column: IntArray) -> IntArray:
            out = np.zeros((n_groups, *column.shape[1:]), dtype=np.int64)
            np.add.at(out, groups, column)
            return out

        return SegmentStats(
            add(self.hyp_len),
            add(self.closest_ref_len),
            add(self.shortest_ref_len),
            add(self.matches),
            add(self.totals),
            add(self.floor_totals),
        )

    def to_matrix(self) -> NDArray[np.float64]:
        """Lay the rows out as one float64 matrix row each (integer sums stay exact).

        Columns: hyp_len, closest_ref_len, shortest_ref_len, then K matches,
        K totals and K floor_totals. A resample or a pseudo-system is then a
        matrix product, and ``from_matrix`` turns its rows back into statistics.
        """
        lengths = (self.hyp_len, self.closest_ref_len, self.shortest_ref_len)
        blocks = (self.matches, self.totals, self.floor_totals)
        return np.column_stack([*lengths, *blocks]).astype(np.float64)

    @classmethod
    def from_matrix(cls, matrix: NDArray[np.float64], max_order: int) -> SegmentStats:
        """Turn rows laid out by ``to_matrix`` (integral values) back into statistics."""
        ints = np.rint(np.atleast_2d(matrix)).astype(np.int64)
        k = max_order
        blocks = [ints[:, 3 + b * k : 3 + (b + 1) * k] for b in range(3)]
        return cls(ints[:, 0], ints[:, 1], ints[:, 2], *blocks)

    def sacrebleu_rows(self, max_order: int | None = None) -> IntArray:
        """Return sacrebleu's flat layout ``[hyp_len, ref_len, correct_1..N, total_1..N]``."""
        k = self.max_order if max_order is None else max_order
        return np.column_stack(
            [self.hyp_len, self.closest_ref_len, self.matches[:, :k], self.totals[:, :k]]
        )


def compute_stats(
    hypotheses: Sequence[str], refs: ReferenceIndex, workers: int = 1
) -> SegmentStats:
    """Tokenize one system's hypotheses and count them against the reference index."""
    hyp_len, pairs = _hypothesis_pairs(hypotheses, refs, workers)
    matches = np.zeros((refs.n_segments, refs.max_order), dtype=np.int64)
    for order, (index, pair_ids) in enumerate(zip(refs.orders, pairs, strict=True), start=1):
        matches[:, order - 1] = _clipped_matches(pair_ids, index, refs.n_segments)
    totals = np.maximum(hyp_len[:, None] - np.arange(refs.max_order)[None, :], 0)
    closest, shortest = _reference_lengths(hyp_len, refs.ref_lengths)
    return SegmentStats(hyp_len, closest, shortest, matches, totals, np.maximum(totals, 1))


def pair_matches(
    hypotheses: Sequence[str], refs: ReferenceIndex, threads: int = 1
) -> tuple[IntArray, ...]:
    """Return, per order, each (segment, reference n-gram) pair's clipped match count.

    ``min(hypothesis count, clip count)`` of every pair in ``refs.orders[n - 1]``:
    the per-n-gram detail behind ``compute_stats``'s per-segment sums, for
    analyses that ask which n-grams matched (salient n-grams). ``threads`` > 1
    counts that many runs of segments side by side: a pair's id holds its
    segment, so each run looks its n-grams up in the same index, and the
    counts add up.
    """
    _check_lines(hypotheses, refs)
    n = len(hypotheses)
    cuts = sorted({round(k * n / max(threads, 1)) for k in range(max(threads, 1) + 1)})

    def count(first: int, stop: int) -> list[IntArray]:
        encoded = encode_lines(hypotheses[first:stop], refs.tokenize)
        ids, hyp_len = ids_in(encoded, refs.vocabulary), encoded.lengths
        pairs = _pair_ids_by_order(ids, room(encoded.offsets), hyp_len, refs, first)
        return [
            np.bincount(p[p != UNSEEN], minlength=index.n_grams)
            for index, p in zip(refs.orders, pairs, strict=True)
        ]

    runs = list(pairwise(cuts))
    if len(runs) < 2:
        parts = [count(*runs[0])] if runs else []
    else:
        with ThreadPoolExecutor(max_workers=len(runs)) as pool:
            parts = list(pool.map(lambda run: count(*run), runs))
    return tuple(
        np.minimum(sum(part[k] for part in parts), index.clip_counts)
        if parts
        else np.zeros(index.n_grams, dtype=np.int64)
        for k, index in enumerate(refs.orders)
    )


def _check_lines(hypotheses: Sequence[str], refs: ReferenceIndex) -> None:
    """Refuse hypotheses that are not one line per segment of ``refs``."""
    if len(hypotheses) != refs.n_segments:
        raise InputError(
            f"hypotheses: {len(hypotheses)} lines but the references have {refs.n_segments}"
        )


def _hypothesis_pairs(
    hypotheses: Sequence[str], refs: ReferenceIndex, workers: int
) -> tuple[IntArray, Iterator[IntArray]]:
    """Tokenize the hypotheses; return their lengths and, order by order, each n-gram's pair id.

    A hypothesis n-gram's pair id is its (segment, n-gram) pair's position in
    that order's index, or UNSEEN when the segment's references lack it. The
    orders come one at a time, so only one order's ids are held at once.
    """
    _check_lines(hypotheses, refs)
    encoded = encode_lines(hypotheses, refs.tokenize, workers)
    ids, hyp_len = ids_in(encoded, refs.vocabulary), encoded.lengths
    return hyp_len, _pair_ids_by_order(ids, room(encoded.offsets), hyp_len, refs)


def _pair_ids_by_order(
    ids: IntArray, space: IntArray, hyp_len: IntArray, refs: ReferenceIndex, first: int = 0
) -> Iterator[IntArray]:
    """Yield, for orders 1..max_order, the pair id of the n-gram starting at each token.

    The lines are segments ``first``, ``first + 1``, ... of ``refs``.
    """
    segments = np.arange(first, first + len(hyp_len), dtype=np.int64)
    prefix = np.repeat(segments, hyp_len)
    width = max(len(refs.vocabulary), 1)
    for order, index in enumerate(refs.orders, start=1):
        # A (segment, n-gram) pair the references lack has no id, so neither has
        # any longer n-gram starting with it: gram_keys marks those UNSEEN too.
        keys = gram_keys(prefix, ids, order, width)
        keys[space < order] = UNSEEN  # the n-gram would run into the next segment
        prefix = lookup(keys, index.keys)
        yield prefix


def _clipped_matches(pairs: IntArray, index: OrderIndex, n_segments: int) -> IntArray:
    """Sum ``min(hyp count, clip count)`` over each segment's (segment, n-gram) pairs.

    ``pairs`` holds each hypothesis n-gram's pair id in ``index``, or UNSEEN
    (no match possible): counting ids is then one ``bincount``, no sort.
    """
    counts = np.bincount(pairs[pairs != UNSEEN], minlength=index.n_grams)
    clipped = np.minimum(counts, index.clip_counts)
    per_segment = np.bincount(index.segments, weights=clipped, minlength=n_segments)
    return per_segment.astype(np.int64)


def _reference_lengths(hyp_len: IntArray, ref_lengths: IntArray) -> tuple[IntArray, IntArray]:
    """Return the closest (ties to the shorter) and the shortest reference length per segment."""
    diff = np.abs(ref_lengths - hyp_len[None, :])
    # Order by (distance, length): the smallest distance wins, then the shorter reference.
    rank = diff * (int(ref_lengths.max(initial=0)) + 1) + ref_lengths
    closest = np.take_along_axis(ref_lengths, rank.argmin(axis=0)[None, :], axis=0)[0]
    return closest.astype(np.int64), ref_lengths.min(axis=0).astype(np.int64)
