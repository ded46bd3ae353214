"""A workspace that cannot be written is read; a full disk is named and leaves nothing half saved.

Read-only is real here, not mocked: the commands run in a subprocess without
write permission on the folder. As root, chmod alone does not stop writing, so
the subprocess drops the capabilities that let root ignore file permissions
(``setpriv --bounding-set=-dac_override,-dac_read_search``); SQLite then meets
the folder as any user does (SQLITE_READONLY_DIRECTORY). A full disk is a tiny
tmpfs where the machine lets the test mount one, and is always simulated at
the SQLite layer too (``PRAGMA max_page_count`` caps the database's size).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from random import Random

import pytest
import sacrebleu

from bleuviz.errors import WorkspaceError
from bleuviz.io.load import load_paths
from bleuviz.workspace import DB_NAME, Workspace, base
from bleuviz.workspace.connection import describe
from bleuviz.workspace.schema import CREATE
from tests.data import SAMPLE_HYPS, SAMPLE_REFS
from tests.workspace.conftest import assert_same_testset, sample_testset

ROOT = Path(__file__).resolve().parents[2]
NO_OVERRIDE = ["--bounding-set=-dac_override,-dac_read_search"]


def _unprivileged() -> list[str] | None:
    """The command prefix that makes file permissions bind (None: this machine cannot)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    probe = subprocess.run([setpriv, *NO_OVERRIDE, "true"], capture_output=True, check=False)
    return [setpriv, *NO_OVERRIDE] if probe.returncode == 0 else None


PREFIX = _unprivileged()
needs_permissions = pytest.mark.skipif(
    PREFIX is None, reason="running as root without setpriv: permissions cannot be made to bind"
)


