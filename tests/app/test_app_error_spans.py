"""AppTest of human error spans on the pages: drill-downs, the segment table and the Overview.

The spans are built in ``tests/app/error_span_data.py`` on the bundled sample
(no reader involved); the oracle for counts and filters is that hand-built
data, counted here again in plain Python. Without spans, nothing new is drawn.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from streamlit.testing.v1 import AppTest

from bleuviz.analysis.error_tokens import what_bleu_sees
from bleuviz.bleu import BleuConfig
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.io.error_spans import ErrorAnnotations
from bleuviz.io.testset import TestSet
from tests.app.error_span_data import (
    ENTITY_SEGMENT,
    HOSTILE,
    LINE1,
    QUARRELS,
    STREET_RAIL,
    metric_annotations,
    sample_annotations,
    with_spans,
)
from tests.app.markup import html_bodies
from tests.data import SAMPLE_HYPS, SAMPLE_REF_LINES, SAMPLE_REFS, SAMPLE_SYSTEM_LINES

SENTENCES = "bleuviz/app/page_scripts/sentences.py"
COMPARE = "bleuviz/app/page_scripts/compare.py"
OVERVIEW = "bleuviz/app/page_scripts/overview.py"


class Errors(HTMLParser):
    """The error pieces of some markup: (data-severity, category, rater, text) per piece."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[dict[str, str]] = []
        self.tags: set[str] = set()
        self._open: list[dict[str, str] | None] = []
        self.feed(markup)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        found = {k: v or "" for k, v in attrs}
        piece = None
        if "bv-err" in found.get("class", ""):
            piece = {**found, "text": ""}
            self.pieces.append(piece)
        self._open.append(piece)

    def handle_endtag(self, tag: str) -> None:
        self._open.pop()

    def handle_data(self, data: str) -> None:
        for piece in self._open:
            if piece is not None:
                piece["text"] += data


def errors_drawn(at: AppTest) -> list[dict[str, str]]:
    """Every error in the page's highlight blocks (its pieces joined), legends left out."""
    errors: list[dict[str, str]] = []
    for body in html_bodies(at):
        if "bv-legend" in body:
            continue
        joined: dict[str, dict[str, str]] = {}
        for piece in Errors(body).pieces:
            if piece["data-span"] in joined:
                joined[piece["data-span"]]["text"] += piece["text"]
            else:
                joined[piece["data-span"]] = dict(piece)
        errors += joined.values()
    return errors


SIX = ("Accuracy", "Fluency", "Terminology", "Style", "Locale convention", "Other")


def top_level(category: str) -> str:
    """The first level of a category if it is one of the six (issue 31), else Other."""
    first = category.split("/")[0]
    return first if first in SIX else "Other"


def captions(at: AppTest) -> list[str]:
    """The captions as shown (their Markdown escapes undone)."""
    return [re.sub(r"\\(.)", r"\1", c.value) for c in at.caption]


def breakdown(at: AppTest) -> pd.DataFrame:
    """The Overview's table of errors by category (AppTest's frames carry no key)."""
    frame: pd.DataFrame = next(
        d.value for d in at.dataframe if "errors per rating" in d.value.columns
    )
    return frame


@pytest.fixture
def spans_app(
    new_app: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., AppTest]]:
    """The app on the bundled sample with the hand-built spans loaded; open ``page`` with a link."""
    with_spans(monkeypatch, sample_annotations)

    def make(page: str, **params: str) -> AppTest:
        at = new_app()
        at.switch_page(page)
        for key, value in params.items():
            at.query_params[key] = value
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    yield make


def test_sentences_drill_down_shows_both_raters_then_one(spans_app: Callable[..., AppTest]) -> None:
    at = spans_app(SENTENCES, sys="literal", seg="1")
    pieces = errors_drawn(at)
    by_text = {p["text"]: p for p in pieces}
    assert by_text[LINE1[slice(*QUARRELS)]]["data-severity"] == "major"
    assert by_text[LINE1[slice(*QUARRELS)]]["data-category"] == "Accuracy/Mistranslation"
    assert by_text["street rail"]["data-severity"] == "minor"
    assert LINE1[slice(*STREET_RAIL)] == "street rail"
    rater = at.selectbox(key="sent_rater")
    assert rater.options == ["every rater", "r1", "r2"]
    assert "MQM error spans by r1, r2: 1 major, 1 minor." in captions(at)
    rater.set_value("r2").run()
    assert {p["data-rater"] for p in errors_drawn(at)} == {"r2"}
    assert "MQM error spans by r2: 1 minor." in captions(at)
    assert any("bv-legend" in body and "bv-err" in body for body in html_bodies(at))


