"""``bleuviz add --report``: a report saved back as a test set scores as the report did.

``add_report`` runs ``add``'s own parser and function (``bleuviz.cli.main``'s),
so that a refusal reaches the test as the exception; ``main`` turns it into one line.
"""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from bleuviz.cli.main import build_parser, main
from bleuviz.errors import BleuvizError
from bleuviz.report.segments import unpack_segments
from bleuviz.workspace import Workspace
from tests.data import SAMPLE_DOCIDS, SAMPLE_HYPS, SAMPLE_REFS, SAMPLE_SOURCE
from tests.report import MQM_DOCIDS, MQM_FILE, MQM_HYPS, MQM_REF

TED = ["--ref", str(MQM_REF), "--hyp", *map(str, MQM_HYPS), "--docids", str(MQM_DOCIDS)]
TED += ["--mqm", str(MQM_FILE)]
SAMPLE = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]
SAMPLE += ["--src", str(SAMPLE_SOURCE), "--docids", str(SAMPLE_DOCIDS)]


def add_report(*argv: str) -> str:
    """Run ``bleuviz add --report ...`` as ``main`` runs it; return the saved set's id."""
    args = build_parser(["add"]).parse_args(["add", *argv, "-f", "json"])
    with redirect_stdout(io.StringIO()) as out:
        assert args.func(args) == 0
    return str(json.loads(out.getvalue())["id"])


def output(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def without_paths(score: dict) -> list[dict]:
    return [{k: v for k, v in s.items() if k != "path"} for s in score["systems"]]


def test_a_reopened_report_scores_as_its_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "ted.html"
    assert main(["report", *TED, "-m", "chrf", "-o", str(report)]) == 0
    ws = str(tmp_path / "ws")
    set_id = add_report("--report", str(report), "--workspace", ws)
    capsys.readouterr()
    files = output(capsys, "score", *TED, "-m", "bleu", "chrf", "-f", "json")
    saved = output(capsys, "score", "--set", set_id, "--workspace", ws, "-m", "bleu", "chrf",
                   "-f", "json")  # fmt: skip
    assert without_paths(saved) == without_paths(files)
    spans = output(capsys, "spans", *TED, "-f", "json")
    assert output(capsys, "spans", "--set", set_id, "--workspace", ws, "-f", "json") == spans
    again = tmp_path / "again.html"
    assert main(["report", "--set", set_id, "--workspace", ws, "-m", "chrf", "-o", str(again)]) == 0
    segments = r'id="bv-data">([^<]*)<'
    first = unpack_segments(re.search(segments, report.read_text()).group(1))
    second = unpack_segments(re.search(segments, again.read_text()).group(1))
    assert second["segments"] == first["segments"]
    assert second["set"]["scores"][0]["values"] == first["set"]["scores"][0]["values"]


def test_notes_travel_with_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = str(tmp_path / "ws")
    assert main(["add", "--workspace", ws, *SAMPLE, "-f", "json"]) == 0
    set_id = json.loads(capsys.readouterr().out)["id"]
    Workspace.open(ws).save_note(set_id, "terse", 0, "too strong", "accuracy/mistranslation",
                                 author="Ana", severity="major", span=(13, 19))  # fmt: skip
    Workspace.open(ws).save_note(set_id, "literal", 5, "fine", "other")
    report = tmp_path / "sample.html"
    assert main(["report", "--set", set_id, "--workspace", ws, "-o", str(report)]) == 0
    other = str(tmp_path / "other")
    again = add_report("--report", str(report), "--workspace", other)
    assert again == set_id  # the id is the content's
    fields = [(n.system, n.segment, n.text, n.category, n.severity, n.author, n.span)
              for n in Workspace.open(other).notes(again)]  # fmt: skip
    assert sorted(fields) == [("literal", 5, "fine", "other", "", "anonymous", None),
                              ("terse", 0, "too strong", "accuracy/mistranslation", "major", "Ana",
                               (13, 19))]  # fmt: skip
    add_report("--report", str(report), "--workspace", other)  # again: no new revision
    assert Workspace.open(other).note(again, "terse", 0).revision == 1


def test_a_sampled_report_cannot_be_reopened(tmp_path: Path) -> None:
    report = tmp_path / "sample.html"
    assert main(["report", *TED, "--max-segments", "30", "-o", str(report)]) == 0
    with pytest.raises(BleuvizError) as refused:
        add_report("--report", str(report), "--workspace", str(tmp_path / "ws"))
    assert str(refused.value) == (
        f"{report}: this report holds 10 of its 25 segments (a sample past --max-segments); "
        "it cannot be reopened whole"
    )


@pytest.mark.parametrize(
    ("content", "extra", "message"),
    [
        ("<html></html>", [], "{}: not a bleuviz report (no segment data in it)"),
        ('<script type="application/octet-stream" id="bv-data">AAAA<', [],
         "{}: the report's segment data cannot be read"),
        ("<html></html>", ["--hyp", "x.txt"], "--report: --hyp cannot be given with a report"),
    ],
)  # fmt: skip
def test_what_is_not_a_report_is_refused(
    tmp_path: Path, content: str, extra: list[str], message: str
) -> None:
    path = tmp_path / "r.html"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(BleuvizError) as refused:
        add_report("--report", str(path), *extra, "--workspace", str(tmp_path / "ws"))
    assert str(refused.value).startswith(message.format(path))


def test_bleuviz_add_report_saves_and_refuses_other_inputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "sample.html"
    assert main(["report", *SAMPLE, "-o", str(report)]) == 0
    ws = str(tmp_path / "ws")
    assert main(["add", "--report", str(report), "--workspace", ws, "--name", "mailed"]) == 0
    saved = Workspace.open(ws).testsets()
    assert [(s.name, s.systems) for s in saved] == [("mailed", ("literal", "terse", "repeat"))]
    assert capsys.readouterr().out.splitlines()[1] == f"link: /?set={saved[0].id}"
    for extra in (["--hyp", str(SAMPLE_HYPS[0])], ["--set", saved[0].id],
                  ["--mqm-weights", "major:5"], ["--lower-is-better", "MQM"]):  # fmt: skip
        assert main(["add", "--report", str(report), *extra, "--workspace", ws]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert err.startswith(f"bleuviz: error: --report: {extra[0]} cannot be given with a report")
