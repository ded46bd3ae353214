"""Time reading a 100,000-row MQM TSV into error spans and MQM scores (target: 2 s).

The file is Google's TED en-de MQM TSV (``/tmp/ted/mqm.tsv`` by default, 8,435
rows over 13 systems and 529 segments; ``--ted DIR`` for another copy) repeated
under renamed systems (``Nemo~3``) until it holds ``--rows`` rows; the test set
holds each copy's system with the TED lines, so every row is mapped by
document and position and its text checked, as on the real file.

Measured, each ``--repeats`` times (median and range printed):

- bleuviz: ``attach_error_spans`` from the file's bytes in memory: decoding,
  parsing, marks, the text check of every row, and the MQM scores;
- peer: mt-metrics-eval's ``converters/score_mqm.py`` procedure re-done inline
  (``csv.DictReader`` with ``QUOTE_NONE``, weights by prefix, sums per rater),
  which reads no spans and checks no text: the floor of a pure-Python reader.

Wall-clock and CPU seconds are both printed (the ratio is of CPU medians). Then
the peak memory of one bleuviz read (``tracemalloc``, a separate run, as
tracing slows the code), beside the file's size.

Usage::

    python benchmarks/bench_mqm_read.py [--rows 100000] [--repeats 5] [--ted /tmp/ted]
"""

from __future__ import annotations

import argparse
import collections
import csv
import io
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bleuviz.io.decode import NamedBytes  # noqa: E402
from bleuviz.io.error_span_files import attach_error_spans  # noqa: E402
from bleuviz.io.load import load_paths  # noqa: E402
from bleuviz.io.testset import TestSet  # noqa: E402

TARGET_SECONDS = 2.0
WEIGHTS = {"major": 5.0, "minor": 1.0, "neutral": 0.0, "major/non-translation!": 25.0,
           "minor/fluency/punctuation": 0.1}  # fmt: skip


def build(ted: Path, rows: int) -> tuple[TestSet, bytes, int]:
    """Return the repeated test set, the repeated TSV's bytes and its row count."""
    header, *body = (ted / "mqm.tsv").read_text(encoding="utf-8").splitlines()
    copies = -(-rows // len(body))
    names = sorted({line.split("\t", 1)[0] for line in body} - {"ref"})
    base = load_paths(
        [ted / f"{name}.txt" for name in names],
        [ted / "ref.de.txt"],
        ted / "src.en.txt",
        ted / "docids.txt",
    )
    systems = {f"{s}~{k}": base.systems[s] for k in range(copies) for s in names}
    testset = TestSet(systems, base.references, base.source, base.doc_ids)
    out = [header]
    for k in range(copies):
        for line in body:
            system, rest = line.split("\t", 1)
            out.append(f"{system}~{k}\t{rest}")
    out = out[: rows + 1]
    return testset, ("\n".join(out) + "\n").encode(), len(out) - 1


def peer(data: bytes) -> int:
    """mt-metrics-eval's score_mqm.py procedure: MQM per (system, doc, doc_id)."""
    scores: dict[tuple[str, str, int], dict[str, float]] = {}
    reader = csv.DictReader(io.StringIO(data.decode()), delimiter="\t", quoting=csv.QUOTE_NONE)
    for row in reader:
        items = [row["severity"].lower(), *row["category"].lower().split("/")]
        weight = 0.0
        while items:
            if "/".join(items) in WEIGHTS:
                weight = WEIGHTS["/".join(items)]
                break
            items.pop()
        key = (row["system"], row["doc"], int(row["doc_id"]))
        raters = scores.setdefault(key, collections.defaultdict(float))
        raters[row["rater"]] += weight
    return len(scores)


def timed(repeats: int, run: object) -> tuple[list[float], list[float]]:
    """Run ``run()`` ``repeats`` times; return the wall-clock and CPU seconds of each.

    CPU time (this process's) is printed beside wall time: on a shared machine other
    processes stretch the wall clock, much less the CPU time the read itself takes.
    """
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        run()  # type: ignore[operator]
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return wall, cpu


def line(label: str, times: tuple[list[float], list[float]], extra: str = "") -> str:
    """Format the medians with their ranges: wall clock, then CPU."""
    wall, cpu = times
    return (
        f"{label:<34} median {statistics.median(wall):6.3f} s "
        f"(range {min(wall):.3f}-{max(wall):.3f}), CPU {statistics.median(cpu):.3f} s "
        f"({min(cpu):.3f}-{max(cpu):.3f}){extra}"
    )


def main() -> None:
    """Build the file, time bleuviz and the peer, then measure peak memory."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--ted", type=Path, default=Path("/tmp/ted"))
    args = parser.parse_args()
    testset, data, rows = build(args.ted, args.rows)
    f = NamedBytes("mqm_repeated.tsv", data)
    print(
        f"MQM TSV: {rows:,} rows, {len(data) / 2**20:.1f} MB; test set: "
        f"{len(testset.systems)} systems x {testset.n_segments} segments"
    )
    ours = timed(args.repeats, lambda: attach_error_spans(testset, [f]))
    theirs = timed(args.repeats, lambda: peer(data))
    ratio = statistics.median(ours[1]) / statistics.median(theirs[1])
    print(line("bleuviz attach_error_spans", ours, f"  target {TARGET_SECONDS} s"))
    print(line("peer: score_mqm.py's DictReader", theirs, f"  bleuviz/peer (CPU) {ratio:.2f}x"))
    tracemalloc.start()
    attach_error_spans(testset, [f])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"peak memory of one read (tracemalloc): {peak / 2**20:.1f} MB")


if __name__ == "__main__":
    main()
