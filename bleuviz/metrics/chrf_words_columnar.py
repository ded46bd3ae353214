"""chrF++'s words, numbered, as sacrebleu 2.6's ``CHRF`` splits them, by pyarrow kernels.

sacrebleu (``sacrebleu/metrics/chrf.py``, ``extract_word_ngrams``) splits a line
with ``str.split()`` and applies ``CHRF._remove_punctuation`` to every word.
Here: ``str.split()`` by the columnar splitter of ``bleuviz.text.split``, then
the punctuation rule with pyarrow kernels (a word longer than one character
loses a trailing ASCII punctuation mark, else a leading one, as a separate
word), numbered by ``dictionary_encode``. sacrebleu joins a bigram's words with
a space; words hold no whitespace, so the pair of ids is the same n-gram.
:mod:`bleuviz.metrics.chrf_words` chooses between this and a split in Python.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from bleuviz.arrays import IntArray
from bleuviz.metrics.chrf_punctuation import PUNCTUATION
from bleuviz.metrics.ngram_counts import IdStream
from bleuviz.text.arrow import bool_column, bool_values, int_column, int_values, string_column
from bleuviz.text.split import split_lines

_PUNCTS = [c.encode() for c in sorted(PUNCTUATION)]


def columnar_words(streams: Sequence[Sequence[str]]) -> list[IdStream]:
    """Return chrF++'s words of every stream, numbered with one vocabulary."""
    pieces, lengths = [], []
    for lines in streams:
        column = split_lines(string_column([line.encode() for line in lines]))
        split, per_token = _remove_punctuation(column.tokens)
        bounds = np.concatenate([[0], np.cumsum(per_token, dtype=np.int64)])
        pieces.append(split)
        lengths.append(np.diff(bounds[column.offsets]))
    encoded = pa.chunked_array(pieces, pa.large_string()).combine_chunks().dictionary_encode()
    ids = int_values(encoded.indices)
    cuts = np.cumsum([len(p) for p in pieces])[:-1]
    return [IdStream(part, n) for part, n in zip(np.split(ids, cuts), lengths, strict=True)]


def _remove_punctuation(tokens: pa.Array) -> tuple[pa.Array, IntArray]:
    """Apply ``CHRF._remove_punctuation`` to every word: the words, and pieces per word.

    sacrebleu: a one-character word stays; else a trailing punctuation mark is
    split off (``'(hi)'`` gives ``'(hi'`` and ``')'``, its issue #124), else a
    leading one.
    """
    # The masks are numpy's: pyarrow's own comparisons with a number import pandas.
    long = int_values(pc.utf8_length(tokens)) > 1
    last = pc.utf8_slice_codeunits(tokens, -1)
    first = pc.utf8_slice_codeunits(tokens, 0, 1)
    puncts = string_column(_PUNCTS).cast(tokens.type)
    split_last = long & bool_values(pc.is_in(last, puncts))
    split_first = long & ~split_last & bool_values(pc.is_in(first, puncts))
    head = pc.if_else(
        bool_column(split_last),
        pc.utf8_slice_codeunits(tokens, 0, -1),
        pc.if_else(bool_column(split_first), first, tokens),
    )
    tail = pc.if_else(bool_column(split_last), last, pc.utf8_slice_codeunits(tokens, 1))
    two = split_last | split_first
    per_token = 1 + two.astype(np.int64)
    # Interleave head and tail per word, then keep the tails of split words only.
    order = np.empty(2 * len(tokens), dtype=np.int64)
    order[0::2] = np.arange(len(tokens))
    order[1::2] = np.arange(len(tokens)) + len(tokens)
    keep = np.ones(2 * len(tokens), dtype=bool)
    keep[1::2] = two
    both = pa.concat_arrays([head, tail])
    return both.take(int_column(order[keep])), per_token
