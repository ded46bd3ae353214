"""References tokenized and counted once, then reused for every system.

For every order n, the index holds each (segment, reference n-gram) pair's
identity and its *clip count*: the maximum number of times the n-gram occurs
in any single reference of that segment (Papineni et al., 2002, section 2.1;
sacrebleu's ``_extract_reference_info`` takes the same maximum over references).

An identity is a position in the sorted table of keys ``prefix * V + token``,
where ``prefix`` is the identity of the pair's (n-1)-gram (for unigrams, the
segment) and V the vocabulary size. The segment is part of every identity, so
a system's n-gram and its clip count are found by one lookup per order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from bleuviz.arrays import IntArray
from bleuviz.bleu.encode import encode_lines
from bleuviz.bleu.ngrams import NO_GRAM, gram_keys, room, unique_inverse
from bleuviz.bleu.orders import DEFAULT_ORDER, MAX_ORDER
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import ConfigError, InputError


@dataclass(frozen=True, slots=True, eq=False)
class OrderIndex:
    """(segment, reference n-gram) pairs of one order: identities and clip counts.

    Attributes:
        keys: (G,) sorted distinct keys ``prefix id * V + token id``; a pair's id
            is its key's position.
        clip_counts: (G,) each pair's clip count.
        segments: (G,) each pair's segment.
    """

    keys: IntArray
    clip_counts: IntArray
    segments: IntArray

    @property
    def n_grams(self) -> int:
        """Number of distinct (segment, n-gram) pairs of this order."""
        return len(self.keys)


@dataclass(frozen=True, slots=True, eq=False)
class ReferenceIndex:
    """Everything about the references that scoring a system needs.

    Attributes:
        tokenize: how the references (and any system scored against them) are tokenized.
        max_order: highest n-gram order counted.
        vocabulary: reference token strings (a pyarrow string array); id = position.
        ref_lengths: (R, N) token count of every reference line.
        orders: one OrderIndex per order 1..max_order.
    """

    tokenize: TokenizeConfig
    max_order: int
    vocabulary: pa.Array
    ref_lengths: IntArray
    orders: tuple[OrderIndex, ...]

    @property
    def n_segments(self) -> int:
        """Number of segments."""
        return int(self.ref_lengths.shape[1])

    @property
    def n_refs(self) -> int:
        """Number of reference streams."""
        return int(self.ref_lengths.shape[0])


def build_reference_index(
    references: Sequence[Sequence[str]],
    tokenize: TokenizeConfig,
    max_order: int = DEFAULT_ORDER,
    workers: int = 1,
) -> ReferenceIndex:
    """Tokenize and count reference streams (each a sequence of N lines) once.

    Tokenizers with a columnar replica tokenize all lines at once with pyarrow;
    for the others, ``workers`` > 1 tokenizes in forked processes (``encode_lines``).
    """
    if not 1 <= max_order <= MAX_ORDER:
        raise ConfigError(f"max_order: must be between 1 and {MAX_ORDER}, got {max_order}")
    if not references:
        raise InputError("references: at least one reference stream is required")
    n = len(references[0])
    for i, stream in enumerate(references):
        if len(stream) != n:
            raise InputError(
                f"references: stream 1 has {n} lines but stream {i + 1} has {len(stream)}"
            )
    # All streams in one column, stream after stream: line r * n + i is stream r's line i.
    encoded = encode_lines([line for stream in references for line in stream], tokenize, workers)
    ids, all_offsets = encoded.ids, encoded.offsets
    ref_lengths = encoded.lengths.reshape(len(references), n)
    orders = _index_orders(ids, all_offsets, len(references), n, len(encoded.vocabulary), max_order)
    return ReferenceIndex(tokenize, max_order, encoded.vocabulary, ref_lengths, orders)


def _index_orders(
    ids: IntArray, offsets: IntArray, n_refs: int, n: int, vocab_size: int, max_order: int
) -> tuple[OrderIndex, ...]:
    """Give every (segment, reference n-gram) pair an id and count its clip count."""
    lengths = np.diff(offsets)
    segment = np.repeat(np.tile(np.arange(n, dtype=np.int64), n_refs), lengths)
    # stream is only compared, so 4 bytes a token will do.
    stream = np.repeat(np.arange(n_refs, dtype=np.int32).repeat(n), lengths)
    orders: list[OrderIndex] = []
    prefix, prefix_segments = segment, np.arange(n, dtype=np.int64)
    width, space = max(vocab_size, 1), room(offsets)
    for order in range(1, max_order + 1):
        keys = gram_keys(prefix, ids, order, width)
        valid = space >= order
        uniques, inverse = unique_inverse(keys[valid])
        prefix = np.full(len(ids), NO_GRAM, dtype=np.int64)
        prefix[valid] = inverse
        clip = _clip_counts(inverse, stream[valid], n_refs, len(uniques))
        segments = prefix_segments[uniques // width]
        orders.append(OrderIndex(uniques, clip, segments))
        prefix_segments = segments
    return tuple(orders)


def _clip_counts(
    inverse: IntArray, stream: NDArray[np.int32], n_refs: int, n_grams: int
) -> IntArray:
    """Count each pair per reference stream and keep the maximum."""
    if n_refs == 1:
        return np.bincount(inverse, minlength=n_grams).astype(np.int64)
    best = np.zeros(n_grams, dtype=np.int64)
    for r in range(n_refs):
        np.maximum(best, np.bincount(inverse[stream == r], minlength=n_grams), out=best)
    return best
