"""Faults on one workspace: writers at once (notes, adds, deletes), and ``kill -9`` during saves.

Nothing is timed: processes meet on the workspace's write lock, and the
killed writer is killed as soon as it says a save has begun. The oracle is
what each writer was told (saved, or refused with which error) against what
the workspace holds afterwards, plus SQLite's ``PRAGMA integrity_check``.
"""

from __future__ import annotations

import itertools
import multiprocessing
import signal
import sqlite3
import subprocess
import sys
from multiprocessing.queues import Queue
from pathlib import Path

from bleuviz.errors import UnknownTestSet
from bleuviz.io.testset import TestSet
from bleuviz.workspace import DB_NAME, NoteChanged, OutputChanged, Workspace
from tests.workspace.conftest import assert_same_testset, sample_testset

ROOT = Path(__file__).resolve().parents[2]
WRITERS = 4
ROUNDS = 10
CONTEXT = multiprocessing.get_context("fork")  # no connection is open to inherit


def _run(target: object, args_of: list[tuple[object, ...]]) -> None:
    processes = [CONTEXT.Process(target=target, args=args) for args in args_of]  # type: ignore[arg-type]
    for p in processes:
        p.start()
    for p in processes:
        p.join()
    assert [p.exitcode for p in processes] == [0] * len(processes)


def _edit_one_note(folder: str, set_id: str, writer: int, out: Queue[tuple[str, int]]) -> None:
    """An editor: load the note, save over the revision loaded; reload when refused."""
    workspace = Workspace.open(folder)
    for k in range(ROUNDS):
        text = f"writer {writer} edit {k}"
        while True:
            loaded = workspace.note(set_id, "terse", 0)
            try:
                note = workspace.save_note(
                    set_id, "terse", 0, text, "style", author=f"w{writer}",
                    expected_revision=loaded.revision if loaded else 0,
                )  # fmt: skip
            except NoteChanged:
                continue
            out.put((text, note.revision))
            break


def test_editors_of_one_note_never_lose_a_save(tmp_path: Path) -> None:
    workspace = Workspace.open(tmp_path)
    set_id = workspace.save_testset(sample_testset(), "sample").id
    out: Queue[tuple[str, int]] = CONTEXT.Queue()
    _run(_edit_one_note, [(str(tmp_path), set_id, w, out) for w in range(WRITERS)])
    saved = dict(out.get() for _ in range(WRITERS * ROUNDS))
    history = workspace.note_history(set_id, "terse", 0)
    assert [h.revision for h in history] == list(range(1, WRITERS * ROUNDS + 1))
    assert {h.text: h.revision for h in history} == saved  # every save, at its revision
    assert workspace.note(set_id, "terse", 0) == history[-1]


def _add_output(folder: str, set_id: str, writer: int, replace: bool, out: Queue[str]) -> None:
    workspace = Workspace.open(folder)
    n = workspace.get(set_id).n_segments
    workspace.add_system(set_id, f"own {writer}", [f"own {writer}"] * n)
    try:
        workspace.add_system(set_id, "shared", [f"by {writer}"] * n, replace=replace)
    except OutputChanged as exc:
        assert exc.systems == ("shared",)
        out.put("refused")
        return
    out.put(f"by {writer}")


def test_writers_adding_one_name_at_once_one_wins_unless_replace(tmp_path: Path) -> None:
    workspace = Workspace.open(tmp_path)
    set_id = workspace.save_testset(sample_testset(scores=False), "sample").id
    for replace in (False, True):
        out: Queue[str] = CONTEXT.Queue()
        _run(_add_output, [(str(tmp_path), set_id, w, replace, out) for w in range(WRITERS)])
        told = sorted(out.get() for _ in range(WRITERS))
        current = workspace.load(set_id).systems
        assert all(f"own {w}" in current for w in range(WRITERS))
        if not replace:  # the first writer saved "shared"; the others were refused
            assert told.count("refused") == WRITERS - 1
            assert (current["shared"][0],) == tuple(t for t in told if t != "refused")
            continue
        earlier = [e for e in workspace.earlier_outputs(set_id) if e.system == "shared"]
        kept = [workspace.earlier_lines(set_id, "shared", e.version)[0] for e in earlier]
        outputs = [*kept, current["shared"][0]]  # oldest first
        assert set(outputs) == {f"by {w}" for w in range(WRITERS)}  # none lost
        # Each replace that changed the lines kept the old ones: the first round's winner
        # saving its own lines again, if it came first, was a no-op.
        assert len(outputs) in (WRITERS, WRITERS + 1)
        assert all(a != b for a, b in itertools.pairwise(outputs))


