"""Paired tests and confidence intervals on Dask.

Up to the exact limit: sacrebleu's own ``PairedTest`` is the oracle (its p-values,
means and intervals, draw for draw). Past it (the limit lowered here): the
Poisson bootstrap, whose weights depend on (seed, segment) only, so the result
does not depend on the partitions, and whose intervals are a bootstrap's.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest

from bleuviz.cli.main import main
from bleuviz.distributed import limits
from bleuviz.distributed.poisson import weights
from tests.distributed.conftest import HYPS, REFS


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(("metric", "sacre"), [("BLEU", BLEU()), ("chrF", CHRF())])
def test_paired_bootstrap_equals_sacrebleus(
    capsys: pytest.CaptureFixture[str], metric: str, sacre: BLEU | CHRF
) -> None:
    argv = ["compare", "-r", *REFS, "-i", *HYPS, "--metric", metric, "--paired-bs", "200"]
    argv += ["--paired-ar", "0", "-f", "json", "--dask", "sync", "--partition-rows", "50"]
    status, out, err = _run(capsys, argv)
    assert status == 0
    assert "bleuviz: engine: dask (synchronous scheduler, this process), 3 partitions" in err
    report = json.loads(out)
    refs = [Path(r).read_text(encoding="utf-8").splitlines() for r in REFS]
    named = [(Path(h).name, Path(h).read_text(encoding="utf-8").splitlines()) for h in HYPS]
    _, results = PairedTest(named, {metric: sacre}, refs, "bs", 200)()
    (expected,) = [rows for key, rows in results.items() if key != "System"]
    assert report["baseline"]["mean"] == pytest.approx(expected[0].mean, abs=5e-5)
    assert report["baseline"]["ci"] == pytest.approx(expected[0].ci, abs=5e-5)
    for row, theirs in zip(report["systems"], expected[1:], strict=True):
        assert row["p_value_bs"] == theirs.p_value
        assert row["mean"] == pytest.approx(theirs.mean, abs=5e-5)  # sacrebleu rounds to 4


def test_poisson_weights_depend_on_the_segment_not_the_partition() -> None:
    whole = weights(7, 0, 50, 0, 40)
    assert np.array_equal(weights(7, 20, 10, 0, 40), whole[:, 20:30])
    assert np.array_equal(weights(7, 0, 50, 10, 40), whole[10:])
    assert not np.array_equal(weights(8, 0, 50, 0, 40), whole)
    many = weights(12345, 0, 2000, 0, 200).ravel()  # Poisson(1): mean 1, variance 1
    assert abs(many.mean() - 1) < 0.01
    assert abs(many.var() - 1) < 0.02


def test_past_the_limit_score_runs_a_poisson_bootstrap(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    base = ["score", "-r", *REFS, "-i", *HYPS, "--confidence", "-f", "json"]
    _, exact, _ = _run(capsys, base)
    monkeypatch.setattr(limits, "EXACT_RESAMPLING_SEGMENTS", 100)
    outs = []
    for rows in ("7", "50"):
        status, out, err = _run(capsys, [*base, "--dask", "sync", "--partition-rows", rows])
        assert status == 0
        assert "Poisson bootstrap (bs:poisson), not sacrebleu-identical" in err
        outs.append(out)
    assert outs[0] == outs[1]  # the partitions do not matter
    poisson, sacre = json.loads(outs[0])["systems"], json.loads(exact)["systems"]
    for mine, theirs in zip(poisson, sacre, strict=True):
        assert mine["bleu"] == theirs["bleu"]
        assert "|bs:poisson:1000|seed:12345|" in mine["signature"]
        assert mine["ci"] == pytest.approx(theirs["ci"], rel=0.25)  # a bootstrap all the same
        assert mine["mean"] == pytest.approx(theirs["mean"], abs=theirs["ci"])


def test_past_the_limit_compare_runs_the_poisson_test_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "EXACT_RESAMPLING_SEGMENTS", 100)
    argv = ["compare", "-r", *REFS, "-i", *HYPS, "--dask", "sync", "-f", "json"]
    status, out, err = _run(capsys, argv)
    assert status == 0
    report = json.loads(out)
    assert "|bs:poisson:1000|seed:12345|" in report["signature"]
    assert all(row["p_value_ar"] is None for row in report["systems"])
    assert all(row["p_value_bs"] is not None for row in report["systems"])
    assert "no approximate randomization" in err
    status, _, err = _run(capsys, [*argv, "--paired-ar", "100"])
    assert status == 2
    assert err.strip().splitlines()[-1] == (
        "bleuviz: error: --paired-ar: past 126 segments Dask runs only the Poisson bootstrap"
    )
