"""Links keep every choice and name what they drop (issue 33 item 4, issue 34 items 3 and 4).

The human judgement, the imported scores' directions, Compare's "test all pairs"
switch and Learn's tokenizer and case travel in the link and come back from it;
unusable values are named; a link with many unknown parameters is summarised.
Oracles: sacrebleu 2.6's ``sentence_bleu`` for Learn's score with the linked
tokenizer and case; the score files read with plain Python (tests/data).
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import parse_qs

import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.sections.compare.views import SIGNIFICANCE
from bleuviz.limits import MAX_RESAMPLES, MAX_SEED, MAX_TRIALS
from tests.app.compare_tabs import open_view
from tests.app.markup import message_text
from tests.data import (
    COMET_SCORES,
    HUMAN_SCORES,
    METRICX_SCORES,
    SAMPLE_HYPS,
    SAMPLE_REF_LINES,
    SAMPLE_REFS,
    SAMPLE_SYSTEM_LINES,
)

OVERVIEW = "bleuviz/app/page_scripts/overview.py"
SENTENCES = "bleuviz/app/page_scripts/sentences.py"
COMPARE = "bleuviz/app/page_scripts/compare.py"
LEARN = "bleuviz/app/page_scripts/learn.py"
SCORED = [
    "--ref",
    *map(str, SAMPLE_REFS),
    "--hyp",
    *map(str, SAMPLE_HYPS),
    "--seg-scores",
    *map(str, (COMET_SCORES, METRICX_SCORES, HUMAN_SCORES)),
]


def link_warnings(app: AppTest) -> list[str]:
    shown = [message_text(w.value) for w in app.warning]
    return [w for w in shown if "=" in w or "unknown parameters" in w]


def flat_params(app: AppTest) -> dict[str, str]:
    return {k: app.query_params[k] for k in app.query_params}


def opened(app: AppTest, page: str, params: dict[str, str]) -> AppTest:
    """Open ``page`` with ``params`` as a new session's first run, and check it ran."""
    app.switch_page(page)
    app.query_params.update(params)
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def test_human_choice_and_directions_travel_in_the_link(new_app: Callable[..., AppTest]) -> None:
    sender = new_app(*SCORED)
    sender.switch_page(OVERVIEW).run()
    assert "human" not in sender.query_params and "lower.MetricX-test" not in sender.query_params
    sender.sidebar.checkbox(key="imported_lower::MetricX-test").set_value(False).run()
    sender.sidebar.checkbox(key="imported_lower::COMET-test").set_value(True).run()
    sender.sidebar.selectbox(key="human_metric").set_value("human").run()
    sent = flat_params(sender)
    assert sent["human"] == "human"
    assert sent["lower.MetricX-test"] == "0" and sent["lower.COMET-test"] == "1"
    assert "lower.human" not in sent  # at its default: left out
    receiver = opened(new_app(*SCORED), OVERVIEW, sent)
    assert not link_warnings(receiver)
    assert receiver.sidebar.selectbox(key="human_metric").value == "human"
    assert receiver.sidebar.checkbox(key="imported_lower::MetricX-test").value is False
    assert receiver.sidebar.checkbox(key="imported_lower::COMET-test").value is True
    assert flat_params(receiver) == sent


@pytest.mark.parametrize(
    ("name", "value", "reason"),
    [
        ("human", "MQM", "no imported score of that name"),
        ("lower.COMET-test", "maybe", "not a switch"),
    ],
)
def test_unusable_imported_choices_are_named(
    new_app: Callable[..., AppTest], name: str, value: str, reason: str
) -> None:
    app = opened(new_app(*SCORED), OVERVIEW, {name: value})
    (message,) = link_warnings(app)
    assert f"{name}={value}" in message and reason in message
    assert app.sidebar.selectbox(key="human_metric").value == "(none)"
    assert app.sidebar.checkbox(key="imported_lower::COMET-test").value is False
    assert name not in app.query_params


def test_compare_all_pairs_switch_travels_in_the_link(new_app: Callable[..., AppTest]) -> None:
    sender = new_app()
    sender.switch_page(COMPARE).run()
    open_view(sender, SIGNIFICANCE)
    assert "pairs" not in sender.query_params
    sender.toggle(key="cmp_all_pairs").set_value(True).run()
    assert flat_params(sender)["pairs"] == "1" and "holm" not in sender.query_params
    sender.toggle(key="cmp_pairs_holm").set_value(True).run()
    sender.radio(key="cmp_pairs_test").set_value("approximate randomization").run()
    sent = flat_params(sender)
    assert sent["holm"] == "1" and sent["pairs_test"] == "approximate randomization"
    receiver = opened(new_app(), COMPARE, sent)
    assert not link_warnings(receiver)
    assert receiver.toggle(key="cmp_all_pairs").value is True
    assert receiver.toggle(key="cmp_pairs_holm").value is True
    assert receiver.radio(key="cmp_pairs_test").value == "approximate randomization"
    assert flat_params(receiver) == sent


