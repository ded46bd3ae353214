"""Time the metrics beside BLEU against the libraries they replicate, in the same run.

Whole commands first (``--data``, default WMT17 en-de under /work/shared/data,
skipped with a message when absent): ``sacrebleu REF -i HYP -m chrf`` (and
``-m chrf --chrf-word-order 2``, ``-m ter``) against ``python -m bleuviz score -r REF
-i HYP -m ...`` on the same files, chrF of the first ``--systems`` systems (sorted
``hyp.*.txt``) in one command each (the app's scenario: several systems of one
test set), and chrF again on the files repeated ``--repeat-chrf`` times; each line
gives both times (best of ``--repeats``), the ratio bleuviz / sacrebleu, whether
every system's score is identical (sacrebleu printing 10 decimals) and the peak
memory of each whole process tree (proportional set sizes from /proc sampled
every 10 ms, worker processes included). The one-system lines are mostly the
start-up of both interpreters.

Then, in process, for a reference file and two system files (``--ref``/``--hyp``),
or a synthetic test set when they are not given (seeded, about 25 words a line),
it prints one line per measurement with the ratio library / bleuviz, and checks
the numbers:

* chrF sentence scores + corpus score: ``bleuviz.metrics.score_sacrebleu`` against
  sacrebleu ``CHRF().sentence_score`` per line plus ``corpus_score`` (what a user
  of sacrebleu's API runs to get both);
* ROUGE-L and ROUGE-2 F per segment: ``score_rouge`` against rouge-score's
  ``RougeScorer.score`` per line;
* chrF paired bootstrap (1000) and approximate randomization (10000):
  ``compare_systems_metric`` from the statistics, and including the statistics of
  both systems, against sacrebleu ``PairedTest`` (which extracts them itself).

Usage, from the project root:
  python -m benchmarks.bench_metrics [--segments 3000] [--repeats 3] [--commands-only]
  python -m benchmarks.bench_metrics --ref REF --hyp BASELINE SYSTEM
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
from rouge_score import rouge_scorer
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.ter import TER
from sacrebleu.significance import PairedTest

from benchmarks.bench_significance import best_of
from bleuviz.metrics import METRICS, Settings, score_rouge, score_sacrebleu
from bleuviz.metrics.ter_parallel import clear_cache
from bleuviz.significance import DEFAULT_SEED, compare_systems_metric
from bleuviz.significance.by_metric import paired_test

TOL = 1e-9
WMT17 = Path("/work/shared/data/wmt17-en-de")
PACKAGE = Path(__file__).resolve().parent.parent / "bleuviz"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ref", help="reference file (default: synthetic test set)")
    parser.add_argument("--hyp", nargs=2, help="baseline and system files")
    parser.add_argument("--segments", type=int, default=3000, help="synthetic lines")
    parser.add_argument("--repeats", type=int, default=3, help="best of this many runs")
    parser.add_argument("--data", type=Path, default=WMT17, help="ref.*.txt and hyp.*.txt")
    parser.add_argument("--system", default="uedin-nmt", help="the hyp file whose name has it")
    parser.add_argument("--repeat-chrf", type=int, default=20, help="copies for the big chrF")
    parser.add_argument("--systems", type=int, default=9, help="systems in the several-system line")
    parser.add_argument("--commands-only", action="store_true", help="skip the in-process part")
    return parser.parse_args()


def synthetic(n: int) -> tuple[list[str], list[str], list[str]]:
    """A reference stream and two noisy copies of it."""
    rnd = random.Random(2024)
    vocabulary = ["".join(rnd.choices("abcdefghij", k=rnd.randint(2, 8))) for _ in range(2000)]
    refs = [rnd.choices(vocabulary, k=max(1, int(rnd.gauss(25, 6)))) for _ in range(n)]

    def noisy(words: list[str], keep: float) -> str:
        return " ".join(w if rnd.random() < keep else rnd.choice(vocabulary) for w in words)

    return (
        [" ".join(r) for r in refs],
        [noisy(r, 0.62) for r in refs],
        [noisy(r, 0.63) for r in refs],
    )


def read(path: str) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        return handle.read().splitlines()


def report(what: str, seconds: float, reference: float | None = None) -> None:
    ratio = "" if reference is None else f"  library/bleuviz = {reference / seconds:6.2f}x"
    print(f"{what:<52} {seconds:8.3f} s{ratio}")


def check(name: str, got: Any, want: Any) -> bool:
    same = bool(np.allclose(np.asarray(got, float), np.asarray(want, float), rtol=0, atol=TOL))
    print(f"{name:<52} {'identical' if same else 'DIFFERENT'}")
    return same


def bench_chrf(repeats: int, refs: list[str], hyps: list[str]) -> bool:
    def library() -> tuple[list[float], float]:
        sentence = [CHRF().sentence_score(h, [r]).score for h, r in zip(hyps, refs, strict=True)]
        return sentence, CHRF().corpus_score(hyps, [refs]).score

    lib_time, (lib_sent, lib_corpus) = best_of(repeats, library)
    ours_time, ours = best_of(repeats, lambda: score_sacrebleu("chrF", hyps, [refs]))
    report("chrF sentence + corpus: sacrebleu API", lib_time)
    report("chrF sentence + corpus: bleuviz (one extraction)", ours_time, lib_time)
    return check("  chrF scores", [*ours.sentence, ours.corpus], [*lib_sent, lib_corpus])


def bench_rouge(repeats: int, refs: list[str], hyps: list[str]) -> bool:
    scorer = rouge_scorer.RougeScorer(["rouge2", "rougeL"])

    def library() -> list[tuple[float, float]]:
        rows = [scorer.score(r, h) for h, r in zip(hyps, refs, strict=True)]
        return [(s["rouge2"].fmeasure, s["rougeL"].fmeasure) for s in rows]

    lib_time, lib = best_of(repeats, library)
    ours_time, ours = best_of(repeats, lambda: score_rouge(["ROUGE-2", "ROUGE-L"], hyps, [refs]))
    report("ROUGE-2 + ROUGE-L per segment: rouge-score", lib_time)
    report("ROUGE-2 + ROUGE-L per segment: bleuviz", ours_time, lib_time)
    got = np.column_stack([ours["ROUGE-2"].sentence, ours["ROUGE-L"].sentence])
    return check("  ROUGE F-measures", got, lib)


def bench_significance(repeats: int, refs: list[str], base: list[str], system: list[str]) -> bool:
    named = [("baseline", base), ("system", system)]
    metrics = {"chrF": CHRF()}
    lib = {}
    for test, n in (("bs", 1000), ("ar", 10000)):
        lib[test] = best_of(repeats, lambda t=test, k=n: PairedTest(named, metrics, [refs], t, k)())
    lib_time = lib["bs"][0] + lib["ar"][0]
    stats = [score_sacrebleu("chrF", hyps, [refs]).statistics() for hyps in (base, system)]

    def ours_from_stats() -> Any:
        return compare_systems_metric("baseline", stats[0], {"system": stats[1]}, CHRF())

    def ours_with_stats() -> Any:
        scored = {n: score_sacrebleu("chrF", h, [refs]) for n, h in named}
        return paired_test(METRICS["chrF"], Settings(), "baseline", scored)

    stats_time, rows = best_of(repeats, ours_from_stats)
    total_time, _ = best_of(repeats, ours_with_stats)
    report("chrF bs 1000 + ar 10000: sacrebleu PairedTest", lib_time)
    report("chrF bs 1000 + ar 10000: bleuviz from statistics", stats_time, lib_time)
    report("chrF bs 1000 + ar 10000: bleuviz with statistics", total_time, lib_time)
    bs, ar = (lib[t][1][1]["chrF2"][1] for t in ("bs", "ar"))
    got = [rows[1].p_value_bs, rows[1].mean, rows[1].ci, rows[1].p_value_ar]
    return check("  p-values, mean and CI", got, [bs.p_value, bs.mean, bs.ci, ar.p_value])


def tree_rss_kib(pid: int) -> int:
    """Memory of ``pid`` and all its descendants, from /proc (KiB).

    Proportional set sizes (``Pss`` in smaps_rollup): a page a forked worker
    shares with its parent counts once in the sum, not once per process as RSS.
    """
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            rollup = Path(f"/proc/{current}/smaps_rollup").read_text()
            total += next(
                int(line.split()[1]) for line in rollup.splitlines() if line.startswith("Pss:")
            )
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, StopIteration):
            continue
    return total


def run_command(argv: list[str]) -> tuple[float, float, str]:
    """Run ``argv``; return its wall time, the peak RSS of its process tree (MiB), stdout."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    peak = [0]

    def sample() -> None:
        while proc.poll() is None:
            peak[0] = max(peak[0], tree_rss_kib(proc.pid))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample)
    sampler.start()
    out, _ = proc.communicate()
    elapsed = time.perf_counter() - start
    sampler.join()
    if proc.returncode:
        raise RuntimeError(f"{' '.join(argv)} exited with {proc.returncode}")
    return elapsed, peak[0] / 1024, out


