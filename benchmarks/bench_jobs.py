"""Time ``score --sentence-level`` with ``--jobs 1`` and ``--jobs 2``, against its peers.

Usage, from the project root:
  python -m benchmarks.bench_jobs [--segments 100000] [--rounds 5] [--refs 1 2]
                                  [--no-sacrebleu] [--tokenize 13a]
  python -m benchmarks.bench_jobs --threshold [--rounds 5] [--tokenize intl]
  python -m benchmarks.bench_jobs --metrics chrf ter [--segments 100000] [--rounds 3]
  python -m benchmarks.bench_jobs --threshold --metrics chrf rouge-l [--rounds 5]

The test set is bench_core's synthetic one (about 25 tokens a line, seeded), a
hypothesis and, for each ``--refs`` count, that many references of
``--segments`` lines. Each round runs, in an order that rotates from round to
round, ``python -m bleuviz score --sentence-level`` (text output, written to a
file) with ``--jobs 1``, with ``--jobs 2``, and with ``--jobs 2`` counting in
one process (both thresholds of ``bleuviz.bleu.chunks`` out of reach: a
columnar tokenizer's chunks in threads); and, as peers, sacrebleu's command
line (``sacrebleu REF... -i HYP -b``, corpus score only) and, under 13a when it
is installed (``pip install bleuscore``, never a project dependency), the Rust
``bleuscore`` on the same files (bench_core's ``BLEUSCORE``: read, compute,
print; it uses every core). It prints, per command, the median wall-clock and
CPU seconds with their min-max over the rounds, and the peak memory of its
whole process tree (worker processes included), as RSS and as PSS; then the
ratios of the medians (jobs 2 / jobs 1, processes / threads, bleuviz against
each peer with issue 48's targets), Amdahl's model from the two job counts
(the serial fraction, and the times it predicts for 8 and 16 cores), and
whether every bleuviz command printed the same bytes.

``--threshold`` measures instead, in this process, where worker processes
start to pay (``bleuviz.bleu.chunks.PROCESSES_FROM`` and
``COLUMNAR_PROCESSES_FROM``): BLEU's statistics of test sets of growing size
(bench_core's lines, two references, never seen before: sacrebleu's
tokenizers memoize lines) counted with ``workers=1``, with two workers in this
process (threads, or one chunk after another) and with two forked processes,
the median of ``--rounds`` alternating runs each.

``--metrics chrf ter`` times the metrics beside BLEU instead, one reference (the
hypothesis and the first reference above): per metric, in rotating order each
round, ``python -m bleuviz score -r REF --hyp HYP -m METRIC`` with ``--jobs 1``
and with the default job count (the usable cores), and sacrebleu's command line
``sacrebleu REF -i HYP -m METRIC``; it prints the same lines and ratios (and
each run's time on stderr as it ends: sacrebleu's TER takes minutes). With
``--threshold`` it measures, in this process, where the metric's worker
processes start to pay (``chrf_scorers.PROCESSES_FROM``,
``rouge_metric.PROCESSES_FROM``): its rows of growing test sets with one worker
in two threads and in two forked processes
(``bleuviz.metrics.chunk_rows.chunked_rows``).
"""

from __future__ import annotations

import argparse
import importlib.util
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_core import (
    BLEUSCORE,
    MEASURED_BLEUVIZ,
    ROOT,
    bleuviz_cmd,
    make_streams,
    tree_rss_kib,
    write,
)
from benchmarks.bench_metrics import tree_rss_kib as tree_pss_kib
from bleuviz.jobs import usable_cores

#: ``--jobs 2`` with every chunk counted in this process (both thresholds out of reach):
#: a columnar tokenizer's chunks in threads, a per-line one's chunks one after another,
#: each tokenized by forked processes.
IN_THREADS = (
    "from bleuviz.bleu import chunks\n"
    "chunks.PROCESSES_FROM = chunks.COLUMNAR_PROCESSES_FROM = 10**18\n" + MEASURED_BLEUVIZ
)