def _note_while_deleted(folder: str, set_id: str, writer: int, out: Queue[str]) -> None:
    workspace = Workspace.open(folder)
    for k in range(ROUNDS):
        segment = writer * ROUNDS + k
        try:
            workspace.save_note(set_id, "literal", segment, f"{writer}/{k}", "style")
        except UnknownTestSet:
            out.put("gone")
            continue
        out.put(f"{writer}/{k}")
    if writer == 0:
        workspace.delete(set_id)


def test_a_set_deleted_while_notes_are_written_keeps_every_saved_note(tmp_path: Path) -> None:
    workspace = Workspace.open(tmp_path)
    set_id = workspace.save_testset(sample_testset(), "sample").id
    out: Queue[str] = CONTEXT.Queue()
    _run(_note_while_deleted, [(str(tmp_path), set_id, w, out) for w in range(WRITERS)])
    told = [out.get() for _ in range(WRITERS * ROUNDS)]
    assert [s.id for s in workspace.trash()] == [set_id]
    workspace.restore(set_id)
    assert sorted(n.text for n in workspace.notes(set_id)) == sorted(t for t in told if t != "gone")


#: A writer that saves test set k (k = 0, 1, ...) and a note on it, saying when each begins.
KILLED_WRITER = """
import sys
from bleuviz.io.testset import TestSet
from bleuviz.workspace import Workspace
workspace = Workspace.open(sys.argv[1])
for k in range(1000):
    lines = tuple(f"set {k} line {i} " + "word " * (i % 40) for i in range(4000))
    testset = TestSet(systems={"a": lines[::-1], "b": lines[1:] + lines[:1]}, references=(lines,))
    print(f"begin {k}", flush=True)
    saved = workspace.save_testset(testset, f"set {k}")
    workspace.save_note(saved.id, "a", k, f"note {k}", "style")
    print(f"saved {k}", flush=True)
"""


def _expected_set(k: int) -> TestSet:
    lines = tuple(f"set {k} line {i} " + "word " * (i % 40) for i in range(4000))
    return TestSet(systems={"a": lines[::-1], "b": lines[1:] + lines[:1]}, references=(lines,))


def test_kill_9_during_saves_leaves_whole_sets_only(tmp_path: Path) -> None:
    """Killed as a save begins, again and again: every set listed is whole, none half saved."""
    folder = tmp_path / "ws"
    for kill_after in range(6):  # the first kill during the first save, then later ones
        writer = subprocess.Popen(
            [sys.executable, "-c", KILLED_WRITER, str(folder)],
            stdout=subprocess.PIPE, text=True, cwd=ROOT,
        )  # fmt: skip
        assert writer.stdout is not None
        begun = 0
        for line in writer.stdout:
            if line.startswith("begin") and (begun := begun + 1) > kill_after:
                writer.send_signal(signal.SIGKILL)
                break
        writer.wait()
        assert writer.returncode == -signal.SIGKILL
        workspace = Workspace.open(folder)
        with sqlite3.connect(folder / DB_NAME) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        conn.close()
        for saved in workspace.testsets():
            k = int(saved.name.removeprefix("set "))
            assert_same_testset(workspace.load(saved.id), _expected_set(k))
            assert [n.text for n in workspace.notes(saved.id)] in ([], [f"note {k}"])


def test_adds_replacing_other_systems_at_once_keep_every_new_output(tmp_path: Path) -> None:
    """``bleuviz add --set ID --hyp X --replace`` run at once for each system: none undone.

    Each run used to load the set, then save every system it had read: a run that
    read before another saved put that system's old lines back (issue 44, item 23).
    """
    folder = tmp_path / "ws"
    workspace = Workspace.open(folder)
    set_id = workspace.save_testset(sample_testset(scores=False), "sample").id
    systems = workspace.get(set_id).systems
    n = workspace.get(set_id).n_segments
    for trial in range(4):
        new = {s: [f"trial {trial} {s} line {i}" for i in range(n)] for s in systems}
        runs = []
        for system, lines in new.items():
            hyp = tmp_path / f"{trial}" / f"hyp.{system}.txt"
            hyp.parent.mkdir(exist_ok=True)
            hyp.write_text("\n".join(lines) + "\n", encoding="utf-8")
            argv = ["add", "--workspace", str(folder), "--set", set_id, "--hyp", str(hyp)]
            runs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "bleuviz", *argv, "--replace"],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                    cwd=ROOT,
                )
            )
        for run in runs:
            _, err = run.communicate()
            assert run.returncode == 0, err
        saved = workspace.load(set_id).systems
        assert {s: list(saved[s]) for s in systems} == new, f"trial {trial}"
        versions = [e.system for e in workspace.earlier_outputs(set_id)]
        assert sorted(versions) == sorted(list(systems) * (trial + 1))  # one replace each
