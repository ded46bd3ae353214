"""chrF++'s two word splitters give the same words; sacrebleu's rule is the oracle of both.

``python_words`` and ``columnar_words`` number words in different orders, so
streams are compared after renumbering every id by its first appearance. The
oracle is ``CHRF._remove_punctuation`` of sacrebleu 2.6, run live.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.chrf import CHRF

from bleuviz.metrics.chrf_words import COLUMNAR_MIN_LINES, python_words, words
from bleuviz.metrics.chrf_words_columnar import columnar_words
from bleuviz.metrics.ngram_counts import IdStream
from tests.data import ROOT
from tests.metrics.test_chrf_columnar import line_text

streams = st.lists(st.lists(line_text, max_size=6), min_size=1, max_size=3)


def renumbered(numbered: list[IdStream]) -> list[tuple[list[int], list[int]]]:
    """Every stream's ids renumbered by first appearance across the streams, and lengths."""
    first_seen: dict[int, int] = {}
    return [
        (
            [first_seen.setdefault(int(i), len(first_seen)) for i in stream.ids],
            stream.lengths.tolist(),
        )
        for stream in numbered
    ]


def sacrebleu_words(lines: list[list[str]]) -> list[tuple[list[int], list[int]]]:
    """sacrebleu's words of every line, numbered by first appearance, and their counts."""
    vocabulary: dict[str, int] = {}
    out = []
    for stream in lines:
        per_line = [CHRF()._remove_punctuation(line) for line in stream]
        ids = [vocabulary.setdefault(w, len(vocabulary)) for line in per_line for w in line]
        out.append((ids, [len(line) for line in per_line]))
    return out


@settings(max_examples=200, deadline=None)
@given(lines=streams)
def test_both_splitters_give_sacrebleus_words(lines: list[list[str]]) -> None:
    want = sacrebleu_words(lines)
    assert renumbered(python_words(lines)) == want
    assert renumbered(columnar_words(lines)) == want


def test_ids_are_shared_across_streams() -> None:
    hyp, ref = python_words([["the cat.", "a"], ["cat the", "(a"]])
    assert hyp.ids.tolist() == [0, 1, 2, 3]
    assert ref.ids.tolist() == [1, 0, 4, 3]
    assert np.array_equal(hyp.lengths, [3, 1])


def columnar_in_a_fresh_interpreter(lines: int, with_pyarrow: bool) -> bool:
    """Whether ``words`` split ``lines`` lines by pyarrow in a new interpreter."""
    code = (
        "import sys\n"
        + ("import pyarrow.compute\n" if with_pyarrow else "")
        + "from bleuviz.metrics.chrf_words import words\n"
        + f"words([['a b.'] * {lines}])\n"
        + "print('bleuviz.metrics.chrf_words_columnar' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return out.stdout.strip() == "True"


def test_a_small_input_is_split_in_python() -> None:
    assert not columnar_in_a_fresh_interpreter(COLUMNAR_MIN_LINES - 1, with_pyarrow=False)


def test_a_large_input_is_split_by_pyarrow() -> None:
    assert columnar_in_a_fresh_interpreter(COLUMNAR_MIN_LINES, with_pyarrow=False)


def test_a_small_input_is_split_by_pyarrow_once_it_is_imported() -> None:
    assert columnar_in_a_fresh_interpreter(10, with_pyarrow=True)


def test_words_equal_either_way_on_a_large_input() -> None:
    lines = [[f"w{i % 50} x{i % 7}. (y" for i in range(COLUMNAR_MIN_LINES)]]
    assert renumbered(words(lines)) == renumbered(python_words(lines))
