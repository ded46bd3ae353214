"""The command line on WMT24's ESA release as published (tests/data/esa, see its README).

``spans`` and ``score`` take the release's Appraise CSV and JSON lines with
``--mqm`` as the app does; ``undecided`` spans are a group of their own; a score
outside ESA's 0-100 is one line on stderr naming file and line, status 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleuviz.analysis.error_tokens import what_bleu_sees
from bleuviz.bleu.config import BleuConfig
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.cli.main import main
from bleuviz.io.decode import read_path
from bleuviz.io.error_span_files import attach_error_spans
from tests.data.esa_release import ESA_CSV, ESA_JSONL, esa_testset, write_esa_files


@pytest.mark.parametrize("spans", [ESA_CSV, ESA_JSONL], ids=["appraise-csv", "release-jsonl"])
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
    assert err == f"bleuviz: error: {bad}: line 3: esa_score {shown} is outside ESA's 0-100\n"