def test_source_error_on_the_source_and_omission_as_a_marker(
    spans_app: Callable[..., AppTest],
) -> None:
    at = spans_app(SENTENCES, sys="literal", seg="2")
    assert [(p["data-severity"], p["text"]) for p in errors_drawn(at)] == [("major", "Der")]
    at.number_input(key="sent_seg").set_value(3).run()
    (omission,) = errors_drawn(at)
    assert omission["data-omission"] == "true" and "omission" in omission["text"]
    at.number_input(key="sent_seg").set_value(4).run()
    assert errors_drawn(at) == []
    assert any("no error marked" in c.value for c in at.caption)


def test_hostile_category_and_rater_stay_inert(spans_app: Callable[..., AppTest]) -> None:
    at = spans_app(SENTENCES, sys="literal", seg="26")
    (piece,) = errors_drawn(at)
    assert piece["data-category"] == HOSTILE and piece["data-rater"] == "<b>r3</b>"
    for body in html_bodies(at):
        assert "<img" not in body and "<b>" not in body
        assert {"img", "b", "script"}.isdisjoint(Errors(body).tags)


def expected_counts(spans: ErrorAnnotations, system: str) -> dict[int, tuple[int, int]]:
    """Segment (1-based) -> (major, minor) of every rated segment, counted here."""
    out = {}
    for i, annotation in enumerate(spans.segments[system]):
        if annotation is not None:
            severities = [s.severity for s in annotation.spans]
            out[i + 1] = (severities.count("major"), severities.count("minor"))
    return out


def test_table_counts_and_filters_by_category_and_severity(
    spans_app: Callable[..., AppTest],
) -> None:
    at = spans_app(SENTENCES, sys="literal")
    table = at.dataframe[0].value
    shown = {
        int(seg): (int(major), int(minor))
        for seg, major, minor in zip(table["seg"], table["major"], table["minor"], strict=True)
        if not pd.isna(major)  # unrated: blank
    }
    assert shown == expected_counts(sample_annotations(), "literal")
    at.multiselect(key="sent_err_severities").set_value(["major"]).run()
    assert sorted(int(s) for s in at.dataframe[0].value["seg"]) == [1, 2, 3]
    at.multiselect(key="sent_err_categories").set_value(["Fluency/Grammar"]).run()
    assert list(at.dataframe[0].value["seg"]) == []  # the same error must match both
    at.multiselect(key="sent_err_severities").set_value([]).run()
    assert [int(s) for s in at.dataframe[0].value["seg"]] == [1]
    assert any("errors" in b.label for b in at.button)  # the filter's chip


def test_compare_drill_down_shows_each_sides_spans(spans_app: Callable[..., AppTest]) -> None:
    at = spans_app(COMPARE, a="literal", b="terse", seg="1", view="segments")
    pieces = errors_drawn(at)
    assert {(p["data-severity"], p["data-rater"]) for p in pieces} == {
        ("major", "r1"),
        ("minor", "r2"),
        ("minor", "r1"),
    }
    assert at.selectbox(key="cmp_a_rater").options == ["every rater", "r1", "r2"]
    table = at.dataframe[0].value.set_index("seg")
    for role, system in (("A", "literal"), ("B", "terse")):
        for seg, (major, minor) in expected_counts(sample_annotations(), system).items():
            if seg in table.index:
                assert (table.loc[seg, f"major {role}"], table.loc[seg, f"minor {role}"]) == (
                    major,
                    minor,
                )
        unrated = set(table.index) - set(expected_counts(sample_annotations(), system))
        assert table.loc[sorted(unrated), f"major {role}"].isna().all()
    assert not [s for s in at.selectbox if s.key == "cmp_b_rater"]  # one rater: no choice
    at = spans_app(COMPARE, a="literal", b="repeat", seg="1", view="segments")
    assert "MQM annotates no segment of repeat." in captions(at)
    assert {p["data-rater"] for p in errors_drawn(at)} == {"r1", "r2"}  # A's only


