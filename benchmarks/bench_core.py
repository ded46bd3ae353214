"""Time bleuviz's whole ``score`` command against sacrebleu and bleuscore, and report peak memory.

Usage, from the project root:
  python benchmarks/bench_core.py [--segments 100000] [--big 1000000] [--skip-1m]
                                  [--repeat 1] [--check 3000] [--files HYP REF1 REF2]

The test set is synthetic (about 25 tokens a line, words drawn from a fixed
seeded vocabulary), or, with ``--files``, real text: a hypothesis file and two
reference files, each repeated up to the size asked for (see ``repeated``).
Every command is a fresh process on files, so import time counts. One run prints:

* at ``--segments`` x 1 reference, wall-clock (and CPU) seconds of ``sacrebleu REF -i HYP``
  (corpus score only), of ``python -m bleuviz score --sentence-level`` (corpus
  score, statistics and every sentence BLEU, text output), and of bleuscore's
  ``compute`` on the same files (a Rust corpus BLEU from PyPI; skipped with a
  message when it is not installed: ``pip install bleuscore``, never a project
  dependency), and the ratios bleuviz / sacrebleu and bleuviz / bleuscore;
* that the scores are identical: bleuviz's corpus score (``--format json``)
  equals sacrebleu's ``corpus_bleu`` exactly, and its sentence scores equal
  sacrebleu's ``sentence_score`` to 1e-9 for the first ``--check`` segments (the
  largest difference and how many are bit for bit the same are printed: numpy's
  vectorized ``exp``/``log`` can differ from Python's ``math`` in the last bit);
  bleuscore's difference from sacrebleu is printed;
* peak resident memory of the whole process tree of the bleuviz command at
  ``--segments`` x 2 references and (unless ``--skip-1m``) at ``--big`` x 2
  references (``--big 10000000`` too: the files are written line by line and
  ``--max-bytes`` raised to their size), whose text is the smaller test set
  repeated with each pass's number appended to every line.

Targets (issue 11): at 100,000 x 1 reference, at most 0.2 of sacrebleu's time
and no slower than bleuscore. Issue 48: peak at most 512 MiB at 100,000 x 2
references and at 1,000,000 x 2 references, in one process (``score`` reads
plain files chunk by chunk), and growing sub-linearly beyond.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

WORDS = [f"w{i}" for i in range(20000)] + [",", ".", "the", "of", "and", "a", '"', "(", ")"]
#: The contract: every score equals its reference implementation to this.
TOL = 1e-9

# bleuscore on files, as a user of its Python API would run it: read, compute, print.
BLEUSCORE = """import sys, bleuscore
hyp = open(sys.argv[1], encoding="utf-8").read().splitlines()
refs = [open(p, encoding="utf-8").read().splitlines() for p in sys.argv[2:]]
result = bleuscore.compute([list(r) for r in zip(*refs)], hyp, ref_len_method="closest")
print(repr(100 * result["bleu"]))
"""


def corpus(n: int, seed: int) -> list[str]:
    """Return n synthetic lines of 15-35 tokens (mean 25), Zipf-like word choice."""
    rng = random.Random(seed)
    # Cumulative weights once: ``choices(weights=...)`` would sum all 20,000 per line
    # (same draws either way: choices accumulates the weights itself).
    cum_weights = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(WORDS))))
    out = []
    for _ in range(n):
        words = rng.choices(WORDS, cum_weights=cum_weights, k=rng.randint(15, 35))
        out.append(" ".join(words).replace(" ,", ",").replace(" .", "."))
    return out


def repeated(lines: list[str], n: int) -> Iterator[str]:
    """Yield n lines of ``lines`` read over and over, each pass's number appended.

    No line repeats: sacrebleu's tokenizers memoize up to 65,536 lines, and a
    few thousand lines repeated would time its cache instead of its tokenizer.
    """
    cycle = itertools.islice(itertools.cycle(lines), n)
    return (f"{line} {i // len(lines)}" for i, line in enumerate(cycle))


def make_streams(n: int, files: list[str] | None) -> list[list[str]]:
    """Return the hypothesis stream and two reference streams of n lines each."""
    if not files:
        return [corpus(n, seed) for seed in (1, 2, 3)]
    if len(files) != 3:
        sys.exit(f"--files: a hypothesis and two references, got {len(files)} files")
    return [list(repeated(Path(p).read_text(encoding="utf-8").splitlines(), n)) for p in files]


def write(folder: Path, name: str, lines: Iterable[str]) -> str:
    """Write one stream as a file of lines, line by line; return its path."""
    path = folder / name
    with path.open("w", encoding="utf-8") as f:
        f.writelines(f"{line}\n" for line in lines)
    return str(path)


def tree_rss_kib(root: int) -> int:
    """Return the summed resident memory (kB) of ``root`` and all its descendants now."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            with open(f"/proc/{pid}/status", encoding="ascii") as f:
                total += next((int(s.split()[1]) for s in f if s.startswith("VmRSS:")), 0)
        except OSError:
            continue
    return total


