"""--seg-scores on score and compare, and the correlate command.

Oracles: the score files read with plain Python (means), sacrebleu 2.6.0's
``corpus_bleu``/``sentence_bleu``/``CHRF`` for the computed metrics, and scipy's
``pearsonr``/``kendalltau`` for the correlations.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from scipy import stats

from bleuviz.cli.main import main
from bleuviz.significance.mean import compare_means
from tests.data import (
    COMET_SCORES,
    HUMAN_SCORES,
    METRICX_SCORES,
    SAMPLE_HYPS,
    SAMPLE_REFS,
    file_scores,
)

REFS = [str(p) for p in SAMPLE_REFS]
HYPS = [str(p) for p in SAMPLE_HYPS]
NAMES = ["literal", "terse", "repeat"]
SCORES = [str(p) for p in (COMET_SCORES, METRICX_SCORES, HUMAN_SCORES)]
BASE = ["--ref", *REFS, "--hyp", *HYPS, "--seg-scores", *SCORES]


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bleuviz: error: ")
    return err


def test_score_json_gains_each_metric_mean(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "score", *BASE, "-f", "json")
    human = file_scores(HUMAN_SCORES)
    for system in out["systems"]:
        seg = system["seg_scores"]
        assert list(seg) == ["COMET-test", "MetricX-test", "human"]
        name = system["name"]
        assert seg["human"]["mean"] == pytest.approx(np.nanmean(human[name]), abs=1e-12)
        assert seg["human"]["n"] == 112 and seg["COMET-test"]["n"] == 126
        assert seg["MetricX-test"]["lower_is_better"] is True
        assert seg["COMET-test"]["lower_is_better"] is False


def test_score_text_states_means_and_directions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", *BASE, "--higher-is-better", "MetricX-test"]) == 0
    out = capsys.readouterr().out
    assert "terse: human = " in out and "(mean of 112 segments; higher is better)" in out
    assert "lower is better" not in out


def test_compare_metric_runs_the_mean_tests(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", *BASE, "--metric", "human", "--paired-bs", "300", "--paired-ar", "500"]
    out = run_json(capsys, *argv, "--seed", "7", "-f", "json")
    human = file_scores(HUMAN_SCORES)
    expected = compare_means(
        "literal", human["literal"], {n: human[n] for n in NAMES[1:]}, 300, 500, 7
    )
    assert out["metric"] == "human" and "bleu" not in out["baseline"]
    assert out["baseline"]["score"] == pytest.approx(np.nanmean(human["literal"]))
    for row, exp in zip(out["systems"], expected[1:], strict=True):
        assert set(row) == {
            "name",
            "metric",
            "score",
            "mean",
            "ci",
            "n",
            "p_value_bs",
            "p_value_ar",
        }
        assert (row["p_value_bs"], row["p_value_ar"]) == (
            exp.result.p_value_bs,
            exp.result.p_value_ar,
        )
        assert (row["mean"], row["ci"], row["n"]) == (
            exp.result.mean,
            exp.result.ci,
            exp.n_segments,
        )


def test_compare_text_names_the_metric(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["compare", *BASE, "--metric", "COMET-test", "--paired-bs", "100", "--paired-ar", "0"])
        == 0
    )
    head = capsys.readouterr().out.splitlines()[0]
    assert "COMET-test" in head and "BLEU" not in head


def test_correlate_json_equals_scipy(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(
        capsys, "correlate", *BASE, "--human", "human", "-m", "bleu", "chrf", "-f", "json"
    )
    assert out["human"] == "human"
    assert [m["name"] for m in out["metrics"]] == ["BLEU", "chrF", "COMET-test", "MetricX-test"]
    human = file_scores(HUMAN_SCORES)
    refs = [Path(r).read_text().splitlines() for r in REFS]
    hyps = {n: Path(h).read_text().splitlines() for n, h in zip(NAMES, HYPS, strict=True)}
    bleu = [sacrebleu.corpus_bleu(hyps[n], refs).score for n in NAMES]
    means = [np.nanmean(human[n]) for n in NAMES]
    row = out["metrics"][0]
    assert row["system_pearson"] == pytest.approx(stats.pearsonr(bleu, means).statistic, abs=1e-9)
    assert row["system_kendall"] == pytest.approx(stats.kendalltau(bleu, means).statistic)
    seg_m, seg_h = [], []
    for n in NAMES:
        for i, hyp in enumerate(hyps[n]):
            if not math.isnan(human[n][i]):
                seg_m.append(sacrebleu.sentence_bleu(hyp, [r[i] for r in refs]).score)
                seg_h.append(human[n][i])
    assert row["segment_kendall"] == pytest.approx(
        stats.kendalltau(seg_m, seg_h).statistic, abs=1e-9
    )
    chrf = [sacrebleu.corpus_chrf(hyps[n], refs).score for n in NAMES]
    assert out["metrics"][1]["system_pearson"] == pytest.approx(
        stats.pearsonr(chrf, means).statistic, abs=1e-9
    )
    metricx = file_scores(METRICX_SCORES)
    negated = [-metricx[n].mean() for n in NAMES]
    assert out["metrics"][3]["system_pearson"] == pytest.approx(
        stats.pearsonr(negated, means).statistic, abs=1e-9
    )


def test_correlate_text_is_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["correlate", *BASE, "--human", "human"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Correlation with human") and out[2].startswith("BLEU ")
    assert len(out) == 6  # a line a metric (4), then the legend


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            ["--metric", "BLEURT"],
            "--metric: no metric 'BLEURT'; choose from BLEU, chrF, chrF++, TER or an imported "
            "score (COMET-test, MetricX-test, human)",
        ),
        (["--lower-is-better", "COMET"], "no metric 'COMET'"),
    ],
)
def test_unknown_names_are_refused(
    capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    assert message in refused(capsys, "compare", *BASE, *extra)


@pytest.mark.parametrize(("spelled", "label"), [("chrf++", "chrF++"), ("ter", "TER")])
def test_compare_takes_a_metric_as_score_m_spells_it(
    capsys: pytest.CaptureFixture[str], spelled: str, label: str
) -> None:
    # score -m and correlate -m take sacrebleu's lower-case names; compare --metric too
    argv = ["--ref", *REFS, "--hyp", *HYPS, "--paired-bs", "100", "--paired-ar", "0", "-f"]
    assert main(["compare", *argv, "json", "--metric", spelled]) == 0
    by_name = json.loads(capsys.readouterr().out)
    assert main(["compare", *argv, "json", "--metric", label]) == 0
    assert json.loads(capsys.readouterr().out) == by_name and by_name["metric"] == label


def test_bad_score_files_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    short = tmp_path / "short.seg.score"
    short.write_text("terse\t1\n")
    err = refused(capsys, "score", "--ref", *REFS, "--hyp", HYPS[1], "--seg-scores", str(short))
    assert "system 'terse' has 1 scores but the test set has 126 segments" in err
    other = tmp_path / "x.seg.score"
    other.write_text("online-B\t1\n")
    err = refused(capsys, "score", "--ref", *REFS, "--hyp", HYPS[1], "--seg-scores", str(other))
    assert "x.seg.score: no system it scores is in the test set (it scores online-B" in err
    chrf = tmp_path / "chrF.seg.score"
    chrf.write_text("terse\t1\n" * 126)
    err = refused(capsys, "score", "--ref", *REFS, "--hyp", HYPS[1], "--seg-scores", str(chrf))
    assert "'chrF' is a metric bleuviz computes" in err
    err = refused(capsys, "correlate", *BASE, "--human", "mqm")
    assert "no metric 'mqm'" in err
    err = refused(capsys, "score", *BASE, "--seg-scores", str(tmp_path / "missing.seg.score"))
    assert "missing.seg.score" in err


def wmt_file(folder: Path, name: str, systems: dict[str, list[str]]) -> Path:
    """Write an mt-metrics-eval file as WMT ships it: every system, each line a score."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.seg.score"
    path.write_text("".join(f"{s}\t{v}\n" for s, values in systems.items() for v in values))
    return path


