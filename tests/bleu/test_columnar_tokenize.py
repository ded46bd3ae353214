"""The columnar tokenizers against sacrebleu 2.6.0 as the oracle, token for token.

The oracle is ``BLEU(tokenize=name, lowercase=lc)._preprocess_segment(line).split()``:
sacrebleu's own tokenizer on ``line.rstrip()`` (after ``str.lower()``), split as
BLEU splits. Lines are drawn from arbitrary Unicode text mixed with the pieces
each replica must get right: every character ``str.split()`` treats as
whitespace, the HTML entities and ``<skipped>`` 13a rewrites, newlines, and
digits around ``.``, ``,`` and ``-``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

import bleuviz.bleu.encode as encode_module
from bleuviz.bleu.columnar import COLUMNAR_TOKENIZERS, zh_class
from bleuviz.bleu.encode import EncodedLines, encode_lines, ids_in
from bleuviz.bleu.ngrams import UNSEEN, split_tokens
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.stats import compute_stats
from bleuviz.bleu.tokenize import TOKENIZERS, TokenizeConfig, tokenize_lines
from bleuviz.text.whitespace import python_whitespace
from tests.data import SAMPLE, SAMPLE_HYPS, SAMPLE_REFS

COLUMNAR = sorted(COLUMNAR_TOKENIZERS)

# Every character Python's str.split() and str.rstrip() treat as whitespace,
# found by asking Python (29 in Python 3.11: \t-\r, \x1c-\x1f, space, \x85, \xa0, ...).
WHITESPACE = [chr(c) for c in range(0x110000) if chr(c).isspace()]
# Code points at and around each end of zh's ranges (sacrebleu's string comparisons).
ZH_BOUNDARIES = [
    chr(c + d)
    for c in (0x2000, 0x2A6D, 0x2F80, 0x2FA1, 0x3400, 0x4DB5, 0x9FBB, 0xFFEF, 0x20000, 0x2A6D6)
    for d in (-1, 0, 1)
]
# Characters whose Python lowercase differs from a simple case mapping, or is longer.
CASED = ["İ", "I", "Σ", "ς", "ẞ", "ß", "Ⅻ", "\u1c89", "\ua7cb", "ǅ"]
PIECES = [
    *WHITESPACE,
    *CASED,
    "&quot;", "&amp;", "&lt;", "&gt;", "&amp;quot;", "&", ";",
    "<skipped>", "<skip", "ped>", "-\n", "\n", "-", ".", ",",
    "0", "1", "9", "3.14", "1,000", "2-3", "-5", "a.", ".b", "...",
    "{", "~", "[", "`", "!", "&", "(", "+", ":", "@", "/", "'", "\u200b", "\ufeff", "\x00",
    "中", "日本", "\U0001f600", "é", "e\u0301", "。", "–", "…", "€", "１２",
    *ZH_BOUNDARIES,
]  # fmt: skip
line_text = st.lists(
    st.one_of(st.sampled_from(PIECES), st.text(max_size=4), st.characters(codec="utf-8")),
    max_size=16,
).map("".join)


def oracle(lines: Sequence[str], name: str, lowercase: bool) -> list[list[str]]:
    """sacrebleu's tokens of every line."""
    bleu = BLEU(tokenize=name, lowercase=lowercase)
    return [bleu._preprocess_segment(line).split() for line in lines]


def token_lists(encoded: EncodedLines) -> list[list[str]]:
    """Each line's tokens as strings, read back through the vocabulary."""
    vocab = np.asarray(encoded.vocabulary.to_pylist(), dtype=object)
    o = encoded.offsets
    return [list(vocab[encoded.ids[o[i] : o[i + 1]]]) for i in range(len(o) - 1)]


def per_line(lines: Sequence[str], config: TokenizeConfig) -> EncodedLines:
    """sacrebleu per line, split, numbered in order of first occurrence (pandas.factorize)."""
    tokens, offsets = split_tokens(tokenize_lines(lines, config))
    codes, vocab = pd.factorize(np.asarray(tokens, dtype=object))
    return EncodedLines(pa.array(vocab, pa.large_string()), codes.astype(np.int64), offsets)


def assert_same_encoding(got: EncodedLines, expected: EncodedLines) -> None:
    assert got.vocabulary.to_pylist() == expected.vocabulary.to_pylist()
    np.testing.assert_array_equal(got.ids, expected.ids)
    np.testing.assert_array_equal(got.offsets, expected.offsets)
    assert got.ids.dtype == got.offsets.dtype == np.int64


@settings(max_examples=400, deadline=None)
@given(
    lines=st.lists(line_text, max_size=6),
    name=st.sampled_from(COLUMNAR),
    lowercase=st.booleans(),
)
def test_columnar_tokens_equal_sacrebleu(lines: list[str], name: str, lowercase: bool) -> None:
    config = TokenizeConfig(name, lowercase)
    encoded = encode_lines(lines, config)
    assert token_lists(encoded) == oracle(lines, name, lowercase)
    assert_same_encoding(encoded, per_line(lines, config))


@pytest.mark.parametrize("name", COLUMNAR)
@pytest.mark.parametrize("space", WHITESPACE)
def test_every_python_whitespace_splits_and_strips(name: str, space: str) -> None:
    lines = [f"a{space}b", f"{space}x.{space}", space, f"-{space}", f"1{space}-{space}2{space}"]
    assert token_lists(encode_lines(lines, TokenizeConfig(name))) == oracle(lines, name, False)