def run(cmd: list[str]) -> tuple[float, float, str, float]:
    """Run a command; return (wall seconds, peak MiB of its process tree, stdout, CPU seconds).

    The tree's memory is sampled every 10 ms; the command's own high-water mark
    (``VmHWM``, read just before it exits) covers a peak between two samples.
    CPU seconds (user + system, of the command and every child it waited for)
    hardly depend on what else the machine runs, unlike the wall clock.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, cwd=ROOT)
        peak = 0
        while proc.poll() is None:
            peak = max(peak, tree_rss_kib(proc.pid))
            time.sleep(0.01)
        seconds = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        stderr = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
        if proc.returncode:
            sys.exit(f"{' '.join(cmd[:4])}...: exit status {proc.returncode}: {stderr[-500:]}")
        if "VmHWM " in stderr:
            peak = max(peak, int(stderr.rsplit("VmHWM ", 1)[1].split()[0]))
        out.seek(0)
        return seconds, peak / 1024, out.read().decode("utf-8"), cpu


# ``python -m bleuviz ARGS``, then the process's own peak RSS (VmHWM, in kB) on stderr.
MEASURED_BLEUVIZ = """import runpy, sys
sys.argv = ["bleuviz", *sys.argv[1:]]
try:
    runpy.run_module("bleuviz", run_name="__main__", alter_sys=True)
finally:
    hwm = [s for s in open("/proc/self/status") if s.startswith("VmHWM:")]
    sys.stderr.write("\\nVmHWM " + (hwm[0].split()[1] if hwm else "0") + "\\n")
