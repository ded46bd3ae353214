"""Reference n-grams as corpus-wide types: "the cat" is one type in every segment holding it.

The reference index (``bleuviz.bleu.references``) numbers (segment, n-gram)
pairs, which is what clipping needs. An analysis over the whole corpus (which
n-grams does a system match more often than another?) needs the n-gram itself,
whatever its segment. Its type is numbered here the same way a pair is, without
the segment: a unigram's type is its token id, and an n-gram's type is the
position of ``(type of its first n-1 tokens) * V + last token`` among the
distinct such keys. A corpus-wide count is then a ``bincount`` of pair counts
by type, and nothing is a Python string until it is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow.compute as pc

from bleuviz.arrays import IntArray
from bleuviz.bleu.ngrams import unique_inverse
from bleuviz.bleu.references import ReferenceIndex, build_reference_index
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import ConfigError
from bleuviz.text.arrow import int_values

#: Marks "no token here" in ``token_ranks`` rows of n-grams shorter than the widest column.
NO_TOKEN = -1


@dataclass(frozen=True, slots=True, eq=False)
class NgramTypes:
    """A test set's reference index and the type of every (segment, n-gram) pair.

    Attributes:
        references: the reference index the pairs belong to.
        pair_types: per order, (G,) the type of each pair of ``references.orders``.
        prefixes: per order, (T,) each type's first n-1 tokens as a type of the
            order below (order 1: empty).
        last_tokens: per order, (T,) each type's last token (a vocabulary id).
        vocabulary_rank: (V,) each vocabulary token's position when the tokens
            are sorted as Python sorts strings (by code point).
    """

    references: ReferenceIndex
    pair_types: tuple[IntArray, ...]
    prefixes: tuple[IntArray, ...]
    last_tokens: tuple[IntArray, ...]
    vocabulary_rank: IntArray

    @classmethod
    def build(
        cls, references: Sequence[Sequence[str]], tokenize: TokenizeConfig, max_order: int
    ) -> NgramTypes:
        """Index the reference streams (each N lines) and type every pair of every order."""
        return cls.of(build_reference_index(references, tokenize, max_order))

    @classmethod
    def of(cls, index: ReferenceIndex) -> NgramTypes:
        """Type every pair of an existing reference index."""
        width = max(len(index.vocabulary), 1)
        unigrams = index.orders[0].keys % width  # a unigram's type is its token
        pair_types, prefixes = [unigrams], [np.zeros(0, dtype=np.int64)]
        last_tokens = [np.arange(len(index.vocabulary), dtype=np.int64)]
        for order in index.orders[1:]:
            # key = (pair of the first n-1 tokens) * V + last token, as in references.py
            below, token = np.divmod(order.keys, width)
            types, inverse = unique_inverse(pair_types[-1][below] * width + token)
            pair_types.append(inverse)
            prefix, last = np.divmod(types, width)
            prefixes.append(prefix)
            last_tokens.append(last)
        # Arrow orders strings by their UTF-8 bytes, which is code point order: Python's.
        ranked = int_values(pc.sort_indices(index.vocabulary))
        rank = np.empty(len(ranked), dtype=np.int64)
        rank[ranked] = np.arange(len(ranked), dtype=np.int64)
        return cls(index, tuple(pair_types), tuple(prefixes), tuple(last_tokens), rank)

    @property
    def max_order(self) -> int:
        """Highest order typed."""
        return len(self.pair_types)

    def n_types(self, order: int) -> int:
        """Number of distinct reference n-grams of ``order`` in the corpus."""
        return len(self.last_tokens[self._checked(order) - 1])

    def token_ids(self, order: int, types: IntArray) -> IntArray:
        """Return (len(types), order) the vocabulary ids of each type's tokens."""
        out = np.empty((len(types), self._checked(order)), dtype=np.int64)
        current = np.asarray(types, dtype=np.int64)
        for n in range(order, 0, -1):
            out[:, n - 1] = self.last_tokens[n - 1][current]
            current = self.prefixes[n - 1][current] if n > 1 else current
        return out

    def token_ranks(self, order: int, types: IntArray, width: int) -> IntArray:
        """Return (len(types), width) each type's tokens' code-point ranks, NO_TOKEN after them.

        Sorting rows of these columns lexicographically sorts the n-grams as
        Python sorts tuples of strings: a shorter n-gram precedes its extensions.
        """
        if width < order:
            raise ConfigError(f"width: must be at least the order {order}, got {width}")
        out = np.full((len(types), width), NO_TOKEN, dtype=np.int64)
        out[:, :order] = self.vocabulary_rank[self.token_ids(order, types)]
        return out

    def ngram(self, order: int, type_id: int) -> tuple[str, ...]:
        """Return one type's tokens as strings."""
        ids = self.token_ids(order, np.asarray([type_id], dtype=np.int64))[0]
        return tuple(str(self.references.vocabulary[int(i)].as_py()) for i in ids)

    def _checked(self, order: int) -> int:
        if not 1 <= order <= self.max_order:
            raise ConfigError(f"order: must be between 1 and {self.max_order}, got {order}")
        return order
