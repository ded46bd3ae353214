"""The words a note's editor offers, and the span chosen words mark."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleuviz.workspace.marking import markable_words, span_of_words, words_in_span


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("City council argues over new tram.", ["City", "council", "argues", "over", "new",
                                                "tram", "."]),
        ("Weidenfeld's city-council, 7.5 km", ["Weidenfeld's", "city-council", ",", "7", ".",
                                               "5", "km"]),
        ("我爱北京。", ["我", "爱", "北", "京", "。"]),
        ("ümlaut 🙂  end ", ["ümlaut", "🙂", "end"]),
        (" \t ", []),
    ],
)  # fmt: skip
def test_words_of_examples(line: str, words: list[str]) -> None:
    assert [line[s:e] for s, e in markable_words(line)] == words


@given(st.text())
def test_words_are_in_order_and_cover_every_visible_character(line: str) -> None:
    words = markable_words(line)
    covered = set()
    end = 0
    for s, e in words:
        assert end <= s < e
        end = e
        covered |= set(range(s, e))
    assert covered == {i for i, c in enumerate(line) if not c.isspace()}


@given(st.text(min_size=1), st.data())
def test_chosen_words_mark_the_run_from_the_first_to_the_last(line: str, data) -> None:
    words = markable_words(line)
    if not words:
        assert span_of_words(words, []) is None
        return
    chosen = data.draw(st.sets(st.integers(0, len(words) - 1), min_size=1))
    span = span_of_words(words, chosen)
    assert span == (words[min(chosen)][0], words[max(chosen)][1])
    assert words_in_span(words, span) == list(range(min(chosen), max(chosen) + 1))
    assert words_in_span(words, None) == []