def best_command(argv: list[str], repeats: int) -> tuple[float, float, str]:
    runs = [run_command(argv) for _ in range(repeats)]
    return min(r[0] for r in runs), max(r[1] for r in runs), runs[0][2]


def compare_command(
    what: str, ref: Path, hyps: list[Path], metric: list[str], repeats: int, target: float
) -> bool:
    """Time sacrebleu's and bleuviz's whole commands on the same files; check every score."""
    files = [str(hyp) for hyp in hyps]
    theirs = [sys.executable, "-m", "sacrebleu", str(ref), "-i", *files, *metric]
    ours = [sys.executable, "-m", "bleuviz", "score", "-r", str(ref), "-i", *files, *metric]
    lib_time, lib_peak, lib_out = best_command([*theirs, "-w", "10", "-f", "json"], repeats)
    our_time, our_peak, our_out = best_command([*ours, "-f", "json"], repeats)
    wants = sacrebleu_scores(json.loads(lib_out), files)
    gots = [system["metrics"][0]["score"] for system in json.loads(our_out)["systems"]]
    ratio = our_time / lib_time
    verdict = "met" if ratio <= target else "NOT met"
    print(
        f"{what:<34} sacrebleu {lib_time:7.2f} s {lib_peak:6.0f} MiB | bleuviz {our_time:7.2f} s"
        f" {our_peak:6.0f} MiB | ratio {ratio:5.3f} (target <= {target}: {verdict})"
    )
    same = len(gots) == len(wants) and all(
        abs(round(got, 10) - want) <= TOL for got, want in zip(gots, wants, strict=True)
    )
    verdict = "identical" if same else "DIFFERENT"
    if len(wants) == 1:
        print(f"  scores: sacrebleu {wants[0]:.10f} bleuviz {gots[0]:.10f} {verdict}")
    else:
        print(f"  scores of {len(wants)} systems, each to 10 decimals: {verdict}")
        for got, want in zip(gots, wants, strict=False):
            if abs(round(got, 10) - want) > TOL:
                print(f"    sacrebleu {want:.10f} bleuviz {got:.10f}")
    return same