def test_overview_breaks_errors_down_by_category(spans_app: Callable[..., AppTest]) -> None:
    at = spans_app(OVERVIEW)
    frame = breakdown(at)
    spans = sample_annotations()
    for system in ("literal", "terse"):
        marked = [
            top_level(s.category)
            for a in spans.segments[system]
            if a is not None
            for s in a.spans
            if s.severity in ("major", "minor")
        ]
        ratings = sum(len(a.raters) for a in spans.segments[system] if a is not None)
        for category in set(marked):
            assert frame.loc[system, category] == marked.count(category)
        assert frame.loc[system, "ratings"] == ratings
    assert "repeat" not in frame.index  # not annotated
    at.radio(key="ov_err_severity").set_value("minor").run()
    frame = breakdown(at)
    assert frame.loc["terse", "Fluency"] == 1 and "Accuracy" not in frame.columns  # no minor one


def test_nothing_new_without_spans(new_app: Callable[..., AppTest]) -> None:
    compare = {"a": "literal", "b": "terse", "seg": "1", "view": "segments"}
    for page, params in (
        (SENTENCES, {"sys": "literal", "seg": "1"}),
        (OVERVIEW, {}),
        (COMPARE, compare),
    ):
        at = new_app()
        at.switch_page(page)
        for key, value in params.items():
            at.query_params[key] = value
        at.run()
        assert not at.exception
        assert errors_drawn(at) == []
        assert all("errors per rating" not in d.value.columns for d in at.dataframe)
        assert all("major" not in d.value.columns for d in at.dataframe)
        assert all("major A" not in d.value.columns for d in at.dataframe)
        assert not [h for h in at.subheader if "BLEU sees" in h.value]
        assert all('class="bv-err' not in body for body in html_bodies(at))  # nor legend


def sample_testset() -> TestSet:
    """The bundled sample's systems and references, as the app loads them."""
    return TestSet(
        {name: tuple(lines) for name, lines in SAMPLE_SYSTEM_LINES.items()},
        tuple(tuple(lines) for lines in SAMPLE_REF_LINES),
    )


def rates_on_page(at: AppTest) -> pd.DataFrame:
    """The rates table of "what BLEU sees"."""
    frame: pd.DataFrame = next(d.value for d in at.dataframe if "error flagged" in d.value.columns)
    return frame


def test_bleu_sees_shows_the_analysis_numbers(spans_app: Callable[..., AppTest]) -> None:
    at = spans_app(OVERVIEW)
    core = what_bleu_sees(sample_testset(), sample_annotations(), TokenizeConfig(), BleuConfig())
    for system in ("all", "literal"):
        at.selectbox(key="ov_sees_system").set_value(system).run()
        rates = rates_on_page(at)
        every = rates[rates["group"] == "all errors"]
        report = core.system(system)
        assert list(every["error tokens"]) == [c.error_tokens for c in report.orders]
        assert list(every["error flagged"]) == [c.error_flagged for c in report.orders]
        assert list(every["other flagged"]) == [c.other_flagged for c in report.orders]
        major = rates[(rates["group"] == "major") & (rates["order"] == 1)].iloc[0]
        assert major["error tokens"] == report.by_severity["major"][0].error_tokens
    # "quarrels" (major, literal segment 1) is one error token at every order: by hand.
    literal = core.system("literal").by_severity["major"]
    assert [c.error_tokens for c in literal] == [1] * 4
    spans = next(d.value for d in at.dataframe if "F1" in d.value.columns)
    assert list(spans["order"]) == [1, 2, 3, 4]