@pytest.mark.parametrize(
    ("name", "value", "maximum"),
    [("bs", MAX_RESAMPLES + 1, MAX_RESAMPLES), ("ar", MAX_TRIALS + 1, MAX_TRIALS)],
)
def test_resample_counts_above_the_documented_maximum_are_named(
    new_app: Callable[..., AppTest], name: str, value: int, maximum: int
) -> None:
    app = opened(new_app(), COMPARE, {name: str(value)})
    (message,) = link_warnings(app)
    assert f"{name}={value}" in message and f"{maximum:,}" in message
    assert name not in app.query_params


def test_compare_links_take_the_command_lines_domains(new_app: Callable[..., AppTest]) -> None:
    """Issue 44, item 28: ``seed`` stopped at 2**32 - 1 and ``ar=0`` was refused, unlike
    ``--seed`` and ``--paired-ar`` (bleuviz/limits.py: one domain per option)."""
    sent = {"seed": str(MAX_SEED), "ar": "0", "bs": "10"}
    app = opened(new_app(), COMPARE, sent)
    open_view(app, SIGNIFICANCE)
    assert not app.exception and not link_warnings(app)
    assert app.number_input(key="cmp_seed").value == MAX_SEED
    assert app.number_input(key="cmp_n_ar").value == 0
    assert {k: flat_params(app)[k] for k in sent} == sent
    table = app.table[0].value
    assert set(table["p (approximate randomization)"]) == {"—"}  # AR off, as --paired-ar 0
    (said,) = [m.value for m in app.markdown if "the difference is" in m.value]
    assert said.endswith("significant at p < 0.05 by paired bootstrap.")  # the test that ran
    assert not [w.value for w in app.warning if "cannot" in w.value]
    app.toggle(key="cmp_all_pairs").set_value(True).run()
    app.radio(key="cmp_pairs_test").set_value("approximate randomization").run()
    assert not app.exception
    assert any("Approximate randomization is off" in i.value for i in app.info)


@pytest.mark.parametrize(
    ("name", "value", "reason"),
    [
        ("seed", str(MAX_SEED + 1), f"out of range (0 to {MAX_SEED:,})"),
        ("seed", "1e23", "not a whole number"),
        ("bs", "1_000", "not a whole number"),
        ("ar", "\u0663\u0660\u0660", "not a whole number"),
        ("ar", "-1", "out of range (0 to"),
    ],
)
def test_compare_links_read_numbers_as_the_command_line(
    new_app: Callable[..., AppTest], name: str, value: str, reason: str
) -> None:
    app = opened(new_app(), COMPARE, {name: value})
    (message,) = link_warnings(app)
    assert f"{name}={value}" in message and reason in message
    assert name not in app.query_params


def test_many_unknown_parameters_are_named_in_one_summary(new_app: Callable[..., AppTest]) -> None:
    # 1,000 fields in all: Streamlit drops a longer query string before the app sees it.
    stray = {f"p{i}": "1" for i in range(999)}
    app = opened(new_app(), OVERVIEW, {**stray, "tok": "char"})
    (message,) = link_warnings(app)
    assert message.startswith("999 unknown parameters:")
    assert "p0" in message and "p9" in message and "p10" not in message
    assert "(first 10)" in message and "left out" in message
    assert flat_params(app) == {"tok": "char"}  # the known one is applied and kept
    assert app.selectbox(key="tokenize").value == "char"


def test_a_few_unknown_parameters_are_each_named(new_app: Callable[..., AppTest]) -> None:
    app = opened(new_app(), OVERVIEW, {"zz1": "1", "zz2": "2"})
    messages = link_warnings(app)
    assert len(messages) == 2 and "zz1=1" in messages[0] and "zz2=2" in messages[1]


def learn_link(app: AppTest) -> dict[str, list[str]]:
    link = next(p for p in app.get("page_link") if p.proto.label == "Open this segment in Learn")
    return parse_qs(link.proto.query_string)


