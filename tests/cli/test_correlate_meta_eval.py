"""``correlate``'s mt-metrics-eval statistics and its leaving out of human references.

Oracles: sacrebleu 2.6.0's ``sentence_bleu`` for the metric, scipy's
``kendalltau(variant="b")`` per group (mt-metrics-eval's default variant and
its averaging: groups of fewer than two and undefined taus skipped, plain
mean), and acc_eq by brute force (tests/analysis/test_meta_eval.py's oracle).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import sacrebleu

from bleuviz.cli.main import main
from tests.analysis.test_meta_eval import brute_acc_eq, brute_tied_share, scipy_mean_tau

REF = ["the cat sat on the mat", "a dog ran in the park", "it rains all day long",
       "she reads a book", "we eat bread and cheese", "the sun is hot today"]  # fmt: skip
OUTPUTS = {
    "sysA": [
        "the cat sat on a mat",
        "a dog ran in park",
        "it rains all day",
        "she reads the book",
        "we eat bread",
        "the sun is hot",
    ],
    "sysB": [
        "cat sat mat",
        "dog ran park",
        "rains all day long",
        "she reads a book",
        "we eat cheese and bread",
        "sun hot",
    ],
    "sysC": [
        "the cat is on the mat",
        "a dog runs in the park",
        "it rains",
        "a book she reads",
        "we eat bread and cheese",
        "today the sun is hot",
    ],
    "refB": [
        "the cat sits on the mat",
        "a dog ran in a park",
        "it rains the whole day",
        "she is reading a book",
        "we eat bread with cheese",
        "the sun is hot today",
    ],
}
MQM = {
    "sysA": [-1, -5, 0, -1, -5, 0],
    "sysB": [-25, -10, -1, 0, -5, -25],
    "sysC": [-1, 0, -5, -6, 0, -1],
    "refB": [0, 0, -1, 0, 0, 0],
}


@pytest.fixture
def files(tmp_path: Path) -> list[str]:
    """--ref, --hyp and --seg-scores arguments of a set with a human reference as a system."""
    (tmp_path / "ref.txt").write_text("\n".join(REF) + "\n")
    hyps = []
    for name, lines in OUTPUTS.items():
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n")
        hyps.append(str(tmp_path / f"{name}.txt"))
    rows = [f"{name}\t{v}" for name, values in MQM.items() for v in values]
    (tmp_path / "mqm.seg.score").write_text("\n".join(rows) + "\n")
    return ["--ref", str(tmp_path / "ref.txt"), "--hyp", *hyps,
            "--seg-scores", str(tmp_path / "mqm.seg.score")]  # fmt: skip


def correlate_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(["correlate", *argv, "--human", "mqm", "-f", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def matrices(systems: list[str]) -> tuple[np.ndarray, np.ndarray]:
    bleu = sacrebleu.sentence_bleu
    m = np.array(
        [[bleu(h, [r]).score for h, r in zip(OUTPUTS[s], REF, strict=True)] for s in systems]
    )
    return m, np.array([MQM[s] for s in systems], dtype=float)


@pytest.mark.parametrize(
    ("extra", "systems"),
    [([], ["sysA", "sysB", "sysC"]), (["--include-human"], ["sysA", "sysB", "sysC", "refB"])],
)
def test_grouped_kendall_and_acc_eq_equal_their_oracles(
    capsys: pytest.CaptureFixture[str], files: list[str], extra: list[str], systems: list[str]
) -> None:
    out = correlate_json(capsys, *files, *extra)
    assert out["left_out"] == ([] if extra else ["refB"])
    row = out["metrics"][0]
    assert row["name"] == "BLEU" and row["n_systems"] == len(systems)
    m, h = matrices(systems)
    flat = scipy_mean_tau(m.reshape(1, -1), h.reshape(1, -1))
    assert row["segment_kendall"] == pytest.approx(flat, abs=1e-9)
    assert row["segment_kendall_item"] == pytest.approx(scipy_mean_tau(m.T, h.T), abs=1e-9)
    assert row["segment_kendall_system"] == pytest.approx(scipy_mean_tau(m, h), abs=1e-9)
    expected = brute_acc_eq(m, h)
    assert expected is not None
    assert row["pairwise_accuracy_eq"] == pytest.approx(expected[0], abs=1e-9)
    assert row["pairwise_accuracy_eq_epsilon"] == pytest.approx(expected[1], abs=1e-9)


def test_text_table_names_what_was_left_out(
    capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    assert main(["correlate", *files, "--human", "mqm"]) == 0
    out = capsys.readouterr().out
    assert "acc_eq" in out and "tau item" in out
    assert "left out as human references (--include-human keeps them): refB" in out


def test_text_table_shows_acc_eqs_epsilon_and_the_pairs_it_ties(
    capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    """Issue 44 item 13: acc_eq beside its ε and the share of pairs ε ties (brute force)."""
    assert main(["correlate", *files, "--human", "mqm"]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = lines[1].split()
    assert head[head.index("acc_eq") + 1 : head.index("acc_eq") + 4] == ["eps", "tied", "%"]
    eps, tied_shown = lines[2].split()[-4:-2]  # before the systems and segments counts
    m, h = matrices(["sysA", "sysB", "sysC"])
    expected = brute_acc_eq(m, h)
    assert expected is not None
    assert float(eps) == pytest.approx(expected[1], rel=1e-3)
    assert tied_shown == f"{brute_tied_share(m, h, expected[1]):.1%}".rstrip("%")


def test_latex_is_the_json_rounded_with_the_signatures(
    capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    """Issue 44, item 20: ``correlate -f latex`` (refused before), the app's table for a paper."""
    out = correlate_json(capsys, *files, "-m", "bleu", "chrf++")
    assert main(["correlate", *files, "--human", "mqm", "-m", "bleu", "chrf++", "-f", "latex"]) == 0
    latex = capsys.readouterr().out.splitlines()
    assert latex[0] == "% Correlation with mqm (scores oriented so that higher is better)"
    assert latex[1].startswith("% nrefs:1|") and "|nw:2|" in latex[2]
    assert latex[3] == "% left out as human references: refB"
    assert latex[4] == "\\begin{tabular}{lrrrrrrrrr}"
    rows = [line.removesuffix(" \\\\").split(" & ") for line in latex if line.endswith("\\\\")]
    assert rows[0][0] == "Metric" and rows[0][7] == "acc\\_eq"
    keys = ["system_pearson", "system_kendall", "pairwise_accuracy", "segment_kendall"]
    keys += ["segment_kendall_item", "segment_kendall_system", "pairwise_accuracy_eq"]
    for row, metric in zip(rows[1:], out["metrics"], strict=True):
        assert row[0] == metric["name"]
        shown = ["--" if metric[k] is None else f"{metric[k]:.4f}" for k in keys]
        assert row[1:8] == shown
        assert row[8:] == [str(metric["n_systems"]), str(metric["n_segments"])]
