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
from numpy.typing import NDArray

from bleuviz.arrays import IntArray
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

    Python's other whitespace becomes a space first; a token is then a maximal
    run of other bytes within a line (a space byte is never part of a longer
    UTF-8 sequence). The runs are found on the column's bytes with numpy and
    packed end to end, without pyarrow's list of strings per line: about half
    the time of ``ascii_split_whitespace`` and ``list_flatten``.
    """
    spaced = pc.replace_substring_regex(text, other_whitespace(), " ")
    bounds, data = line_bytes(spaced)
    word = data != _SPACE
    # A token starts at a byte of a word whose previous byte is a space or in another line.
    before = np.zeros(len(word), dtype=bool)
    before[1:] = word[:-1]
    after = np.zeros(len(word), dtype=bool)
    after[:-1] = word[1:]
    before[bounds[:-1][bounds[:-1] < len(word)]] = False  # each line's first byte
    after[bounds[1:][bounds[1:] > 0] - 1] = False  # each line's last byte
    starts = np.flatnonzero(word & ~before)
    ends = np.flatnonzero(word & ~after) + 1
    packed = np.zeros(len(starts) + 1, dtype=np.int64)
    np.cumsum(ends - starts, out=packed[1:])
    tokens = pa.LargeStringArray.from_buffers(
        len(starts), pa.py_buffer(packed), pa.py_buffer(data[word])
    )
    return TokenColumn(tokens, np.searchsorted(starts, bounds).astype(np.int64))


_SPACE = ord(" ")


def line_bytes(text: pa.Array) -> tuple[IntArray, NDArray[np.uint8]]:
    """Return a string column's (N + 1,) line offsets into its UTF-8 bytes, and those bytes."""
    kind = np.int64 if pa.types.is_large_string(text.type) else np.int32
    offsets = np.frombuffer(text.buffers()[1], kind)[text.offset : text.offset + len(text) + 1]
    first, end = int(offsets[0]), int(offsets[-1])
    buffer = text.buffers()[2]
    data = np.frombuffer(buffer, np.uint8, count=end)[first:] if buffer else np.zeros(0, np.uint8)
    return offsets.astype(np.int64) - first, data