def run(cmd: list[str]) -> tuple[float, float, float, float, str]:
    """Run ``cmd``; return wall and CPU seconds, peak RSS and PSS of its process tree (MiB), stdout.

    CPU: user + system of the command and every child it waited for. RSS counts
    a page a forked worker shares with its parent once per process; PSS
    (``bench_metrics.tree_rss_kib``) shares it out. Both are sampled every 10 ms.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL, cwd=ROOT)
        rss = pss = 0
        while proc.poll() is None:
            rss, pss = max(rss, tree_rss_kib(proc.pid)), max(pss, tree_pss_kib(proc.pid))
            time.sleep(0.01)
        seconds = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode:
            sys.exit(f"{' '.join(cmd[:4])}...: exit status {proc.returncode}")
        out.seek(0)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        return seconds, cpu, rss / 1024, pss / 1024, out.read().decode("utf-8")


def spread(values: list[float], unit: str = "s", digits: int = 2) -> str:
    """``median unit (min-max)`` of the rounds."""
    return (
        f"{statistics.median(values):.{digits}f} {unit} "
        f"({min(values):.{digits}f}-{max(values):.{digits}f})"
    )


def threshold(rounds: int, tokenize: str) -> None:
    """Print, per test-set size, the median seconds of one worker, two the way before, two
    processes."""
    from unittest import mock

    from bleuviz.bleu import chunks
    from bleuviz.bleu.tokenize import TokenizeConfig

    streams = make_streams(40_000, None)
    ways = {"1 process": (1, 0), "2 in this process": (2, 10**18), "2 processes": (2, 0)}
    warm = [stream[:100] for stream in streams]  # imports and first calls out of the timings
    chunks.chunked_stats({"hyp": warm[0]}, warm[1:], TokenizeConfig(tokenize), 4, 1)
    for n in (500, 1_000, 2_500, 5_000, 10_000, 20_000, 40_000):
        hyp, *refs = (stream[:n] for stream in streams)
        characters = sum(len(line) for stream in (hyp, *refs) for line in stream)
        times: dict[str, list[float]] = {way: [] for way in ways}
        for round_ in range(rounds):
            for k, (way, (workers, start)) in enumerate(ways.items()):
                # Lines never seen before: sacrebleu's tokenizers memoize 65,536 lines.
                tag = f" {round_}.{k}"
                fresh = [[line + tag for line in stream] for stream in (hyp, *refs)]
                with (
                    mock.patch.object(chunks, "PROCESSES_FROM", start),
                    mock.patch.object(chunks, "COLUMNAR_PROCESSES_FROM", start),
                ):
                    began = time.perf_counter()
                    chunks.chunked_stats(
                        {"hyp": fresh[0]}, fresh[1:], TokenizeConfig(tokenize), 4, workers
                    )
                    times[way].append(time.perf_counter() - began)
        cells = ", ".join(f"{way} {spread(t, 's', 3)}" for way, t in times.items())
        print(f"{n:,} segments ({characters / 1e6:.2f}M characters): {cells}")


def metric_threshold(rounds: int, label: str) -> None:
    """Print, per test-set size, the median seconds of a metric's rows in one process, in
    two threads (the path below the threshold) and in two forked processes."""
    from unittest import mock

    from bleuviz.io.testset import TestSet
    from bleuviz.metrics import chunk_rows
    from bleuviz.metrics.registry import METRICS
    from bleuviz.metrics.spec import Settings

    metric = METRICS[label]
    hyp, ref, _ = make_streams(80_000, None)
    metric.rows(TestSet({"hyp": tuple(hyp[:50])}, (tuple(ref[:50]),)), Settings())  # imports
    for n in (500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000):
        testset = TestSet({"hyp": tuple(hyp[:n])}, (tuple(ref[:n]),))
        characters = sum(len(line) for line in (*hyp[:n], *ref[:n]))
        ways = {"1 process": (1, False), "2 threads": (2, False), "2 processes": (2, True)}
        times: dict[str, list[float]] = {way: [] for way in ways}
        for round_ in range(rounds):
            for way in list(ways)[round_ % 3 :] + list(ways)[: round_ % 3]:
                workers, forked = ways[way]
                with mock.patch.object(chunk_rows, "plan", _forced(forked)):
                    began = time.perf_counter()
                    metric.rows(testset, Settings(workers=workers))
                    times[way].append(time.perf_counter() - began)
        cells = ", ".join(f"{way} {spread(t, 's', 3)}" for way, t in times.items())
        print(f"{label} {n:,} segments ({characters / 1e6:.2f}M characters): {cells}")


def _forced(forked: bool):  # type: ignore[no-untyped-def]
    """``parallel.plan`` that forks workers whatever the size (or never)."""
    from bleuviz.jobs import fork_context

    return lambda *_: fork_context() if forked else None


def metric_commands(hyp: str, ref: str, metric: str) -> dict[str, list[str]]:
    """The commands one round runs for ``metric``: bleuviz with one job and the default, and
    sacrebleu's command line."""
    bleuviz = [sys.executable, "-c", MEASURED_BLEUVIZ, "score", "-r", ref, "--hyp", hyp]
    return {
        f"bleuviz -m {metric} --jobs 1": [*bleuviz, "-m", metric, "--jobs", "1"],
        f"bleuviz -m {metric} (default: {usable_cores()} jobs)": [*bleuviz, "-m", metric],
        f"sacrebleu -m {metric}": [sys.executable, "-m", "sacrebleu", ref, "-i", hyp, "-m", metric],
    }


