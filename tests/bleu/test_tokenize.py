"""Tests of bleuviz.bleu.tokenize against sacrebleu 2.6.0 as the oracle.

The golden token strings in the tables were printed by sacrebleu 2.6.0,
``BLEU(tokenize=name, lowercase=lc)._preprocess_segment(line)``; every row is
also re-checked against the live oracle.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU, _get_tokenizer

import bleuviz.bleu.tokenize as tokenize_module
from bleuviz.bleu.tokenize import (
    TOKENIZERS,
    TokenizeConfig,
    get_tokenizer,
    preprocess,
    tokenize_lines,
    tokenizer_signature,
)
from bleuviz.errors import ConfigError

BUILTIN = ("13a", "intl", "zh", "char", "none")

# (tokenizer, lowercase, line, tokens), from sacrebleu 2.6.0 _preprocess_segment.
GOLDEN = [
    ("13a", False, "Hello there!", "Hello there !"),
    ("13a", True, "Hello there!", "hello there !"),
    ("13a", False, "It costs $3,000.50 (approx.)", "It costs $ 3,000.50 ( approx . )"),
    ("13a", False, "Don't stop-believing...", "Don't stop-believing . . ."),
    ("13a", False, "Él dijo: «¡Hola!»  ", "Él dijo : «¡Hola ! »"),
    ("13a", True, "İstanbul ΣΊΣΥΦΟΣ", "i̇stanbul σίσυφος"),
    ("13a", False, "  spaces   inside  ", "spaces inside"),
    ("13a", False, "", ""),
    ("intl", False, "Don't stop-believing...", "Don ' t stop - believing . . ."),
    ("intl", False, "Él dijo: «¡Hola!»  ", "Él dijo : « ¡ Hola ! »"),
    ("intl", True, "Él dijo: «¡Hola!»  ", "él dijo : « ¡ hola ! »"),
    ("intl", False, "我爱北京天安门。", "我爱北京天安门 。"),
    ("zh", False, "我爱北京天安门。", "我 爱 北 京 天 安 门 。"),
    ("zh", False, "日本語 text", "日 本 語 text"),
    ("zh", True, "The cat is on the mat.", "the cat is on the mat ."),
    ("char", False, "Hello there!", "H e l l o   t h e r e !"),
    ("char", True, "日本語 Text", "日 本 語   t e x t"),
    ("none", False, "It costs $3,000.50 (approx.)", "It costs $3,000.50 (approx.)"),
    ("none", True, "The cat is on the mat.", "the cat is on the mat."),
    ("none", False, "  spaces   inside  ", "  spaces   inside"),  # only the right is stripped
]

# Tokenizers that need an optional dependency: (name, pip extra, how to make the import fail).
EXTRAS = [
    ("ja-mecab", "sacrebleu[ja]"),
    ("ko-mecab", "sacrebleu[ko]"),
    ("flores101", "sacrebleu[spm]"),
    ("flores200", "sacrebleu[spm]"),
]


@pytest.mark.parametrize(("name", "lowercase", "line", "expected"), GOLDEN)
def test_preprocess_golden(name: str, lowercase: bool, line: str, expected: str) -> None:
    config = TokenizeConfig(name, lowercase)
    oracle = BLEU(tokenize=name, lowercase=lowercase)._preprocess_segment(line)
    assert oracle == expected
    assert preprocess(line, config) == expected
    assert tokenize_lines([line, line], config) == [expected, expected]


@pytest.mark.parametrize("name", BUILTIN)
def test_tokenizer_signature_is_sacrebleus(name: str) -> None:
    assert tokenizer_signature(name) == BLEU(tokenize=name).tokenizer_signature


@pytest.mark.parametrize("name", BUILTIN)
def test_get_tokenizer_is_sacrebleus_class(name: str) -> None:
    assert type(get_tokenizer(name)) is _get_tokenizer(name)


@pytest.mark.parametrize("name", BUILTIN)
def test_tokenizer_is_built_once(name: str) -> None:
    """One tokenizer object per name: sacrebleu's tokenizers compile regexes in ``__init__``
    and memoize lines with a per-instance ``lru_cache``, so ``preprocess`` (one call per
    line) must not build a new one each time."""
    assert get_tokenizer(name) is get_tokenizer(name)


@pytest.mark.parametrize("workers", [2, 3])
@pytest.mark.parametrize("n_lines", [5, 6, 7, 40])
def test_tokenize_lines_in_workers_keeps_order(
    monkeypatch: pytest.MonkeyPatch, workers: int, n_lines: int
) -> None:
    """Forked workers give the same lines, in order (threshold lowered to keep it fast)."""
    monkeypatch.setattr(tokenize_module, "PARALLEL_MIN_LINES", 5)
    lines = [f"Line {i}: The cat's {i}th mat, (approx.)!" for i in range(n_lines)]
    config = TokenizeConfig("intl", lowercase=True)
    oracle = BLEU(tokenize="intl", lowercase=True)
    assert tokenize_lines(lines, config, workers=workers) == [
        oracle._preprocess_segment(line) for line in lines
    ]


@settings(max_examples=60, deadline=None)
@given(
    lines=st.lists(st.text(max_size=40), max_size=5),
    name=st.sampled_from(BUILTIN),
    lowercase=st.booleans(),
)
def test_tokenize_lines_equals_sacrebleu(lines: list[str], name: str, lowercase: bool) -> None:
    oracle = BLEU(tokenize=name, lowercase=lowercase)
    got = tokenize_lines(lines, TokenizeConfig(name, lowercase))
    assert got == [oracle._preprocess_segment(line) for line in lines]
    assert got == [preprocess(line, TokenizeConfig(name, lowercase)) for line in lines]


@pytest.mark.parametrize("name", ["13A", "spm", "spBLEU-1K", "moses", ""])
def test_unknown_tokenizer_is_a_config_error(name: str) -> None:
    with pytest.raises(ConfigError, match=r"^tokenize: unknown tokenizer") as info:
        TokenizeConfig(name)
    assert repr(name) in str(info.value)
    with pytest.raises(ConfigError):
        get_tokenizer(name)


def test_tokenizer_names() -> None:
    assert set(TOKENIZERS) <= set(BLEU.TOKENIZERS)
    assert TOKENIZERS[0] == "13a"


def test_config_is_frozen() -> None:
    config = TokenizeConfig()
    assert config == TokenizeConfig("13a", lowercase=False)
    with pytest.raises(AttributeError):
        config.name = "intl"  # type: ignore[misc]


@pytest.fixture
def extras_missing(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Make the optional dependencies unimportable, whatever is installed.

    On the reference machine they are absent anyway; this keeps the test
    deterministic where someone installed them. sacrebleu's mecab modules
    catch the ImportError at import time and set ``MeCab = None``; its SPM
    tokenizer imports ``sentencepiece`` in ``__init__``.
    """
    from sacrebleu.tokenizers import tokenizer_ja_mecab, tokenizer_ko_mecab

    monkeypatch.setattr(tokenizer_ja_mecab, "MeCab", None)
    monkeypatch.setattr(tokenizer_ko_mecab, "MeCab", None)
    monkeypatch.setitem(sys.modules, "sentencepiece", None)
    clear = getattr(get_tokenizer, "cache_clear", lambda: None)
    clear()  # a tokenizer built before the patch must not be reused, nor one built during it
    yield
    clear()


@pytest.mark.usefixtures("extras_missing")
@pytest.mark.parametrize(("name", "extra"), EXTRAS)
def test_missing_extra_names_the_pip_extra(name: str, extra: str) -> None:
    config = TokenizeConfig(name)  # the name itself is valid
    with pytest.raises(ConfigError, match=rf"^tokenize: tokenizer '{name}' could not be loaded"):
        tokenize_lines(["x"], config)
    with pytest.raises(ConfigError) as info:
        tokenizer_signature(name)
    assert f"pip install '{extra}'" in str(info.value)
    assert "\n" not in str(info.value)
