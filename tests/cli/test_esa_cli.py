"""The command line on WMT24's ESA release as published (tests/data/esa, see its README).

``spans`` and ``score`` take the release's Appraise CSV and JSON lines (flat and
unified) with
``--mqm`` as the app does; ``undecided`` spans are a group of their own; a score
outside ESA's 0-100 is one line on stderr naming file and line, status 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleuviz.analysis.error_categories import TOP_CATEGORIES
from bleuviz.analysis.error_tokens import what_bleu_sees
from bleuviz.bleu.config import BleuConfig
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.cli.main import main
from bleuviz.io.decode import read_path
from bleuviz.io.error_span_files import attach_error_spans
from tests.data.esa_release import ESA_CSV, ESA_JSONL, ESA_UNIFIED, esa_testset, write_esa_files


@pytest.mark.parametrize(
    "spans",
    [ESA_CSV, ESA_JSONL, ESA_UNIFIED],
    ids=["appraise-csv", "release-jsonl", "release-unified"],
)
def test_spans_reads_the_release_and_counts_undecided_apart(
    spans: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyps, ref, _ = write_esa_files(tmp_path)
    status = main(["spans", "--ref", ref, "--hyp", *hyps, "--mqm", str(spans), "-f", "json"])
    out, err = capsys.readouterr()
    assert status == 0, err
    testset = attach_error_spans(esa_testset(), [read_path(spans)])
    core = what_bleu_sees(testset, testset.error_spans[0], TokenizeConfig(), BleuConfig()).all
    shown = json.loads(out)["all"]
    assert [r["error_tokens"] for r in shown["by_severity"]["undecided"]] == [
        c.error_tokens for c in core.by_severity["undecided"]
    ]
    assert shown["by_severity"]["undecided"][0]["error_tokens"] > 0
    main(["spans", "--ref", ref, "--hyp", *hyps, "--mqm", str(spans)])
    text = capsys.readouterr().out
    assert any(line.startswith("undecided (apart)") for line in text.splitlines())


@pytest.mark.parametrize(
    ("score", "shown"),
    [
        ("-5", "-5"),
        ("150", "150"),
        ("1e300", "1e+300"),
        ("100.0000001", "100.0000001"),  # was "esa_score 100 is outside" (review r3)
    ],
)
def test_an_esa_score_outside_0_to_100_is_one_line(
    score: str, shown: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyps, ref, _ = write_esa_files(tmp_path)
    lines = ESA_JSONL.read_text("utf-8").split("\n")
    lines[2] = lines[2].replace('"esa_score": "100"', f'"esa_score": {score}')
    bad = tmp_path / "esa.jsonl"
    bad.write_text("\n".join(lines), encoding="utf-8")
    status = main(["score", "--ref", ref, "--hyp", *hyps, "--mqm", str(bad)])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.startswith(f"bleuviz: error: {bad}: line 3: esa_score {shown} is outside ESA's ")
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("spans", "read", "other"),
    [
        (ESA_CSV, "eng-ces", "eng-hin"),
        (ESA_JSONL, "en-cs", "en-hi"),
        (ESA_UNIFIED, "en-cs", "en-hi"),
    ],
    ids=["appraise-csv", "release-jsonl", "release-unified"],
)
def test_the_language_pair_read_is_named(
    spans: Path, read: str, other: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a file of several pairs is read for the one that fits, which could be another
    # campaign's (WMT24's wave 3 holds no en-cs row): say which pair was read
    hyps, ref, _ = write_esa_files(tmp_path)
    assert main(["score", "--ref", ref, "--hyp", *hyps, "--mqm", str(spans)]) == 0
    err = capsys.readouterr().err
    assert f"bleuviz: note: {spans}: read the rows of {read}, one of its 2 language pairs " \
        f"(also {other})\n" in err  # fmt: skip


def test_esa_spans_name_no_category_so_spans_shows_no_category_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # ESA's error_type is empty (null) throughout the release: every error would count
    # as Other, five rows empty and one repeating "error tokens"
    hyps, ref, _ = write_esa_files(tmp_path)
    argv = ["spans", "--ref", ref, "--hyp", *hyps, "--mqm", str(ESA_JSONL), "--max-order", "2"]
    assert main([*argv, "-f", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert all(r["by_category"] == {} for r in [*shown["systems"], shown["all"]])
    assert shown["all"]["orders"][0]["error_tokens"] > 0
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "Categories: none (no error token under a named category)." in text
    assert not any(line.strip().startswith(TOP_CATEGORIES) for line in text.splitlines())
    assert "BLEU sees" not in text.split("== All systems")[1]  # no best/worst category
    assert main([*argv, "-f", "latex"]) == 0
    rows = [line.split(" & ") for line in capsys.readouterr().out.splitlines() if " & " in line]
    groups = {r[1] for r in rows[1:]}
    assert groups == {"error tokens", "major", "minor", "undecided"}