def test_a_groups_segments_link_to_their_drill_down(spans_app: Callable[..., AppTest]) -> None:
    at = spans_app(OVERVIEW)
    at.selectbox(key="ov_sees_group").set_value("Fluency").run()
    links = [p for p in at.get("page_link") if p.proto.label.startswith("seg ")]
    # Fluency errors: literal 1 ("street rail", r2) and terse 1 (r1), test-set order.
    assert [p.proto.label for p in links] == ["seg 1 · literal", "seg 1 · terse"]
    assert "sys=literal" in links[0].proto.query_string
    assert "seg=1" in links[0].proto.query_string


def test_two_span_files_each_page_chooses_one(
    new_app: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch
) -> None:
    with_spans(monkeypatch, sample_annotations, metric_annotations)
    at = new_app()
    at.switch_page(SENTENCES)
    at.query_params["sys"], at.query_params["seg"] = "literal", "1"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert {p["data-rater"] for p in errors_drawn(at)} == {"r1", "r2"}  # the first file: MQM
    at.selectbox(key="sent_seg_err_from").set_value("xCOMET").run()
    (council,) = errors_drawn(at)
    assert council["text"] == "council quarrels" and "confidence 0.90" in council["title"]
    at.selectbox(key="sent_err_from").set_value("xCOMET").run()
    assert [int(s) for s in at.dataframe[0].value["major"].dropna()] == [1]
    for page in (OVERVIEW, COMPARE):
        at.switch_page(page)
        at.run()
        assert not at.exception, [e.value for e in at.exception]


def test_unaligned_segment_says_so_and_still_shows_its_span(
    spans_app: Callable[..., AppTest],
) -> None:
    at = spans_app(SENTENCES, sys="literal", seg=str(ENTITY_SEGMENT))
    assert any("error spans follow on the original text" in c for c in captions(at))
    (piece,) = errors_drawn(at)
    assert piece["text"] == "&amp;" and piece["data-severity"] == "minor"
    at = spans_app(OVERVIEW)
    (warning,) = [w.value for w in at.warning if "left out" in w.value]
    assert f"literal {ENTITY_SEGMENT}" in warning.replace("\\", "")
    assert warning.startswith("1 annotated segment is left out")


def test_bleu_sees_of_one_rater(spans_app: Callable[..., AppTest]) -> None:
    at = spans_app(OVERVIEW)
    assert at.selectbox(key="ov_sees_rater").options == ["every rater", "r1", "r2", "r3"]
    at.selectbox(key="ov_sees_rater").set_value("r2").run()
    core = what_bleu_sees(
        sample_testset(), sample_annotations(), TokenizeConfig(), BleuConfig(), "r2"
    )
    rates = rates_on_page(at)
    every = rates[rates["group"] == "all errors"]
    assert list(every["error tokens"]) == [c.error_tokens for c in core.all.orders]
    assert list(every["other tokens"]) == [c.other_tokens for c in core.all.orders]
    # r2 marked only "street rail" (literal 1, Minor): two error tokens at every order.
    assert [c.error_tokens for c in core.all.orders] == [2] * 4


def test_metric_spans_are_named_as_predicted(
    new_app: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch
) -> None:
    with_spans(monkeypatch, metric_annotations)
    at = new_app()
    at.switch_page(OVERVIEW)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    headings = [h.value.replace("\\", "") for h in at.subheader]
    assert "What BLEU sees of xCOMET's predicted errors" in headings
    assert "Error categories per system: xCOMET's predicted errors" in headings
    assert not [h for h in headings if "human" in h]


def test_metric_spans_scored_against_human_spans_beside_bleus(
    new_app: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch
) -> None:
    with_spans(monkeypatch, sample_annotations, metric_annotations)
    at = new_app()
    at.switch_page(OVERVIEW)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    at.selectbox(key="ov_sees_system").set_value("literal").run()
    tables = [d for d in at.dataframe if "F1" in d.value.columns]
    assert len(tables) == 2  # BLEU's flagged runs per order, then the metric's spans
    for table in tables:  # one precision: percent with one decimal, whatever the value
        columns = json.loads(table.proto.columns)
        assert {columns[c]["type_config"]["format"] for c in ("precision", "recall", "F1")} == {
            "%.1f%%"
        }
    (row,) = next(d.value for d in at.dataframe if "spans from" in d.value.columns).to_dict(
        "records"
    )
    # xCOMET marks "council quarrels" (16 characters), the raters "quarrels" (8) and "street
    # rail" in literal 1, the one segment both files annotate. MPP pairs the prediction with
    # "quarrels": precision credit 8/16, recall credit 8/8; 1 predicted, 2 gold spans.
    # In percent, as ``bleuviz spans`` prints them.
    assert row == {
        "spans from": "xCOMET",
        "precision": 50.0,
        "recall": 50.0,
        "F1": 50.0,
        "predicted spans": 1,
        "error spans": 2,
        "segments": 1,
    }


