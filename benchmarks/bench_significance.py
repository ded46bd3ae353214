"""Time bleuviz's paired significance tests against sacrebleu's ``PairedTest``.

Builds a synthetic test set (one reference, a baseline and one system, random
words from a fixed seeded vocabulary), then times, best of ``--repeats``:

* sacrebleu ``PairedTest(..., test_type='bs' | 'ar')()`` from text (it extracts
  the statistics itself, so that is its end-to-end time);
* bleuviz ``paired_bootstrap`` / ``paired_approximate_randomization`` from
  already-computed statistics;
* bleuviz including the statistics (reference index and both systems' statistics).

It prints one line per measurement with the ratio sacrebleu / bleuviz, and
checks that the p-values (and bootstrap means and CIs) agree to 1e-6.

Usage, from the project root: python -m benchmarks.bench_significance [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from bleuviz.bleu import BleuConfig
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.stats import SegmentStats, compute_stats
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.significance import (
    DEFAULT_SEED,
    paired_approximate_randomization,
    paired_bootstrap,
)

TOL = 1e-6


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segments", type=int, default=3000, help="lines in the test set")
    parser.add_argument("--tokens", type=int, default=25, help="mean tokens per line")
    parser.add_argument("--vocabulary", type=int, default=2000, help="distinct words")
    parser.add_argument("--samples", type=int, default=1000, help="bootstrap samples")
    parser.add_argument("--trials", type=int, default=10000, help="AR trials")
    parser.add_argument("--repeats", type=int, default=3, help="best of this many runs")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="RNG seed of both tests")
    return parser.parse_args()


def make_corpus(args: argparse.Namespace) -> tuple[list[str], list[str], list[str]]:
    """Return a reference stream and two close systems (p-values far from 0 and 1)."""
    rnd = random.Random(2024)
    letters = "abcdefghijklmnopqrstuvwxyz"
    vocabulary = [
        "".join(rnd.choices(letters, k=rnd.randint(2, 9))) for _ in range(args.vocabulary)
    ]

    def line() -> list[str]:
        n = max(1, int(rnd.gauss(args.tokens, args.tokens / 4)))
        return rnd.choices(vocabulary, k=n)

    def noisy(ref: list[str], keep: float) -> str:
        words = [w if rnd.random() < keep else rnd.choice(vocabulary) for w in ref]
        if rnd.random() < 0.2:
            words = words[: len(words) * 3 // 4]
        return " ".join(words)

    refs = [line() for _ in range(args.segments)]
    baseline = [noisy(r, 0.620) for r in refs]
    system = [noisy(r, 0.622) for r in refs]
    return [" ".join(r) for r in refs], baseline, system


def best_of(repeats: int, run: Callable[[], Any]) -> tuple[float, Any]:
    """Return the fastest wall time of ``repeats`` runs and the last run's result."""
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def bleuviz_stats(refs: list[str], *systems: list[str]) -> list[SegmentStats]:
    index = build_reference_index([refs], TokenizeConfig())
    return [compute_stats(hyps, index) for hyps in systems]


def report(test: str, what: str, seconds: float, reference: float | None = None) -> None:
    ratio = "" if reference is None else f"  sacrebleu/bleuviz = {reference / seconds:6.1f}x"
    print(f"{test:<10} {what:<34} {seconds:8.3f} s{ratio}")


def bench_bootstrap(
    args: argparse.Namespace, refs: list[str], base: list[str], sys_: list[str]
) -> bool:
    named = [("baseline", base), ("system", sys_)]

    def sacre() -> list[Any]:
        test = PairedTest(named, {"BLEU": BLEU()}, [refs], test_type="bs", n_samples=args.samples)
        return list(test()[1]["BLEU"])

    config = BleuConfig()
    stats = bleuviz_stats(refs, base, sys_)
    t_sacre, oracle = best_of(args.repeats, sacre)
    t_stats, mine = best_of(
        args.repeats, lambda: paired_bootstrap(*stats, config, args.samples, args.seed)
    )
    t_full, _ = best_of(
        args.repeats,
        lambda: paired_bootstrap(*bleuviz_stats(refs, base, sys_), config, args.samples, args.seed),
    )
    name = f"bs {args.samples}"
    report(name, "sacrebleu PairedTest (from text)", t_sacre)
    report(name, "bleuviz from statistics", t_stats, t_sacre)
    report(name, "bleuviz including statistics", t_full, t_sacre)
    p_value, base_ci, sys_ci = mine
    got = (p_value, base_ci.mean, base_ci.ci, sys_ci.mean, sys_ci.ci)
    want = (oracle[1].p_value, oracle[0].mean, oracle[0].ci, oracle[1].mean, oracle[1].ci)
    return check(name, got, want)


def bench_ar(args: argparse.Namespace, refs: list[str], base: list[str], sys_: list[str]) -> bool:
    named = [("baseline", base), ("system", sys_)]

    def sacre() -> list[Any]:
        test = PairedTest(named, {"BLEU": BLEU()}, [refs], test_type="ar", n_samples=args.trials)
        return list(test()[1]["BLEU"])

    config = BleuConfig()
    stats = bleuviz_stats(refs, base, sys_)

    def full() -> float:
        return paired_approximate_randomization(
            *bleuviz_stats(refs, base, sys_), config, args.trials, args.seed
        )

    t_sacre, oracle = best_of(args.repeats, sacre)
    t_stats, mine = best_of(
        args.repeats,
        lambda: paired_approximate_randomization(*stats, config, args.trials, args.seed),
    )
    t_full, _ = best_of(args.repeats, full)
    name = f"ar {args.trials}"
    report(name, "sacrebleu PairedTest (from text)", t_sacre)
    report(name, "bleuviz from statistics", t_stats, t_sacre)
    report(name, "bleuviz including statistics", t_full, t_sacre)
    return check(name, (mine,), (oracle[1].p_value,))


def check(name: str, got: tuple[float, ...], want: tuple[float, ...]) -> bool:
    worst = max(abs(g - w) for g, w in zip(got, want, strict=True))
    ok = worst <= TOL
    print(
        f"{name:<10} {'p-value sacrebleu / bleuviz':<34} {want[0]:.6f} / {got[0]:.6f}"
        f"  max |diff| {worst:.1e} {'OK' if ok else 'MISMATCH'}"
    )
    return ok


def main() -> int:
    args = parse_args()
    os.environ["SACREBLEU_SEED"] = str(args.seed)  # PairedTest reads its seed from here
    refs, base, system = make_corpus(args)
    print(
        f"{args.segments} segments, ~{args.tokens} tokens a line, 1 reference, 2 systems; "
        f"best of {args.repeats}"
    )
    ok = bench_bootstrap(args, refs, base, system)
    ok = bench_ar(args, refs, base, system) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
