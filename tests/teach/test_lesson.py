"""Tests of bleuviz.teach.lesson: files and links read back, refusals named."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.errors import InputError
from bleuviz.teach.examples import Example
from bleuviz.teach.lesson import (
    MAX_ITEMS,
    Lesson,
    decode_lesson,
    encode_lesson,
    lesson_json,
    parse_lesson,
)

LESSON = {
    "title": "Week 3: <b>BLEU</b> $x$",
    "items": [
        {"hyp": "the the the", "refs": ["the cat"], "question": "Predict p1."},
        {"hyp": "A cat.", "refs": ["The cat.", "A cat!"], "explanation": "Two references."},
    ],
}


def test_json_file_reads_every_field() -> None:
    lesson = parse_lesson(json.dumps(LESSON).encode(), "week3.json")
    assert lesson.title == LESSON["title"]
    first, second = lesson.items
    assert (first.hypothesis, first.references, first.question) == (
        "the the the",
        ("the cat",),
        "Predict p1.",
    )
    assert second.references == ("The cat.", "A cat!") and second.lesson == "Two references."
    assert lesson_json(lesson) == LESSON


def test_tsv_file() -> None:
    data = b"# week 3\nthe the the\tthe cat\n\nA cat.\tThe cat.\tA cat!\n"
    lesson = parse_lesson(data, "week3.tsv")
    assert [i.references for i in lesson.items] == [("the cat",), ("The cat.", "A cat!")]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"hyp only\n", "week3.tsv: line 1: no reference"),
        (b'{"items": [{"hyp": "a"}]}', "week3.tsv: item 1: refs: must be a list"),
        (b'{"items": [{"hyp": 3, "refs": ["a"]}]}', "week3.tsv: item 1: hyp: must be text"),
        (b'{"items": [], "teacher": 1}', "week3.tsv: unknown field 'teacher'"),
        (b'{"items": [\n{"hyp": "a",}]}', "week3.tsv: line 2: not JSON"),
        (b"\xff\xfe", "week3.tsv: byte 1 is not UTF-8"),
        (b'{"items": []}', "week3.tsv: no item"),
        (
            json.dumps({"items": [{"hyp": "a", "refs": ["b"] * 5}]}).encode(),
            "week3.tsv: item 1: refs: 5 references",
        ),
        (b"a\tb\n" * (MAX_ITEMS + 1), f"{MAX_ITEMS + 1} items"),
    ],
)
def test_refusals_name_the_file_the_line_and_the_field(data: bytes, message: str) -> None:
    with pytest.raises(InputError) as info:
        parse_lesson(data, "week3.tsv")
    assert message in str(info.value)
    assert "\n" not in str(info.value)


TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)


@settings(max_examples=50, deadline=None)
@given(
    title=TEXT,
    items=st.lists(
        st.tuples(TEXT, st.lists(TEXT, min_size=1, max_size=4), TEXT), min_size=1, max_size=5
    ),
)
def test_a_link_gives_back_the_lesson(title: str, items: list[tuple[str, list[str], str]]) -> None:
    lesson = Lesson(
        title,
        tuple(
            Example(f"lesson-{i + 1}", f"Lesson item {i + 1}", h, tuple(r), "", q)
            for i, (h, r, q) in enumerate(items)
        ),
    )
    text = encode_lesson(lesson)
    assert text.replace("-", "").replace("_", "").isalnum()  # safe in a URL as is
    assert decode_lesson(text) == lesson


@pytest.mark.parametrize("text", ["not base64!", "AAAA", "x" * 20_000])
def test_a_bad_link_is_refused_naming_the_parameter(text: str) -> None:
    with pytest.raises(InputError) as info:
        decode_lesson(text)
    assert str(info.value).startswith("lesson: ")
