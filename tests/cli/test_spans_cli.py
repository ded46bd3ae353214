"""Tests of ``bleuviz spans``: its JSON equals the library's analysis, its text, its refusals.

Data: Google's TED en-de MQM excerpt in tests/data/mqm (see its README), Nemo's
output standing in as the reference. The expected numbers come from
``what_bleu_sees`` on the same files read through the library (``load_paths``
and ``attach_error_spans``), which tests/analysis/test_error_tokens.py holds to a
token-by-token oracle.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bleuviz.analysis.error_categories import TOP_CATEGORIES
from bleuviz.analysis.error_tokens import what_bleu_sees
from bleuviz.bleu.config import BleuConfig
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.cli.main import main
from bleuviz.io.decode import read_path
from bleuviz.io.error_span_files import attach_error_spans
from bleuviz.io.load import load_paths
from tests.conftest import ROOT

DATA = ROOT / "tests" / "data" / "mqm"
HYPS = [str(DATA / "Facebook-AI.txt"), str(DATA / "metricsystem2.txt")]
REF = str(DATA / "Nemo.txt")
MQM = str(DATA / "mqm_ted_ende.tsv")
BASE = ["spans", "--ref", REF, "--hyp", *HYPS, "--docids", str(DATA / "docids.txt"), "--mqm", MQM]
ROW_KEYS = ["order", "error_tokens", "error_flagged", "other_tokens", "other_flagged"]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def expected(tokenize: TokenizeConfig, order: int, rater: str | None = None) -> Any:
    testset = load_paths(HYPS, [REF], docids=DATA / "docids.txt")
    testset = attach_error_spans(testset, [read_path(MQM)])
    return what_bleu_sees(
        testset, testset.error_spans[0], tokenize, BleuConfig(max_order=order), rater
    )


def holding_errors(analysis: Any) -> list[str]:
    """The categories whose error tokens, over every system, are not none."""
    return [c for c in TOP_CATEGORIES if analysis.all.by_category[c][0].error_tokens]


def check_fields(report: dict[str, Any], order: int, categories: list[str]) -> None:
    """The JSON schema of one system (or all), exactly."""
    assert list(report) == [
        "name",
        "segments",
        "unaligned",
        "orders",
        "by_severity",
        "by_category",
        "spans",
    ]
    assert list(report["by_severity"]) == ["major", "minor"]
    assert list(report["by_category"]) == categories
    for rows in [
        report["orders"],
        *report["by_severity"].values(),
        *report["by_category"].values(),
    ]:
        assert [list(r) for r in rows] == [ROW_KEYS] * order
        assert [r["order"] for r in rows] == list(range(1, order + 1))
    assert [list(s) for s in report["spans"]] == [["order", "precision", "recall", "f1"]] * order


@pytest.mark.parametrize(
    ("options", "tokenize", "order"),
    [
        ([], TokenizeConfig(), 4),
        (["--tokenize", "char", "--max-order", "2"], TokenizeConfig("char"), 2),
        (["-lc", "--flavor", "nltk", "--max-order", "3"], TokenizeConfig(lowercase=True), 3),
    ],
)
def test_json_is_the_analysis(
    options: list[str], tokenize: TokenizeConfig, order: int, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run([*BASE, *options, "-f", "json"], capsys)
    assert status == 0
    assert "skipped: Nemo, ref" in err  # the reference stand-in and the human reference
    data = json.loads(out)
    assert list(data) == ["systems", "all"]
    analysis = expected(tokenize, order)
    assert [s["name"] for s in data["systems"]] == ["Facebook-AI", "metricsystem2"]
    for got, report in zip(
        [*data["systems"], data["all"]], [*analysis.systems, analysis.all], strict=True
    ):
        check_fields(got, order, holding_errors(analysis))
        assert got["name"] == report.name
        assert got["segments"] == report.segments == (50 if report.name == "all" else 25)
        assert got["unaligned"] == len(report.unaligned)
        assert [list(r.values()) for r in got["orders"]] == [
            [r.order, r.error_tokens, r.error_flagged, r.other_tokens, r.other_flagged]
            for r in report.orders
        ]
        for name in holding_errors(analysis):
            rows = report.by_category[name]
            assert [r["error_flagged"] for r in got["by_category"][name]] == [
                r.error_flagged for r in rows
            ]
        for s, agreement in zip(got["spans"], report.spans, strict=True):
            assert (s["precision"], s["recall"], s["f1"]) == pytest.approx(
                (agreement.precision, agreement.recall, agreement.f1)
            )
    # "all" is the systems' sum
    for k in range(order):
        for key in ROW_KEYS[1:]:
            assert data["all"]["orders"][k][key] == sum(
                s["orders"][k][key] for s in data["systems"]
            )
    assert data["all"]["orders"][0]["error_tokens"] > 0


def test_text_has_a_table_per_system_and_for_all(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(BASE, capsys)
    assert status == 0
    assert "== Facebook-AI: 25 segments ==" in out
    assert "== metricsystem2: 25 segments ==" in out
    assert "== All systems: 50 segments ==" in out
    analysis = expected(TokenizeConfig(), 4)
    first = analysis.all.orders[0]
    line = next(line for line in out.splitlines()[::-1] if line.startswith("error tokens"))
    assert line.split()[3:5] == [f"{100 * first.error_rate:.1f}", f"{100 * first.difference:+.1f}"]
    shown = holding_errors(analysis)
    assert "Locale convention" not in shown  # the excerpt holds none: its row is left out
    for category in TOP_CATEGORIES:
        rows = [line for line in out.splitlines() if line.startswith(f"  {category} ")]
        assert len(rows) == (3 if category in shown else 0), category  # 2 systems, all
    assert "span agreement" in out


def test_one_rater(capsys: pytest.CaptureFixture[str]) -> None:
    testset = load_paths(HYPS, [REF], docids=DATA / "docids.txt")
    spans = attach_error_spans(testset, [read_path(MQM)]).error_spans[0]
    rater = sorted({r for a in spans.segments["Facebook-AI"] if a for r in a.raters})[0]
    status, out, _ = run([*BASE, "--rater", rater, "-f", "json"], capsys)
    assert status == 0
    analysis = expected(TokenizeConfig(), 4, rater)
    assert json.loads(out)["all"]["segments"] == analysis.all.segments


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["spans", "--ref", REF, "--hyp", *HYPS], "no error spans loaded; give --mqm"),
        (
            [*BASE, "--annotations", "ESA"],
            "--annotations: no error spans named 'ESA' (loaded: MQM)",
        ),
        ([*BASE, "--rater", "nobody"], "--rater: MQM has no rater 'nobody'"),
        ([*BASE, "--weights", "1", "--max-order", "2"], "weights: 1 weights given for max_order 2"),
        (
            ["spans", "--ref", REF, "--hyp", *HYPS, "--mqm", "missing.tsv"],
            "no such file: missing.tsv",
        ),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, err = run(argv, capsys)
    assert status == 2
    assert out == ""
    lines = [line for line in err.splitlines() if not line.startswith("bleuviz: note:")]
    assert len(lines) == 1 and lines[0].startswith("bleuviz: error:")
    assert message in lines[0]


def test_short_hypothesis_file_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    short = tmp_path / "short.txt"
    short.write_text("ein Satz\n", encoding="utf-8")
    status, _, err = run(["spans", "--ref", REF, "--hyp", str(short), "--mqm", MQM], capsys)
    assert status == 2
    assert err.count("\n") == 1 and "line counts differ" in err


def test_listed_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["spans", "--help"])
    out = capsys.readouterr().out
    assert "flagged at order n" in out and "Perrella" in out


def test_latex_is_the_analysis_per_group_and_order(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 44, item 20: ``spans -f latex`` (refused before), as the app's export rows."""
    status, out, _ = run([*BASE, "--max-order", "2", "-f", "latex"], capsys)
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("% What BLEU sees of MQM error spans (any rater; tokenizer 13a")
    rows = [line.removesuffix(" \\\\").split(" & ") for line in lines if line.endswith("\\\\")]
    assert rows[0][:3] == ["System", "Group", "$n$"]
    analysis = expected(TokenizeConfig(), 2)
    groups = 2 * (1 + len(analysis.all.by_severity) + len(holding_errors(analysis)))
    assert not any(r[1] == "Locale convention" for r in rows)
    assert len(rows) == 1 + 3 * groups  # two systems and all, each group at orders 1 and 2
    all_first = next(r for r in rows if r[:3] == ["All systems", "error tokens", "1"])
    c = analysis.all.orders[0]
    shares = [f"{100 * c.error_rate:.1f}", str(c.other_tokens), f"{100 * c.other_rate:.1f}"]
    assert all_first[3:] == [str(c.error_tokens), *shares, f"${100 * c.difference:+.1f}$"]