"""


def bleuviz_cmd(hyp: str, refs: list[str], *extra: str) -> list[str]:
    """The bleuviz command line on files."""
    cmd = [sys.executable, "-c", MEASURED_BLEUVIZ, "score", "--ref", *refs, "--hyp", hyp]
    return [*cmd, "--sentence-level", *extra]


def best(cmd: list[str], repeat: int) -> tuple[float, float]:
    """Return the best wall time and the best CPU time of ``repeat`` runs."""
    runs = [run(cmd) for _ in range(repeat)]
    return min(r[0] for r in runs), min(r[3] for r in runs)


def speed(label: str, hyp: str, ref: str, repeat: int) -> None:
    """Time the three commands at one reference and print the ratios (wall and CPU)."""
    sacre = best([sys.executable, "-m", "sacrebleu", ref, "-i", hyp, "-b"], repeat)
    ours = best(bleuviz_cmd(hyp, [ref]), repeat)
    print(f"{label}: sacrebleu REF -i HYP {sacre[0]:.2f}s (cpu {sacre[1]:.2f}s); bleuviz score "
          f"--sentence-level {ours[0]:.2f}s (cpu {ours[1]:.2f}s) -> {ours[0] / sacre[0]:.3f} of "
          f"sacrebleu (cpu {ours[1] / sacre[1]:.3f}; target <= 0.2)")  # fmt: skip
    if importlib.util.find_spec("bleuscore") is None:
        print(f"{label}: bleuscore not installed, skipped (pip install bleuscore)")
        return
    bs = best([sys.executable, "-c", BLEUSCORE, hyp, ref], repeat)
    print(f"{label}: bleuscore compute {bs[0]:.2f}s (cpu {bs[1]:.2f}s) -> bleuviz is "
          f"{ours[0] / bs[0]:.3f} of bleuscore (cpu {ours[1] / bs[1]:.3f}; "
          "target <= 1)")  # fmt: skip


def check_scores(label: str, streams: list[list[str]], hyp: str, ref: str, check: int) -> None:
    """Print whether bleuviz's scores equal sacrebleu's, and bleuscore's gap to sacrebleu.

    bleuscore does not smooth: it is compared with sacrebleu's ``smooth_method="none"``.
    """
    import sacrebleu
    from sacrebleu.metrics.bleu import BLEU

    out = run(bleuviz_cmd(hyp, [ref], "--format", "json"))[2]
    system = json.loads(out)["systems"][0]
    expected = sacrebleu.corpus_bleu(streams[0], [streams[1]]).score
    oracle = BLEU(effective_order=True)
    sentences = [
        oracle.sentence_score(h, [r]).score
        for h, r in zip(streams[0][:check], streams[1], strict=False)
    ]
    ours = [s["bleu"] for s in system["sentences"][:check]]
    gap = max((abs(a - b) for a, b in zip(ours, sentences, strict=True)), default=0.0)
    same = sum(a == b for a, b in zip(ours, sentences, strict=True))
    print(f"{label}: corpus BLEU bleuviz {system['bleu']!r}, sacrebleu {expected!r}: "
          f"identical {system['bleu'] == expected}; first {len(ours)} sentence BLEU against "
          f"sacrebleu's sentence_score: largest difference {gap:.1e} (within {TOL:g}: "
          f"{gap <= TOL}), {same} bit for bit")  # fmt: skip
    if importlib.util.find_spec("bleuscore") is not None:
        bs = run([sys.executable, "-c", BLEUSCORE, hyp, ref])[2]
        plain = sacrebleu.corpus_bleu(streams[0], [streams[1]], smooth_method="none").score
        print(f"{label}: bleuscore {float(bs)!r}, sacrebleu without smoothing {plain!r}: "
              f"difference {abs(float(bs) - plain):.1e}")  # fmt: skip


def memory(label: str, hyp: str, refs: list[str], limit_mib: int) -> str:
    """Print the bleuviz command's peak memory; return its output."""
    size = max(Path(path).stat().st_size for path in (hyp, *refs))
    seconds, peak, out, _ = run(bleuviz_cmd(hyp, refs, "--max-bytes", str(size)))
    print(f"{label}: bleuviz score --sentence-level {seconds:.2f}s, peak RSS of the process "
          f"tree {peak:.0f} MiB (target <= {limit_mib} MiB)")  # fmt: skip
    return out


def main() -> None:
    """Run every measurement and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--segments", type=int, default=100_000)
    parser.add_argument("--big", type=int, default=1_000_000, help="segments of the large run")
    parser.add_argument("--skip-1m", action="store_true", help="skip the large run")
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs")
    parser.add_argument("--check", type=int, default=3000, help="sentence scores checked")
    parser.add_argument("--files", nargs="+", metavar="HYP REF1 REF2", help="real text, repeated")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}  text: "
          f"{' '.join(args.files) + ' (repeated)' if args.files else 'synthetic'}")  # fmt: skip
    n = args.segments
    streams = make_streams(n, args.files)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        hyp, ref1, ref2 = (
            write(folder, f"{k}.txt", s)
            for k, s in zip(("hyp", "ref1", "ref2"), streams, strict=True)
        )
        speed(f"n={n} refs=1", hyp, ref1, args.repeat)
        check_scores(f"n={n} refs=1", streams, hyp, ref1, args.check)
        memory(f"n={n} refs=2", hyp, [ref1, ref2], 512)
        if args.skip_1m:
            return
        big = [write(folder, f"big{k}.txt", repeated(s, args.big)) for k, s in enumerate(streams)]
        del streams
        out = memory(f"n={args.big} refs=2", big[0], big[1:], 512)
        print(f"n={args.big} refs=2: {out.strip().splitlines()[0]}")


if __name__ == "__main__":
    main()
