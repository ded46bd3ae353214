"""AppTest of the Learn page's exercises: predict first, built-in exercises, a lesson link.

Answers: the worked example's numbers, counted by hand in tests/teach/test_walkthrough.py
(m1 = 9 of 10, m2 = 7 of 9, BLEU 70.71 = sacrebleu.sentence_bleu).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from bleuviz.render.labels import escape_markdown as md
from bleuviz.teach.examples import EXAMPLE_BY_KEY, Example
from bleuviz.teach.lesson import Lesson, encode_lesson
from tests.app.learn_app import metrics, open_learn, run_ok

LESSON = Lesson(
    "Week 3 <b>bold</b> $x$",
    (
        Example("lesson-1", "Lesson item 1", "the the the", ("the cat",), "", "Predict p1."),
        Example("lesson-2", "Lesson item 2", "A cat sat.", ("The cat sat.", "A cat sat!"), "", ""),
    ),
)


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> AppTest:
    return open_learn(new_app)


def marks(at: AppTest) -> Any:
    for table in at.table:
        if "your guess" in table.value.columns:
            return table.value.set_index("quantity")
    raise AssertionError("no marks table")


def test_predict_first_marks_a_right_and_a_wrong_guess(app: AppTest) -> None:
    run_ok(app)
    app.toggle(key="learn_predict").set_value(True)
    run_ok(app)
    assert "BLEU" not in metrics(app)  # the steps wait for Reveal
    assert not any("70.71" in i.value for i in app.info)  # nor does the explanation
    app.number_input(key="learn_guess_m1").set_value(9)
    app.number_input(key="learn_guess_m2").set_value(6)
    app.number_input(key="learn_guess_BLEU").set_value(70.7)
    run_ok(app)
    app.button(key="learn_reveal").click()
    run_ok(app)
    table = marks(app)
    assert table.loc["m1", "mark"] == "✓ right" and table.loc["BLEU", "mark"] == "✓ right"
    assert table.loc["m2", "mark"] == "✗ wrong" and "7 of the 9" in table.loc["m2", "why"]
    assert table.loc["p3", "mark"] == "— not guessed"
    assert metrics(app)["BLEU"] == "70.71"
    app.text_area(key="learn_hyp").set_value("The committee met.")
    run_ok(app)
    assert "BLEU" not in metrics(app)  # a new sentence is predicted afresh


@pytest.mark.parametrize("key", ["clipping", "brevity", "smoothing", "tokenization", "worked"])
def test_built_in_exercises_ask_their_question(app: AppTest, key: str) -> None:
    run_ok(app)
    app.selectbox(key="learn_example").set_value(key)
    run_ok(app)
    example = EXAMPLE_BY_KEY[key]
    assert example.question and any(md(example.question) in i.value for i in app.info)
    assert app.text_area(key="learn_hyp").value == example.hypothesis


def test_a_lesson_link_opens_the_same_exercises(app: AppTest) -> None:
    app.query_params["lesson"] = encode_lesson(LESSON)
    run_ok(app)
    assert app.selectbox(key="learn_example").value == "lesson-1"
    assert app.text_area(key="learn_hyp").value == "the the the"
    assert any(md("Predict p1.") in i.value for i in app.info)
    assert app.query_params["lesson"] == encode_lesson(LESSON)
    assert any(encode_lesson(LESSON) in t.value for t in app.text)  # the teacher's link
    assert not any("<b>" in m.value or "$x$" in m.value for m in app.markdown)
    app.selectbox(key="learn_example").set_value("lesson-2")
    run_ok(app)
    assert app.text_input(key="learn_ref_2").value == "A cat sat!"
    assert app.query_params["lesson"] == encode_lesson(LESSON)
    assert app.query_params["hyp"] == "A cat sat."


def test_a_bad_lesson_link_is_named_in_one_escaped_line(app: AppTest) -> None:
    app.query_params["lesson"] = "<b>not*a*lesson</b>"
    run_ok(app)
    lines = [w.value for w in app.warning if "lesson=" in w.value]
    assert len(lines) == 1 and "\n" not in lines[0]
    assert "not a lesson packed by bleuviz" in lines[0]
    assert lines[0].startswith("` lesson=")  # the value as code: shown, never rendered
    assert app.selectbox(key="learn_example").value == "worked"
