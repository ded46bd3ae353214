"""AppTest of the Learn page (bleuviz/app/page_scripts/learn.py) inside the frame (app.py).

Golden numbers: sacrebleu 2.6 (``sentence_bleu`` / ``corpus_bleu``) and nltk 3.10
(``sentence_bleu`` with ``SmoothingFunction().methodN`` on sacrebleu's 13a tokens)
computed here on the same text; tf-nmt rows and the step tables are held
against the bleuviz core (tests/test_walkthrough.py holds the core against
tensorflow/nmt's literals).
"""

from __future__ import annotations

import html
import re
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest
import sacrebleu
from nltk.translate.bleu_score import SmoothingFunction
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu
from streamlit.testing.v1 import AppTest

from bleuviz.bleu import BleuConfig
from bleuviz.bleu.tokenize import TokenizeConfig, preprocess
from bleuviz.teach.corpus_vs_sentence import SAMPLE_CORPUS
from bleuviz.teach.examples import EXAMPLE_BY_KEY
from bleuviz.teach.flavors import WAY_BY_KEY, compare_ways
from bleuviz.teach.walkthrough import build_walkthrough
from tests.app.learn_app import frame_with, metrics, open_learn, run_ok, show_part
from tests.app.markup import html_bodies

ROOT = Path(__file__).resolve().parents[2]
TOK = TokenizeConfig()
INJECTED = "<script>alert(1)</script> costs $x$ and **bold** words"


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> AppTest:
    """A fresh AppTest of app.py, run once on its default page, with empty caches."""
    return open_learn(new_app)


def pick(at: AppTest, example: str) -> AppTest:
    """Open the page, then choose an example from the menu."""
    run_ok(at)
    at.selectbox(key="learn_example").set_value(example)
    return run_ok(at)


def text_state(at: AppTest) -> tuple[str, list[str]]:
    refs = [at.text_input(key=f"learn_ref_{i}").value for i in range(1, 5)]
    return at.text_area(key="learn_hyp").value, refs


