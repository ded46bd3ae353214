"""Score N synthetic segments x 1 reference on Dask: throughput, memory, scheduler overhead.

Generates (once, kept in ``--data``) a seeded synthetic test set: a reference of
N lines drawn from a Zipf-like vocabulary of 20,000 words (5 to 45 words a
line) and a hypothesis that keeps about 75% of each line's words, replaces
some and drops others. Plain files by default, or one Parquet table
(``--format parquet``). Then times, ``--repeats`` times each, the user's commands:

* ``bleuviz score -r REF -i HYP`` on one machine (``--max-bytes`` raised: the
  files are over the default cap);
* ``bleuviz score ... --dask local:1`` and ``--dask local:2``;
* ``--dask local:2 --sentence-out DIR`` (the client's memory while every
  segment's score is written).

Each run's stdout must equal the one-machine command's (else the script stops).
Memory: every process of the command's tree is sampled every 50 ms for its own
high-water mark (``VmHWM`` in /proc, which also covers a peak between two
samples); "client" is the command's process, "worker" the largest of its
worker processes. Then, in this process, the scheduler's cost per partition:
a ``LocalCluster(2)`` runs ``--overhead-tasks`` empty partitions through the
same task (``run_partition``: its descriptor and job pickled, scheduled, run,
its result gathered), and the time the client takes to plan (count lines) is
measured on the files. From these, a projection for 100M segments on 32 workers.

Medians are printed with their range (min-max). The machine may be shared:
the CPU seconds of each command are printed beside the wall clock.

Usage::

    python -m benchmarks.bench_dask [--segments 10000000] [--repeats 3]
                                    [--data DIR] [--format plain|parquet]
                                    [--partition-rows N] [--overhead-tasks 2000]
                                    [--only one,local1,local2,sentences,overhead]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
VOCABULARY = 20_000
CHUNK = 200_000
GIB = 1024.0

TARGET_SPEEDUP = 1.7
TARGET_OVERHEAD = 0.15
TARGET_WORKER_MIB = 1024.0
TARGET_CLIENT_MIB = 1024.0


def generate(folder: Path, n: int, fmt: str, seed: int = 13) -> list[str]:
    """Write (or reuse) the synthetic reference and hypothesis (and, for ``parquet``, the
    table of both); return the --ref/--hyp args of ``fmt``."""
    folder.mkdir(parents=True, exist_ok=True)
    ref, hyp = folder / f"ref.{n}.txt", folder / f"hyp.synthetic.{n}.txt"
    table = folder / f"testset.{n}.parquet"
    if not (ref.exists() and hyp.exists()):
        rng = np.random.default_rng(seed)
        words = pa.array([f"w{i}" for i in range(VOCABULARY)])
        with open(ref, "wb") as r, open(hyp, "wb") as h:
            for start in range(0, n, CHUNK):
                ref_lines, hyp_lines = _chunk(rng, words, min(CHUNK, n - start))
                r.write(ref_lines)
                h.write(hyp_lines)
    if fmt == "plain":
        return ["-r", str(ref), "-i", str(hyp)]
    if not table.exists():
        writer = None
        with open(ref, "rb") as r, open(hyp, "rb") as h:
            for refs, hyps in zip(_batches(r), _batches(h), strict=True):
                batch = pa.table({"ref": refs, "hyp.synthetic": hyps})
                writer = writer or pq.ParquetWriter(table, batch.schema)
                writer.write_table(batch, row_group_size=CHUNK)
        if writer is not None:
            writer.close()
    return ["-i", str(table)]


def _chunk(rng: np.random.Generator, words: pa.Array, n: int) -> tuple[bytes, bytes]:
    """``n`` reference lines and their hypotheses, as newline-ended UTF-8."""
    lengths = rng.integers(5, 46, size=n)
    ids = np.minimum(rng.zipf(1.3, size=int(lengths.sum())) - 1, VOCABULARY - 1)
    keep = rng.random(ids.size)
    hyp_ids = np.where(keep < 0.75, ids, rng.integers(0, VOCABULARY, size=ids.size))
    dropped = keep > 0.95
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    hyp_offsets = np.concatenate([[0], np.cumsum(np.add.reduceat(~dropped, offsets[:-1]))])
    return (
        _lines(words, ids, offsets),
        _lines(words, hyp_ids[~dropped], hyp_offsets),
    )


def _lines(words: pa.Array, ids: np.ndarray, offsets: np.ndarray) -> bytes:
    """Join token ids into lines (pyarrow's vectorised join), one per offset pair."""
    tokens = words.take(pa.array(ids))
    lines = pc.binary_join(pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), tokens), " ")
    whole = pc.binary_join(pa.ListArray.from_arrays(pa.array([0, len(lines)]), lines), "\n")
    return whole[0].as_py().encode() + b"\n"