def test_a_lower_max_order_keeps_the_section_drawn(spans_app: Callable[..., AppTest]) -> None:
    at = spans_app(OVERVIEW)
    at.radio(key="ov_sees_order").set_value(4).run()
    at.sidebar.number_input(key="max_order").set_value(2).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.radio(key="ov_sees_order").value == 1
    assert list(rates_on_page(at)["order"].unique()) == [1, 2]


def test_esa_file_two_annotators_and_an_omission(
    new_app: Callable[..., AppTest], tmp_path: Path
) -> None:
    """WMT24 ESA JSON lines through the reader (--mqm): a rater selector, a marker."""
    rows = [
        {
            "system": "literal",
            "line_id": 0,
            "tgt": LINE1,
            "esa_score": 60,
            "annotator": "a1",
            "esa_spans": [
                {  # Appraise's first and last character, both included
                    "start_i": QUARRELS[0],
                    "end_i": QUARRELS[1] - 1,
                    "severity": "major",
                    "error_type": None,
                }
            ],
        },
        {
            "system": "literal",
            "line_id": 0,
            "tgt": LINE1,
            "esa_score": 80,
            "annotator": "a2",
            "esa_spans": [
                {"start_i": "missing", "end_i": "missing", "severity": "minor", "error_type": None}
            ],
        },
    ]
    esa = tmp_path / "esa.jsonl"
    esa.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    argv = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS), "--mqm", str(esa)]
    at = new_app(*argv)
    at.switch_page(SENTENCES)
    at.query_params["sys"], at.query_params["seg"] = "literal", "1"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="sent_rater").options == ["every rater", "a1", "a2"]
    by_rater = {p["data-rater"]: p for p in errors_drawn(at)}
    assert by_rater["a1"]["text"] == "quarrels" and by_rater["a1"]["data-category"] == ""
    assert by_rater["a2"]["data-omission"] == "true"
    assert "ESA error spans by a1, a2: 1 major, 1 minor." in captions(at)
    at.selectbox(key="sent_rater").set_value("a2").run()
    assert [p["data-rater"] for p in errors_drawn(at)] == ["a2"]


def test_drill_down_lists_each_error_with_its_flagged_tokens(
    spans_app: Callable[..., AppTest],
) -> None:
    at = spans_app(SENTENCES, sys="literal", seg="1")
    frame = next(d.value for d in at.dataframe if "marked" in d.value.columns)
    # Oracle at order 1: a token is flagged when no reference holds it (each word occurs
    # once in this hypothesis, so clipping cannot take a match away).
    refs = [set(Tokenizer13a()(r[0]).split()) for r in SAMPLE_REF_LINES]
    held = set().union(*refs)
    expected = [
        ("major", "Accuracy/Mistranslation", "r1", "quarrels"),
        ("minor", "Fluency/Grammar", "r2", "street rail"),
    ]
    assert (
        list(
            zip(frame["severity"], frame["category"], frame["rater"], frame["marked"], strict=True)
        )
        == expected
    )
    for (_, row), (*_, words) in zip(frame.iterrows(), expected, strict=True):
        assert row["tokens"] == len(words.split())
        assert row["flagged"] == sum(w not in held for w in words.split())
    at.selectbox(key="sent_system").set_value("terse").run()
    frame = next(d.value for d in at.dataframe if "marked" in d.value.columns)
    (marked,) = frame["marked"]  # the first word, which a reference holds: not flagged
    assert marked in held and list(frame["flagged"]) == [0] and list(frame["tokens"]) == [1]