def sacrebleu_scores(output: Any, files: list[str]) -> list[float]:
    """Every system's score in sacrebleu's ``-f json`` output, in ``files``' order.

    One system gives one object (``{"score": ...}``); several give a list of
    ``{"system": PATH, "chrF2": "..."}`` (the score as a string, sacrebleu 2.6).
    """
    if isinstance(output, dict):
        return [float(output["score"])]
    by_path = {row["system"]: row for row in output}
    return [float(next(v for k, v in by_path[path].items() if k != "system")) for path in files]


def in_process(refs: list[str], hyps: list[str], repeats: int) -> bool:
    """The same scores in this process (no interpreter start-up or imports in the times)."""
    ok = True
    cases = [
        ("chrF", lambda: CHRF().corpus_score(hyps, [refs]).score, 0.2),
        ("chrF++", lambda: CHRF(word_order=2).corpus_score(hyps, [refs]).score, 0.2),
        ("TER", lambda: TER().corpus_score(hyps, [refs]).score, 0.5),
    ]
    for label, library, target in cases:

        def ours(label: str = label) -> float:
            clear_cache()  # TER's cache would make every run after the first free
            return score_sacrebleu(label, hyps, [refs]).corpus

        lib_time, want = best_of(repeats, library)
        our_time, got = best_of(repeats, ours)
        ratio = our_time / lib_time
        verdict = "met" if ratio <= target else "NOT met"
        print(
            f"{label + ' in process (corpus_score)':<34} sacrebleu {lib_time:7.2f} s"
            f" | bleuviz {our_time:7.2f} s (sentence + corpus) | ratio {ratio:5.3f}"
            f" (target <= {target}: {verdict})"
        )
        ok &= check(f"  {label} corpus score", got, want)
    return ok