def _batches(f: object) -> object:
    """The lines of a file, ``CHUNK`` at a time, as string arrays."""
    while lines := [line.rstrip(b"\n").decode() for _, line in zip(range(CHUNK), f)]:  # type: ignore[call-overload]  # noqa: B905
        yield pa.array(lines)


@dataclass(frozen=True)
class Run:
    """One command's wall clock, CPU seconds, peak memory (MiB) and output."""

    seconds: float
    cpu: float
    client_mib: float
    worker_mib: float
    stdout: str
    stderr: str


def _hwm_kib(pid: int) -> int:
    """A process's own peak resident memory so far (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            return next((int(s.split()[1]) for s in f if s.startswith("VmHWM:")), 0)
    except OSError:
        return 0


def _descendants(root: int) -> list[int]:
    """Every process below ``root`` now."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    found, todo = [], list(children.get(root, []))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def run(cmd: list[str]) -> Run:
    """Run a command; sample its tree's high-water marks every 50 ms."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, cwd=ROOT)
        peaks: dict[int, int] = {}
        while proc.poll() is None:
            for pid in [proc.pid, *_descendants(proc.pid)]:
                peaks[pid] = max(peaks.get(pid, 0), _hwm_kib(pid))
            time.sleep(0.05)
        seconds = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if proc.returncode:
        sys.exit(f"{' '.join(cmd[3:8])}...: exit status {proc.returncode}: {stderr[-800:]}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    client = peaks.pop(proc.pid, 0) / GIB
    worker = max(peaks.values(), default=0) / GIB
    return Run(seconds, cpu, client, worker, stdout, stderr)


def command(files: list[str], *extra: str) -> list[str]:
    """``python -m bleuviz score`` on the files, the size cap just above the largest."""
    cap = max(os.path.getsize(f) for f in files if not f.startswith("-")) + 1
    return [sys.executable, "-m", "bleuviz", "score", *files, "--max-bytes", str(cap), *extra]


def median_range(values: list[float], fmt: str = "{:.2f}") -> str:
    """``median (min-max)``."""
    med = statistics.median(values)
    return f"{fmt.format(med)} ({fmt.format(min(values))}-{fmt.format(max(values))})"


def overhead_per_partition(tasks: int) -> float:
    """Seconds the scheduler adds per partition: empty partitions through the real task."""
    from distributed import Client, LocalCluster

    from bleuviz.distributed.engine import attach
    from bleuviz.distributed.partials import Job, run_partition
    from bleuviz.distributed.sources import Layout, Partition, Piece
    from bleuviz.metrics.spec import Settings

    layout = Layout(("synthetic",), 1)
    parts = [
        Partition(i, 0, 0, "plain", (Piece("ref", 0, 0, 1), Piece("hyp", 0, 0, 1)))
        for i in range(tasks)
    ]
    job = Job(("BLEU",), Settings())
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        engine = attach(client)
        engine.map(run_partition, parts[:50], layout, job)  # warm: imports on the workers
        start = time.perf_counter()
        engine.map(run_partition, parts, layout, job)
        return (time.perf_counter() - start) / tasks


def startup_seconds(workers: int, repeats: int) -> list[float]:
    """Seconds to start and stop a ``LocalCluster`` of ``workers`` processes (what every
    ``--dask local:N`` command pays once, whatever the corpus)."""
    from distributed import Client, LocalCluster

    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        with (
            LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None) as c,
            Client(c) as client,
        ):
            client.run(lambda: __import__("bleuviz.distributed.partials"))
        times.append(time.perf_counter() - start)
    return times


def plan_seconds(files: list[str], rows: int) -> float:
    """The client's own serial work before any task: counting the files' lines."""
    from bleuviz.distributed.run import plan_inputs

    hyps = [files[files.index("-i") + 1]]
    refs = [files[files.index("-r") + 1]] if "-r" in files else []
    start = time.perf_counter()
    plan_inputs(hyps, refs, rows=rows)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--segments", type=int, default=10_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "bench_dask")
    parser.add_argument("--format", choices=("plain", "parquet"), default="plain")
    parser.add_argument("--partition-rows", type=int, default=250_000)
    parser.add_argument("--overhead-tasks", type=int, default=2000)
    parser.add_argument("--only", default="one,local1,local2,sentences,overhead")
    args = parser.parse_args()
    only = set(args.only.split(","))
    n = args.segments
    start = time.perf_counter()
    files = generate(args.data, n, args.format)
    plain = generate(args.data, n, "plain")  # the one-machine command reads no Parquet
    print(
        f"data: {n:,} segments x 1 reference ({args.format}, {args.data}), "
        f"ready in {time.perf_counter() - start:.1f} s; {os.cpu_count()} cores (may be shared)"
    )
    rows = ["--partition-rows", str(args.partition_rows)]
    plans = {
        "one": command(plain),
        "local1": command(files, "--dask", "local:1", *rows),
        "local2": command(files, "--dask", "local:2", *rows),
    }
    results: dict[str, list[Run]] = {}
    for name, cmd in plans.items():
        if name in only:
            results[name] = [run(cmd) for _ in range(args.repeats)]
    if "sentences" in only:
        out = []
        for i in range(args.repeats):
            folder = args.data / f"sentences.{n}.{os.getpid()}.{i}"
            out.append(
                run(command(files, "--dask", "local:2", *rows, "--sentence-out", str(folder)))
            )
            subprocess.run(["rm", "-rf", str(folder)], check=True)
        results["sentences"] = out
    reference = results.get("one", results.get("local1", [None]))[0]
    for name, runs in results.items():
        differs = reference is not None and any(r.stdout != reference.stdout for r in runs)
        if differs and name != "sentences":
            sys.exit(f"{name}: stdout differs from the one-machine command's")
        wall = [r.seconds for r in runs]
        print(
            f"{name:>9}: {median_range(wall)} s, {median_range([1e6 * w / n for w in wall])} "
            f"µs/segment, CPU {median_range([r.cpu for r in runs])} s, client peak "
            f"{median_range([r.client_mib for r in runs], '{:.0f}')} MiB, worker peak "
            f"{median_range([r.worker_mib for r in runs], '{:.0f}')} MiB"
        )
    _summary(results, n, args, plain)


def _summary(
    results: dict[str, list[Run]], n: int, args: argparse.Namespace, files: list[str]
) -> None:
    """The targets, and the projection for 100M segments on 32 workers."""
    wall = {name: statistics.median(r.seconds for r in runs) for name, runs in results.items()}
    if "local1" in wall and "local2" in wall:
        ratio = wall["local1"] / wall["local2"]
        print(f"local:2 / local:1 throughput: {ratio:.2f}x (target >= {TARGET_SPEEDUP}x)")
        up = {k: startup_seconds(k, args.repeats) for k in (1, 2)}
        net = (wall["local1"] - statistics.median(up[1])) / (
            wall["local2"] - statistics.median(up[2])
        )
        print(
            f"  cluster start-up (paid once a command): local:1 {median_range(up[1])} s, "
            f"local:2 {median_range(up[2])} s; throughput ratio without it: {net:.2f}x"
        )
    if "one" in wall and "local2" in wall:
        over = wall["local2"] / wall["one"] - 1
        print(
            f"local:2 time per segment vs one process: {over:+.1%} (target within "
            f"{TARGET_OVERHEAD:.0%})"
        )
    for name, limit, key in (
        ("local2", TARGET_WORKER_MIB, "worker_mib"),
        ("sentences", TARGET_CLIENT_MIB, "client_mib"),
    ):
        if name in results:
            peak = max(getattr(r, key) for r in results[name])
            who = "worker" if key == "worker_mib" else "client (--sentence-out)"
            print(f"peak {who}: {peak:.0f} MiB (target <= {limit:.0f} MiB at 10M)")
    if "overhead" not in args.only.split(",") or "local1" not in wall:
        return
    per_task = overhead_per_partition(args.overhead_tasks)
    planned = plan_seconds(files, args.partition_rows)
    # One dedicated worker's time per segment: the least disturbed local:1 run (start-up
    # included); the median is printed above.
    per_segment = min(r.seconds for r in results["local1"]) / n
    big, workers = 100_000_000, 32
    partitions = -(-big // args.partition_rows)
    compute = big * per_segment / workers
    scheduling = partitions * per_task
    scan = planned * big / n
    print(
        f"scheduler: {1e3 * per_task:.2f} ms per partition ({args.overhead_tasks:,} empty "
        f"partitions through the task on local:2); client plan (line count): {planned:.2f} s "
        f"for {n:,} segments"
    )
    total = compute + scheduling + scan
    print(
        f"projection, 100M segments on {workers} workers ({partitions:,} partitions of "
        f"{args.partition_rows:,}): {compute:.0f} s of work spread over the workers "
        f"({1e6 * per_segment:.1f} µs/segment, the fastest local:1 run here) + "
        f"{scheduling:.1f} s of "
        f"scheduling + {scan:.0f} s counting lines on the client = {total:.0f} s"
    )


if __name__ == "__main__":
    main()