def bleuviz(*argv: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m bleuviz`` where file permissions bind (its output as written: CRLF kept)."""
    assert PREFIX is not None
    command = [*PREFIX, sys.executable, "-m", "bleuviz", *argv]
    done = subprocess.run(command, capture_output=True, cwd=ROOT, check=False)
    out, err = done.stdout.decode(), done.stderr.decode()
    return subprocess.CompletedProcess(done.args, done.returncode, out, err)


@contextlib.contextmanager
def unwritable(folder: Path) -> Iterator[None]:
    """Take write permission off the folder and its database for the block."""
    files = [folder, *folder.iterdir()]
    for path in files:
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        yield
    finally:
        for path in files:
            path.chmod(0o755 if path.is_dir() else 0o644)


@pytest.fixture
def saved(tmp_path: Path) -> tuple[Path, str]:
    """A workspace (closed cleanly: no -wal left) with the sample and a note."""
    folder = tmp_path / "ws"
    workspace = Workspace.open(folder)
    set_id = workspace.save_testset(load_paths(SAMPLE_HYPS, SAMPLE_REFS), "sample").id
    workspace.save_note(set_id, "terse", 2, "drops the verb", "omission", author="ann")
    return folder, set_id


@needs_permissions
def test_every_reading_command_works_in_a_folder_that_cannot_be_written(
    saved: tuple[Path, str],
) -> None:
    folder, set_id = saved
    notes = Workspace.open(folder).notes_tsv(set_id, revisions=True)
    with unwritable(folder):
        listed = bleuviz("list", "--workspace", str(folder), "-f", "json")
        assert listed.returncode == 0, listed.stderr
        assert [s["id"] for s in json.loads(listed.stdout)["testsets"]] == [set_id]
        scored = bleuviz("score", "--set", set_id, "--workspace", str(folder), "-f", "json")
        assert scored.returncode == 0, scored.stderr
        exported = bleuviz("notes", "--set", set_id, "--workspace", str(folder), "--revisions")
        assert exported.returncode == 0, exported.stderr
        added = bleuviz(
            "add", "--set", set_id, "--workspace", str(folder), "--hyp", str(SAMPLE_HYPS[0])
        )
        after = sorted(p.name for p in folder.iterdir())
    assert exported.stdout == notes
    refs = [p.read_text(encoding="utf-8").splitlines() for p in SAMPLE_REFS]
    for system in json.loads(scored.stdout)["systems"]:
        hyp = next(p for p in SAMPLE_HYPS if p.name == f"hyp.{system['name']}.en")
        expected = sacrebleu.corpus_bleu(hyp.read_text(encoding="utf-8").splitlines(), refs)
        assert system["bleu"] == pytest.approx(expected.score)
    assert added.returncode == 2 and added.stderr.count("\n") == 1
    assert added.stderr == (
        f"bleuviz: error: workspace {folder} is read-only (its folder cannot be written): "
        "nothing can be saved\n"
    )
    assert after == [DB_NAME]  # no -wal or -shm was left behind


@needs_permissions
def test_changes_a_writer_left_unmerged_are_read_or_named(saved: tuple[Path, str]) -> None:
    """A writer killed before merging its -wal: read through its -shm, else refused."""
    folder, _ = saved
    killed = (
        "import os, sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
        "c.execute('PRAGMA wal_autocheckpoint = 0'); "
        "c.execute(\"UPDATE testsets SET name = 'renamed'\"); c.commit(); os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", killed, str(folder / DB_NAME)], check=True)
    assert (folder / f"{DB_NAME}-wal").stat().st_size > 0
    with unwritable(folder):
        listed = bleuviz("list", "--workspace", str(folder), "-f", "json")
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout)["testsets"][0]["name"] == "renamed"
    (folder / f"{DB_NAME}-shm").unlink()
    with unwritable(folder):
        listed = bleuviz("list", "--workspace", str(folder))
    assert listed.returncode == 2 and listed.stderr.count("\n") == 1, listed.stderr
    assert f"{DB_NAME}-wal, which only a writer can merge" in listed.stderr
    assert Workspace.open(folder).testsets()[0].name == "renamed"  # nothing was lost


#: The owner: replaces system "shared" with lines naming the write, and saves a note, for
#: argv[2] seconds; prints how many writes it made.
OWNER = """
import sys, time
from bleuviz.workspace import Workspace
workspace = Workspace.open(sys.argv[1])
set_id = workspace.testsets()[0].id
n = workspace.get(set_id).n_segments
k, end = 0, time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    k += 1
    lines = [f"write {k} line {i} " * 9 for i in range(n)]
    workspace.add_system(set_id, "shared", lines, replace=True)
    workspace.save_note(set_id, "literal", k % n, f"write {k}", "style")
print(k)
"""

#: A reader that cannot write the folder: opens the workspace anew every 10 reads, reads
#: until the file argv[2] exists, then once more; prints each read's write number (0:
#: before the first) or its error, as JSON.
READER = """
import json, os, sys
from bleuviz.errors import BleuvizError
from bleuviz.workspace import Workspace

def read(workspace):
    set_id = workspace.testsets()[0].id
    shared = workspace.load(set_id).systems.get("shared", ())
    writes = {line.split()[1] for line in shared}
    assert len(writes) <= 1, f"lines of several writes: {sorted(writes)}"
    notes = {n.text for n in workspace.notes(set_id)}
    k = int(writes.pop()) if writes else 0
    assert k == 0 or f"write {k - 1}" in notes or k == 1, f"write {k} without the note before"
    return k

seen, last = [], False
while not last:
    last = os.path.exists(sys.argv[2])
    try:
        if len(seen) % 10 == 0:
            workspace = Workspace.open(sys.argv[1])
        seen.append(read(workspace))
    except (BleuvizError, AssertionError) as e:
        seen.append(str(e))
    if len(seen) == 1:
        print("ready", flush=True)
print(json.dumps(seen))
"""


@needs_permissions
def test_a_reader_sees_whole_saves_while_the_owner_writes(
    saved: tuple[Path, str], tmp_path: Path
) -> None:
    """Issue 44: read as immutable, 38% of reads met "malformed" while the owner wrote."""
    assert PREFIX is not None
    folder, _ = saved
    stop = tmp_path / "stop"
    with unwritable(folder):
        reader = subprocess.Popen(
            [*PREFIX, sys.executable, "-c", READER, str(folder), str(stop)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        )  # fmt: skip
        assert reader.stdout is not None and reader.stdout.readline() == "ready\n"
        owner = [sys.executable, "-c", OWNER, str(folder), "4"]
        wrote = subprocess.run(owner, capture_output=True, text=True, cwd=ROOT, check=False)
        stop.touch()
        out, err = reader.communicate()
    assert wrote.returncode == 0 and reader.returncode == 0, wrote.stderr + err
    writes, seen = int(wrote.stdout), json.loads(out)
    assert [k for k in seen if not isinstance(k, int)] == []  # no error, no torn read
    assert seen == sorted(seen)  # never back to an older state
    assert seen[-1] == writes  # the last save is read once the owner is done
    assert len(set(seen)) > 2  # reads met the owner writing, not only before and after


def test_a_read_only_workspace_says_why_it_cannot_save(
    saved: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, set_id = saved
    monkeypatch.setattr("bleuviz.workspace.opening.os.access", lambda path, mode: False)
    workspace = Workspace.open(folder)
    assert workspace.refusal == (
        f"workspace {folder} is read-only (its folder cannot be written): nothing can be saved"
    )
    assert [s.id for s in workspace.testsets()] == [set_id]
    with pytest.raises(WorkspaceError, match=r"\(its folder cannot be written\)"):
        workspace.save_note(set_id, "terse", 2, "x", "style")


def test_everything_reads_through_snapshots_where_the_folder_cannot_be_written(
    saved: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The path a user without write permission takes, forced here (root may always write).

    The file is never opened in place: its owner may write it meanwhile.
    """
    folder, set_id = saved
    workspace = Workspace.open(folder)
    workspace.add_system(set_id, "terse", ["x"] * 126, replace=True)
    workspace.delete(workspace.save_testset(sample_testset(scores=False), "other").id)
    expected = (
        workspace.testsets(), workspace.trash(), workspace.load(set_id), workspace.notes(set_id),
        workspace.notes_tsv(set_id, revisions=True), workspace.earlier_outputs(set_id),
    )  # fmt: skip
    written_on = workspace.earlier_lines(set_id, "terse", 1)[2]

    def in_place(uri: str, folder: Path) -> None:
        raise AssertionError(f"{uri} opened in place")

    monkeypatch.setattr("bleuviz.workspace.opening.os.access", lambda path, mode: False)
    monkeypatch.setattr("bleuviz.workspace.opening.connect", in_place)
    monkeypatch.setattr("bleuviz.workspace.base.connect", in_place)
    reading = Workspace.open(folder)
    got = (
        reading.testsets(), reading.trash(), reading.load(set_id), reading.notes(set_id),
        reading.notes_tsv(set_id, revisions=True), reading.earlier_outputs(set_id),
    )  # fmt: skip
    assert got == expected
    assert reading.note_written_on(reading.notes(set_id)[0]) == written_on
    with pytest.raises(WorkspaceError, match="read-only"):
        reading.restore(expected[1][0].id)


def test_an_older_read_only_workspace_is_read_from_a_migrated_copy(tmp_path: Path) -> None:
    """A schema-1 file that cannot be written is read all the same; the file is not touched."""
    testset = sample_testset(scores=False)
    made = Workspace.open(tmp_path / "new")
    set_id = made.save_testset(testset, "sample").id
    old = tmp_path / "old"
    old.mkdir()
    with sqlite3.connect(old / DB_NAME) as conn, sqlite3.connect(made.folder / DB_NAME) as new:
        for statement in CREATE:
            conn.execute(statement)
        for table in ("testsets", "streams"):
            found = new.execute(f"SELECT * FROM {table}").fetchall()
            width = len(found[0]) - 2 * (table == "testsets")  # schemas 2, 3 added 2 columns
            marks = ", ".join("?" * width)
            conn.executemany(f"INSERT INTO {table} VALUES ({marks})", [r[:width] for r in found])
        conn.execute("PRAGMA user_version = 1")
    conn.close()
    new.close()
    before = (old / DB_NAME).read_bytes()
    workspace = Workspace.open(old, read_only=True)
    assert_same_testset(workspace.load(set_id), testset)
    assert workspace.notes(set_id) == () and workspace.read_only
    assert (old / DB_NAME).read_bytes() == before


@contextlib.contextmanager
def _capped(monkeypatch: pytest.MonkeyPatch, spare_pages: int) -> Iterator[None]:
    """Every workspace connection may grow its database by ``spare_pages`` pages only."""
    connect = base.connect

    @contextlib.contextmanager
    def small(uri: str, folder: Path) -> Iterator[sqlite3.Connection]:
        with connect(uri, folder) as conn:
            pages = conn.execute("PRAGMA page_count").fetchone()[0]
            conn.execute(f"PRAGMA max_page_count = {pages + spare_pages}")
            yield conn

    monkeypatch.setattr(base, "connect", small)
    yield
    monkeypatch.setattr(base, "connect", connect)


def test_a_full_disk_is_named_and_nothing_is_half_saved(
    saved: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, set_id = saved
    workspace = Workspace.open(folder)
    before = (workspace.testsets(), workspace.notes_tsv(set_id, revisions=True))
    bigger = load_paths(SAMPLE_HYPS, SAMPLE_REFS[:1])  # another set: new streams to write
    current = workspace.load(set_id)
    lines = current.systems["literal"]
    many = {f"copy {k}": tuple(f"{k} {line}" for line in lines) for k in range(40)}
    more = dataclasses.replace(current, systems=current.systems | many)  # into the saved set
    with _capped(monkeypatch, spare_pages=2):
        for save in (
            lambda: workspace.save_testset(bigger, "big"),
            lambda: workspace.save_testset(more, "more systems"),
        ):
            with pytest.raises(WorkspaceError) as caught:
                save()
            message = str(caught.value)
            assert "\n" not in message and "no transaction" not in message
            assert message.startswith(f"workspace {folder}: the disk is full, nothing was saved")
    assert (workspace.testsets(), workspace.notes_tsv(set_id, revisions=True)) == before
    with sqlite3.connect(folder / DB_NAME) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()


@contextlib.contextmanager
def _tiny_filesystem(folder: Path, size: str) -> Iterator[Path]:
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "none", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip("this machine does not let the test mount a small filesystem")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


@pytest.mark.skipif(shutil.which("mount") is None or os.geteuid() != 0, reason="needs mount")
def test_add_on_a_really_full_disk_is_one_line_naming_it(tmp_path: Path) -> None:
    with _tiny_filesystem(tmp_path / "small", "256k") as small:
        ws = small / "ws"
        argv = [sys.executable, "-m", "bleuviz", "add", "--workspace", str(ws)]
        random = Random(7)  # lines that do not compress: the file outgrows the filesystem
        lines = [f"{random.getrandbits(800):0200x}" for _ in range(3000)]
        (tmp_path / "ref.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        (tmp_path / "hyp.big.txt").write_text("\n".join(lines[::-1]) + "\n", encoding="utf-8")
        argv += ["--ref", str(tmp_path / "ref.txt"), "--hyp", str(tmp_path / "hyp.big.txt")]
        done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, check=False)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert done.stderr.startswith(
            f"bleuviz: error: workspace {ws}: the disk is full, nothing was saved"
        )
        workspace = Workspace.open(ws)
        assert workspace.testsets() == ()
        with sqlite3.connect(ws / DB_NAME) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        conn.close()


@pytest.mark.skipif(shutil.which("mount") is None or os.geteuid() != 0, reason="needs mount")
def test_a_disk_without_one_free_block_is_named_full(tmp_path: Path) -> None:
    """Issue 44, item 31: at 100 % SQLite says "disk I/O error" (growing its WAL index),
    not SQLITE_FULL; the message names the full disk all the same."""
    with _tiny_filesystem(tmp_path / "small", "2m") as small:
        ws = small / "ws"
        base_argv = [sys.executable, "-m", "bleuviz", "add", "--workspace", str(ws)]
        ref = ["--ref", str(SAMPLE_REFS[0])]
        first = subprocess.run([*base_argv, *ref, "--hyp", str(SAMPLE_HYPS[0])], cwd=ROOT)
        assert first.returncode == 0
        with contextlib.suppress(OSError), (small / "filler").open("wb", buffering=0) as filler:
            while True:  # every block, to the last one (ENOSPC ends it)
                filler.write(b"\0" * 4096)
        assert shutil.disk_usage(small).free == 0
        argv = [*base_argv, *ref, "--hyp", str(SAMPLE_HYPS[1])]
        done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, check=False)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert done.stderr.startswith(
            f"bleuviz: error: workspace {ws}: the disk is full, nothing was saved"
        )


def test_an_io_error_with_no_space_left_is_a_full_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where no small filesystem can be mounted: SQLite's SQLITE_IOERR_SHMSIZE, as there."""
    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorcode = sqlite3.SQLITE_IOERR_SHMSIZE  # type: ignore[attr-defined]
    usage = shutil.disk_usage(tmp_path)
    assert describe(error, tmp_path).startswith(
        f"workspace {tmp_path}: the disk could not be read or written"
    )
    monkeypatch.setattr(shutil, "disk_usage", lambda _: usage._replace(free=0))
    assert describe(error, tmp_path) == (
        f"workspace {tmp_path}: the disk is full, nothing was saved (disk I/O error)"
    )
