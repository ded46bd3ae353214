"""References tokenized and counted once, then reused for every system.

For every order n, the index holds each reference n-gram's identity and, per
segment, its *clip count*: the maximum number of times it occurs in any single
reference of that segment (Papineni et al., 2002, section 2.1; sacrebleu's
``_extract_reference_info`` takes the same maximum over references).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from bleuviz.arrays import IntArray
from bleuviz.bleu.encode import encode_lines
from bleuviz.bleu.ngrams import NO_GRAM, gram_starts, pair_keys, unique_codes
from bleuviz.bleu.orders import DEFAULT_ORDER, MAX_ORDER
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import ConfigError, InputError


@dataclass(frozen=True, slots=True, eq=False)
class OrderIndex:
    """Reference n-grams of one order: identities and per-segment clip counts."""

    # Both indexes are sorted, and looked up by binary search (ngrams.positions_in).
    pair_index: pd.Index  # pair key (prefix id * V + token id) -> n-gram id (its position)
    n_grams: int  # number of distinct reference n-grams of this order
    clip_index: pd.Index  # segment * n_grams + n-gram id -> position in clip_counts
    clip_counts: IntArray


@dataclass(frozen=True, slots=True, eq=False)
class ReferenceIndex:
    """Everything about the references that scoring a system needs.

    Attributes:
        tokenize: how the references (and any system scored against them) are tokenized.
        max_order: highest n-gram order counted.
        vocabulary: reference token string -> token id (its position).
        ref_lengths: (R, N) token count of every reference line.
        orders: one OrderIndex per order 1..max_order.
    """

    tokenize: TokenizeConfig
    max_order: int
    vocabulary: pd.Index
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
    vocab = encoded.vocabulary
    ref_lengths = encoded.lengths.reshape(len(references), n)
    orders = _index_orders(ids, all_offsets, len(references), n, len(vocab), max_order)
    return ReferenceIndex(tokenize, max_order, vocab, ref_lengths, orders)


def _index_orders(
    ids: IntArray, offsets: IntArray, n_refs: int, n: int, vocab_size: int, max_order: int
) -> tuple[OrderIndex, ...]:
    """Give every reference n-gram an id and count its clip count per segment."""
    lengths = np.diff(offsets)
    segment = np.repeat(np.tile(np.arange(n, dtype=np.int64), n_refs), lengths)
    # stream is only compared, so 4 bytes a token will do.
    stream = np.repeat(np.arange(n_refs, dtype=np.int32).repeat(n), lengths)
    orders: list[OrderIndex] = []
    gram_ids = ids
    n_grams = vocab_size
    pair_index = pd.Index(np.arange(vocab_size, dtype=np.int64))
    for order in range(1, max_order + 1):
        if order > 1:
            keys = pair_keys(gram_ids, ids, order, vocab_size)
            valid = gram_starts(offsets, order)
            codes, uniques = unique_codes(keys[valid])
            gram_ids = np.full(len(ids), NO_GRAM, dtype=np.int64)
            gram_ids[valid] = codes
            n_grams = len(uniques)
            pair_index = pd.Index(uniques)
        valid = gram_ids >= 0
        clip_index, clip_counts = _clip_counts(
            segment[valid] * n_grams + gram_ids[valid], stream[valid], n_refs
        )
        orders.append(OrderIndex(pair_index, n_grams, clip_index, clip_counts))
    return tuple(orders)


def _clip_counts(
    keys: IntArray, stream: NDArray[np.int32], n_refs: int
) -> tuple[pd.Index, IntArray]:
    """Count each (segment, n-gram) key per reference stream and keep the maximum.

    The keys are sorted once and counted in sorted order: equal keys are then
    neighbours, and no array maps them back to their original places (what
    ``np.unique(..., return_inverse=True)`` would hold, 8 bytes per n-gram).
    """
    order = np.argsort(keys, kind="stable")
    keys, stream = keys[order], stream[order]
    del order
    first = np.ones(len(keys), dtype=bool)
    np.not_equal(keys[1:], keys[:-1], out=first[1:])
    group = np.cumsum(first) - 1
    uniques = keys[first]
    best = np.zeros(len(uniques), dtype=np.int64)
    for r in range(n_refs):
        np.maximum(best, np.bincount(group[stream == r], minlength=len(uniques)), out=best)
    return pd.Index(uniques), best
