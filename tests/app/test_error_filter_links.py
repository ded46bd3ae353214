"""AppTest: the error filter on Compare's table, and in the links of Sentences and Compare.

The spans are the hand-built ones of ``tests/app/error_span_data.py``; the
expected segments are counted here again from that data in plain Python.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.error_span_data import metric_annotations, sample_annotations, with_spans
from tests.app.markup import message_text

SEGMENTS = "segments"  # Compare's tab of the segment table
SENTENCES = "bleuviz/app/page_scripts/sentences.py"
COMPARE = "bleuviz/app/page_scripts/compare.py"


def with_error(
    system: str, severities: Collection[str], categories: Collection[str] = ()
) -> set[int]:
    """Segments (from 1) of ``system`` with an error of a chosen severity and category."""
    found = set()
    for i, annotation in enumerate(sample_annotations().segments.get(system, ())):
        for span in annotation.spans if annotation is not None else ():
            if (not severities or span.severity in severities) and (
                not categories or span.category in categories
            ):
                found.add(i + 1)
    return found


def link_warnings(at: AppTest) -> list[str]:
    return [message_text(w.value) for w in at.warning if "=" in w.value]


def params(at: AppTest) -> dict[str, str]:
    return {k: at.query_params[k] for k in at.query_params}


def rows(at: AppTest) -> set[int]:
    return {int(s) for s in at.dataframe[0].value["seg"]}


@pytest.fixture
def opened(
    new_app: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., AppTest]]:
    """Open a page with the sample spans loaded and ``params`` as its link."""
    with_spans(monkeypatch, sample_annotations)

    def make(page: str, **query: str) -> AppTest:
        at = new_app()
        at.switch_page(page)
        at.query_params.update(query)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    yield make


@pytest.mark.parametrize(
    ("side", "expected"),
    [
        ("A", with_error("literal", {"minor"})),
        ("B", with_error("terse", {"minor"})),
        ("either", with_error("literal", {"minor"}) | with_error("terse", {"minor"})),
        ("both", with_error("literal", {"minor"}) & with_error("terse", {"minor"})),
    ],
)
def test_compare_table_filters_by_severity_on_each_side(
    opened: Callable[..., AppTest], side: str, expected: set[int]
) -> None:
    at = opened(COMPARE, a="literal", b="terse", view=SEGMENTS)
    assert len(at.dataframe[0].value) > len(expected) > 0
    at.selectbox(key="cmp_err_in").set_value(side)
    at.multiselect(key="cmp_err_severities").set_value(["minor"]).run()
    assert not at.exception, [e.value for e in at.exception]
    assert rows(at) == expected
    assert any("errors of" in b.label for b in at.button)  # the filter's chip
    assert params(at)["err_sev"] == "minor"
    assert params(at).get("err_in", "either") == side


def test_compare_category_and_severity_must_match_one_error(
    opened: Callable[..., AppTest],
) -> None:
    at = opened(COMPARE, a="literal", b="terse", view=SEGMENTS, err_in="A")
    at.multiselect(key="cmp_err_categories").set_value(["Fluency/Grammar"]).run()
    assert rows(at) == with_error("literal", set(), {"Fluency/Grammar"}) == {1}
    at.multiselect(key="cmp_err_severities").set_value(["major"]).run()
    assert rows(at) == set()  # Fluency/Grammar is minor there


def test_compare_filter_travels_in_the_link(opened: Callable[..., AppTest]) -> None:
    sender = opened(COMPARE, a="literal", b="terse", view=SEGMENTS)
    sender.selectbox(key="cmp_err_in").set_value("A")
    sender.multiselect(key="cmp_err_severities").set_value(["major"])
    sender.multiselect(key="cmp_err_categories").set_value(["Accuracy/Source"]).run()
    sent = params(sender)
    assert sent["err_in"] == "A" and sent["err_sev"] == "major"
    assert sent["err_cat"] == "Accuracy/Source"
    receiver = opened(COMPARE, **sent)
    assert not link_warnings(receiver)
    assert rows(receiver) == rows(sender) == {2}
    assert receiver.multiselect(key="cmp_err_severities").value == ["major"]
    assert params(receiver) == sent


def test_sentence_filter_travels_in_the_link(opened: Callable[..., AppTest]) -> None:
    sender = opened(SENTENCES, sys="literal")
    sender.multiselect(key="sent_err_severities").set_value(["major", "minor"]).run()
    sent = params(sender)
    assert sent["err_sev"] == "major,minor" and "err_cat" not in sent
    receiver = opened(SENTENCES, **sent)
    assert not link_warnings(receiver)
    assert rows(receiver) == rows(sender) == with_error("literal", {"major", "minor"})
    # Back to no filter: the parameter leaves the link.
    receiver.multiselect(key="sent_err_severities").set_value([]).run()
    assert "err_sev" not in params(receiver)


UNUSABLE = [
    ("err_cat", "Nonsense", "no error category of that name"),
    ("err_sev", "major,fatal", "no error severity of that name"),
]


@pytest.mark.parametrize(
    ("page", "name", "value", "reason"),
    [
        *((SENTENCES, *bad) for bad in UNUSABLE),
        *((COMPARE, *bad) for bad in UNUSABLE),
        (COMPARE, "err_in", "C", "no side of that name"),
    ],
)
def test_unusable_error_filter_values_are_named(
    opened: Callable[..., AppTest], page: str, name: str, value: str, reason: str
) -> None:
    pair = {"sys": "literal"} if page == SENTENCES else {"a": "literal", "b": "terse"}
    where = {} if page == SENTENCES else {"view": SEGMENTS}
    at = opened(page, **pair, **where, **{name: value})
    (message,) = link_warnings(at)
    assert f"{name}={value}" in message and reason in message
    assert len(at.dataframe[0].value) == len(sample_annotations().segments["literal"])


def test_err_on_sentences_is_not_a_parameter(opened: Callable[..., AppTest]) -> None:
    at = opened(SENTENCES, sys="literal", err_in="A")
    (message,) = link_warnings(at)
    assert "err_in=A" in message and "no parameter of that name" in message


def test_chosen_span_file_travels_in_the_link(
    new_app: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch
) -> None:
    with_spans(monkeypatch, sample_annotations, metric_annotations)
    at = new_app()
    at.switch_page(SENTENCES)
    at.query_params.update({"sys": "literal", "err_from": "xCOMET"})
    at.run()
    assert not at.exception and not link_warnings(at)
    assert at.selectbox(key="sent_err_from").value == "xCOMET"
    assert [int(s) for s in at.dataframe[0].value["major"].dropna()] == [1]
    at.selectbox(key="sent_err_from").set_value("MQM").run()
    assert "err_from" not in params(at)  # the default leaves the link
    bad = new_app()
    bad.switch_page(COMPARE)
    bad.query_params.update({"a": "literal", "b": "terse", "view": SEGMENTS, "err_from": "BLEURT"})
    bad.run()
    (message,) = link_warnings(bad)
    assert "err_from=BLEURT" in message and "no error-span file of that name" in message
    assert bad.selectbox(key="cmp_err_from").value == "MQM"


def test_compare_clear_the_filters_clears_the_error_filter(
    opened: Callable[..., AppTest],
) -> None:
    at = opened(COMPARE, a="literal", b="terse", seg="4", view=SEGMENTS, err_sev="major")
    assert 4 not in rows(at) == with_error("literal", {"major"}) | with_error("terse", {"major"})
    at.button(key="cmp_step_clear").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.multiselect(key="cmp_err_severities").value == []
    assert len(rows(at)) == len(sample_annotations().segments["literal"])


def test_a_span_file_the_page_does_not_hold_is_named(opened: Callable[..., AppTest]) -> None:
    """A link from a session that had two span files, opened where there is only one."""
    at = opened(SENTENCES, sys="literal", err_from="Your notes", err_sev="major")
    (message,) = link_warnings(at)
    assert "err_from=Your notes" in message and "no error-span file of that name" in message
    assert "(one of MQM)" in message
    assert rows(at) == with_error("literal", {"major"})  # the filter itself still applies
    assert "err_from" not in params(at)