@pytest.mark.parametrize(
    ("line", "tokens"),
    [  # from sacrebleu 2.6.0, Tokenizer13a
        ("a &quot;b&quot; &amp;lt; c", ["a", '"', "b", '"', "<", "c"]),
        ("x<skipped>y", ["xy"]),
        ("end-\nnext", ["endnext"]),
        ("3.14, 1,000 and 2-3.", ["3.14", ",", "1,000", "and", "2", "-", "3", "."]),
        ("trailing-\n", ["trailing-"]),  # rstrip() runs before '-\n' is removed
    ],
)
def test_13a_golden(line: str, tokens: list[str]) -> None:
    assert oracle([line], "13a", False) == [tokens]
    assert token_lists(encode_lines([line], TokenizeConfig())) == [tokens]


@pytest.mark.parametrize("name", COLUMNAR)
@pytest.mark.parametrize("lowercase", [False, True])
def test_fixture_data_equals_sacrebleu(name: str, lowercase: bool) -> None:
    """The bundled sample (every data file, one stream) through both paths."""
    files = [path for path in sorted(SAMPLE.iterdir()) if path.is_file() and path.suffix != ".py"]
    lines = [line for path in files for line in _lines(path)]
    config = TokenizeConfig(name, lowercase)
    encoded = encode_lines(lines, config)
    assert token_lists(encoded) == oracle(lines, name, lowercase)
    assert_same_encoding(encoded, per_line(lines, config))


@pytest.mark.parametrize("columnar", [True, False])
def test_lone_surrogate_is_refused_on_both_paths(
    monkeypatch: pytest.MonkeyPatch, columnar: bool
) -> None:
    """Text is UTF-8 (io decodes strictly): the vocabulary, a pyarrow string array, could
    never hold a lone surrogate, and pyarrow refuses it just the same."""
    if not columnar:
        monkeypatch.setattr(encode_module, "COLUMNAR_TOKENIZERS", {})
    with pytest.raises(UnicodeEncodeError):
        encode_lines(["bad \udcff byte."], TokenizeConfig())


def test_python_whitespace_is_every_isspace_character() -> None:
    assert python_whitespace() == "".join(WHITESPACE)


def test_registry_names_are_tokenizers() -> None:
    assert set(COLUMNAR_TOKENIZERS) == {"13a", "zh", "char", "none"}
    assert set(COLUMNAR_TOKENIZERS) <= set(TOKENIZERS)


def test_zh_class_is_sacrebleus_chinese_characters() -> None:
    """Every code point UTF-8 can hold, through RE2, against sacrebleu's own test."""
    points = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    column = pa.array(points, pa.large_string())
    ours = pc.match_substring_regex(column, f"^{zh_class()}$").to_pylist()
    is_chinese = TokenizerZh._is_chinese_char.__wrapped__  # type: ignore[attr-defined]
    assert ours == [is_chinese(c) for c in points]


@pytest.mark.parametrize("name", ["intl"])
def test_other_tokenizers_take_sacrebleus_path(name: str) -> None:
    lines = ["Don't stop-believing...", "我爱北京天安门。", ""]
    config = TokenizeConfig(name)
    assert token_lists(encode_lines(lines, config)) == oracle(lines, name, False)
    assert_same_encoding(encode_lines(lines, config), per_line(lines, config))


def test_ids_in_marks_unseen_tokens() -> None:
    encoded = encode_lines(["c a z", "", "a y"], TokenizeConfig())
    vocabulary = pa.array(["a", "b", "c"])
    np.testing.assert_array_equal(ids_in(encoded, vocabulary), [2, 0, UNSEEN, 0, UNSEEN])


@pytest.mark.parametrize("name", COLUMNAR)
@pytest.mark.parametrize("lowercase", [False, True])
def test_statistics_identical_to_per_line_path(
    monkeypatch: pytest.MonkeyPatch, name: str, lowercase: bool
) -> None:
    """Reference index and every system's statistics, columnar vs sacrebleu per line."""
    config = TokenizeConfig(name, lowercase)
    refs = [_lines(path) for path in SAMPLE_REFS]
    hyps = [_lines(path) for path in SAMPLE_HYPS]
    fast = build_reference_index(refs, config)
    fast_stats = [compute_stats(h, fast) for h in hyps]
    monkeypatch.setattr(encode_module, "COLUMNAR_TOKENIZERS", {})
    slow = build_reference_index(refs, config)
    assert fast.vocabulary.to_pylist() == slow.vocabulary.to_pylist()
    np.testing.assert_array_equal(fast.ref_lengths, slow.ref_lengths)
    for ours, theirs in zip(fast.orders, slow.orders, strict=True):
        np.testing.assert_array_equal(ours.keys, theirs.keys)
        np.testing.assert_array_equal(ours.clip_counts, theirs.clip_counts)
        np.testing.assert_array_equal(ours.segments, theirs.segments)
    for h, stats in zip(hyps, fast_stats, strict=True):
        np.testing.assert_array_equal(stats.to_matrix(), compute_stats(h, slow).to_matrix())


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()
