"""Time "what BLEU sees of human errors" (``what_bleu_sees``) against its targets.

Two cases from issue 31's speed targets, on real WMT17 en-de outputs
(/work/shared/data/wmt17-en-de, never copied into the project) with generated
error spans (about 45% of segments get 1-3 spans of 1-4 words each, random
severity, category and rater, as in Google's TED MQM file, where 45% of the
rated segments have an error):

* first view: 13 systems x 600 segments (target 1 s), everything included:
  the references' index, every system's tokens, flags and placement, counts and
  span agreement. Beside it, the per-segment way the highlight explains a
  segment (``explain_segment`` and ``token_statuses`` for every segment and
  order, no counting at all), as the peer the columnar path replaces;
* 100,000 segments x 2 systems (target 5 s): the corpus's lines repeated.

Each is run ``--repeats`` times; the median, the range and the peak of traced
memory (one more run under ``tracemalloc``) are printed.

Usage, from the project root:
    python -m benchmarks.bench_spans [--data DIR] [--repeats 5] [--big 100000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bleuviz.analysis.error_tokens import what_bleu_sees
from bleuviz.bleu.config import BleuConfig
from bleuviz.bleu.explain import explain_segment
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.io.error_spans import HUMAN, ErrorAnnotations, ErrorSpan, SegmentAnnotation
from bleuviz.io.testset import TestSet

SEVERITIES = ("major", "minor", "neutral")
CATEGORIES = ("Accuracy/Mistranslation", "Fluency/Grammar", "Style/Awkward", "Terminology", "Other")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="/work/shared/data/wmt17-en-de", help="WMT17 folder")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per case")
    parser.add_argument("--big", type=int, default=100_000, help="segments of the large case")
    return parser.parse_args()


def word_spans(line: str, rnd: random.Random) -> list[tuple[int, int]]:
    """Return 1-3 spans of 1-4 whole words of ``line`` (none for an empty line)."""
    starts, ends, inside = [], [], False
    for i, c in enumerate(line + " "):
        if not c.isspace() and not inside:
            starts.append(i)
        if c.isspace() and inside:
            ends.append(i)
        inside = not c.isspace()
    out = []
    for _ in range(rnd.randint(1, 3) if starts else 0):
        first = rnd.randrange(len(starts))
        last = min(len(ends) - 1, first + rnd.randint(0, 3))
        out.append((starts[first], ends[last]))
    return out


def annotate(systems: dict[str, tuple[str, ...]], seed: int = 7) -> ErrorAnnotations:
    """Generate one rater's MQM-like annotation of every segment."""
    rnd = random.Random(seed)
    segments = {}
    for name, lines in systems.items():
        per_line = []
        for line in lines:
            marked = word_spans(line, rnd) if rnd.random() < 0.45 else []
            spans = tuple(
                ErrorSpan(s, e, rnd.choice(SEVERITIES), rnd.choice(CATEGORIES), "rater1")
                for s, e in marked
            )
            per_line.append(SegmentAnnotation(("rater1",), spans))
        segments[name] = tuple(per_line)
    return ErrorAnnotations("MQM", "generated", HUMAN, segments)


def load(data: Path, n_systems: int, n_segments: int) -> TestSet:
    """Read the reference and ``n_systems`` outputs: ``n_segments`` lines, repeated if needed."""

    def lines(path: Path) -> tuple[str, ...]:
        text = path.read_text(encoding="utf-8").splitlines()
        return tuple((text * (n_segments // len(text) + 1))[:n_segments])

    paths = sorted(data.glob("hyp.*.txt"))[:n_systems]
    systems = {p.name.split(".")[1]: lines(p) for p in paths}
    return TestSet(systems, (lines(data / "ref.de.txt"),))


def measure(label: str, repeats: int, run: Callable[[], Any]) -> float:
    """Print the median and range of ``repeats`` runs and the traced peak; return the median.

    Wall time and this process's CPU time are both printed: on a shared machine
    the wall time includes waiting for a core, the CPU time does not.
    """
    run()  # warm: sacrebleu's tokenizer objects, imports
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    tracemalloc.start()
    run()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    median = statistics.median(walls)
    print(
        f"{label}: wall median {median:.3f} s (range {min(walls):.3f}-{max(walls):.3f}), "
        f"CPU median {statistics.median(cpus):.3f} s (range {min(cpus):.3f}-{max(cpus):.3f}), "
        f"{repeats} runs; peak traced memory {peak / 2**20:.0f} MiB"
    )
    return median


def explain_all(testset: TestSet, order: int) -> None:
    """The highlight's per-segment way: explain every segment, every order's statuses."""
    tokenize = TokenizeConfig()
    for lines in testset.systems.values():
        for i, line in enumerate(lines):
            detail = explain_segment(line, [r[i] for r in testset.references], tokenize, order)
            for n in range(1, order + 1):
                detail.token_statuses(n)


def main() -> None:
    args = parse_args()
    data = Path(args.data)
    config, tokenize = BleuConfig(), TokenizeConfig()
    first = load(data, 13, 600)
    spans = annotate(first.systems)
    fast = measure(
        "13 systems x 600 segments, what_bleu_sees (first view)",
        args.repeats,
        lambda: what_bleu_sees(first, spans, tokenize, config),
    )
    slow = measure(
        "13 systems x 600 segments, explain_segment per segment (peer, no counting)",
        max(1, args.repeats // 2),
        lambda: explain_all(first, config.max_order),
    )
    print(f"  ratio explain_segment / what_bleu_sees: {slow / fast:.1f}x")
    big = load(data, 2, args.big)
    big_spans = annotate(big.systems)
    measure(
        f"2 systems x {args.big:,} segments, what_bleu_sees",
        args.repeats,
        lambda: what_bleu_sees(big, big_spans, tokenize, config),
    )


if __name__ == "__main__":
    main()
