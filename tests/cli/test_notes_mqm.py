"""``bleuviz notes -f mqm``: the notes as Google's MQM TSV, rows written out by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleuviz.cli.main import main
from bleuviz.workspace import Workspace
from tests.data import SAMPLE_DOCIDS, SAMPLE_HYPS, SAMPLE_REFS, SAMPLE_SOURCE

FULL = ["--ref", *map(str, SAMPLE_REFS), "--src", str(SAMPLE_SOURCE)]
FULL += ["--docids", str(SAMPLE_DOCIDS), "--hyp", *map(str, SAMPLE_HYPS)]
TERSE_0 = "City council argues over new tram"
SOURCE_0 = "Stadtrat streitet über neue Straßenbahn"


@pytest.fixture
def saved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    ws = str(tmp_path / "ws")
    assert main(["add", "--workspace", ws, *FULL, "-f", "json"]) == 0
    return ws, json.loads(capsys.readouterr().out)["id"]


def test_errors_and_comments_as_google_writes_them(
    saved: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    ws, set_id = saved
    workspace = Workspace.open(ws)
    workspace.save_note(set_id, "terse", 0, "argues?\ttoo strong", "accuracy/mistranslation",
                        severity="major", span=(13, 19))  # fmt: skip
    workspace.save_note(set_id, "terse", 2, "fine", "other")
    workspace.save_note(set_id, "literal", 0, "", "omission", severity="minor")
    assert main(["notes", "--workspace", ws, "--set", set_id, "-f", "mqm"]) == 0
    captured = capsys.readouterr()
    lines = Path(SAMPLE_HYPS[0]).read_text().splitlines()
    terse = Path(SAMPLE_HYPS[1]).read_text().splitlines()
    source = Path(SAMPLE_SOURCE).read_text().splitlines()
    assert captured.out.split("\n") == [
        "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment",
        f"literal\tcity-council\t1\t1\tbleuviz\t{SOURCE_0}\t{lines[0]}\tAccuracy/Omission\tMinor\t",
        f"terse\tcity-council\t1\t1\tbleuviz\t{SOURCE_0}\tCity council <v>argues</v> over new "
        "tram\tAccuracy/Mistranslation\tMajor\targues? too strong",
        f"terse\tcity-council\t3\t3\tbleuviz\t{source[2]}\t{terse[2]}\tNo-error\tNo-error\tfine",
        "",
    ]
    assert terse[0] == TERSE_0 and captured.err == ""


def test_notes_on_a_replaced_output_are_left_out_and_counted(
    saved: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    ws, set_id = saved
    workspace = Workspace.open(ws)
    workspace.save_note(set_id, "terse", 0, "", "style", severity="minor", span=(0, 4))
    workspace.save_note(set_id, "literal", 1, "", "style", severity="minor", span=(0, 4))
    n = workspace.get(set_id).n_segments
    workspace.add_system(set_id, "terse", ["new"] * n, replace=True)
    assert main(["notes", "--workspace", ws, "--set", set_id, "-f", "mqm"]) == 0
    captured = capsys.readouterr()
    assert [row.split("\t")[0] for row in captured.out.splitlines()] == ["system", "literal"]
    assert captured.err == (
        "bleuviz: note: 1 note written on an output since replaced left out "
        "(their words no longer match the line)\n"
    )


def test_revisions_are_not_an_mqm_file(
    saved: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    ws, set_id = saved
    assert main(["notes", "--workspace", ws, "--set", set_id, "-f", "mqm", "--revisions"]) == 2
    assert capsys.readouterr().err == (
        "bleuviz: error: --revisions: the MQM TSV holds the current notes only (-f tsv)\n"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["notes", "--set", "abc", "-f", "tsv"],
        ["notes", "--set", "abc", "-f", "json"],
        ["notes", "--set", "abc", "-f", "mqm"],
        ["score", "--set", "abc"],
        ["spans", "--set", "abc"],
        ["restore", "abc"],
    ],
    ids=["notes-tsv", "notes-json", "notes-mqm", "score", "spans", "restore"],
)
def test_a_folder_without_a_workspace_is_one_line_and_creates_nothing(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    typo = tmp_path / "nowhere" / "ws"
    assert main([*argv, "--workspace", str(typo)]) == 2
    assert capsys.readouterr().err == (
        f"bleuviz: error: --workspace: no workspace in {typo} (nothing was saved there)\n"
    )
    assert not (tmp_path / "nowhere").exists()  # a command that reads writes nothing


def _export(ws: str, set_id: str, path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    capsys.readouterr()
    assert main(["notes", "--workspace", ws, "--set", set_id, "-f", "mqm"]) == 0
    path.write_text(capsys.readouterr().out)
    return path


def test_the_export_reads_back_with_add_mqm_as_the_same_spans_and_scores(
    saved: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws, set_id = saved
    workspace = Workspace.open(ws)
    notes = [
        workspace.save_note(set_id, "terse", 0, "x", "accuracy/mistranslation",
                            severity="major", span=(13, 19)),
        workspace.save_note(set_id, "terse", 4, "", "style", severity="minor", span=(0, 3)),
        workspace.save_note(set_id, "repeat", 1, "looks fine", "other"),
        workspace.save_note(set_id, "literal", 2, "", "omission", severity="neutral"),
    ]  # fmt: skip
    path = _export(ws, set_id, tmp_path / "notes.mqm.tsv", capsys)
    assert main(["add", "--workspace", ws, "--set", set_id, "--mqm", str(path)]) == 0
    capsys.readouterr()
    testset = workspace.load(set_id)
    (spans,) = testset.error_spans
    (mqm,) = [s for s in testset.seg_scores if s.name == spans.name]  # MQM
    assert spans.origin == str(path)
    expected_score = {("terse", 0): -5.0, ("terse", 4): -1.0, ("repeat", 1): 0.0,
                      ("literal", 2): 0.0}  # fmt: skip
    for note in notes:
        got = spans.annotation(note.system, note.segment)
        assert got is not None and got.raters == ("bleuviz",)
        if not note.severity:
            assert got.spans == ()
        else:
            (span,) = got.spans
            assert (span.severity, span.rater) == (note.severity, "bleuviz")
            assert ((span.start, span.end) if not span.omission else None) == note.span
        assert mqm.values[note.system][note.segment] == expected_score[note.system, note.segment]
    noted = {(n.system, n.segment) for n in notes}
    for system, values in mqm.values.items():
        others = [v for k, v in enumerate(values) if (system, k) not in noted]
        assert all(v != v for v in others)  # NaN: nobody rated them
    # The same file again is a no-op; other spans under MQM are refused unless --replace.
    assert main(["add", "--workspace", ws, "--set", set_id, "--mqm", str(path)]) == 0
    workspace.save_note(set_id, "terse", 4, "", "style", severity="major", span=(0, 3))
    (tmp_path / "later").mkdir()
    other = _export(ws, set_id, tmp_path / "later" / path.name, capsys)  # the same name
    assert main(["add", "--workspace", ws, "--set", set_id, "--mqm", str(other)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bleuviz: error: ") and err.count("\n") == 1
    assert "--replace replaces them and their score for every system" in err
    assert workspace.load(set_id).error_spans[0].origin == str(path)
    argv = ["add", "--workspace", ws, "--set", set_id, "--mqm", str(other), "--replace"]
    assert main(argv) == 0
    replaced = workspace.load(set_id)
    assert replaced.error_spans[0].origin == str(other)
    (mqm,) = [s for s in replaced.seg_scores if s.name == spans.name]
    assert mqm.values["terse"][4] == -5.0


def test_set_without_anything_to_add_is_refused(
    saved: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    ws, set_id = saved
    assert main(["add", "--workspace", ws, "--set", set_id]) == 2
    assert "--set: give what to add to the saved test set" in capsys.readouterr().err


def test_each_note_is_rated_by_its_author(
    saved: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    ws, set_id = saved
    workspace = Workspace.open(ws)
    workspace.save_note(set_id, "terse", 0, "", "style", severity="minor", author="Ana Ruiz")
    workspace.save_note(set_id, "terse", 1, "", "style", severity="major")  # anonymous
    assert main(["notes", "--workspace", ws, "--set", set_id, "-f", "mqm"]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    assert rows[0][4] == "rater"
    assert [(row[3], row[4]) for row in rows[1:]] == [("1", "Ana Ruiz"), ("2", "bleuviz")]


def test_a_note_and_its_author_a_spreadsheet_would_run_are_written_as_text(
    saved: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 44, item 30 (every TSV export): the MQM TSV wrote ``=...`` comments as they were.

    The comment and the rater are free text, so they get OWASP's leading ``'``;
    the system, document, source and target must equal the test set's (read back).
    """
    ws, set_id = saved
    workspace = Workspace.open(ws)
    formula = '=HYPERLINK("http://evil.example","x")'
    workspace.save_note(set_id, "terse", 0, formula, "style", author="@SUM(1+1)",
                        severity="minor", span=(0, 4))  # fmt: skip
    workspace.save_note(set_id, "terse", 2, "-2+3", "other", author="+cmd")
    assert main(["notes", "--workspace", ws, "--set", set_id, "-f", "mqm"]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines()[1:]]
    assert [(row[4], row[-1]) for row in rows] == [
        ("'@SUM(1+1)", "'" + formula),
        ("'+cmd", "'-2+3"),
    ]
