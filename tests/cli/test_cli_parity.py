"""Command-line parity with sacrebleu: --confidence, signatures, stdin, LaTeX, all pairs.

Oracles: sacrebleu 2.6.0 itself (its command line for the --confidence signature,
``BLEU().corpus_score(..., n_bootstrap=n)`` for the mean and CI, ``PairedTest``
for the paired signature), and ``compare`` runs with the pair's first system as
baseline for ``--all-pairs``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from bleuviz.cli.main import main
from tests.data import SAMPLE_HYPS, SAMPLE_REFS

ROOT = Path(__file__).resolve().parents[2]
REFS = [str(p) for p in SAMPLE_REFS]
HYPS = [str(p) for p in SAMPLE_HYPS]
NAMES = ["literal", "terse", "repeat"]


def lines(path: str) -> list[str]:
    return Path(path).read_text("utf-8").splitlines()


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def bleuviz(*argv: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "bleuviz", *argv], cwd=ROOT, input=stdin, capture_output=True
    )


def test_confidence_equals_sacrebleu(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "score", "--ref", *REFS, "--hyp", *HYPS, "--confidence", "-f", "json")
    refs = [lines(r) for r in REFS]
    for system, path in zip(out["systems"], HYPS, strict=True):
        oracle = BLEU().corpus_score(lines(path), refs, n_bootstrap=1000)
        assert system["mean"] == pytest.approx(oracle._mean, abs=1e-9)
        assert system["ci"] == pytest.approx(oracle._ci, abs=1e-9)
    cli = subprocess.run(
        [sys.executable, "-m", "sacrebleu", *REFS, "-i", HYPS[0], "--confidence", "-f", "json"],
        capture_output=True,
        check=True,
    )
    assert out["systems"][0]["signature"] == json.loads(cli.stdout)["signature"]


def test_confidence_text_reads_like_sacrebleu(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["score", "--ref", *REFS, "--hyp", HYPS[1], "--confidence", "--confidence-n", "200"])
        == 0
    )
    line, signature = capsys.readouterr().out.splitlines()
    oracle = BLEU().corpus_score(lines(HYPS[1]), [lines(r) for r in REFS], n_bootstrap=200)
    assert line.startswith(
        f"BLEU = {oracle.score:.2f} (μ = {oracle._mean:.2f} ± {oracle._ci:.2f}) "
    )
    assert "|bs:200|seed:12345|" in signature


def test_max_order_is_in_the_signature(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(
        capsys, "score", "--ref", *REFS, "--hyp", HYPS[0], "--max-order", "2", "-f", "json"
    )
    assert out["systems"][0]["signature"].endswith("|smooth:exp|ngram:2|version:2.6.0")


def test_hypotheses_from_standard_input() -> None:
    piped = bleuviz(
        "score", "--ref", *REFS, "--hyp", "-", "-f", "json", stdin=Path(HYPS[1]).read_bytes()
    )
    from_file = bleuviz("score", "--ref", *REFS, "--hyp", HYPS[1], "-f", "json")
    assert piped.returncode == 0
    a, b = json.loads(piped.stdout)["systems"][0], json.loads(from_file.stdout)["systems"][0]
    assert a["name"] == "stdin" and a["bleu"] == b["bleu"] and a["counts"] == b["counts"]
    short = bleuviz("score", "--ref", *REFS, "--hyp", "-", stdin=b"one line\n")
    assert short.returncode == 2
    assert b"stdin has 1 line" in short.stderr and short.stderr.count(b"\n") == 1
    twice = bleuviz("score", "--ref", *REFS, "--hyp", "-", "-", stdin=b"x\n")
    assert twice.returncode == 2 and b"only once" in twice.stderr


def test_compare_signature_and_per_test_stars(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "compare",
        "--ref",
        *REFS,
        "--hyp",
        *HYPS[:2],
        "--paired-bs",
        "1000",
        "--paired-ar",
        "100",
    ]
    out = run_json(capsys, *argv, "-f", "json")
    named = [(n, lines(h)) for n, h in zip(NAMES, HYPS, strict=False)][:2]
    refs = [lines(r) for r in REFS]
    sig, _ = PairedTest(named, {"BLEU": BLEU()}, refs, "ar", 100, n_ar_confidence=1000)()
    assert out["signature"] == sig["BLEU"].format()
    assert main(argv) == 0
    text = capsys.readouterr().out.splitlines()
    row = next(line for line in text if line.startswith("terse"))
    assert row.count("*") == 2  # one star per test, each right after its p-value
    assert text[-1] == out["signature"]


def test_all_pairs_equal_runs_with_the_first_as_baseline(
    capsys: pytest.CaptureFixture[str],
) -> None:
    base = ["compare", "--ref", *REFS, "--paired-bs", "300", "--paired-ar", "640", "-f", "json"]
    out = run_json(capsys, *base, "--hyp", *HYPS, "--all-pairs")
    assert [(p["a"], p["b"]) for p in out["pairs"]] == [
        ("literal", "terse"), ("literal", "repeat"), ("terse", "repeat"),
    ]  # fmt: skip
    for pair in out["pairs"]:
        paths = [HYPS[NAMES.index(pair["a"])], HYPS[NAMES.index(pair["b"])]]
        alone = run_json(capsys, *base, "--hyp", *paths)["systems"][0]
        assert (pair["p_value_bs"], pair["p_value_ar"]) == (
            alone["p_value_bs"],
            alone["p_value_ar"],
        )
        scores = {s["name"]: s["score"] for s in [out["baseline"], *out["systems"]]}
        assert pair["diff"] == pytest.approx(scores[pair["b"]] - scores[pair["a"]])
    assert out["clusters"] == [["repeat"], ["terse"], ["literal"]]
    holm = run_json(capsys, *base, "--hyp", *HYPS, "--all-pairs", "--holm")
    assert holm["holm"] is True
    assert all(
        h["p_value_bs"] >= p["p_value_bs"] for h, p in zip(holm["pairs"], out["pairs"], strict=True)
    )


def test_latex_tables_are_booktabs_with_escaped_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    odd = tmp_path / "hyp.a_b&c%$.txt"
    odd.write_bytes(Path(HYPS[1]).read_bytes())
    assert main(["score", "--ref", *REFS, "--hyp", HYPS[0], str(odd), "-f", "latex"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("% nrefs:2|case:mixed") and out[1] == "\\begin{tabular}{lrrrrr}"
    assert out[2] == "\\toprule" and out[-2] == "\\bottomrule" and out[-1] == "\\end{tabular}"
    assert any(line.startswith(r"a\_b\&c\%\$ & ") for line in out)
    assert main(["compare", "--ref", *REFS, "--hyp", *HYPS, "--paired-ar", "0", "-f", "latex"]) == 0
    table = capsys.readouterr().out
    assert "$p$ (bs)" in table and "\\midrule" in table and "0.0010$^{*}$" in table
