"""AppTest of WMT24's ESA release as published (tests/data/esa, see its README).

The app runs with ``--mqm`` on the release's Appraise CSV excerpt (or its JSON
lines) over the en-cs excerpt's four systems. Oracles: the CSV read with plain
Python (``tests.data.esa_release.esa_oracle``) for what is drawn and listed,
and ``what_bleu_sees`` on the same files read through the library for the
"what BLEU sees" numbers. Aya23's line 262 (``line_id`` 261) holds one minor and
two ``undecided`` spans.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bleuviz.analysis.error_tokens import what_bleu_sees
from bleuviz.app.ui.sections.bleu_sees import ALL_ERRORS, group_segments
from bleuviz.bleu import BleuConfig
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.io.decode import read_path
from bleuviz.io.error_span_files import attach_error_spans
from bleuviz.io.error_spans import HUMAN, ErrorAnnotations, ErrorSpan, SegmentAnnotation
from bleuviz.io.testset import TestSet
from bleuviz.render.labels import escape_markdown
from tests.app.test_app_error_spans import (
    OVERVIEW,
    SENTENCES,
    captions,
    errors_drawn,
    rates_on_page,
)
from tests.app.test_app_imported_scores import score_uploader
from tests.data.esa_release import (
    ESA_CSV,
    ESA_JSONL,
    ESA_UNIFIED,
    esa_oracle,
    esa_testset,
    write_esa_files,
)

AYA = ("Aya23", 261)


def esa_app(new_app: Callable[..., AppTest], folder: Path, spans: Path) -> AppTest:
    hyps, ref, src = write_esa_files(folder)
    return new_app("--ref", ref, "--hyp", *hyps, "--src", src, "--mqm", str(spans))


@pytest.mark.parametrize("spans", [ESA_CSV, ESA_JSONL], ids=["appraise-csv", "release-jsonl"])
def test_undecided_spans_are_drawn_and_listed(
    new_app: Callable[..., AppTest], tmp_path: Path, spans: Path
) -> None:
    at = esa_app(new_app, tmp_path, spans)
    at.switch_page(SENTENCES)
    at.query_params["sys"], at.query_params["seg"] = AYA[0], str(AYA[1] + 1)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    raters, expected, _ = esa_oracle()[0][AYA]
    line = esa_testset().systems[AYA[0]][AYA[1]]
    drawn = sorted((e["data-severity"], e["text"]) for e in errors_drawn(at))
    # an empty span (ESA's offsets 73-73) is an omission, drawn as a marker after the line
    marked = [(s, "‸ omission" if empty else line[a:b]) for a, b, s, empty in expected]
    assert drawn == sorted(marked)
    assert f"ESA error spans by {raters[0]}: 1 minor, 2 undecided." in captions(at)
    listed = next(d.value for d in at.dataframe if "marked" in d.value.columns)
    # the list holds the spans that mark words (omissions are the markers above)
    assert sorted(listed["severity"]) == sorted(s for _, _, s, empty in expected if not empty)
    assert "undecided" in set(listed["severity"])
    # the segment table counts them in a column of their own (Aya23: line 262 only)
    table = next(d.value for d in at.dataframe if "undecided" in d.value.columns)
    expected_undecided = sum(s == "undecided" for _, _, s, _ in expected)
    assert table["undecided"].sum() == expected_undecided


def test_bleu_sees_counts_undecided_apart(new_app: Callable[..., AppTest], tmp_path: Path) -> None:
    at = esa_app(new_app, tmp_path, ESA_CSV)
    at.switch_page(OVERVIEW)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    testset = attach_error_spans(esa_testset(), [read_path(ESA_CSV)])
    core = what_bleu_sees(testset, testset.error_spans[0], TokenizeConfig(), BleuConfig()).all
    rates = rates_on_page(at)
    for group, rows in (
        (ALL_ERRORS, core.orders),
        ("undecided", core.by_severity["undecided"]),
        ("major", core.by_severity["major"]),
    ):
        shown = rates[rates["group"] == group]
        assert list(shown["error tokens"]) == [c.error_tokens for c in rows], group
    undecided = rates[(rates["group"] == "undecided") & (rates["order"] == 1)].iloc[0]
    assert undecided["error tokens"] > 0
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    chart = next(c for c in charts if "tokens flagged" in json.dumps(c["layout"]["yaxis"]))
    ticks = chart["layout"]["xaxis"]["ticktext"]
    assert f"undecided<br>n = {undecided['error tokens']:,}" in ticks
    assert all("error_y" in trace for trace in chart["data"])
    assert "undecided" in at.radio(key="ov_err_severity").options


def test_all_errors_leave_undecided_segments_out() -> None:
    annotations = ErrorAnnotations(
        "ESA",
        "esa.csv",
        HUMAN,
        {
            "A": (
                SegmentAnnotation(("r",), (ErrorSpan(0, 1, "undecided", "", "r"),), 50.0),
                SegmentAnnotation(("r",), (ErrorSpan(0, 1, "minor", "", "r"),), 50.0),
            )
        },
    )
    testset = TestSet({"A": ("a b", "a b")}, (("x b", "x b"),), error_spans=(annotations,))
    report = what_bleu_sees(testset, annotations, TokenizeConfig(), BleuConfig()).all
    assert group_segments(report, "undecided", ["A"]) == (("A", 0),)
    assert group_segments(report, ALL_ERRORS, ["A"]) == (("A", 1),)


@pytest.mark.parametrize(
    ("name", "spans"),
    [(ESA_CSV.name, ESA_CSV), ("appraise-export.txt", ESA_CSV), (ESA_UNIFIED.name, ESA_UNIFIED)],
)
def test_an_uploaded_esa_file_adds_its_esa_score(
    new_app: Callable[..., AppTest], tmp_path: Path, name: str, spans: Path
) -> None:
    hyps, ref, src = write_esa_files(tmp_path)
    at = new_app("--ref", ref, "--hyp", *hyps, "--src", src)
    at.switch_page(OVERVIEW)
    at.run()
    score_uploader(at).set_value((name, spans.read_bytes(), "text/csv"))
    at.run()
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    table = at.table[0].value
    (column,) = [c for c in table.columns if str(c).startswith("ESA")]
    per_system: dict[str, list[float]] = {}
    for (system, _), (_, _, score) in esa_oracle()[0].items():
        per_system.setdefault(system, []).append(score)
    for system, scores in per_system.items():
        shown = float(
            str(table.loc[escape_markdown(system), column]).split(" ± ")[0].split(" (")[0]
        )  # "90.00 (1 segment: no interval)"
        assert shown == pytest.approx(sum(scores) / len(scores), abs=0.05), system


def test_the_sidebar_names_the_language_pair_read(
    new_app: Callable[..., AppTest], tmp_path: Path
) -> None:
    at = esa_app(new_app, tmp_path, ESA_CSV)
    for _ in range(2):  # and again once the set is saved
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        said = [str(e.value) for e in at.sidebar.info]
        assert any(escape_markdown("read the rows of eng-ces, one of its 2") in s for s in said)
