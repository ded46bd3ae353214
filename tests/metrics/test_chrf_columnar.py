"""The columnar chrF/chrF++ statistics against sacrebleu 2.6's ``CHRF``.

Oracle: ``CHRF(...)._extract_corpus_statistics`` (the statistics),
``_compute_score_from_stats`` (``sentence_score``'s number) and ``corpus_score``,
run live on the same text; equality is exact (integers, and floats to the bit).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.chrf import CHRF

from bleuviz.errors import ConfigError
from bleuviz.metrics.chrf_columnar import chrf_statistics, prepare_references
from bleuviz.metrics.chrf_score import ChrfConfig, corpus_f_score, f_scores
from tests.data import SAMPLE_HYPS, SAMPLE_REFS

WHITESPACE = [chr(c) for c in range(0x110000) if chr(c).isspace()]
PUNCTUATION = list("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
PIECES = [
    *WHITESPACE,
    *PUNCTUATION,
    "a", "b", "ab", "the", "The", "İ", "Σ", "ß", "中", "\U0001f600", "e\u0301", "\x00", "(hi)",
    "a.", ".a", "...", "1,000",
]  # fmt: skip
line_text = st.lists(
    st.one_of(st.sampled_from(PIECES), st.text(max_size=4), st.characters(codec="utf-8")),
    max_size=14,
).map("".join)


def check(hyps: Sequence[str], refs: Sequence[Sequence[str]], config: ChrfConfig) -> None:
    """Statistics, sentence scores and corpus score equal sacrebleu's."""
    oracle = CHRF(
        char_order=config.char_order,
        word_order=config.word_order,
        beta=config.beta,
        lowercase=config.lowercase,
    )
    want = oracle._extract_corpus_statistics(hyps, refs)
    got = chrf_statistics(hyps, refs, config)
    assert got.tolist() == want
    sentence = [oracle._compute_score_from_stats(row).score for row in want]
    assert f_scores(got, config.beta).tolist() == sentence
    assert corpus_f_score(got, config.beta) == oracle.corpus_score(hyps, refs).score


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[str], list[list[str]]]:
    n = draw(st.integers(1, 6))
    lines = st.lists(line_text, min_size=n, max_size=n)
    return draw(lines), [draw(lines) for _ in range(draw(st.integers(1, 3)))]


@st.composite
def chrf_configs(draw: st.DrawFn) -> ChrfConfig:
    char_order = draw(st.integers(0, 7))
    word_order = draw(st.integers(0 if char_order else 1, 3))
    return ChrfConfig(char_order, word_order, draw(st.integers(1, 3)), draw(st.booleans()))


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_statistics_equal_sacrebleu_on_arbitrary_unicode(data: st.DataObject) -> None:
    hyps, refs = data.draw(corpora())
    check(hyps, refs, data.draw(chrf_configs()))


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_references_prepared_once_serve_every_system(data: st.DataObject) -> None:
    """Several systems against one preparation of the references: each equals sacrebleu."""
    first, refs = data.draw(corpora())
    second = data.draw(st.lists(line_text, min_size=len(first), max_size=len(first)))
    config = data.draw(chrf_configs())
    prepared = prepare_references(refs, config)
    for hyps in (first, second, first):
        oracle = CHRF(config.char_order, config.word_order, config.beta, config.lowercase)
        want = oracle._extract_corpus_statistics(hyps, refs)
        assert chrf_statistics(hyps, prepared, config).tolist() == want


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_near_identical_references_pick_the_first_best_one(data: st.DataObject) -> None:
    """Ties and near-ties between references: sacrebleu keeps the first of the highest."""
    words = st.lists(st.sampled_from(["a", "b", "a.", "(b", "ab"]), max_size=6).map(" ".join)
    n = data.draw(st.integers(1, 5))
    hyps = data.draw(st.lists(words, min_size=n, max_size=n))
    refs = [data.draw(st.lists(words, min_size=n, max_size=n)) for _ in range(3)]
    check(hyps, refs, ChrfConfig(word_order=data.draw(st.sampled_from([0, 2]))))


@pytest.mark.parametrize("space", WHITESPACE)
def test_every_python_whitespace_is_removed_and_splits_words(space: str) -> None:
    hyps = [f"a{space}b.{space}(c", f"{space}x{space}", space]
    refs = [[f"ab{space}b", "x", ""]]
    check(hyps, refs, ChrfConfig(word_order=2))


@pytest.mark.parametrize("word_order", [0, 2])
@pytest.mark.parametrize("lowercase", [False, True])
def test_statistics_equal_sacrebleu_on_the_sample(word_order: int, lowercase: bool) -> None:
    refs = [path.read_text(encoding="utf-8").splitlines() for path in SAMPLE_REFS]
    for path in SAMPLE_HYPS:
        hyps = path.read_text(encoding="utf-8").splitlines()
        check(hyps, refs, ChrfConfig(word_order=word_order, lowercase=lowercase))
        check(hyps, refs[1:], ChrfConfig(word_order=word_order, lowercase=lowercase))


def test_segments_larger_than_a_chunk_are_counted_whole() -> None:
    long = " ".join(f"w{i % 97}" for i in range(30000))
    hyps, refs = [long, "a b", long[:5000]], [[long[::-1], "a b", long]]
    check(hyps, refs, ChrfConfig(word_order=2))


def test_empty_lines_score_zero_and_identical_lines_100() -> None:
    stats = chrf_statistics(["", "same text", "x"], [["", "same text", ""]], ChrfConfig())
    assert f_scores(stats, 2).tolist() == [0.0, 100.0, 0.0]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"char_order": -1}, "must be at least 0"),
        ({"char_order": 0, "word_order": 0}, "are both 0"),
        ({"beta": 0}, "beta: must be at least 1"),
    ],
)
def test_bad_options_are_refused(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        ChrfConfig(**kwargs)


def test_names_are_sacrebleus() -> None:
    assert [ChrfConfig().name, ChrfConfig(word_order=2).name, ChrfConfig(beta=3).name] == [
        CHRF().corpus_score(["a"], [["a"]]).name,
        CHRF(word_order=2).corpus_score(["a"], [["a"]]).name,
        "chrF3",
    ]
    assert np.array_equal(f_scores(np.zeros((1, 18), dtype=np.int64), 2), [0.0])
