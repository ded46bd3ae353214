"""Lines -> integer token ids and line offsets, the input of n-gram counting.

A tokenizer with a columnar replica (``bleuviz.bleu.columnar``) tokenizes the
whole column with pyarrow and numbers the tokens with ``dictionary_encode``:
no Python object per token. Any other tokenizer (intl, mecab, flores, zh) runs
sacrebleu's own per-line tokenizer (``tokenize_lines``) and ``str.split()``.
Both number tokens in order of first occurrence, as ``pandas.factorize`` does,
so the ids, vocabulary and every count built on them are the same either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

from bleuviz.arrays import IntArray
from bleuviz.bleu.columnar import COLUMNAR_TOKENIZERS
from bleuviz.bleu.ngrams import UNSEEN, split_tokens
from bleuviz.bleu.tokenize import TokenizeConfig, tokenize_lines


@dataclass(frozen=True, slots=True, eq=False)
class EncodedLines:
    """N tokenized lines as integer ids.

    Attributes:
        vocabulary: distinct token strings, in order of first occurrence; id = position.
        ids: (T,) every token's id, line after line.
        offsets: (N + 1,) line i's ids are ``ids[offsets[i]:offsets[i + 1]]``.
    """

    vocabulary: pd.Index
    ids: IntArray
    offsets: IntArray

    @property
    def lengths(self) -> IntArray:
        """(N,) number of tokens of every line."""
        return np.diff(self.offsets)


def encode_lines(lines: Sequence[str], config: TokenizeConfig, workers: int = 1) -> EncodedLines:
    """Tokenize ``lines`` as sacrebleu's BLEU does and number the tokens.

    ``workers`` only applies to the per-line fallback (see ``tokenize_lines``).
    """
    columnar = COLUMNAR_TOKENIZERS.get(config.name)
    if columnar is None:
        tokens, offsets = split_tokens(tokenize_lines(lines, config, workers))
        codes, vocab = pd.factorize(np.asarray(tokens, dtype=object))
        return EncodedLines(pd.Index(vocab), codes.astype(np.int64), offsets)
    column = columnar(_arrow_text(lines, config.lowercase))
    encoded = column.tokens.dictionary_encode()
    ids = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    vocab = np.asarray(encoded.dictionary.to_pylist(), dtype=object)
    offsets = column.offsets
    del column, encoded
    # pyarrow's allocator (mimalloc or jemalloc) keeps freed pages for reuse; the
    # text columns are gone now, and the n-gram counting that follows is numpy's.
    pa.default_memory_pool().release_unused()
    return EncodedLines(pd.Index(vocab), ids, offsets)


def _arrow_text(lines: Sequence[str], lowercase: bool) -> pa.Array:
    """Return the lines as one pyarrow column, lowercased with ``str.lower()`` if asked.

    Python lowercases, not pyarrow's ``utf8_lower``: the two differ (``'İ'``
    becomes ``'i̇'`` in Python, ``'i'`` in utf8proc).
    """
    if lowercase:
        return pa.array([line.lower() for line in lines], pa.large_string())
    return pa.array(lines, pa.large_string())


def ids_in(encoded: EncodedLines, vocabulary: pd.Index) -> IntArray:
    """Return each token's id in another ``vocabulary`` (unique), or UNSEEN.

    Factorizing ``vocabulary`` followed by this vocabulary numbers the former
    0..V-1 in order (it is unique), so a code >= V is a token it lacks. Only
    distinct tokens are hashed; the ids are then a lookup per token.
    """
    theirs = vocabulary.to_numpy(dtype=object)
    ours = encoded.vocabulary.to_numpy(dtype=object)
    codes, _ = pd.factorize(np.concatenate([theirs, ours]))
    mapping = codes[len(theirs) :].astype(np.int64)
    mapping[mapping >= len(theirs)] = UNSEEN
    return mapping[encoded.ids]