def human_like(scale: float) -> dict[str, list[str]]:
    """Scores of the sample's systems, plus WMT's human references refA and refB."""
    n = len(SAMPLE_REF_LINE_COUNT)
    out = {s: [f"{scale * (i % 7) - j:.2f}" for i in range(n)] for j, s in enumerate(NAMES)}
    return {**out, "refA": ["0"] * n, "refB": ["None"] * n}


SAMPLE_REF_LINE_COUNT = Path(REFS[0]).read_text("utf-8").splitlines()


def test_a_wmt_file_loads_the_systems_there_and_names_the_skipped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = wmt_file(tmp_path / "wmt", "mqm", human_like(1.0))
    argv = ["compare", "--ref", *REFS, "--hyp", *HYPS[:2], "--seg-scores", str(path)]
    assert (
        main([*argv, "--metric", "mqm", "--paired-bs", "100", "--paired-ar", "0", "-f", "json"])
        == 0
    )
    captured = capsys.readouterr()
    out, err = json.loads(captured.out), captured.err
    oracle = file_scores(path)
    assert out["baseline"]["score"] == pytest.approx(np.nanmean(oracle["literal"]), abs=1e-12)
    # The signature names the file, not the folder it was read from.
    assert out["signature"].startswith("bs:100|") and "imported:mqm.seg.score|" in out["signature"]
    assert str(tmp_path) not in out["signature"]
    assert f"{path}: 'mqm' scores 3 systems not loaded, skipped: repeat, refA, refB" in err


def test_the_same_score_file_twice_is_read_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    first = wmt_file(tmp_path / "a", "mqm", human_like(1.0))
    again = wmt_file(tmp_path / "b", "mqm", human_like(1.0))
    out = run_json(
        capsys,
        "score",
        "--ref",
        *REFS,
        "--hyp",
        *HYPS,
        "--seg-scores",
        str(first),
        str(again),
        "-f",
        "json",
    )
    assert [list(s["seg_scores"]) for s in out["systems"]] == [["mqm"]] * 3


def test_other_scores_under_the_same_name_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    first = wmt_file(tmp_path / "a", "mqm", human_like(1.0))
    other = wmt_file(tmp_path / "b", "mqm", human_like(2.0))
    err = refused(
        capsys, "score", "--ref", *REFS, "--hyp", *HYPS, "--seg-scores", str(first), str(other)
    )
    assert err == (
        f"bleuviz: error: {other}: segment scores named 'mqm' are already loaded from "
        "mqm.seg.score, with other values; rename one file\n"
    )
