"""Vectorized n-gram identities over a flat array of token ids.

sacrebleu counts n-grams with a ``Counter`` of token tuples per segment
(sacrebleu/metrics/helpers.py, ``extract_all_word_ngrams``), which is about
half of its running time. Here every token of a corpus becomes an integer, and
every (segment, n-gram) pair an integer built from its (segment, (n-1)-gram)
prefix and its last token, so a whole corpus is counted with a few sorts of
integer arrays instead of one Python ``Counter`` per segment. Counts are exact:
identities are positions in a sorted table of keys, not hashes that could collide.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bleuviz.arrays import IntArray

#: Marks a position where no n-gram of this order starts (it would cross a line end).
NO_GRAM = -2
#: Marks an n-gram (or token) that never occurs in the references.
UNSEEN = -1

# A key and its position share one int64 when they fit in 63 bits: sorting the
# packed values then orders the keys and carries each one's position along, as
# an argsort would, at the speed of numpy's value sort.
_BITS = 63


def split_tokens(tokenized: Sequence[str]) -> tuple[list[str], IntArray]:
    """Split space-joined token strings as sacrebleu does (``str.split()``).

    Returns:
        All tokens in order, and the (N + 1,) line offsets into that list.
    """
    lengths = np.fromiter((len(line.split()) for line in tokenized), np.int64, len(tokenized))
    offsets = np.zeros(len(tokenized) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    # Joining with a space and splitting again gives the same tokens as splitting
    # each line: a space is whitespace, and str.split() drops empty strings.
    return " ".join(tokenized).split(), offsets


def room(offsets: IntArray) -> IntArray:
    """Return, for each token position, how many tokens its line holds from there on.

    An n-gram starts at a position when its room is at least n.
    """
    total = int(offsets[-1])
    line_end = np.repeat(offsets[1:], np.diff(offsets))
    return line_end - np.arange(total, dtype=np.int64)


def gram_keys(prefix: IntArray, ids: IntArray, order: int, width: int) -> IntArray:
    """Combine the (segment, (n-1)-gram) id at each start with the token n-1 positions later.

    ``prefix`` holds, per position, the id of the (segment, (n-1)-gram) starting
    there (the segment itself for unigrams), or a negative marker. The key is
    ``prefix * width + token``, UNSEEN where either part is negative. Where the
    n-gram would cross a line end the key is meaningless: callers mask those
    positions (``room``).
    """
    keys = np.full(len(ids), UNSEEN, dtype=np.int64)
    if order > len(ids):
        return keys
    head = prefix[: len(ids) - order + 1]
    tail = ids[order - 1 :]
    valid = (head >= 0) & (tail >= 0)
    keys[: len(head)][valid] = head[valid] * width + tail[valid]
    return keys


def unique_inverse(keys: IntArray) -> tuple[IntArray, IntArray]:
    """Return the distinct ``keys`` (non-negative), sorted, and each key's position among them.

    Equals ``np.unique(keys, return_inverse=True)``. When a key and its
    position fit in 63 bits together, one sort of the packed integers replaces
    the argsort ``np.unique`` runs (several times faster).
    """
    if len(keys) == 0:
        return keys.copy(), keys.copy()
    order, ordered = _argsort(keys)
    first = np.empty(len(ordered), dtype=bool)
    first[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    uniques = ordered[first]
    inverse = np.empty(len(keys), dtype=np.int64)
    inverse[order] = np.cumsum(first) - 1
    return uniques, inverse


def _argsort(keys: IntArray) -> tuple[IntArray, IntArray]:
    """Return the stable sorting order of non-negative ``keys`` and the keys in that order."""
    shift = max(len(keys) - 1, 1).bit_length()
    if int(keys.max()).bit_length() + shift > _BITS:
        order = np.argsort(keys, kind="stable")
        return order, keys[order]
    packed = np.left_shift(keys, shift)
    packed |= np.arange(len(keys), dtype=np.int64)
    # Keys come grouped by segment, in segment order (a key's high part is its segment,
    # or a prefix id, itself ordered by segment), each stream after the other: runs
    # that numpy's stable sort (timsort for int64) finds and merges. On 100,000
    # segments x 2 references it counts in 0.75 of the time the default sort takes.
    packed.sort(kind="stable")
    order = packed & ((1 << shift) - 1)
    return order, np.right_shift(packed, shift, out=packed)


def lookup(values: IntArray, table: IntArray) -> IntArray:
    """Return the position of each value in ``table`` (sorted, distinct), or UNSEEN.

    Negative values (markers) are UNSEEN. Values come in segment order and a
    table of (segment, n-gram) keys is sorted by segment first, so consecutive
    binary searches touch the same few cache lines: no sort of the values is needed.
    """
    pos = np.searchsorted(table, values)
    np.minimum(pos, len(table) - 1, out=pos)
    out = np.where(table[pos] == values, pos, UNSEEN) if len(table) else np.full_like(values, -1)
    out[values < 0] = UNSEEN
    return out.astype(np.int64, copy=False)