def nltk_score(hyp: str, refs: list[str], method: int) -> float | None:
    """nltk sentence_bleu ×100 on 13a tokens, or None where nltk raises AssertionError."""
    tokens = [preprocess(r, TOK).split() for r in refs]
    smoothing = getattr(SmoothingFunction(), f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            score = nltk_sentence_bleu(
                tokens, preprocess(hyp, TOK).split(), smoothing_function=smoothing
            )
        except AssertionError:
            return None
    return 100.0 * float(score)


def test_opens_on_the_worked_example_and_writes_it_into_the_url(app: AppTest) -> None:
    run_ok(app)
    example = EXAMPLE_BY_KEY["worked"]
    assert text_state(app) == (example.hypothesis, [*example.references, "", ""])
    expected = sacrebleu.sentence_bleu(example.hypothesis, list(example.references))
    shown = metrics(app)
    assert shown["BLEU"] == f"{expected.score:.2f}" == "70.71"
    assert shown["Brevity penalty"] == f"{expected.bp:.3f}"
    assert shown["c / r"] == f"{expected.sys_len} / {expected.ref_len}"
    assert app.query_params == {"hyp": example.hypothesis, "ref": list(example.references)}


def test_step_tables_show_the_cores_numbers(app: AppTest) -> None:
    run_ok(app)
    example = EXAMPLE_BY_KEY["worked"]
    walk = build_walkthrough(
        example.hypothesis, example.references, TOK, BleuConfig(effective_order=True)
    )
    precision = frame_with(app, "p_n (fraction)")
    assert precision["p_n (fraction)"].tolist() == ["9/10", "7/9", "5/8", "4/7"]
    assert precision["m_n"].tolist() == list(walk.core.counts)
    assert precision["t_n"].tolist() == list(walk.core.totals)
    mean = frame_with(app, "w_n · log p_n")
    assert mean["w_n · log p_n"].tolist() == [f"{s.term:.4f}" for s in walk.orders]
    unigrams = frame_with(app, "count in candidate")
    assert unigrams["clipped count"].sum() == walk.core.counts[0]
    assert any("0.7071" in m.value and "-0.3466" in m.value for m in app.markdown)


@pytest.mark.parametrize("example", ["worked", "clipping", "short", "lengths"])
def test_five_ways_equal_the_libraries(app: AppTest, example: str) -> None:
    show_part(pick(app, example), "libraries")
    hyp, refs = EXAMPLE_BY_KEY[example].hypothesis, list(EXAMPLE_BY_KEY[example].references)
    table = frame_with(app, "library call")
    shown = dict(zip(table["library call"], table["BLEU"], strict=True))
    library = dict(zip(table["library call"], table["the library itself"], strict=True))
    assert shown[WAY_BY_KEY["sacrebleu-corpus"].call] == (
        f"{sacrebleu.corpus_bleu([hyp], [[r] for r in refs]).score:.2f}"
    )
    assert shown["sacrebleu.sentence_bleu(hyp, refs)"] == (
        f"{sacrebleu.sentence_bleu(hyp, refs).score:.2f}"
    )
    for method in range(8):
        way = WAY_BY_KEY[f"nltk-method{method}"].call
        expected = nltk_score(hyp, refs, method)
        if expected is None:
            assert shown[way] == "0.00" and "AssertionError" in library[way]
        else:
            assert shown[way] == f"{expected:.2f}", way
    core = {r.way.call: r.score.score for r in compare_ways(hyp, refs, TOK)}
    for way in (WAY_BY_KEY["tf-nmt"].call, WAY_BY_KEY["tf-nmt-smooth"].call):
        assert shown[way] == f"{core[way]:.2f}"


def test_short_exact_match_scores_zero_as_corpus_and_100_as_sentence(app: AppTest) -> None:
    show_part(pick(app, "short"), "libraries")
    table = frame_with(app, "library call").set_index("library call")["BLEU"]
    calls = [WAY_BY_KEY[key].call for key in ("sacrebleu-corpus", "sacrebleu-sentence")]
    assert table[calls].tolist() == ["0.00", "100.00"]
    app.checkbox(key="learn_effective_order").uncheck()
    show_part(app, "steps")
    assert metrics(app)["BLEU"] == "0.00"
    assert any("sacrebleu returns 0" in i.value or "log 0" in i.value for i in app.info)


def test_deep_link_reproduces_the_state(app: AppTest) -> None:
    hyp = "The cat sat on the mat."
    refs = ["The cat is on the mat.", "There is a cat on the mat."]
    app.query_params["hyp"] = hyp
    app.query_params["ref"] = refs
    run_ok(app)
    assert text_state(app) == (hyp, [*refs, "", ""])
    assert app.selectbox(key="learn_example").value == "custom"
    assert metrics(app)["BLEU"] == f"{sacrebleu.sentence_bleu(hyp, refs).score:.2f}"
    assert app.query_params == {"hyp": hyp, "ref": refs}
    run_ok(app)  # a rerun keeps the state: the link is applied once
    assert text_state(app) == (hyp, [*refs, "", ""])


def test_edits_are_written_back_into_the_url(app: AppTest) -> None:
    run_ok(app)
    app.text_area(key="learn_hyp").set_value("The committee met on Friday.")
    app.text_input(key="learn_ref_2").set_value("")
    app.text_input(key="learn_ref_3").set_value("The committee met on Friday evening.")
    run_ok(app)
    refs = [EXAMPLE_BY_KEY["worked"].references[0], "The committee met on Friday evening."]
    assert app.query_params == {"hyp": "The committee met on Friday.", "ref": refs}
    assert app.selectbox(key="learn_example").value == "custom"
    expected = sacrebleu.sentence_bleu("The committee met on Friday.", refs).score
    assert metrics(app)["BLEU"] == f"{expected:.2f}"


def test_example_menu_loads_the_clipping_example(app: AppTest) -> None:
    pick(app, "clipping")
    example = EXAMPLE_BY_KEY["clipping"]
    assert app.text_area(key="learn_hyp").value == example.hypothesis
    assert frame_with(app, "p_n (fraction)")["p_n (fraction)"].tolist()[0] == "2/7"
    unigrams = frame_with(app, "count in candidate")
    assert unigrams.iloc[0].tolist() == ["the", 7, 2, "1", 2, 5]
    assert app.query_params["hyp"] == example.hypothesis


def test_injected_text_is_shown_literally(app: AppTest) -> None:
    app.query_params["hyp"] = INJECTED
    app.query_params["ref"] = ["**bold** words cost $x$"]
    run_ok(app)
    assert app.text_area(key="learn_hyp").value == INJECTED
    rendered = [
        *(m for m in app.markdown if not m.proto.allow_html),
        *app.caption,
        *app.latex,
        *app.info,
        *app.warning,
        *app.title,
    ]
    rendered += [*app.subheader, *app.header, *app.code]
    for element in rendered:
        for piece in ("alert", "$x$", "**bold**", "script"):
            assert piece not in element.value, (piece, element.value)
    for table in app.table:  # st.table renders Markdown: it must hold none of the user's text
        assert "alert" not in table.value.to_string()
    bodies = html_bodies(app)
    assert not any("<script" in body for body in bodies)
    hypothesis = [b for b in bodies if "alert" in b]
    assert hypothesis and all("&#60;" in b and "&#62;" in b for b in hypothesis)
    assert re.search(r'<span class="bv-tok" data-status="miss"[^>]*>alert</span>', hypothesis[0])
    # Without its tags, the highlighted line is exactly the text that was typed.
    assert html.unescape(re.sub(r"<[^>]+>", "", hypothesis[0])) == INJECTED
    tokens = frame_with(app, "tokens")
    assert "< script >" in tokens["tokens"].iloc[0]
    assert (
        metrics(app)["BLEU"]
        == f"{sacrebleu.sentence_bleu(INJECTED, ['**bold** words cost $x$']).score:.2f}"
    )


def test_flavour_changes_the_reference_length(app: AppTest) -> None:
    pick(app, "lengths")
    assert metrics(app)["c / r"] == "6 / 7" and metrics(app)["Brevity penalty"] == "0.846"
    app.selectbox(key="learn_flavor").set_value("tf-nmt")
    run_ok(app)
    example = EXAMPLE_BY_KEY["lengths"]
    core = build_walkthrough(example.hypothesis, example.references, TOK, BleuConfig("tf-nmt"))
    shown = metrics(app)
    assert (shown["c / r"], shown["Brevity penalty"]) == ("6 / 4", "1.000")
    assert metrics(app)["BLEU"] == f"{core.core.score:.2f}"
    assert any("shortest" in m.value for m in app.markdown)


def test_nltk_method6_crash_is_explained(app: AppTest) -> None:
    pick(app, "clipping")
    app.selectbox(key="learn_flavor").set_value("nltk")
    app.run()
    app.selectbox(key="learn_smooth_nltk").set_value("method6")
    run_ok(app)
    assert metrics(app)["BLEU"] == "0.00"
    assert any("AssertionError" in i.value for i in app.info)


def test_individual_ngram_weights(app: AppTest) -> None:
    run_ok(app)
    app.number_input(key="learn_max_order").set_value(2)
    app.radio(key="learn_weights").set_value("individual")
    run_ok(app)
    example = EXAMPLE_BY_KEY["worked"]
    config = BleuConfig(max_order=2, weights=(0.0, 1.0), effective_order=True)
    core = build_walkthrough(example.hypothesis, example.references, TOK, config).core
    assert metrics(app)["BLEU"] == f"{core.score:.2f}" == f"{100 * 7 / 9:.2f}"
    assert frame_with(app, "w_n")["w_n"].tolist() == ["0.0000", "1.0000"]


def test_corpus_against_sentence_equals_sacrebleu(app: AppTest) -> None:
    show_part(run_ok(app), "corpus")
    hyps = [h for h, _ in SAMPLE_CORPUS]
    refs = [r for _, r in SAMPLE_CORPUS]
    sentence = [sacrebleu.sentence_bleu(h, [r]).score for h, r in SAMPLE_CORPUS]
    shown = metrics(app)
    assert (
        shown["Corpus BLEU (summed counts)"] == f"{sacrebleu.corpus_bleu(hyps, [refs]).score:.2f}"
    )
    assert shown["Mean of sentence BLEU"] == f"{sum(sentence) / len(sentence):.2f}"


def test_editing_the_corpus_rescores_it(app: AppTest) -> None:
    show_part(run_ok(app), "corpus")
    app.session_state["learn_corpus"] = {
        "edited_rows": {3: {"hyp": "Yes."}},
        "added_rows": [{"hyp": "See you soon.", "ref": "See you later."}],
        "deleted_rows": [0],
    }
    run_ok(app)
    pairs = [*SAMPLE_CORPUS[1:3], ("Yes.", "Yes."), ("See you soon.", "See you later.")]
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    assert metrics(app)["Corpus BLEU (summed counts)"] == (
        f"{sacrebleu.corpus_bleu(hyps, [refs]).score:.2f}"
    )


def test_no_reference_scores_against_an_empty_one(app: AppTest) -> None:
    run_ok(app)
    for i in range(1, 5):
        app.text_input(key=f"learn_ref_{i}").set_value("")
    run_ok(app)
    assert any("No reference given" in i.value for i in app.info)
    assert metrics(app)["BLEU"] == "0.00"
    assert "ref" not in app.query_params


def test_text_and_settings_survive_a_page_switch(app: AppTest) -> None:
    run_ok(app)
    app.text_area(key="learn_hyp").set_value("A candidate of my own.")
    app.selectbox(key="learn_flavor").set_value("nltk")
    run_ok(app)
    app.switch_page("bleuviz/app/page_scripts/overview.py").run()
    app.switch_page("bleuviz/app/page_scripts/learn.py")
    run_ok(app)
    assert app.text_area(key="learn_hyp").value == "A candidate of my own."
    assert app.selectbox(key="learn_flavor").value == "nltk"


def test_every_library_call_has_its_row_and_the_why_is_about_this_sentence(app: AppTest) -> None:
    """Hugging Face's calls are rows; the why table quotes this input's reference lengths."""
    show_part(pick(app, "lengths"), "libraries")
    example = EXAMPLE_BY_KEY["lengths"]
    hyp, refs = example.hypothesis, list(example.references)
    table = frame_with(app, "library call").set_index("library call")
    evaluate_sacrebleu = table.loc[WAY_BY_KEY["evaluate-sacrebleu"].call]
    assert (
        evaluate_sacrebleu["BLEU"]
        == f"{sacrebleu.corpus_bleu([hyp], [[r] for r in refs]).score:.2f}"
    )
    defaults = frame_with(app, "effective order").set_index("call")
    assert defaults.loc[WAY_BY_KEY["evaluate-sacrebleu"].short, "effective order"] == "off"
    assert defaults.loc[WAY_BY_KEY["tf-nmt"].short, "reference length"] == "shortest"
    assert table.loc[WAY_BY_KEY["tf-nmt"].call, "r"] == 4
    assert table.loc["sacrebleu.sentence_bleu(hyp, refs)", "r"] == 7
    why = frame_with(app, "first step that differs")
    texts = " ".join(why["one side"]) + " ".join(why["the other"])
    assert "shortest reference, 4 tokens" in texts and "closest reference, 7 tokens" in texts
    assert not any("Five ways" in h.value for h in app.header)
