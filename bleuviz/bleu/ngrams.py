"""Vectorized n-gram identities over a flat array of token ids.

sacrebleu counts n-grams with a ``Counter`` of token tuples per segment
(sacrebleu/metrics/helpers.py, ``extract_all_word_ngrams``), which is about
half of its running time. Here every token of a corpus becomes an integer, and
every n-gram an integer built from its (n-1)-gram prefix and its last token, so
a whole corpus is counted with a few hash-table passes (``pandas.factorize``)
instead of one Python ``Counter`` per segment. Counts are exact: identities are
dense codes from a hash table, not hashes that could collide.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from bleuviz.arrays import IntArray

#: Marks a position where no n-gram of this order starts (it would cross a line end).
NO_GRAM = -2
#: Marks an n-gram (or token) that never occurs in the references.
UNSEEN = -1


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


def gram_starts(offsets: IntArray, order: int) -> NDArray[np.bool_]:
    """Return, for each token position, whether an n-gram of ``order`` starts there."""
    total = int(offsets[-1])
    line_end = np.repeat(offsets[1:], np.diff(offsets))
    return np.arange(total, dtype=np.int64) + order <= line_end


def pair_keys(prefix: IntArray, ids: IntArray, order: int, vocab_size: int) -> IntArray:
    """Combine the (n-1)-gram id at each start with the token n-1 positions later.

    The key is ``prefix * vocab_size + last_token``; it is UNSEEN where either part
    is UNSEEN and NO_GRAM where the n-gram would cross a line end.
    """
    keys = np.full(len(ids), NO_GRAM, dtype=np.int64)
    if order > len(ids):
        return keys
    head = prefix[: len(ids) - order + 1]
    tail = ids[order - 1 :]
    body = keys[: len(ids) - order + 1]
    valid = head >= 0
    body[valid] = head[valid] * vocab_size + tail[valid]
    body[valid & (tail < 0)] = UNSEEN
    body[head == UNSEEN] = UNSEEN
    return keys


def unique_codes(values: IntArray) -> tuple[IntArray, IntArray]:
    """Return dense codes for ``values`` and the distinct values, sorted.

    Codes are positions in the sorted distinct values, so any other array of
    keys can later be looked up by binary search (``positions_in``) instead of
    a hash table kept alive beside the reference index.
    """
    uniques, codes = np.unique(values, return_inverse=True)
    return codes.astype(np.int64, copy=False).reshape(-1), uniques.astype(np.int64, copy=False)


def positions_in(values: IntArray, table: IntArray) -> IntArray:
    """Return the position of each value in ``table`` (sorted, distinct), or -1.

    The values are sorted first: numpy's binary search is several times faster
    on sorted needles (each search starts where the previous one ended).
    """
    order = np.argsort(values, kind="stable")
    needles = values[order]
    pos = np.searchsorted(table, needles)
    inside = pos < len(table)
    hit = np.zeros(len(values), dtype=bool)
    hit[inside] = table[pos[inside]] == needles[inside]
    out = np.full(len(values), -1, dtype=np.int64)
    out[order[hit]] = pos[hit]
    return out