def test_learn_link_carries_tokenizer_and_case_and_learn_links_back(
    new_app: Callable[..., AppTest],
) -> None:
    sentences = opened(new_app(), SENTENCES, {"sys": "terse", "seg": "4"})
    sentences.selectbox(key="tokenize").set_value("char").run()
    sentences.checkbox(key="lowercase").check().run()
    sentences.number_input(key="sent_seg").set_value(5).run()  # the URL follows at the run's end
    query = learn_link(sentences)
    assert query["tok"] == ["char"] and query["lc"] == ["1"]
    back = query["back"][0]
    assert back.startswith("sentences?")
    assert parse_qs(back.partition("?")[2]) == {k: [v] for k, v in flat_params(sentences).items()}
    assert parse_qs(back.partition("?")[2])["seg"] == ["5"]

    learn = opened(new_app(), LEARN, {k: v[0] if k != "ref" else v for k, v in query.items()})
    assert not link_warnings(learn)
    assert learn.selectbox(key="learn_tokenize").value == "char"
    assert learn.checkbox(key="learn_lowercase").value is True
    hyp, refs = SAMPLE_SYSTEM_LINES["terse"][4], [r[4] for r in SAMPLE_REF_LINES]
    want = sacrebleu.sentence_bleu(hyp, refs, tokenize="char", lowercase=True).score
    shown = {m.label: m.value for m in learn.metric}
    assert any(value == f"{want:.2f}" for value in shown.values()), shown
    (home,) = [p for p in learn.get("page_link") if p.proto.label.startswith("Back to")]
    assert home.proto.label == "Back to segment 5 on Sentences"
    assert parse_qs(home.proto.query_string) == parse_qs(back.partition("?")[2])
    assert learn.query_params["back"] == back  # kept in Learn's own link


@pytest.mark.parametrize("back", ["https://example.com/?seg=1", "learn?hyp=x", "overview"])
def test_a_back_link_to_no_segment_page_is_named_and_not_drawn(
    new_app: Callable[..., AppTest], back: str
) -> None:
    learn = opened(new_app(), LEARN, {"hyp": "a b", "ref": "a b", "back": back})
    (message,) = link_warnings(learn)
    assert "back=" in message and "not a page of this app that shows a segment" in message
    assert not [p for p in learn.get("page_link") if p.proto.label.startswith("Back to")]
    assert "back" not in learn.query_params


def test_learn_opened_afresh_has_no_link_back(new_app: Callable[..., AppTest]) -> None:
    app = opened(new_app(), LEARN, {"hyp": "a b", "ref": "a b", "back": "sentences?seg=2"})
    assert [p for p in app.get("page_link") if p.proto.label == "Back to segment 2 on Sentences"]
    app.switch_page(SENTENCES).run()
    app.query_params.clear()
    app.switch_page(LEARN).run()
    assert not app.exception
    assert not [p for p in app.get("page_link") if p.proto.label.startswith("Back to")]


def test_learn_sidebar_has_no_imported_scores_and_keeps_them(
    new_app: Callable[..., AppTest],
) -> None:
    app = new_app(*SCORED)
    app.switch_page(OVERVIEW).run()
    app.sidebar.selectbox(key="human_metric").set_value("human").run()
    app.sidebar.checkbox(key="imported_lower::COMET-test").set_value(True).run()
    app.switch_page(LEARN).run()
    assert not app.exception
    assert not [u for u in app.get("file_uploader") if "Segment scores" in u.proto.label]
    assert not [s for s in app.sidebar.selectbox if s.key == "human_metric"]
    app.switch_page(OVERVIEW).run()
    assert app.sidebar.selectbox(key="human_metric").value == "human"
    assert app.sidebar.checkbox(key="imported_lower::COMET-test").value is True


def _segment_link_script() -> None:
    """A page whose frame claimed ``tok`` and ``set``: its link to a segment keeps only those."""
    import streamlit as st

    from bleuviz.app.ui.state.links import arrive, claim, keep_frame_query
    from bleuviz.app.ui.state.page_links import segment_query

    arrive("")
    claim("tok", "set")
    keep_frame_query()
    st.json(segment_query("terse", 4))


def test_a_segment_link_carries_the_frames_settings_not_the_pages_own() -> None:
    app = AppTest.from_function(_segment_link_script)
    app.query_params.update({"tok": "char", "set": "abc123", "focus": "terse"})
    app.run()
    assert not app.exception
    assert app.json[0].value == ('{"tok": ["char"], "set": ["abc123"], "sys": "terse", "seg": "4"}')


@pytest.mark.parametrize("edges", ["nan", "0,inf", "10,1e999"])
def test_bucket_edges_that_are_not_finite_are_named(
    new_app: Callable[..., AppTest], edges: str
) -> None:
    app = opened(new_app(), COMPARE, {"edges": edges})
    (message,) = link_warnings(app)
    assert f"edges={edges}" in message and "must be finite numbers" in message
    assert "edges" not in app.query_params


def test_score_files_kept_nowhere_else_survive_a_visit_to_learn(
    new_app: Callable[..., AppTest],
) -> None:
    """On the sample the uploader alone holds the files: Learn draws it rather than lose them."""
    app = new_app()
    app.switch_page(OVERVIEW).run()
    (uploader,) = [u for u in app.sidebar.file_uploader if "Segment scores" in u.proto.label]
    uploader.set_value([(COMET_SCORES.name, COMET_SCORES.read_bytes(), "text/plain")]).run()
    assert app.session_state["imported_names"] == ["COMET-test"]
    app.switch_page(LEARN).run()
    assert not app.exception
    app.switch_page(OVERVIEW).run()
    assert app.session_state["imported_names"] == ["COMET-test"]
