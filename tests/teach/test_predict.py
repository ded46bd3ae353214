"""Tests of bleuviz.teach.predict: guesses marked against the walkthrough's numbers.

The answers are the worked example's, counted by hand in tests/teach/test_walkthrough.py
(9/10, 7/9, 5/8, 4/7, BP 1, BLEU 70.71).
"""

from __future__ import annotations

from bleuviz.bleu import BleuConfig
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.teach.examples import EXAMPLE_BY_KEY
from bleuviz.teach.predict import mark, marks_frame
from bleuviz.teach.walkthrough import Walkthrough, build_walkthrough


def worked() -> Walkthrough:
    e = EXAMPLE_BY_KEY["worked"]
    return build_walkthrough(e.hypothesis, e.references, TokenizeConfig(), BleuConfig())


def test_right_wrong_and_skipped_guesses() -> None:
    guesses = {"m1": 9, "m2": 6, "p1": 0.9, "p4": 0.57, "BP": 1.0, "BLEU": 70.5}
    marks = {m.name: m for m in mark(worked(), guesses)}
    assert marks["m1"].right and marks["p1"].right and marks["BP"].right
    assert marks["p4"].right  # 4/7 = 0.5714, within 0.005
    assert marks["BLEU"].right  # 70.71, within 0.5
    assert marks["m2"].right is False and "7 of the 9 candidate 2-grams" in marks["m2"].step
    assert marks["m3"].right is None
    frame = marks_frame(tuple(marks.values()))
    assert frame.set_index("quantity").loc["m2", "mark"] == "✗ wrong"
    assert frame.set_index("quantity").loc["m3", "mark"] == "— not guessed"


def test_smoothing_and_brevity_steps_explain_their_answers() -> None:
    e = EXAMPLE_BY_KEY["brevity"]
    walk = build_walkthrough(e.hypothesis, e.references, TokenizeConfig(), BleuConfig())
    marks = {m.name: m for m in mark(walk, {"BP": 0.319})}
    assert marks["BP"].right and "exp(1 − 15/7)" in marks["BP"].step
    e = EXAMPLE_BY_KEY["smoothing"]
    walk = build_walkthrough(e.hypothesis, e.references, TokenizeConfig(), BleuConfig())
    marks = {m.name: m for m in mark(walk, {"p4": 0.1})}
    assert marks["p4"].right and "1/(2^1·5)" in marks["p4"].step
