"""Columnar replicas of sacrebleu's ``13a``, ``zh``, ``char`` and ``none`` tokenizers.

sacrebleu tokenizes one Python string per line (sacrebleu/tokenizers/). Here a
whole column of lines goes through pyarrow compute kernels (RE2 regexes, literal
replacements, splitting), and the result is one flat column of tokens plus line
offsets, without a Python object per token. Each replica produces, token for
token, ``str.split()`` of what sacrebleu's tokenizer returns for ``line.rstrip()``
(sacrebleu 2.6.0, ``BLEU._preprocess_segment``); tests/bleu/test_columnar_tokenize.py
holds that against sacrebleu over arbitrary Unicode text.

Deliberate differences in means, not in results:

* Python's ``str.split()``/``str.rstrip()`` whitespace is not RE2's ``\\s`` nor
  necessarily pyarrow's ``utf8_split_whitespace``; every replica spells Python's
  set out (``python_whitespace``) and splits on a plain space after mapping it
  (``bleuviz.text.split``, which chrF++'s words share).
* Lowercasing is not done here: ``str.lower()`` and pyarrow's ``utf8_lower``
  differ (``'İ'`` and newer Unicode letters), so the caller lowers each line in
  Python first, as sacrebleu does.
* ``zh``'s character ranges are compared as Python strings, and two of them are
  written with five hex digits (``'\\u20000'`` is ``'\\u2000'`` then ``'0'``), so
  sacrebleu's set is U+2001..U+2A6D and U+2F81..U+2FA1 there, not the CJK
  extensions meant; ``_ZH_RANGES`` keeps sacrebleu's strings and ``_string_range``
  derives the code points they really select.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from types import MappingProxyType

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from bleuviz.text.arrow import string_scalar
from bleuviz.text.split import TokenColumn, line_bytes, other_whitespace, split_lines
from bleuviz.text.whitespace import python_whitespace


def _rstrip(text: pa.Array) -> pa.Array:
    """Apply ``str.rstrip()`` to every line (``utf8_rtrim`` with Python's set spelled out)."""
    return pc.utf8_rtrim(text, python_whitespace())


# sacrebleu/tokenizers/tokenizer_re.py (TokenizerRegexp), in its order. The
# patterns use only ASCII classes and ``[^0-9]``, which RE2 on UTF-8 and Python's
# ``re`` on str both read as "any one code point but an ASCII digit". The first
# drops sacrebleu's group, which is the whole match (``\0``): RE2 is faster then.
# It also leaves out the space, which sacrebleu's class holds (`` -\&``): a space
# padded with spaces is only more whitespace, which changes no match of the later
# patterns but the number of spaces it leaves, and the final split drops them all.
# Spaces were most of its matches (about half of this tokenizer's time).
_REGEXP_13A = (
    (r"[\{-\~\[-\`!-\&\(-\+\:-\@\/]", r" \0 "),
    (r"([^0-9])([\.,])", r"\1 \2 "),
    (r"([\.,])([^0-9])", r" \1 \2"),
    (r"([0-9])(-)", r"\1 \2 "),
)

# sacrebleu/tokenizers/tokenizer_13a.py, in its order. Literal replacements run
# left to right without overlap, like ``str.replace``. A line holding none of
# the patterns (nor a newline, part of '-\n') is left unchanged by all of them,
# so only lines matching _NEEDS_LITERAL go through them; sacrebleu likewise only
# replaces the entities when the line holds an '&'.
_NEEDS_LITERAL = r"<skipped>|\n|&(?:quot|amp|lt|gt);"
_LITERAL_13A = (
    ("<skipped>", ""),
    ("-\n", ""),
    ("\n", " "),
    ("&quot;", '"'),
    ("&amp;", "&"),
    ("&lt;", "<"),
    ("&gt;", ">"),
)


def tokenize_13a(text: pa.Array) -> TokenColumn:
    """Replicate ``Tokenizer13a`` (mteval-v13a) on a column of lines."""
    text = _rstrip(text)
    needs = pc.match_substring_regex(text, _NEEDS_LITERAL)
    if pc.any(needs).as_py():
        some = text.filter(needs)
        for pattern, replacement in _LITERAL_13A:
            some = pc.replace_substring(some, pattern, replacement)
        text = pc.replace_with_mask(text, needs, some)
    # Tokenizer13a pads the line with one space each side before the regexes.
    space, empty = string_scalar(" ", text.type), string_scalar("", text.type)
    text = pc.binary_join_element_wise(space, text, space, empty)
    for pattern, replacement in _REGEXP_13A:
        text = pc.replace_substring_regex(text, pattern, replacement)
    return split_lines(text)


def tokenize_none(text: pa.Array) -> TokenColumn:
    """Replicate ``NoneTokenizer``: the tokens are ``line.split()``."""
    return split_lines(text)


def tokenize_char(text: pa.Array) -> TokenColumn:
    """Replicate ``TokenizerChar``: every non-whitespace character is a token.

    sacrebleu joins the characters with spaces and BLEU splits on whitespace, so
    a whitespace character is no token. The rest are cut at UTF-8 lead bytes:
    one code point is one Python character.
    """
    text = pc.replace_substring_regex(text, other_whitespace(), "")
    text = pc.replace_substring(text, " ", "")
    bounds, raw = line_bytes(text)
    starts = np.flatnonzero((raw & 0xC0) != 0x80).astype(np.int64)
    offsets = pa.py_buffer(np.append(starts, len(raw)))
    tokens = pa.LargeStringArray.from_buffers(len(starts), offsets, pa.py_buffer(raw))
    return TokenColumn(tokens, np.searchsorted(starts, bounds).astype(np.int64))


# sacrebleu/tokenizers/tokenizer_zh.py, _UCODE_RANGES, as written there (the
# bounds are strings: see the module docstring).
_ZH_RANGES = (
    ("\u3400", "\u4db5"),
    ("\u4e00", "\u9fa5"),
    ("\u9fa6", "\u9fbb"),
    ("\uf900", "\ufa2d"),
    ("\ufa30", "\ufa6a"),
    ("\ufa70", "\ufad9"),
    ("\u20000", "\u2a6d6"),
    ("\u2f800", "\u2fa1d"),
    ("\uff00", "\uffef"),
    ("\u2e80", "\u2eff"),
    ("\u3000", "\u303f"),
    ("\u31c0", "\u31ef"),
    ("\u2f00", "\u2fdf"),
    ("\u2ff0", "\u2fff"),
    ("\u3100", "\u312f"),
    ("\u31a0", "\u31bf"),
    ("\ufe10", "\ufe1f"),
    ("\ufe30", "\ufe4f"),
    ("\u2600", "\u26ff"),
    ("\u2700", "\u27bf"),
    ("\u3200", "\u32ff"),
    ("\u3300", "\u33ff"),
)


def _string_range(start: str, end: str) -> tuple[int, int]:
    """Return the first and last code point c with ``start <= c <= end`` as strings.

    A one-character c equal to the first character of a longer bound is a
    prefix of it, hence smaller: below a longer ``start``, within a longer ``end``.
    """
    return ord(start[0]) + (len(start) > 1), ord(end[0])


@cache
def zh_class() -> str:
    """Return an RE2 character class of what ``TokenizerZh._is_chinese_char`` accepts."""
    ranges = (_string_range(start, end) for start, end in _ZH_RANGES)
    return "[" + "".join(f"\\x{{{lo:x}}}-\\x{{{hi:x}}}" for lo, hi in ranges) + "]"


def tokenize_zh(text: pa.Array) -> TokenColumn:
    """Replicate ``TokenizerZh``: strip, a space each side of every Chinese character,
    then TokenizerRegexp's regexes (without 13a's padding or literal replacements)."""
    text = pc.utf8_trim(text, python_whitespace())
    text = pc.replace_substring_regex(text, zh_class(), " \\0 ")
    for pattern, replacement in _REGEXP_13A:
        text = pc.replace_substring_regex(text, pattern, replacement)
    return split_lines(text)


#: Tokenizer name -> columnar replica; any other name keeps sacrebleu's per-line tokenizer.
COLUMNAR_TOKENIZERS: Mapping[str, Callable[[pa.Array], TokenColumn]] = MappingProxyType(
    {"13a": tokenize_13a, "none": tokenize_none, "char": tokenize_char, "zh": tokenize_zh}
)
