"""Time the metrics beside BLEU against the libraries they replicate, in the same run.

For a reference file and two system files (``--ref``/``--hyp``), or a synthetic
test set when they are not given (seeded, about 25 words a line), it prints one
line per measurement with the ratio library / bleuviz, and checks the numbers:

* chrF sentence scores + corpus score: ``bleuviz.metrics.score_sacrebleu`` against
  sacrebleu ``CHRF().sentence_score`` per line plus ``corpus_score`` (what a user
  of sacrebleu's API runs to get both);
* ROUGE-L and ROUGE-2 F per segment: ``score_rouge`` against rouge-score's
  ``RougeScorer.score`` per line;
* chrF paired bootstrap (1000) and approximate randomization (10000):
  ``compare_systems_metric`` from the statistics, and including the statistics of
  both systems, against sacrebleu ``PairedTest`` (which extracts them itself).

Usage, from the project root:
  python -m benchmarks.bench_metrics [--segments 3000] [--repeats 3]
  python -m benchmarks.bench_metrics --ref REF --hyp BASELINE SYSTEM
"""

from __future__ import annotations

import argparse
import os
import random
from typing import Any

import numpy as np
from rouge_score import rouge_scorer
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.significance import PairedTest

from benchmarks.bench_significance import best_of
from bleuviz.metrics import paired_test_metric, score_rouge, score_sacrebleu
from bleuviz.significance import DEFAULT_SEED, compare_systems_metric

TOL = 1e-9


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ref", help="reference file (default: synthetic test set)")
    parser.add_argument("--hyp", nargs=2, help="baseline and system files")
    parser.add_argument("--segments", type=int, default=3000, help="synthetic lines")
    parser.add_argument("--repeats", type=int, default=3, help="best of this many runs")
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
        matrices = [score_sacrebleu("chrF", hyps, [refs]).statistics() for hyps in (base, system)]
        scorer = paired_test_metric("chrF")
        return compare_systems_metric("baseline", matrices[0], {"system": matrices[1]}, scorer)

    stats_time, rows = best_of(repeats, ours_from_stats)
    total_time, _ = best_of(repeats, ours_with_stats)
    report("chrF bs 1000 + ar 10000: sacrebleu PairedTest", lib_time)
    report("chrF bs 1000 + ar 10000: bleuviz from statistics", stats_time, lib_time)
    report("chrF bs 1000 + ar 10000: bleuviz with statistics", total_time, lib_time)
    bs, ar = (lib[t][1][1]["chrF2"][1] for t in ("bs", "ar"))
    got = [rows[1].p_value_bs, rows[1].mean, rows[1].ci, rows[1].p_value_ar]
    return check("  p-values, mean and CI", got, [bs.p_value, bs.mean, bs.ci, ar.p_value])


def main() -> int:
    args = parse_args()
    os.environ.setdefault("SACREBLEU_SEED", str(DEFAULT_SEED))
    if args.ref and args.hyp:
        refs, base, system = read(args.ref), read(args.hyp[0]), read(args.hyp[1])
    else:
        refs, base, system = synthetic(args.segments)
    print(f"{len(refs)} segments, best of {args.repeats}")
    ok = bench_chrf(args.repeats, refs, base)
    ok &= bench_rouge(args.repeats, refs, base)
    ok &= bench_significance(args.repeats, refs, base, system)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