def compile_bytecode() -> None:
    """Write bleuviz's bytecode before timing its commands, as installing a package does.

    Under ``PYTHONDONTWRITEBYTECODE`` (set on this machine) Python writes none,
    so each run of a command would compile every module changed since the last
    write (about 60 ms on a one-file chrF), which sacrebleu, installed with its
    bytecode, does not pay.
    """
    compileall.compile_dir(PACKAGE, quiet=1)
    flag = " (PYTHONDONTWRITEBYTECODE is set here)" if sys.flags.dont_write_bytecode else ""
    print(f"bytecode of {PACKAGE.name}/ compiled before the commands{flag}")


def bench_commands(args: argparse.Namespace) -> bool:
    """The whole-command comparisons on real files (chrF, chrF++, TER; chrF repeated)."""
    refs = sorted(args.data.glob("ref.*.txt")) if args.data.is_dir() else []
    hyps = sorted(args.data.glob(f"hyp.{args.system}*.txt")) if refs else []
    if not hyps:
        print(f"whole commands skipped: no ref.*.txt and hyp.{args.system}*.txt in {args.data}")
        return True
    ref, hyp = refs[0], hyps[0]
    n = len(read(str(ref)))
    compile_bytecode()
    print(f"whole commands: {hyp.name} against {ref.name}, {n} segments, best of {args.repeats}")
    ok = compare_command("chrF", ref, [hyp], ["-m", "chrf"], args.repeats, 0.2)
    ok &= compare_command(
        "chrF++", ref, [hyp], ["-m", "chrf", "--chrf-word-order", "2"], args.repeats, 0.2
    )
    ok &= compare_command("TER", ref, [hyp], ["-m", "ter"], args.repeats, 0.5)
    several = sorted(args.data.glob("hyp.*.txt"))[: args.systems]
    what = f"chrF, {len(several)} systems x {n} segments"
    ok &= compare_command(what, ref, several, ["-m", "chrf"], args.repeats, 0.2)
    ok &= in_process(read(str(ref)), read(str(hyp)), args.repeats)
    with tempfile.TemporaryDirectory() as tmp:
        big_ref, big_hyp = Path(tmp) / "ref.txt", Path(tmp) / "hyp.txt"
        for source, target in ((ref, big_ref), (hyp, big_hyp)):
            target.write_text(source.read_text(encoding="utf-8") * args.repeat_chrf, "utf-8")
        what = f"chrF, {n * args.repeat_chrf} segments (x{args.repeat_chrf})"
        ok &= compare_command(what, big_ref, [big_hyp], ["-m", "chrf"], args.repeats, 0.2)
    return ok


def main() -> int:
    args = parse_args()
    os.environ.setdefault("SACREBLEU_SEED", str(DEFAULT_SEED))
    ok = bench_commands(args)
    if args.commands_only:
        return 0 if ok else 1
    if args.ref and args.hyp:
        refs, base, system = read(args.ref), read(args.hyp[0]), read(args.hyp[1])
    else:
        refs, base, system = synthetic(args.segments)
    print(f"in process: {len(refs)} segments, best of {args.repeats}")
    ok &= bench_chrf(args.repeats, refs, base)
    ok &= bench_rouge(args.repeats, refs, base)
    ok &= bench_significance(args.repeats, refs, base, system)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
