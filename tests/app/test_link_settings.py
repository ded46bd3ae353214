"""Every sidebar setting travels in the link; unusable values are named on the page.

Oracle: sacrebleu 2.6.0's ``BLEU`` with the settings the link names, on the sample's
files, and its own signature.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.sections.compare.views import BUCKETS, NGRAMS
from tests.app.compare_tabs import open_view
from tests.app.markup import message_text, signatures
from tests.data import SAMPLE_HYPS, SAMPLE_REF_LINES, SAMPLE_REFS, SAMPLE_SYSTEM_LINES


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> AppTest:
    return new_app()


def signature(app: AppTest) -> str:
    return signatures(app)[0]


def link_warnings(app: AppTest) -> list[str]:
    return [message_text(w.value) for w in app.warning if "=" in w.value]


def test_a_link_with_settings_reproduces_the_senders_scores(app: AppTest) -> None:
    app.query_params.update(
        {"tok": "char", "lc": "1", "smooth": "floor", "smooth_value": "0.2", "order": "3"}
    )
    app.run()
    assert not app.exception and not link_warnings(app)
    assert app.selectbox(key="tokenize").value == "char"
    assert app.checkbox(key="lowercase").value is True
    assert app.number_input(key="max_order").value == 3
    bleu = sacrebleu.BLEU(
        tokenize="char", lowercase=True, smooth_method="floor", smooth_value=0.2, max_ngram_order=3
    )
    expected = bleu.corpus_score(SAMPLE_SYSTEM_LINES["literal"], SAMPLE_REF_LINES)
    shown = {m.label.split(" · ")[-1] if " · " in m.label else m.label: m.value for m in app.metric}
    assert any(f"{expected.score:.2f}" == str(v) for v in shown.values())
    sig = signature(app)
    assert "tok:char" in sig and "case:lc" in sig and "smooth:floor" in sig and "ngram:3" in sig


def test_changed_settings_are_written_into_the_link_and_defaults_left_out(app: AppTest) -> None:
    app.run()
    assert not {"tok", "lc", "flavor", "order", "metrics"} & set(app.query_params)
    app.selectbox(key="flavor").set_value("nltk").run()
    app.selectbox(key="smooth_nltk").set_value("method1").run()
    app.multiselect(key="metrics").set_value(["chrF", "TER"]).run()
    app.text_input(key="weights_text").set_value("0.5, 0.5").run()
    params = {k: app.query_params[k] for k in app.query_params}
    assert params["flavor"] == ["nltk"] or params["flavor"] == "nltk"
    flat = {k: v[0] if isinstance(v, list) else v for k, v in params.items()}
    assert flat["smooth"] == "method1"
    assert flat["metrics"] == "chrF,TER"
    assert flat["weights"] == "0.5,0.5"
    assert "tok" not in flat and "order" not in flat
    app.selectbox(key="flavor").set_value("sacrebleu").run()
    assert "flavor" not in app.query_params and "smooth" not in app.query_params


def test_written_link_opened_in_a_new_session_shows_the_same_signature(
    new_app: Callable[..., AppTest],
) -> None:
    sender = new_app()
    sender.run()
    sender.selectbox(key="tokenize").set_value("intl").run()
    sender.number_input(key="max_order").set_value(2).run()
    sender.checkbox(key="lowercase").check().run()
    sent = {k: sender.query_params[k] for k in sender.query_params}
    receiver = new_app()
    for name, value in sent.items():
        receiver.query_params[name] = value[0] if isinstance(value, list) else value
    receiver.run()
    assert not receiver.exception
    assert signature(receiver) == signature(sender)


@pytest.mark.parametrize(
    ("name", "value", "reason", "key", "default"),
    [
        ("tok", "klingon", "no tokenizer of that name", "tokenize", "13a"),
        ("order", "99", "out of range (1 to", "max_order", 4),
        ("order", "two", "not a whole number", "max_order", 4),
        ("lc", "maybe", "not a switch", "lowercase", False),
        ("flavor", "moses", "no flavour of that name", "flavor", "sacrebleu"),
        ("metrics", "chrF,BLEURT", "no metric of that name", "metrics", []),
        ("weights", "0.5,x", "not a comma-separated list of numbers", "weights_text", ""),
        ("weights", "-1,2", "non-negative", "weights_text", ""),
        ("smooth_value", "nan", "not a finite number", "smooth_value_floor", 0.1),
        ("smooth_value", "inf", "not a finite number", "smooth_value_floor", 0.1),
        ("smooth_value", "1e999", "not a finite number", "smooth_value_floor", 0.1),
        ("smooth_value", "-1", "out of range", "smooth_value_floor", 0.1),
        # Issue 44, item 27: extreme finite values scored inf or nan.
        ("smooth_value", "1e308", "out of range (0 to 1,000,000)", "smooth_value_floor", 0.1),
        ("weights", "1e308,1e308,1e308,1e308", "at most 10", "weights_text", ""),
        ("weights", "nan", "not a comma-separated list of numbers", "weights_text", ""),
    ],
)
def test_an_unusable_value_is_named_on_the_page_and_the_default_shown(
    app: AppTest, name: str, value: str, reason: str, key: str, default: object
) -> None:
    app.query_params[name] = value
    if name == "smooth_value":
        app.query_params["smooth"] = "floor"
    app.run()
    assert not app.exception
    messages = link_warnings(app)
    assert len(messages) == 1
    assert f"{name}={value}" in messages[0] and reason in messages[0] and "default" in messages[0]
    assert app.session_state[key] == default
    assert name not in app.query_params
    app.button(key="link_problems_dismiss").click().run()
    assert not link_warnings(app)


@pytest.mark.parametrize(
    ("name", "value", "shown"),
    [
        ("weights", "nan", "showing the default, uniform weights (1/order each)"),
        ("metrics", "BLEURT", "showing the default (none)"),
    ],
)
def test_an_empty_default_is_named_not_left_blank(
    app: AppTest, name: str, value: str, shown: str
) -> None:
    """Issue 44, item 31: ``weights=nan`` said "showing the default,   ." (a blank)."""
    app.query_params[name] = value
    app.run()
    (message,) = link_warnings(app)
    assert message.endswith(f"; {shown}.")


def test_a_link_message_stays_on_its_page_and_goes_with_it(app: AppTest) -> None:
    app.query_params["flavor"] = "moses"
    app.run()
    assert len(link_warnings(app)) == 1
    app.sidebar.selectbox(key="smooth_sacrebleu").set_value("floor").run()
    assert len(link_warnings(app)) == 1  # other reruns of the page keep it
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.run()
    assert not app.exception
    assert not link_warnings(app)


def flat_params(app: AppTest) -> dict[str, str]:
    return {k: app.query_params[k] for k in app.query_params}


def test_sentence_filters_travel_in_the_link_and_come_back(
    new_app: Callable[..., AppTest],
) -> None:
    sender = new_app()
    sender.switch_page("bleuviz/app/page_scripts/sentences.py").run()
    sender.selectbox(key="sent_system").set_value("terse")
    sender.text_input(key="sent_search").set_value("the")
    sender.slider(key="sent_bleu").set_value((10.0, 80.0))
    sender.slider(key="sent_len").set_value((3, 20))
    sender.selectbox(key="sent_doc").set_value(sender.selectbox(key="sent_doc").options[2])
    sender.run()
    sent = flat_params(sender)
    assert sent["bleu"] == "10,80" and sent["len"] == "3,20" and sent["q"] == "the"
    assert sent["sys"] == "terse" and "doc" in sent
    receiver = new_app()
    receiver.switch_page("bleuviz/app/page_scripts/sentences.py")
    receiver.query_params.update(sent)
    receiver.run()
    assert not receiver.exception and not link_warnings(receiver)
    assert receiver.slider(key="sent_bleu").value == (10.0, 80.0)
    assert receiver.slider(key="sent_len").value == (3, 20)
    assert receiver.text_input(key="sent_search").value == "the"
    assert receiver.selectbox(key="sent_doc").value == sender.selectbox(key="sent_doc").value
    shown = next(d.value for d in receiver.dataframe if "seg" in d.value.columns)
    original = next(d.value for d in sender.dataframe if "seg" in d.value.columns)
    assert list(shown["seg"]) == list(original["seg"]) and len(shown) > 0


@pytest.mark.parametrize(
    ("name", "value", "reason"),
    [
        ("bleu", "80,10", "the low end is above the high end"),
        ("bleu", "0,101", "out of range"),
        ("len", "3", "not a range"),
        ("doc", "nowhere", "no document of that name"),
    ],
)
def test_unusable_sentence_filters_are_named(
    app: AppTest, name: str, value: str, reason: str
) -> None:
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params[name] = value
    app.run()
    assert not app.exception
    (message,) = link_warnings(app)
    assert f"{name}={value}" in message and reason in message


def test_compare_choices_travel_in_the_link(new_app: Callable[..., AppTest]) -> None:
    sender = new_app()
    sender.switch_page("bleuviz/app/page_scripts/compare.py").run()
    sender.selectbox(key="cmp_b").set_value("repeat").run()
    sender.selectbox(key="cmp_metric").set_value("chrF").run()
    sender.number_input(key="cmp_n_bootstrap").set_value(200).run()
    open_view(sender, BUCKETS)
    sender.selectbox(key="cmp_bucket_kind").set_value("ratio").run()
    bucket = sender.selectbox(key="cmp_bucket").options[1]
    sender.selectbox(key="cmp_bucket").set_value(bucket).run()
    open_view(sender, NGRAMS)
    gram = sender.selectbox(key="cmp_salient").options[1]
    sender.selectbox(key="cmp_salient").set_value(gram).run()
    assert not sender.exception
    sent = flat_params(sender)
    assert sent["b"] == "repeat" and sent["seg_metric"] == "chrF" and sent["bs"] == "200"
    assert sent["bucket_by"] == "ratio" and sent["bucket"] == bucket and sent["ngram"] == gram
    assert sent["view"] == "ngrams"
    receiver = new_app()
    receiver.switch_page("bleuviz/app/page_scripts/compare.py")
    receiver.query_params.update(sent)
    receiver.run()
    assert not receiver.exception and not link_warnings(receiver)
    for key in ("cmp_b", "cmp_metric", "cmp_salient"):  # the link opened the n-grams' tab
        assert receiver.selectbox(key=key).value == sender.selectbox(key=key).value
    assert receiver.number_input(key="cmp_n_bootstrap").value == 200
    assert flat_params(receiver) == sent
    # The bucket chosen in the closed Buckets tab arrived too, and shows when it opens.
    open_view(receiver, BUCKETS)
    assert receiver.selectbox(key="cmp_bucket_kind").value == "ratio"
    assert receiver.selectbox(key="cmp_bucket").value == bucket


def test_an_unusable_compare_value_is_named(app: AppTest) -> None:
    app.switch_page("bleuviz/app/page_scripts/compare.py")
    app.query_params.update({"metric": "BLEURT", "bucket": "[99, 100)", "bs": "0"})
    app.run()
    assert not app.exception
    messages = " ".join(link_warnings(app))
    assert "metric=BLEURT" in messages and "bucket=[99, 100)" in messages and "bs=0" in messages
    assert app.selectbox(key="cmp_sig_metric").value == "BLEU"


def test_a_parameter_the_page_does_not_have_is_named_and_left_out(app: AppTest) -> None:
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params.update({"sys": "terse", "seg": "3", "system": "literal"})
    app.run()
    assert not app.exception
    (message,) = link_warnings(app)
    assert "system=literal" in message and "no parameter of that name" in message
    assert "did you mean sys?" in message
    assert "system" not in app.query_params
    assert app.selectbox(key="sent_system").value == "terse"  # the rest of the link holds
    assert app.number_input(key="sent_seg").value == 3


def test_a_parameter_without_a_near_name_is_named_without_a_guess(app: AppTest) -> None:
    app.query_params.update({"zzz": "1", "tok": "char"})
    app.run()
    (message,) = link_warnings(app)
    assert "zzz=1" in message and "did you mean" not in message
    assert app.selectbox(key="tokenize").value == "char"
    assert "zzz" not in app.query_params and app.query_params["tok"] == "char"


def test_a_parameter_no_section_reads_leaves_the_link_after_the_first_run(app: AppTest) -> None:
    app.switch_page("bleuviz/app/page_scripts/sentences.py").run()
    app.query_params["stale"] = "1"  # as a section drawn no more would leave it
    app.query_params["sys"] = "repeat"
    app.run()
    assert not app.exception and not link_warnings(app)
    assert "stale" not in app.query_params and "sys" in app.query_params


@pytest.mark.parametrize(
    ("page", "tokenizer"),
    [
        ("bleuviz/app/page_scripts/overview.py", "intl"),
        ("bleuviz/app/page_scripts/sentences.py", "char"),
        ("bleuviz/app/page_scripts/compare.py", "intl"),
        (
            "bleuviz/app/page_scripts/learn.py",
            None,
        ),  # its own settings; the worked example's text is linked
    ],
)
def test_every_page_claims_the_link_it_writes(
    new_app: Callable[..., AppTest], page: str, tokenizer: str | None
) -> None:
    sender = new_app()
    sender.switch_page(page).run()
    if tokenizer is not None:
        sender.selectbox(key="tokenize").set_value(tokenizer).run()
    sent = flat_params(sender)
    assert sent
    receiver = new_app()
    receiver.switch_page(page)
    receiver.query_params.update(sent)
    receiver.run()
    assert not receiver.exception and not link_warnings(receiver)
    assert flat_params(receiver) == sent


def test_a_saved_test_sets_link_is_claimed(new_app: Callable[..., AppTest]) -> None:
    argv = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]
    sender = new_app(*argv)
    sender.switch_page("bleuviz/app/page_scripts/sentences.py").run()
    sent = flat_params(sender)
    assert "set" in sent  # the command line's files, saved in the workspace
    receiver = new_app()
    receiver.switch_page("bleuviz/app/page_scripts/sentences.py")
    receiver.query_params.update(sent)
    receiver.run()
    assert not receiver.exception and not link_warnings(receiver)
    assert flat_params(receiver) == sent
