"""The Overview's Metrics-vs-humans section as mt-metrics-eval meta-evaluates.

Oracles: sacrebleu 2.6.0's ``sentence_bleu`` for the metric's segment scores,
scipy's ``kendalltau(variant="b")`` per group with mt-metrics-eval's averaging
and a brute-force acc_eq (tests/analysis/test_meta_eval.py), and the score
files read with plain Python (``tests.data.file_scores``).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs

import numpy as np
import pandas as pd
import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

from tests.analysis.test_meta_eval import brute_acc_eq, scipy_mean_tau
from tests.app.downloads import capture_downloads
from tests.data import (
    HUMAN_SCORES,
    SAMPLE_HYPS,
    SAMPLE_REF_LINES,
    SAMPLE_REFS,
    SAMPLE_SYSTEM_LINES,
    file_scores,
)

NAMES = ["literal", "terse", "repeat"]


@pytest.fixture
def with_reference(tmp_path: Path) -> list[str]:
    """The sample with a human translation scored as a system ``refB`` (ref A's text)."""
    ref_b = tmp_path / "refB.en"
    ref_b.write_text(SAMPLE_REFS[0].read_text())
    scores = tmp_path / "human.seg.score"
    n = len(SAMPLE_REF_LINES[0])
    lines = HUMAN_SCORES.read_text().splitlines() + [f"refB\t{90 + i % 7}" for i in range(n)]
    scores.write_text("\n".join(lines) + "\n")
    hyps = [*map(str, SAMPLE_HYPS), str(ref_b)]
    return ["--ref", *map(str, SAMPLE_REFS), "--hyp", *hyps, "--seg-scores", str(scores)]


def overview(new_app: Callable[..., AppTest], argv: list[str]) -> AppTest:
    at = new_app(*argv)
    at.switch_page("bleuviz/app/page_scripts/overview.py")
    at.run()
    at.sidebar.selectbox(key="human_metric").set_value("human").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def bleu_matrix(names: list[str]) -> np.ndarray:
    lines = {**SAMPLE_SYSTEM_LINES, "refB": SAMPLE_REF_LINES[0]}
    refs = SAMPLE_REF_LINES
    return np.array(
        [
            [sacrebleu.sentence_bleu(h, [r[i] for r in refs]).score for i, h in enumerate(lines[n])]
            for n in names
        ]
    )


def human_matrix(names: list[str], path: Path) -> np.ndarray:
    human = file_scores(path)
    return np.array([human[n] for n in names])


def correlations(at: AppTest) -> dict[str, str]:
    """BLEU's row of the correlation table, as shown."""
    return dict(at.table[1].value.loc["BLEU"])


def test_grouped_kendall_and_acc_eq_equal_the_oracles(new_app: Callable[..., AppTest]) -> None:
    argv = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]
    at = overview(new_app, [*argv, "--seg-scores", str(HUMAN_SCORES)])
    row = correlations(at)
    m, h = bleu_matrix(NAMES), human_matrix(NAMES, HUMAN_SCORES)
    m[np.isnan(h)] = np.nan
    assert (
        row["segment τ, no grouping"] == f"{scipy_mean_tau(m.reshape(1, -1), h.reshape(1, -1)):.4f}"
    )
    assert row["segment τ by item"] == f"{scipy_mean_tau(m.T, h.T):.4f}"
    assert row["segment τ by system"] == f"{scipy_mean_tau(m, h):.4f}"
    acc = brute_acc_eq(m, h)
    assert acc is not None and row["acc_eq"] == f"{acc[0]:.4f}"