def time_metrics(metrics: list[str], segments: int, rounds: int) -> None:
    """Run the rounds of each metric's commands; print one line per command, then the ratios."""
    print(f"usable cores: {usable_cores()}; {segments:,} segments x 1 reference, {rounds} rounds")
    with tempfile.TemporaryDirectory() as tmp:
        hyp_lines, ref_lines, _ = make_streams(segments, None)
        hyp, ref = write(Path(tmp), "hyp.txt", hyp_lines), write(Path(tmp), "ref.txt", ref_lines)
        del hyp_lines, ref_lines
        for metric in metrics:
            commands = metric_commands(hyp, ref, metric)
            walls, pss, outputs = _rounds(commands, rounds)
            for name in commands:
                print(f"{name}: wall {spread(walls[name])}, peak PSS of the process tree "
                      f"{spread(pss[name], 'MiB', 0)}")  # fmt: skip
            one, default, peer = (statistics.median(walls[name]) for name in commands)
            print(f"{metric}: bleuviz / sacrebleu (median wall): --jobs 1 {one / peer:.3f}, "
                  f"default {default / peer:.3f}; default / one {default / one:.3f}")  # fmt: skip
            ours = [outputs[name] for name in commands if name.startswith("bleuviz")]
            print(f"{metric}: the same output from every bleuviz command in every round: "
                  f"{len(set().union(*ours)) == 1}")  # fmt: skip


def _rounds(
    commands: dict[str, list[str]], rounds: int
) -> tuple[dict[str, list[float]], dict[str, list[float]], dict[str, set[str]]]:
    """Run every command once a round, in an order that rotates; return wall seconds, peak
    PSS (MiB) and outputs per command."""
    walls: dict[str, list[float]] = {name: [] for name in commands}
    pss: dict[str, list[float]] = {name: [] for name in commands}
    outputs: dict[str, set[str]] = {name: set() for name in commands}
    order = list(commands)
    for round_ in range(rounds):
        for name in order[round_ % len(order) :] + order[: round_ % len(order)]:
            seconds, _, _, peak, out = run(commands[name])
            print(f"  round {round_ + 1}: {name} {seconds:.2f} s", file=sys.stderr, flush=True)
            walls[name].append(seconds)
            pss[name].append(peak)
            outputs[name].add(out)
    return walls, pss, outputs


def amdahl(one: float, two: float) -> str:
    """Amdahl's model from ``--jobs 1`` and ``--jobs 2``: the serial fraction, then 8 and 16 cores.

    With a serial fraction s of one job's time T1, n jobs take T1 * (s + (1 - s) / n),
    so two jobs' time gives s = 2 * T2 / T1 - 1 (clamped to 0..1).
    """
    serial = min(max(2 * two / one - 1, 0.0), 1.0)
    cells = [
        f"{n} cores {one * (serial + (1 - serial) / n):.2f} s "
        f"({1 / (serial + (1 - serial) / n):.2f}x)"
        for n in (2, 8, 16)
    ]
    return f"serial fraction {serial:.3f}; predicted: " + ", ".join(cells)