def test_filter_survives_a_system_without_the_chosen_category(
    spans_app: Callable[..., AppTest],
) -> None:
    at = spans_app(SENTENCES, sys="literal")
    at.multiselect(key="sent_err_categories").set_value(["Accuracy/Mistranslation"]).run()
    assert [int(s) for s in at.dataframe[0].value["seg"]] == [1]
    at.selectbox(key="sent_system").set_value("terse").run()  # terse has no such error
    assert not at.exception, [e.value for e in at.exception]
    # The choice it cannot offer is dropped, and with it the filter and its chip.
    assert at.multiselect(key="sent_err_categories").value == []
    assert len(at.dataframe[0].value) == len(SAMPLE_SYSTEM_LINES["terse"])
    assert not [b for b in at.button if "errors" in b.label]
    at.selectbox(key="sent_system").set_value("repeat").run()  # nor any span at all
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.dataframe[0].value) == len(SAMPLE_SYSTEM_LINES["repeat"])


def every_system_errors(at: AppTest) -> dict[str, tuple[str, list[dict[str, str]]]]:
    """Per system in "This segment in every system": its heading and its error pieces."""
    (body,) = [b for b in html_bodies(at) if 'class="bv-system"' in b]
    shown = {}
    for part in body.split('<div class="bv-system">')[1:]:
        name = re.search(r'<span class="bv-system-name">([^<]*)</span>', part)
        assert name is not None
        head = html.unescape(re.sub(r"<[^>]+>", "", part.split('<div class="bv-line">')[0]))
        shown[name.group(1)] = (head, Errors("<div><div>" + part).pieces)
    return shown


def test_every_systems_line_draws_its_human_error_spans(
    spans_app: Callable[..., AppTest],
) -> None:
    """Issue 44 (8): the spans are drawn where systems are compared on one segment."""
    at = spans_app(SENTENCES, sys="literal", seg="1")
    shown = every_system_errors(at)
    assert set(shown) == set(SAMPLE_SYSTEM_LINES)
    spans = sample_annotations()
    for name, (head, pieces) in shown.items():
        annotation = spans.annotation(name, 0)
        expected = [] if annotation is None else list(annotation.spans)
        drawn = {(p["data-severity"], p["data-rater"], p["data-span"]) for p in pieces}
        assert len(drawn) == len(expected), name  # every rater's, each error once
        line = SAMPLE_SYSTEM_LINES[name][0]
        for error in expected:
            text = "".join(
                p["text"]
                for p in pieces
                if p["data-rater"] == error.rater and p["data-severity"] == error.severity
            )
            assert text == line[error.start : error.end]
        assert ("MQM not annotated" in head) == (annotation is None), head
    assert "MQM errors: 1 major, 1 minor" in shown["literal"][0]
    assert any("Underlined: human errors (MQM), every rater's." in c for c in captions(at))


def test_the_two_choosers_are_named_apart_and_the_drawn_one_follows_the_table(
    new_app: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 44 (9): which chooser is which, and a link's ``err_from`` draws its spans too."""
    with_spans(monkeypatch, sample_annotations, metric_annotations)
    at = new_app()
    at.switch_page(SENTENCES)
    at.query_params.update({"sys": "literal", "seg": "1", "err_from": "xCOMET"})
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    table, drawn = at.selectbox(key="sent_err_from"), at.selectbox(key="sent_seg_err_from")
    assert table.label != drawn.label
    assert "table" in (table.help or "") and "drawn" in drawn.label
    assert table.value == drawn.value == "xCOMET"
    (council,) = errors_drawn(at)
    assert council["text"] == "council quarrels"
    table.set_value("MQM").run()  # the drill-down follows, until the user chooses there
    assert at.selectbox(key="sent_seg_err_from").value == "MQM"
    at.selectbox(key="sent_seg_err_from").set_value("xCOMET").run()
    at.selectbox(key="sent_err_from").set_value("MQM").run()
    assert at.selectbox(key="sent_seg_err_from").value == "xCOMET"
    assert "err_from" not in at.query_params  # MQM, the first file, is the default
    (council,) = errors_drawn(at)  # still the drill-down's own choice
    assert council["text"] == "council quarrels"
