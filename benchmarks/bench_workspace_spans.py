"""Time keeping error spans in the workspace against reading them from the MQM TSV again.

Builds the test set and the 100,000-row MQM TSV of ``bench_mqm_read`` (Google's
TED en-de MQM file repeated under renamed systems; ``--ted DIR``, ``--rows N``),
reads it once (``attach_error_spans``), then measures, each ``--repeats`` times
(median and range, wall-clock and CPU seconds):

- read: ``attach_error_spans`` from the file's bytes, what opening the set
  without a workspace costs;
- save: ``save_testset`` of the set with its spans into a new workspace, and
  the same set's save without spans (the spans' share of a save);
- save again: the same set saved again, a no-op after comparing the spans;
- load: ``Workspace.load`` of the saved set, with and without spans (its
  ``error_spans`` are checked equal to the ones read, field for field).

Usage::

    python benchmarks/bench_workspace_spans.py [--rows 100000] [--repeats 5] [--ted /tmp/ted]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_mqm_read import build  # noqa: E402

from bleuviz.io.decode import NamedBytes  # noqa: E402
from bleuviz.io.error_span_files import attach_error_spans  # noqa: E402
from bleuviz.io.testset import TestSet  # noqa: E402
from bleuviz.workspace import Workspace  # noqa: E402


def timed(repeats: int, run: Callable[[], object]) -> str:
    """Run ``run`` ``repeats`` times; return wall and CPU medians with their ranges."""
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return (
        f"wall {statistics.median(wall):.3f} s ({min(wall):.3f}-{max(wall):.3f}), "
        f"cpu {statistics.median(cpu):.3f} s ({min(cpu):.3f}-{max(cpu):.3f})"
    )


def save_into_new(testset: TestSet) -> None:
    with tempfile.TemporaryDirectory() as folder:
        Workspace.open(folder).save_testset(testset, "bench")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--ted", type=Path, default=Path("/tmp/ted"))
    args = parser.parse_args()
    base, data, rows = build(args.ted, args.rows)
    f = NamedBytes("mqm.tsv", data)
    spanned = attach_error_spans(base, [f])
    (read,) = spanned.error_spans
    n_spans = sum(len(a.spans) for s in read.segments.values() for a in s if a)
    print(f"{rows:,} rows, {len(base.systems)} systems x {base.n_segments} segments, "
          f"{n_spans:,} spans")  # fmt: skip
    print("read TSV        ", timed(args.repeats, lambda: attach_error_spans(base, [f])))
    print("save, no spans  ", timed(args.repeats, lambda: save_into_new(base)))
    print("save, spans     ", timed(args.repeats, lambda: save_into_new(spanned)))
    with tempfile.TemporaryDirectory() as folder:
        workspace = Workspace.open(folder)
        set_id = workspace.save_testset(spanned, "bench").id
        print("save again      ", timed(args.repeats, lambda: workspace.save_testset(spanned, "b")))
        print("load, spans     ", timed(args.repeats, lambda: workspace.load(set_id)))
        (got,) = workspace.load(set_id).error_spans
        assert dict(got.segments) == dict(read.segments) and got.skipped == read.skipped
    with tempfile.TemporaryDirectory() as folder:
        workspace = Workspace.open(folder)
        plain = workspace.save_testset(replace(base, error_spans=()), "bench").id
        print("load, no spans  ", timed(args.repeats, lambda: workspace.load(plain)))


if __name__ == "__main__":
    main()
