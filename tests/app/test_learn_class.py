"""AppTest: a class opening one lesson link computes the lesson's numbers once.

Issue 47: thirty students on one server. Learn holds no workspace and no
evaluation; its numbers are cached on the text and settings
(``bleuviz.app.ui.cache.learn``), so a second session on the same link computes
nothing and shows the same numbers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.cache import learn as cached
from bleuviz.app.ui.state.learn_links import LEARN_PARTS
from bleuviz.teach.examples import EXAMPLE_BY_KEY
from bleuviz.teach.lesson import Lesson, encode_lesson
from tests.app.learn_app import metrics, show_part

COMPUTATIONS = ("build_walkthrough", "group_ways", "through_tokenizers", "chrf_walkthrough")
LESSON = Lesson("Class", (EXAMPLE_BY_KEY["clipping"], EXAMPLE_BY_KEY["brevity"]))


def student(new_app: Callable[..., AppTest]) -> AppTest:
    """A new session opening the lesson link on Learn (the fixture empties caches once)."""
    at = new_app()
    at.query_params["lesson"] = encode_lesson(LESSON)
    at.switch_page("bleuviz/app/page_scripts/learn.py")
    at.run()
    assert not at.exception and not at.error
    return at


def count_calls(monkeypatch: pytest.MonkeyPatch, names: tuple[str, ...]) -> Counter[str]:
    """Count the calls of each of ``names`` in the Learn cache module, from now on."""
    calls: Counter[str] = Counter()
    for name in names:
        original = getattr(cached, name)

        def counted(*args: Any, _name: str = name, _f: Any = original, **kwargs: Any) -> Any:
            calls[_name] += 1
            return _f(*args, **kwargs)

        monkeypatch.setattr(cached, name, counted)
    return calls


def every_part(at: AppTest) -> dict[str, str]:
    """Visit each of the page's parts in turn; every metric shown on the way."""
    shown: dict[str, str] = {}
    for part in LEARN_PARTS:
        shown |= metrics(show_part(at, part))
    return shown


def test_a_student_computes_only_the_part_on_show(
    new_app: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening the link computes BLEU's steps; chrF and TER wait for their tabs."""
    calls = count_calls(monkeypatch, ("walkthrough", "library_calls", "tokenizers", "chrf", "ter"))
    at = student(new_app)
    assert set(calls) == {"walkthrough"}, calls
    assert "BLEU" in metrics(at) and "TER" not in metrics(at)
    show_part(at, "ter")
    assert set(calls) == {"walkthrough", "ter"}, calls


def test_a_second_student_computes_nothing(
    new_app: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = count_calls(monkeypatch, (*COMPUTATIONS, "ter_walkthrough"))
    first = student(new_app)
    shown = [every_part(first)]
    assert all(calls[name] >= 1 for name in COMPUTATIONS), calls
    calls.clear()
    second = student(new_app)
    shown.append(every_part(second))
    assert sum(calls.values()) == 0, calls
    assert shown[0] == shown[1] and "chrF2" in shown[0] and "TER" in shown[0]
    assert second.text_area(key="learn_hyp").value == LESSON.items[0].hypothesis
