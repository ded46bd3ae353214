"""Lines -> integer token ids and line offsets, the input of n-gram counting.

A tokenizer with a columnar replica (``bleuviz.bleu.columnar``) tokenizes the
whole column with pyarrow and numbers the tokens with ``dictionary_encode``:
no Python object per token. Any other tokenizer (intl, mecab, flores, zh) runs
sacrebleu's own per-line tokenizer (``tokenize_lines``) and ``str.split()``.
Both number tokens in order of first occurrence (``dictionary_encode``), so the
ids, vocabulary and every count built on them are the same either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from bleuviz.arrays import IntArray
from bleuviz.bleu.columnar import COLUMNAR_TOKENIZERS
from bleuviz.bleu.ngrams import UNSEEN, split_tokens
from bleuviz.bleu.tokenize import TokenizeConfig, tokenize_lines
from bleuviz.text.arrow import int_values, string_column


@dataclass(frozen=True, slots=True, eq=False)
class EncodedLines:
    """N tokenized lines as integer ids.

    Attributes:
        vocabulary: distinct token strings (a pyarrow string array), in order of
            first occurrence; id = position.
        ids: (T,) every token's id, line after line.
        offsets: (N + 1,) line i's ids are ``ids[offsets[i]:offsets[i + 1]]``.
    """

    vocabulary: pa.Array
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
        words, offsets = split_tokens(tokenize_lines(lines, config, workers))
        # pa.array imports pandas but converts a word list three times as fast as
        # string_column: a per-line tokenizer is no quick command anyway.
        tokens = pa.array(words, pa.large_string())
        del words
    else:
        column = columnar(_arrow_text(lines, config.lowercase))
        tokens, offsets = column.tokens, column.offsets
        del column
    encoded = tokens.dictionary_encode()
    ids = int_values(encoded.indices)
    vocab = encoded.dictionary
    del tokens, encoded
    # pyarrow's allocator (mimalloc or jemalloc) keeps freed pages for reuse; the
    # text columns are gone now, and the n-gram counting that follows is numpy's.
    pa.default_memory_pool().release_unused()
    return EncodedLines(vocab, ids, offsets)


def _arrow_text(lines: Sequence[str], lowercase: bool) -> pa.Array:
    """Return the lines as one pyarrow column, lowercased with ``str.lower()`` if asked.

    Python lowercases, not pyarrow's ``utf8_lower``: the two differ (``'İ'``
    becomes ``'i̇'`` in Python, ``'i'`` in utf8proc). Each line is encoded to
    UTF-8 here, not by pyarrow: converting a ``str`` itself would leave CPython's
    cached UTF-8 copy attached to every non-ASCII line for as long as the test
    set lives (about its size again); these bytes objects are freed at once. The
    column is built from their bytes (``string_column``), not by ``pa.array``,
    which would import pandas.
    """
    if lowercase:
        return string_column([line.lower().encode() for line in lines])
    return string_column([line.encode() for line in lines])


def ids_in(encoded: EncodedLines, vocabulary: pa.Array) -> IntArray:
    """Return each token's id in another ``vocabulary`` (distinct strings), or UNSEEN.

    Only distinct tokens are hashed (``index_in``); the ids are then a lookup per token.
    """
    found = pc.index_in(encoded.vocabulary, value_set=vocabulary.cast(encoded.vocabulary.type))
    ids: IntArray = int_values(found, fill=UNSEEN)[encoded.ids]
    return ids