def commands_for(
    folder: Path, streams: list[list[str]], refs: int, tokenize: str, peers: bool
) -> dict[str, list[str]]:
    """The commands of one round at ``refs`` references, by label."""
    hyp, *references = (write(folder, f"{k}.{refs}.txt", s) for k, s in enumerate(streams))
    references = references[:refs]
    tok = ("-tok", tokenize)
    threads = bleuviz_cmd(hyp, references, *tok, "--jobs", "2")
    threads[threads.index(MEASURED_BLEUVIZ)] = IN_THREADS
    commands = {
        f"refs={refs} bleuviz --jobs 1": bleuviz_cmd(hyp, references, *tok, "--jobs", "1"),
        f"refs={refs} bleuviz --jobs 2": bleuviz_cmd(hyp, references, *tok, "--jobs", "2"),
        f"refs={refs} bleuviz --jobs 2, chunks in threads": threads,
    }
    if peers:
        commands[f"refs={refs} sacrebleu (corpus only)"] = [
            sys.executable, "-m", "sacrebleu", *references, "-i", hyp, "-b", *tok,
        ]  # fmt: skip
        if importlib.util.find_spec("bleuscore") is not None and tokenize == "13a":
            commands[f"refs={refs} bleuscore"] = [sys.executable, "-c", BLEUSCORE, hyp, *references]
    return commands


def report(refs: int, runs: dict[str, list[tuple[float, float, float, float, str]]]) -> None:
    """Print each command's medians, then the ratios, the model and the outputs' check."""
    walls = {name: [r[0] for r in rows] for name, rows in runs.items()}
    for name, rows in runs.items():
        print(f"{name}: wall {spread(walls[name])}, cpu {spread([r[1] for r in rows])}, "
              f"peak of the process tree: RSS {spread([r[2] for r in rows], 'MiB', 0)}, "
              f"PSS {spread([r[3] for r in rows], 'MiB', 0)}")  # fmt: skip
    median = {name: statistics.median(w) for name, w in walls.items()}
    one, two = median[f"refs={refs} bleuviz --jobs 1"], median[f"refs={refs} bleuviz --jobs 2"]
    threads = median[f"refs={refs} bleuviz --jobs 2, chunks in threads"]
    print(f"refs={refs} jobs 2 / jobs 1 (median wall): {two / one:.3f}; processes / threads: "
          f"{two / threads:.3f}; {amdahl(one, two)}")  # fmt: skip
    for peer, target in (("sacrebleu (corpus only)", 0.10), ("bleuscore", 0.6)):
        if f"refs={refs} {peer}" in median:
            ratio = two / median[f"refs={refs} {peer}"]
            print(f"refs={refs} bleuviz --jobs 2 / {peer} (median wall): {ratio:.3f} "
                  f"(target <= {target}: {ratio <= target})")  # fmt: skip
    texts = {out for name, rows in runs.items() if "bleuviz" in name for *_, out in rows}
    print(f"refs={refs} the same output from every bleuviz command in every round: "
          f"{len(texts) == 1}")  # fmt: skip


def main() -> None:
    """Run the rounds and print one line per command, then the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--segments", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--refs", type=int, nargs="+", default=[1, 2], choices=(1, 2))
    parser.add_argument("--no-sacrebleu", action="store_true", help="skip the peers")
    parser.add_argument("--threshold", action="store_true", help="where processes start to pay")
    parser.add_argument("--tokenize", default="13a", help="BLEU's tokenizer (both tools)")
    parser.add_argument("--metrics", nargs="+", help="time these metrics beside BLEU instead")
    args = parser.parse_args()
    if args.threshold and args.metrics:
        for label in args.metrics:
            metric_threshold(args.rounds, {"chrf": "chrF", "rouge-l": "ROUGE-L"}.get(label, label))
        return
    if args.threshold:
        threshold(args.rounds, args.tokenize)
        return
    if args.metrics:
        time_metrics(args.metrics, args.segments, args.rounds)
        return
    print(f"usable cores: {usable_cores()}; {args.segments:,} segments, "
          f"{args.rounds} rounds, -tok {args.tokenize}")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        streams = make_streams(args.segments, None)
        for refs in args.refs:
            commands = commands_for(Path(tmp), streams, refs, args.tokenize, not args.no_sacrebleu)
            runs: dict[str, list[tuple[float, float, float, float, str]]] = {
                n: [] for n in commands
            }
            order = list(commands)
            for round_ in range(args.rounds):
                for name in order[round_ % len(order) :] + order[: round_ % len(order)]:
                    runs[name].append(run(commands[name]))
            report(refs, runs)


if __name__ == "__main__":
    main()
