"""Time saving and loading a large test set in the workspace, against one row per segment.

Builds a test set of ``--segments`` segments (default 100,000) and ``--systems``
systems (default 9) from the WMT17 en-de files in ``--data`` (each file's lines
repeated up to the size asked for; the segment number is prefixed to every line
so no two segments are equal), or from seeded synthetic text if the folder is
missing. Then prints, one line each, in the same run:

* ``save_testset`` into a new workspace (one compressed BLOB per
  stream, ``bleuviz.workspace.codec``), saving the same set again (a no-op),
  ``load``, ``add_system`` of one more output, and the database's size;
* the alternative the schema did not take, one row per segment per stream
  (``(set_id, stream, segment, line)`` in a WITHOUT ROWID table), written and
  read back in one transaction each, and its file size, with the ratios.

Target (issue 14): a 100k-segment x 9-system set saves and loads in a few seconds.

Usage::

    python benchmarks/bench_workspace.py [--segments 100000] [--systems 9]
                                         [--data /work/shared/data/wmt17-en-de]
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bleuviz.io.testset import TestSet
from bleuviz.workspace import DB_NAME, Workspace

T = TypeVar("T")
DEFAULT_DATA = Path("/work/shared/data/wmt17-en-de")


def repeated(lines: list[str], n: int) -> tuple[str, ...]:
    """``lines`` repeated up to ``n``, each prefixed with its segment number."""
    return tuple(f"{i} {lines[i % len(lines)]}" for i in range(n))


def synthetic(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    vocab = [f"w{k}" for k in range(5000)]
    return [" ".join(rng.choices(vocab, k=25)) for _ in range(min(n, 5000))]


def build(n: int, n_systems: int, data: Path) -> TestSet:
    """The test set: one reference, source, and ``n_systems`` outputs."""
    hyps = sorted(data.glob("hyp.*")) if data.is_dir() else []
    if len(hyps) >= n_systems + 1 and (data / "ref.de.txt").exists():
        read = [p.read_text(encoding="utf-8").splitlines() for p in hyps[: n_systems + 1]]
        ref = (data / "ref.de.txt").read_text(encoding="utf-8").splitlines()
        systems = {p.name: repeated(lines, n) for p, lines in zip(hyps, read[1:], strict=False)}
        return TestSet(systems, (repeated(ref, n),), source=repeated(read[0], n))
    systems = {f"sys{k}": repeated(synthetic(n, k), n) for k in range(n_systems)}
    return TestSet(systems, (repeated(synthetic(n, 99), n),), source=repeated(synthetic(n, 98), n))


def timed(fn: Callable[[], T]) -> tuple[float, T]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def rows_alternative(folder: Path, testset: TestSet) -> tuple[float, float, int]:
    """Write and read the streams as one row per segment; return (save s, load s, bytes)."""
    path = folder / "rows.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(
        "CREATE TABLE lines (set_id TEXT, stream TEXT, segment INTEGER, line TEXT, "
        "PRIMARY KEY (set_id, stream, segment)) WITHOUT ROWID"
    )
    streams = {"ref": testset.references[0], "src": testset.source or (), **testset.systems}

    def save() -> None:
        conn.execute("BEGIN IMMEDIATE")
        for name, lines in streams.items():
            conn.executemany(
                "INSERT INTO lines VALUES ('x', ?, ?, ?)",
                ((name, i, line) for i, line in enumerate(lines)),
            )
        conn.execute("COMMIT")

    def load() -> dict[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {}
        for name, line in conn.execute(
            "SELECT stream, line FROM lines WHERE set_id = 'x' ORDER BY stream, segment"
        ):
            out.setdefault(name, []).append(line)
        return {k: tuple(v) for k, v in out.items()}

    save_s, _ = timed(save)
    load_s, loaded = timed(load)
    assert loaded["ref"] == testset.references[0]
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return save_s, load_s, path.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--segments", type=int, default=100_000)
    parser.add_argument("--systems", type=int, default=9)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    testset = build(args.segments, args.systems, args.data)
    n_chars = sum(len(s) for lines in testset.systems.values() for s in lines)
    print(
        f"test set: {testset.n_segments:,} segments x {len(testset.systems)} systems "
        f"+ reference + source ({n_chars / 1e6:.1f} M characters of outputs)"
    )
    with tempfile.TemporaryDirectory() as folder:
        workspace = Workspace.open(folder)
        save_s, saved = timed(lambda: workspace.save_testset(testset, "bench"))
        again_s, _ = timed(lambda: workspace.save_testset(testset, "bench"))
        load_s, loaded = timed(lambda: workspace.load(saved.id))
        assert loaded == testset
        extra = tuple(line.upper() for line in testset.references[0])
        add_s, _ = timed(lambda: workspace.add_system(saved.id, "extra", extra))
        size = (Path(folder) / DB_NAME).stat().st_size
        print(f"workspace save (new set):      {save_s:6.2f} s   (target: a few seconds)")
        print(f"workspace save (same again):   {again_s:6.2f} s")
        print(f"workspace load:                {load_s:6.2f} s   (target: a few seconds)")
        print(f"workspace add_system:          {add_s:6.2f} s")
        print(f"workspace file:                {size / 2**20:6.1f} MiB (before add_system: less)")
        rows_save, rows_load, rows_size = rows_alternative(Path(folder), testset)
        print(
            f"one row per segment: save {rows_save:.2f} s ({rows_save / save_s:.1f}x the BLOBs), "
            f"load {rows_load:.2f} s ({rows_load / load_s:.1f}x), "
            f"{rows_size / 2**20:.1f} MiB ({rows_size / size:.1f}x)"
        )


if __name__ == "__main__":
    main()
