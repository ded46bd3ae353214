"""``python -m bleuviz add`` and ``list``: saving to a workspace, ids, links, refusals (exit 2)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bleuviz.cli.main import main
from bleuviz.io.load import load_paths
from bleuviz.workspace import DB_NAME, SCHEMA_VERSION, Workspace
from bleuviz.workspace.export import NOTES_TSV_HEADER, REVISION_COLUMNS
from bleuviz.workspace.identity import testset_id as id_of
from tests.data import (
    COMET_SCORES,
    HUMAN_SCORES,
    SAMPLE_DOCIDS,
    SAMPLE_HYPS,
    SAMPLE_REFS,
    SAMPLE_SOURCE,
)

ROOT = Path(__file__).resolve().parents[2]
REFS = [str(p) for p in SAMPLE_REFS]
HYPS = [str(p) for p in SAMPLE_HYPS]
FULL = ["--ref", *REFS, "--src", str(SAMPLE_SOURCE), "--docids", str(SAMPLE_DOCIDS)]


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:  # type: ignore[type-arg]
    assert main(list(argv)) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bleuviz: error: ")
    return err


def test_add_prints_the_id_and_link_and_saves_the_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = str(tmp_path)
    assert main(["add", "--workspace", ws, *FULL, "--hyp", *HYPS, "--name", "sample"]) == 0
    out = capsys.readouterr().out.splitlines()
    expected = load_paths(HYPS, REFS, SAMPLE_SOURCE, SAMPLE_DOCIDS)
    set_id = id_of(expected)
    assert out == [
        f"saved {set_id}  sample  (126 segments, 3 systems, 2 references)",
        f"link: /?set={set_id}",
    ]
    assert Workspace.open(ws).load(set_id) == expected


def test_the_same_files_twice_give_the_same_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = str(tmp_path)
    first = run_json(capsys, "add", "--workspace", ws, *FULL, "--hyp", *HYPS, "-f", "json")
    again = run_json(capsys, "add", "--workspace", ws, *FULL, "--hyp", *HYPS, "-f", "json")
    assert first == again
    assert first["name"] == "ref.A.en" and first["link"] == f"/?set={first['id']}"
    listed = run_json(capsys, "list", "--workspace", ws, "-f", "json")
    assert [s["id"] for s in listed["testsets"]] == [first["id"]]


def test_add_to_a_saved_set_keeps_its_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = str(tmp_path)
    first = run_json(capsys, "add", "--workspace", ws, *FULL, "--hyp", HYPS[0], "-f", "json")
    added = run_json(
        capsys, "add", "--workspace", ws, "--set", first["id"], "--hyp", *HYPS[1:],
        "--seg-scores", str(COMET_SCORES), "-f", "json",
    )  # fmt: skip
    assert added["id"] == first["id"] and added["name"] == first["name"]
    assert added["systems"] == ["literal", "terse", "repeat"]
    loaded = Workspace.open(ws).load(first["id"])
    assert loaded.systems == load_paths(HYPS, REFS).systems
    assert loaded.seg_score("COMET-test").values.keys() == {"literal", "terse", "repeat"}
    renamed = run_json(
        capsys, "add", "--workspace", ws, "--set", first["id"], "--hyp", HYPS[2],
        "--name", "renamed", "-f", "json",
    )  # fmt: skip
    assert renamed["name"] == "renamed" and renamed["id"] == first["id"]


def test_list_text_columns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = str(tmp_path)
    assert main(["list", "--workspace", ws]) == 0
    assert capsys.readouterr().out == f"no test sets in workspace {tmp_path}\n"
    saved = run_json(capsys, "add", "--workspace", ws, *FULL, "--hyp", *HYPS, "-f", "json")
    assert main(["list", "--workspace", ws]) == 0
    header, row = capsys.readouterr().out.splitlines()
    assert header.split() == ["id", "name", "segments", "systems", "refs", "added"]
    assert row.split() == [saved["id"], "ref.A.en", "126", "3", "2", saved["added"]]


def test_the_environment_names_the_workspace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BLEUVIZ_WORKSPACE", str(tmp_path / "env"))
    saved = run_json(capsys, "add", *FULL, "--hyp", HYPS[0], "-f", "json")
    assert Workspace.open(tmp_path / "env").get(saved["id"]).name == "ref.A.en"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_refusals_are_one_line_and_change_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = str(tmp_path)
    saved = run_json(capsys, "add", "--workspace", ws, *FULL, "--hyp", HYPS[0], "-f", "json")
    before = _digest(tmp_path / DB_NAME)
    err = refused(capsys, "add", "--workspace", ws, "--set", "feedbeef", "--hyp", HYPS[1])
    assert f"set=feedbeef: no such test set in workspace {tmp_path}" in err
    err = refused(capsys, "add", "--workspace", ws, "--set", saved["id"], "--hyp", REFS[0], "x")
    assert err == "bleuviz: error: no such file: x\n"
    err = refused(
        capsys, "add", "--workspace", ws, "--set", saved["id"], "--hyp", str(COMET_SCORES)
    )
    assert f"but test set {saved['id']} has 126 segments" in err
    err = refused(capsys, "add", "--workspace", ws, "--set", saved["id"], "--ref", REFS[0],
                  "--hyp", HYPS[1])  # fmt: skip
    assert "--set: --ref cannot be changed" in err
    err = refused(capsys, "add", "--workspace", ws, "--ref", REFS[0], "--hyp", str(SAMPLE_DOCIDS),
                  HYPS[0], "--seg-scores", str(tmp_path / "missing.seg.score"))  # fmt: skip
    assert "missing.seg.score" in err
    assert _digest(tmp_path / DB_NAME) == before


def test_bad_workspaces_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corrupt = tmp_path / "corrupt"
    corrupt.mkdir()
    (corrupt / DB_NAME).write_bytes(b"garbage" * 1000)
    err = refused(capsys, "list", "--workspace", str(corrupt))
    assert "the database is corrupt or not SQLite" in err
    newer = tmp_path / "newer"
    Workspace.open(newer)
    with sqlite3.connect(newer / DB_NAME) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    err = refused(capsys, "add", "--workspace", str(newer), "--ref", REFS[0], "--hyp", HYPS[0])
    assert f"written by a newer bleuviz (schema {SCHEMA_VERSION + 1}" in err
    (tmp_path / "file").write_text("x")
    assert "not a folder" in refused(capsys, "list", "--workspace", str(tmp_path / "file"))


def test_python_m_bleuviz_add_runs(tmp_path: Path) -> None:
    """The real entry point, standard input as the system output."""
    argv = [sys.executable, "-m", "bleuviz", "add", "--workspace", str(tmp_path)]
    argv += ["--ref", REFS[0], "--hyp", "-", "--name", "from stdin"]
    done = subprocess.run(
        argv, input=SAMPLE_HYPS[0].read_bytes(), capture_output=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().splitlines()[1].startswith("link: /?set=")
    (saved,) = Workspace.open(tmp_path).testsets()
    assert saved.systems == ("stdin",) and saved.name == "from stdin"


@pytest.mark.parametrize(
    "command",
    [
        ["score", "--sentence-level"],
        ["compare", "--paired-bs", "50", "--seed", "3"],
        ["correlate", "--human", "human"],
    ],
)
def test_other_commands_read_a_saved_set_as_they_read_the_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    ws = str(tmp_path)
    files = [*FULL, "--hyp", *HYPS, "--seg-scores", str(COMET_SCORES), str(HUMAN_SCORES)]
    saved = run_json(capsys, "add", "--workspace", ws, *files, "-f", "json")
    from_files = run_json(capsys, *command, *files, "-f", "json")
    from_set = run_json(capsys, *command, "--set", saved["id"], "--workspace", ws, "-f", "json")
    if command[0] == "score":  # a system's path is its file, or its name in a saved set
        for system in from_files["systems"]:
            system.pop("path")
        for system in from_set["systems"]:
            assert system.pop("path") == system["name"]
    assert from_set == from_files


def test_a_saved_set_refuses_files_and_compare_needs_two_systems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = str(tmp_path)
    saved = run_json(capsys, "add", "--workspace", ws, *FULL, "--hyp", HYPS[0], "-f", "json")
    at = ["--set", saved["id"], "--workspace", ws]
    err = refused(capsys, "score", *at, "--ref", REFS[0])
    assert "--set: --ref cannot be given with a saved test set" in err
    err = refused(capsys, "compare", *at)
    assert f"--set: test set {saved['id']} has one system; compare needs two" in err
    assert "set=nope: no such test set" in refused(
        capsys, "score", "--set", "nope", "--workspace", ws
    )
    assert "--hyp: give the system outputs, or --set ID" in refused(
        capsys, "score", "--ref", REFS[0]
    )


def test_add_refuses_other_lines_under_a_saved_name_unless_replace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = str(tmp_path / "ws")
    first = run_json(capsys, "add", "--workspace", ws, *FULL, "--hyp", HYPS[0], "-f", "json")
    other = tmp_path / Path(HYPS[0]).name  # the same file name: the same system name
    other.write_text(Path(HYPS[1]).read_text(encoding="utf-8"), encoding="utf-8")
    before = _digest(Path(ws) / DB_NAME)
    for argv in (["--set", first["id"], "--hyp", str(other)], [*FULL, "--hyp", str(other)]):
        err = refused(capsys, "add", "--workspace", ws, *argv)
        assert f"test set 'ref.A.en' ({first['id']}): system 'literal' saved with other" in err
        assert "--replace" in err
        assert _digest(Path(ws) / DB_NAME) == before
    replaced = run_json(
        capsys, "add", "--workspace", ws, "--set", first["id"], "--hyp", str(other),
        "--replace", "-f", "json",
    )  # fmt: skip
    assert replaced["systems"] == ["literal"]
    workspace = Workspace.open(ws)
    assert (
        workspace.load(first["id"]).systems["literal"]
        == load_paths([HYPS[1]], REFS).systems["terse"]
    )
    assert [e.system for e in workspace.earlier_outputs(first["id"])] == ["literal"]


def test_a_deleted_set_is_listed_in_the_trash_and_restored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = str(tmp_path / "ws")
    added = run_json(capsys, "add", "--workspace", ws, *FULL, "--hyp", *HYPS, "-f", "json")
    workspace = Workspace.open(ws)
    workspace.save_note(added["id"], "terse", 0, "a finding", "style", author="ann")
    workspace.delete(added["id"])
    assert run_json(capsys, "list", "--workspace", ws, "-f", "json")["testsets"] == []
    (trashed,) = run_json(capsys, "list", "--workspace", ws, "--trash", "-f", "json")["trash"]
    assert trashed["id"] == added["id"] and "deleted" in trashed
    assert main(["list", "--workspace", ws, "--trash"]) == 0
    header, row = capsys.readouterr().out.splitlines()
    assert header.split() == ["id", "name", "segments", "systems", "refs", "added", "deleted"]
    assert row.startswith(added["id"])
    err = refused(capsys, "notes", "--workspace", ws, "--set", added["id"])
    assert f"bleuviz restore {added['id']}" in err
    restored = run_json(capsys, "restore", added["id"], "--workspace", ws, "-f", "json")
    assert {k: v for k, v in restored.items() if k != "deleted"} == added
    assert main(["notes", "--workspace", ws, "--set", added["id"]]) == 0
    assert capsys.readouterr().out == workspace.notes_tsv(added["id"])
    err = refused(capsys, "restore", added["id"], "--workspace", ws)
    assert "no such test set in the trash of" in err


def test_notes_prints_every_revision_on_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = str(tmp_path / "ws")
    added = run_json(capsys, "add", "--workspace", ws, *FULL, "--hyp", *HYPS, "-f", "json")
    workspace = Workspace.open(ws)
    for text in ("first", "second"):
        workspace.save_note(added["id"], "terse", 0, text, "style")
    assert main(["notes", "--workspace", ws, "--set", added["id"], "--revisions"]) == 0
    out = capsys.readouterr().out
    assert out == workspace.notes_tsv(added["id"], revisions=True)
    assert [line.split("\t")[-1] for line in out.splitlines()[1:]] == ["first", "second"]


def test_an_earlier_output_is_listed_and_restored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = str(tmp_path / "ws")
    first = run_json(capsys, "add", "--workspace", ws, *FULL, "--hyp", HYPS[0], "-f", "json")
    workspace = Workspace.open(ws)
    workspace.save_note(first["id"], "literal", 0, "on the first output", "style")
    other = tmp_path / Path(HYPS[0]).name
    other.write_text(Path(HYPS[1]).read_text(encoding="utf-8"), encoding="utf-8")
    at = ["--workspace", ws, "-f", "json"]
    run_json(capsys, "add", "--set", first["id"], "--hyp", str(other), "--replace", *at)
    (listed,) = run_json(capsys, "list", *at)["testsets"]
    (earlier,) = listed["earlier_outputs"]
    assert (earlier["system"], earlier["version"]) == ("literal", 1)
    assert workspace.note(first["id"], "literal", 0).on_earlier_output  # type: ignore[union-attr]
    run_json(capsys, "restore", first["id"], "--system", "literal", "--version", "1", *at)
    literal = load_paths([HYPS[0]], REFS).systems["literal"]
    assert workspace.load(first["id"]).systems["literal"] == literal
    assert not workspace.note(first["id"], "literal", 0).on_earlier_output  # type: ignore[union-attr]
    assert [e.version for e in workspace.earlier_outputs(first["id"])] == [1, 2]
    err = refused(capsys, "restore", first["id"], "--system", "literal", "--version", "9", *at)
    assert "system 'literal' of test set" in err and "no earlier version 9" in err
    err = refused(capsys, "restore", first["id"], "--system", "literal", *at)
    assert "--system and --version: give both" in err


def test_notes_as_json_hold_the_tsvs_fields_typed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``notes -f json``: the TSV's columns as keys; numbers, spans and no severity typed."""
    ws = str(tmp_path / "ws")
    added = run_json(capsys, "add", "--workspace", ws, *FULL, "--hyp", *HYPS, "-f", "json")
    workspace = Workspace.open(ws)
    workspace.save_note(added["id"], "terse", 0, "argues?\ttoo", "style", author="ann",
                        severity="major", span=(13, 19))  # fmt: skip
    workspace.save_note(added["id"], "literal", 2, "fine", "other")
    document = run_json(capsys, "notes", "--workspace", ws, "--set", added["id"], "-f", "json")
    assert document["set"] == added["id"] and document["revisions"] is False
    notes = {(n["system"], n["segment"]): n for n in document["notes"]}
    assert list(notes) == [(n.system, n.segment + 1) for n in workspace.notes(added["id"])]
    assert all(list(n) == list(NOTES_TSV_HEADER) for n in document["notes"])
    terse, literal = notes[("terse", 1)], notes[("literal", 3)]
    assert (terse["span"], terse["severity"], terse["author"]) == ([13, 19], "major", "ann")
    assert terse["note"] == "argues?\ttoo" and terse["seg_id"] == "1"
    assert (literal["span"], literal["severity"], literal["output"]) == (None, None, "current")


def test_notes_as_json_with_every_revision(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = str(tmp_path / "ws")
    added = run_json(capsys, "add", "--workspace", ws, *FULL, "--hyp", *HYPS, "-f", "json")
    workspace = Workspace.open(ws)
    for text in ("first", "second"):
        workspace.save_note(added["id"], "terse", 0, text, "style")
    workspace.delete_note(added["id"], "terse", 0)
    argv = ["notes", "--workspace", ws, "--set", added["id"], "-f", "json", "--revisions"]
    revisions = run_json(capsys, *argv)["notes"]
    assert [(r["revision"], r["state"], r["note"]) for r in revisions] == [
        (1, "earlier", "first"),
        (2, "earlier", "second"),
        (3, "deleted", "second"),
    ]
    assert list(revisions[0]) == [*NOTES_TSV_HEADER[:-1], *REVISION_COLUMNS, "note"]
