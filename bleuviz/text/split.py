"""``str.split()`` of every line of a pyarrow column, as one flat column of tokens.

sacrebleu splits a tokenized line with Python's ``str.split()``; BLEU's
columnar tokenizers (:mod:`bleuviz.bleu.columnar`) and chrF++'s columnar words
(:mod:`bleuviz.metrics.chrf_words_columnar`) split whole columns here instead,
token for token the same. Python's whitespace is not RE2's ``\\s`` nor
necessarily pyarrow's ``utf8_split_whitespace``: Python's set is spelled out
(:func:`bleuviz.text.whitespace.python_whitespace`), mapped to a plain space,
and split on that.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from bleuviz.arrays import IntArray
from bleuviz.text.arrow import bool_column, int_values
from bleuviz.text.whitespace import python_whitespace


@dataclass(frozen=True, slots=True, eq=False)
class TokenColumn:
    """Every token of N lines in order, and where each line's tokens start.

    Attributes:
        tokens: (T,) non-empty token strings (a pyarrow string array).
        offsets: (N + 1,) line i's tokens are ``tokens[offsets[i]:offsets[i + 1]]``.
    """

    tokens: pa.Array
    offsets: IntArray


@cache
def other_whitespace() -> str:
    """Return an RE2 character class of Python's whitespace other than the space."""
    others = (c for c in python_whitespace() if c != " ")
    return "[" + "".join(f"\\x{{{ord(c):x}}}" for c in others) + "]"


def split_lines(text: pa.Array) -> TokenColumn:
    """Apply ``str.split()`` to every line.

    Python's other whitespace becomes a space first, so that the ASCII splitter,
    whose set (space, \\t, \\n, \\v, \\f, \\r) is all Python whitespace, splits at
    exactly Python's. Trimmed first, a line gives no empty token unless it is empty.
    """
    spaced = pc.utf8_trim(pc.replace_substring_regex(text, other_whitespace(), " "), " ")
    lists = pc.ascii_split_whitespace(spaced)
    empty = int_values(pc.binary_length(spaced)) == 0
    tokens = pc.list_flatten(lists)
    if empty.any():  # an empty line splits into ['']; str.split() gives []
        tokens = tokens.filter(bool_column(int_values(pc.binary_length(tokens)) > 0))
    lengths = int_values(pc.list_value_length(lists)) - empty
    offsets = np.zeros(len(text) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return TokenColumn(tokens, offsets)
