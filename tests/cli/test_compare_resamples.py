"""``compare --all-pairs --holm``: enough resamples for the correction, or a warning.

Oracle: sacrebleu 2.6.0's ``_compute_p_value`` (significance.py), whose smallest
value for n resamples is what no pair can go below; Holm multiplies it by the
number of pairs.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sacrebleu.significance import _compute_p_value

from bleuviz.cli.main import main
from tests.data import SAMPLE_HYPS, SAMPLE_REFS

REFS = [str(p) for p in SAMPLE_REFS]


def smallest_p(n: int) -> float:
    """sacrebleu's p-value when no resample beats the observed difference."""
    return float(_compute_p_value(np.zeros(n), 0.0))


@pytest.fixture
def thirteen(tmp_path: Path) -> list[str]:
    """13 systems: the sample's literal output with every k-th word dropped."""
    lines = SAMPLE_HYPS[0].read_text("utf-8").splitlines()
    paths = []
    for k in range(2, 15):
        path = tmp_path / f"drop{k}.txt"
        kept = [" ".join(w for i, w in enumerate(x.split()) if i % k) for x in lines]
        path.write_text("\n".join(kept) + "\n", encoding="utf-8")
        paths.append(str(path))
    return paths


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[dict[str, object], str]:
    assert main(["compare", "--ref", *REFS, *argv, "-f", "json"]) == 0
    out = capsys.readouterr()
    return json.loads(out.out), out.err


def test_default_resamples_let_holm_reach_alpha(
    thirteen: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    report, err = run(capsys, "--hyp", *thirteen, "--all-pairs", "--holm", "--paired-ar", "0")
    pairs = report["pairs"]
    assert isinstance(pairs, list) and len(pairs) == 78
    fields = dict(f.split(":", 1) for f in str(report["signature"]).split("|"))
    n = int(fields["bs"])
    assert 78 * smallest_p(n) < 0.05
    assert "warning" not in err
    assert f"note: --paired-bs {n:,} (not 1,000)" in err
    assert len(report["clusters"]) > 1  # type: ignore[arg-type]


def test_default_without_correction_stays_sacrebleus(capsys: pytest.CaptureFixture[str]) -> None:
    report, _ = run(capsys, "--hyp", *map(str, SAMPLE_HYPS), "--all-pairs")
    assert "|bs:1000|ar:10000|" in str(report["signature"])


def test_too_few_resamples_for_holm_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    n, pairs = 50, 3
    assert pairs * smallest_p(n) >= 0.05  # the oracle: no pair can be significant
    argv = ["--hyp", *map(str, SAMPLE_HYPS), "--all-pairs", "--holm"]
    _, err = run(capsys, *argv, "--paired-bs", str(n), "--paired-ar", "0")
    assert "warning: --paired-bs" in err and "3 pairs can never reach p < 0.05" in err
    _, err = run(capsys, *argv, "--paired-bs", str(n), "--paired-ar", "100")
    assert "--paired-ar" not in err  # 3 / 101 < 0.05
