"""--mqm and --mqm-weights on the commands, on Google's TED en-de excerpt (tests/data/mqm).

Oracles: the published per-segment averages (``mqm_ted_ende.avg_seg_scores.tsv``)
for the MQM scores, scipy's ``kendalltau`` for the segment-level correlation.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from scipy import stats

from bleuviz.app.ui.state.app_args import parse_argv
from bleuviz.cli.app import streamlit_command
from bleuviz.cli.main import build_parser, main
from bleuviz.errors import ConfigError, InputError
from tests.io.test_mqm_tsv import MQM_DATA, MQM_SYSTEMS

HYPS = [str(MQM_DATA / f"{system}.txt") for system in MQM_SYSTEMS]
REF = str(MQM_DATA / "src.en.txt")  # any reference: the checks are relative to it
BASE = ["--ref", REF, "--hyp", *HYPS, "--docids", str(MQM_DATA / "docids.txt")]
MQM_FILE = str(MQM_DATA / "mqm_ted_ende.tsv")
SEG_IDS = [*range(1, 21), *range(218, 223)]


def published() -> dict[str, list[float]]:
    """Google's per-segment MQM averages of the excerpt, in line order."""
    values: dict[tuple[str, int], float] = {}
    for line in (MQM_DATA / "mqm_ted_ende.avg_seg_scores.tsv").read_text().splitlines()[1:]:
        system, rest = line.split("\t")
        value, seg_id = rest.split(" ")
        values[system, int(seg_id)] = float(value)
    return {s: [values[s, k] for k in SEG_IDS] for s in MQM_SYSTEMS}


def error_counts() -> dict[str, int]:
    """Each system's Major and Minor rows in the excerpt, counted from the raw file."""
    errors = dict.fromkeys(MQM_SYSTEMS, 0)
    for line in Path(MQM_FILE).read_text(encoding="utf-8").splitlines()[1:]:
        fields = line.split("\t")
        if fields[0] in errors and fields[8] in ("Major", "Minor"):
            errors[fields[0]] += 1
    return errors


def test_score_reports_the_mqm_mean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", *BASE, "--mqm", MQM_FILE, "-f", "json"]) == 0
    captured = capsys.readouterr()
    (note,) = [line for line in captured.err.splitlines() if "not loaded" in line]
    assert note.endswith("'MQM' scores 1 system not loaded, skipped: ref")
    for report in json.loads(captured.out)["systems"]:
        mqm = report["seg_scores"]["MQM"]
        assert mqm["mean"] == pytest.approx(np.mean(published()[report["name"]]), abs=1e-6)
        assert mqm["lower_is_better"] is False


def test_correlate_human_mqm(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["correlate", *BASE, "--mqm", MQM_FILE, "--human", "MQM", "-f", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["human"] == "MQM"
    bleu = next(m for m in out["metrics"] if m["name"] == "BLEU")
    ref = (MQM_DATA / "src.en.txt").read_text(encoding="utf-8").splitlines()
    sentence = []
    for path in HYPS:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        sentence += [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(lines, ref, strict=True)]
    human = [v for s in MQM_SYSTEMS for v in published()[s]]
    tau = stats.kendalltau(sentence, human, variant="b").statistic
    assert bleu["segment_kendall"] == pytest.approx(tau, abs=1e-9)


def test_weights_change_the_scores(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["score", *BASE, "--mqm", MQM_FILE, "-f", "json"]
    assert main([*argv, "--mqm-weights", "major:1 minor:1 neutral:0"]) == 0
    reports = json.loads(capsys.readouterr().out)["systems"]
    errors = error_counts()  # one weight per error: minus the mean error count
    for report in reports:
        mean = report["seg_scores"]["MQM"]["mean"]
        assert mean == pytest.approx(-errors[report["name"]] / len(SEG_IDS))


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--mqm-weights", "major"], "--mqm-weights: 'major' is not SEVERITY"),
        (["--mqm", "nowhere.tsv"], "no such file: nowhere.tsv"),
    ],
)
def test_mistakes_are_one_line(
    capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    argv = ["score", *BASE, "--mqm", MQM_FILE, *extra]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bleuviz: error: ") and message in err


def test_without_document_ids_the_excerpt_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--ref", REF, "--hyp", *HYPS, "--mqm", MQM_FILE]) == 2
    err = capsys.readouterr().err
    assert "seg_id 218 is past the test set's 25 segments" in err


def test_weights_reweigh_a_saved_sets_spans(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    workspace = ["--workspace", str(tmp_path / "ws")]
    assert main(["add", *BASE, "--mqm", MQM_FILE, "--name", "ted", *workspace]) == 0
    set_id = capsys.readouterr().out.split()[1]
    argv = ["score", "--set", set_id, *workspace, "-f", "json"]
    assert main(argv) == 0
    saved = json.loads(capsys.readouterr().out)["systems"]
    for report in saved:
        expected = np.mean(published()[report["name"]])
        assert report["seg_scores"]["MQM"]["mean"] == pytest.approx(expected, abs=1e-6)
    assert main([*argv, "--mqm-weights", "major:1 minor:1 neutral:0"]) == 0
    reweighed = json.loads(capsys.readouterr().out)["systems"]
    errors = error_counts()
    for report in reweighed:
        mean = report["seg_scores"]["MQM"]["mean"]
        assert mean == pytest.approx(-errors[report["name"]] / len(SEG_IDS))


def test_app_passes_mqm_files_to_the_app_and_refuses_a_missing_one() -> None:
    def command(*argv: str) -> list[str]:
        return streamlit_command(build_parser(["app", *argv]).parse_args(["app", *argv]))

    cmd = command(*BASE, "--mqm", MQM_FILE)
    own = cmd[cmd.index("--") + 1 :]
    assert own[own.index("--mqm") + 1] == MQM_FILE
    assert parse_argv(("serve.py", *own)).seg_scores == (MQM_FILE,)
    with pytest.raises(InputError, match=r"^--mqm: no such file: nowhere\.tsv$"):
        command(*BASE, "--mqm", "nowhere.tsv")
    weighed = command(*BASE, "--mqm", MQM_FILE, "--mqm-weights", "major:1 minor:1")
    own = weighed[weighed.index("--") + 1 :]
    assert parse_argv(("serve.py", *own)).mqm_weights == "major:1 minor:1"
    with pytest.raises(ConfigError, match=r"^--mqm-weights: 'major' is not SEVERITY"):
        command(*BASE, "--mqm", MQM_FILE, "--mqm-weights", "major")
