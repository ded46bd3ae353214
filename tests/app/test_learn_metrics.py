"""AppTest of the Learn page's chrF and TER walkthroughs.

Golden numbers: sacrebleu 2.6's ``CHRF`` and ``TER`` ``sentence_score`` on the
same text, computed here.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sacrebleu.metrics import CHRF, TER
from streamlit.testing.v1 import AppTest

from bleuviz.teach.examples import EXAMPLE_BY_KEY
from tests.app.learn_app import metrics, open_learn, run_ok, show_part
from tests.app.markup import html_bodies


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> AppTest:
    return open_learn(new_app)


def test_chrf_and_ter_equal_sacrebleu_on_the_worked_example(app: AppTest) -> None:
    run_ok(app)
    example = EXAMPLE_BY_KEY["worked"]
    hyp, refs = example.hypothesis, list(example.references)
    assert metrics(show_part(app, "ter"))["TER"] == f"{TER().sentence_score(hyp, refs).score:.2f}"
    assert (
        metrics(show_part(app, "chrf"))["chrF2"] == f"{CHRF().sentence_score(hyp, refs).score:.2f}"
    )
    app.radio(key="learn_chrf_word_order").set_value(2)
    run_ok(app)
    assert metrics(app)["chrF2++"] == f"{CHRF(word_order=2).sentence_score(hyp, refs).score:.2f}"
    tables = [t.value for t in app.dataframe if "recall" in t.value.columns]
    assert len(tables) == len(refs)
    assert tables[0]["n-grams"].tolist()[-2:] == ["word 1-grams", "word 2-grams"]


def test_ter_shift_and_edits_are_drawn_escaped(app: AppTest) -> None:
    hyp, ref = "on the mat the <b>cat</b> sat", "the <b>cat</b> sat on the mat today"
    app.query_params["hyp"] = hyp
    app.query_params["ref"] = [ref]
    run_ok(app)
    show_part(app, "ter")
    assert metrics(app)["TER"] == f"{TER().sentence_score(hyp, [ref]).score:.2f}"
    bodies = [b for b in html_bodies(app) if "Shift 1" in b or 'data-op="' in b]
    assert any("↷" in b for b in bodies)
    assert any('data-op="insertion"' in b and "+<ins>today</ins>" in b for b in bodies)
    assert not any("<b>" in b for b in bodies)


def test_a_link_opens_its_part_and_a_bad_part_is_named(app: AppTest) -> None:
    """``/learn?part=ter`` opens the TER tab; an unknown part falls back to the steps."""
    app.query_params["part"] = "ter"
    run_ok(app)
    assert "TER" in metrics(app) and "BLEU" not in metrics(app)
    app.switch_page("bleuviz/app/page_scripts/overview.py").run()
    app.query_params["part"] = "<b>nope</b>"
    app.switch_page("bleuviz/app/page_scripts/learn.py")
    run_ok(app)
    lines = [w.value for w in app.warning if "part=" in w.value]
    assert len(lines) == 1 and "no part of the page of that name" in lines[0]
    assert "BLEU" in metrics(app) and "TER" not in metrics(app)