def test_human_references_are_left_out_unless_kept(
    new_app: Callable[..., AppTest], with_reference: list[str]
) -> None:
    at = overview(new_app, with_reference)
    assert correlations(at)["systems"] == 3
    assert not any("refB" in link.proto.query_string for link in at.get("page_link"))
    scores = Path(with_reference[-1])
    m, h = bleu_matrix(NAMES), human_matrix(NAMES, scores)
    assert correlations(at)["segment τ by item"] == f"{scipy_mean_tau(m.T, h.T):.4f}"
    at.checkbox(key="ov_human_refs").check().run()
    assert correlations(at)["systems"] == 4
    every = [*NAMES, "refB"]
    m, h = bleu_matrix(every), human_matrix(every, scores)
    assert correlations(at)["segment τ by item"] == f"{scipy_mean_tau(m.T, h.T):.4f}"


def test_disagreements_open_in_this_tab_and_show_each_score_at_its_precision(
    new_app: Callable[..., AppTest],
) -> None:
    argv = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]
    at = overview(new_app, [*argv, "--seg-scores", str(HUMAN_SCORES)])
    gaps = at.dataframe[0]
    columns = json.loads(gaps.proto.columns)
    assert columns["metric"]["type_config"]["format"] == "%.2f"  # BLEU as sacrebleu prints it
    assert columns["human"]["type_config"]["format"] == "%.4f"
    assert "open" not in gaps.value.columns or "open" not in columns  # no new-tab link column
    frame = gaps.value
    # Laid out four a row: sorted by the rank their label starts with.
    links = sorted(at.get("page_link"), key=lambda link: int(link.proto.label.split(".")[0]))
    assert len(links) == len(frame) == 20
    for link, system, seg in zip(links, frame["system"], frame["seg"], strict=True):
        assert link.proto.page == "sentences"
        query = parse_qs(link.proto.query_string)
        assert (query["sys"], query["seg"]) == ([system], [str(seg)])
        assert query["set"] == [at.query_params["set"]]  # the set on screen


def test_disagreement_links_carry_the_settings_on_screen(
    new_app: Callable[..., AppTest],
) -> None:
    argv = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]
    at = overview(new_app, [*argv, "--seg-scores", str(HUMAN_SCORES)])
    at.sidebar.selectbox(key="tokenize").set_value("char")
    at.sidebar.checkbox(key="lowercase").check()
    at.run()
    assert not at.exception
    links = at.get("page_link")
    assert links
    for link in links:
        query = parse_qs(link.proto.query_string)
        assert (query["tok"], query["lc"], query["human"]) == (["char"], ["1"], ["human"])


def test_a_segment_scatter_shows_every_scored_pair(new_app: Callable[..., AppTest]) -> None:
    argv = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]
    at = overview(new_app, [*argv, "--seg-scores", str(HUMAN_SCORES)])
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    segment = [c for c in charts if c["data"] and c["data"][0]["type"] == "scattergl"]
    assert len(segment) == 1
    human = human_matrix(NAMES, HUMAN_SCORES)
    assert len(segment[0]["data"][0]["text"]) == int(np.count_nonzero(~np.isnan(human)))


def test_correlation_exports_have_the_pages_headers_and_every_signature(
    new_app: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch, with_reference: list[str]
) -> None:
    downloads = capture_downloads(monkeypatch)
    at = overview(new_app, with_reference)
    latex = downloads["ov_human_export_tex"]().decode()
    comments = [line for line in latex.splitlines() if line.startswith("% ")]
    assert any(c.startswith("% human: imported:") for c in comments), comments
    assert any(c.startswith("% BLEU: nrefs:2|") for c in comments), comments
    header = next(line for line in latex.splitlines() if line.startswith("metric & "))
    shown = [str(c) for c in at.table[-1].value.columns]  # the page's table, as headed there
    assert header.removesuffix(" \\\\").split(" & ")[1:4] == [
        c.replace("τ", "tau") for c in shown[:3]
    ]
    frame = pd.read_csv(io.BytesIO(downloads["ov_human_export_csv"]()))
    assert frame["signature human"].str.startswith("imported:").all()
    assert frame["metric"].tolist()[0] == "BLEU"
