"""The Overview's ranked-table exports: every CI and signature, and a paper-ready LaTeX.

Oracles: sacrebleu 2.6's ``corpus_bleu`` and ``corpus_chrf`` on the sample's files,
the synthetic human score file read with plain Python, and the bootstrap procedure
spelled out in tests/significance (``oracle``) for the imported score's CI.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable

import numpy as np
import pandas as pd
import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

from tests.app.downloads import capture_downloads
from tests.data import HUMAN_SCORES, SAMPLE_HYPS, SAMPLE_REF_LINES, SAMPLE_REFS, file_scores
from tests.data import SAMPLE_SYSTEM_LINES as HYPS
from tests.significance.test_mean_significance import oracle


@pytest.fixture
def downloads(
    new_app: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch
) -> dict[str, Callable[[], bytes]]:
    seen = capture_downloads(monkeypatch)
    argv = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]
    at = new_app(*argv, "--seg-scores", str(HUMAN_SCORES))
    at.session_state["metrics"] = ["chrF"]
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return seen


def bleu(name: str) -> float:
    return sacrebleu.corpus_bleu(HYPS[name], SAMPLE_REF_LINES).score


def test_json_keeps_each_metrics_ci_and_signature(
    downloads: dict[str, Callable[[], bytes]],
) -> None:
    document = json.loads(downloads["ov_export_json"]())
    assert document["signatures"]["chrF"].startswith("nrefs:2|case:mixed|eff:yes|nc:6|nw:0")
    assert document["signatures"]["human"].startswith("imported:")
    rows = {row["system"]: row for row in document["rows"]}
    human = file_scores(HUMAN_SCORES)
    for name, row in rows.items():
        assert row["BLEU"] == pytest.approx(bleu(name))
        assert row["chrF"] == pytest.approx(
            sacrebleu.corpus_chrf(HYPS[name], SAMPLE_REF_LINES).score
        )
        scored = human[name][~np.isnan(human[name])]
        assert row["human"] == pytest.approx(scored.mean())
        assert row["human ci95"] == pytest.approx(
            oracle(scored, scored, 1000, 1, 12345)["base_ci"][1]
        )
        assert isinstance(row["hyp_len"], int)
    csv = downloads["ov_export_csv"]().decode()
    frame = pd.read_csv(io.StringIO(csv))  # only the table: no skiprows, no comment='#'
    assert "human ci95" in frame.columns and len(frame) == len(rows)
    assert frame["signature human"].str.startswith("imported:").all()


def test_latex_is_paper_ready(downloads: dict[str, Callable[[], bytes]]) -> None:
    latex = downloads["ov_export_tex"]().decode()
    assert "\\toprule" in latex and "\\begin{tabular}" in latex
    rows = [
        line.removesuffix(" \\\\").split(" & ")
        for line in latex.splitlines()
        if line.endswith("\\\\")
    ]
    header, body = rows[0], rows[1:]
    scores = {name: bleu(name) for name in HYPS}
    best = max(scores, key=scores.get)
    for row in body:
        name, cell = row[0], row[header.index("BLEU")]
        shown = f"{scores[name]:.2f}"
        assert cell == (f"\\textbf{{{shown}}}" if name == best else shown)
        assert row[header.index("hyp\\_len")].isdigit()
        assert len(row[header.index("p1")].split(".")[1].rstrip("}")) == 1  # one decimal, as shown