def test_every_table_command_offers_latex(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("score", "compare", "correlate", "spans"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "{text,json,latex}" in capsys.readouterr().out


def test_saved_set_with_its_spans(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    workspace = str(tmp_path / "ws")
    add = ["add", "--workspace", workspace, "--ref", REF, "--hyp", *HYPS]
    assert main([*add, "--docids", str(DATA / "docids.txt"), "--mqm", MQM]) == 0
    saved = capsys.readouterr().out.split()[1]
    status, out, _ = run(["spans", "--workspace", workspace, "--set", saved, "-f", "json"], capsys)
    assert status == 0
    _, from_files, _ = run([*BASE, "-f", "json"], capsys)
    assert json.loads(out) == json.loads(from_files)


def test_unaligned_segments_are_listed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # 13a rewrites &quot; into ", so line 2's tokens cannot be placed in it.
    hyp = ["ein kleiner Test", "er sagt &quot;ja&quot;", "noch ein Satz"]
    ref = ["ein kleiner Test", 'er sagt "ja"', "noch ein Satz ."]
    (tmp_path / "sys.txt").write_text("\n".join(hyp) + "\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("\n".join(ref) + "\n", encoding="utf-8")
    header = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
    rows = [
        "sys\td\t1\t1\tr1\ts\tein <v>kleiner</v> Test\tAccuracy/Mistranslation\tMajor\n",
        "sys\td\t2\t2\tr1\ts\ter <v>sagt</v> &quot;ja&quot;\tStyle/Awkward\tMinor\n",
        "sys\td\t3\t3\tr1\ts\tnoch ein Satz\tNo-error\tNo-error\n",
    ]
    (tmp_path / "mqm.tsv").write_text(header + "".join(rows), encoding="utf-8")
    argv = ["spans", "--ref", str(tmp_path / "ref.txt"), "--hyp", str(tmp_path / "sys.txt")]
    argv += ["--mqm", str(tmp_path / "mqm.tsv"), "--max-order", "1"]
    status, out, _ = run(argv, capsys)
    assert status == 0
    assert "== sys: 2 segments, 1 unaligned ==" in out
    assert "unaligned segments (left out): sys 2" in out
    status, out, _ = run([*argv, "-f", "json"], capsys)
    report = json.loads(out)["systems"][0]
    assert (report["segments"], report["unaligned"]) == (2, 1)
    assert report["orders"][0]["error_tokens"] == 1  # "kleiner" (line 2 left out)
    assert report["by_severity"]["minor"][0]["error_tokens"] == 0
