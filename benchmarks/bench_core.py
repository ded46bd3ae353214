"""Time bleuviz's scoring core against sacrebleu in the same run, and report peak memory.

Usage: python benchmarks/bench_core.py [--sizes 3000 100000] [--refs 1 2] [--repeat 1]

For each synthetic corpus (about 25 tokens a line, words drawn from a fixed
seeded vocabulary) it prints one line per measurement:

* sacrebleu ``corpus_bleu`` (corpus score only);
* bleuviz: reference index + statistics + sentence BLEU for every segment, with
  one worker and with one worker per core, and the ratio sacrebleu / bleuviz;
* that both corpus scores are identical;
* peak resident memory of a bleuviz-only child process (its own ``VmHWM``);
* the whole command, ``python -m bleuviz score --sentence-level`` against
  ``sacrebleu REF -i HYP``, as wall-clock time of each process.

Every timed run starts with cold tokenizer caches (see ``cold_tokenizer_caches``).

Target (issue 2): at 100,000 segments, at least twice as fast as sacrebleu's
corpus-only time, with identical scores; peak memory under 1 GiB with 2 references.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import sacrebleu  # noqa: E402

from bleuviz.bleu import BleuConfig, corpus_score, sentence_scores  # noqa: E402
from bleuviz.bleu.references import build_reference_index  # noqa: E402
from bleuviz.bleu.stats import compute_stats  # noqa: E402
from bleuviz.bleu.tokenize import TokenizeConfig, default_workers, get_tokenizer  # noqa: E402

WORDS = [f"w{i}" for i in range(20000)] + [",", ".", "the", "of", "and", "a", '"', "(", ")"]


def corpus(n: int, seed: int) -> list[str]:
    """Return n synthetic lines of 15-35 tokens (mean 25), Zipf-like word choice."""
    rng = random.Random(seed)
    weights = [1.0 / (rank + 1) for rank in range(len(WORDS))]
    out = []
    for _ in range(n):
        words = rng.choices(WORDS, weights=weights, k=rng.randint(15, 35))
        out.append(" ".join(words).replace(" ,", ",").replace(" .", "."))
    return out


def bleuviz_run(hyp: list[str], refs: list[list[str]], workers: int) -> float:
    """Compute statistics and every sentence BLEU; return the corpus score."""
    tok = TokenizeConfig()
    index = build_reference_index(refs, tok, 4, workers)
    stats = compute_stats(hyp, index, workers)
    sentence_scores(stats, BleuConfig())
    return corpus_score(stats, BleuConfig(), tok, len(refs)).score


def sacrebleu_score(hyp: list[str], refs: list[list[str]]) -> float:
    """sacrebleu's corpus BLEU (corpus score only)."""
    return float(sacrebleu.corpus_bleu(hyp, refs).score)


def cold_tokenizer_caches() -> None:
    """Start the next run as a fresh process would: no line memoized by a tokenizer.

    sacrebleu's tokenizers memoize lines (``lru_cache`` on ``__call__``, one cache
    per class, keyed by object and line). ``corpus_bleu`` builds new tokenizer
    objects every call, but bleuviz reuses one per name, so a repeated run would
    find its lines already tokenized. A full cache also slows forked workers
    down: evicting the entries they inherit copies every page holding one.
    """
    tokenizer = get_tokenizer("13a")
    for part in (tokenizer, *vars(tokenizer).values()):
        clear = getattr(type(part).__call__, "cache_clear", None)
        if clear is not None:
            clear()
    get_tokenizer.cache_clear()


def timed(fn, repeat: int):  # type: ignore[no-untyped-def]
    """Return (best seconds, result), every run starting with cold tokenizer caches."""
    best, result = float("inf"), None
    for _ in range(repeat):
        cold_tokenizer_caches()
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def child_peak(n: int, n_refs: int) -> None:
    """In a child process: run bleuviz once and print its peak RSS in MiB."""
    hyp, refs = corpus(n, 1), [corpus(n, 2 + r) for r in range(n_refs)]
    bleuviz_run(hyp, refs, 1)
    print(peak_rss_mib())


def peak_rss_mib() -> float:
    """Return this process's peak resident memory in MiB.

    On Linux, ``ru_maxrss`` of a child started by ``subprocess`` also counts the
    parent's resident memory at the time of the spawn (the parent's memory map
    before ``exec``), here well over a GiB after the timed runs. ``VmHWM`` is the
    high-water mark of this program's own memory map only.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def whole_commands(hyp: list[str], refs: list[list[str]]) -> tuple[float, float]:
    """Time both command lines on files; return (sacrebleu s, bleuviz s)."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, lines in enumerate([hyp, *refs]):
            path = Path(tmp) / f"{'hyp' if i == 0 else f'ref{i}'}.txt"
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            paths.append(str(path))
        sacre = [sys.executable, "-m", "sacrebleu", *paths[1:], "-i", paths[0]]
        ours = [
            sys.executable,
            "-m",
            "bleuviz",
            "score",
            "--ref",
            *paths[1:],
            "--hyp",
            paths[0],
            "--sentence-level",
            "--format",
            "json",
        ]
        times = []
        for cmd in (sacre, ours):
            start = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
            times.append(time.perf_counter() - start)
        return times[0], times[1]


def main() -> None:
    """Run every configuration and print one line per measurement."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[3000, 100000])
    parser.add_argument("--refs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--child", type=int, nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_peak(*args.child)
        return
    workers = default_workers()
    print(f"cores: {os.cpu_count()}  sacrebleu {sacrebleu.__version__}")
    for n in args.sizes:
        for n_refs in args.refs:
            hyp, refs = corpus(n, 1), [corpus(n, 2 + r) for r in range(n_refs)]
            label = f"n={n} refs={n_refs}"
            t_sacre, ref_score = timed(partial(sacrebleu_score, hyp, refs), args.repeat)
            t_one, score_one = timed(partial(bleuviz_run, hyp, refs, 1), args.repeat)
            t_par, score_par = timed(partial(bleuviz_run, hyp, refs, workers), args.repeat)
            same = score_one == score_par == ref_score
            print(f"{label}: sacrebleu corpus_bleu {t_sacre:.2f}s (BLEU {ref_score:.4f})")
            print(
                f"{label}: bleuviz stats+sentence BLEU, 1 worker {t_one:.2f}s "
                f"-> {t_sacre / t_one:.2f}x; {workers} workers {t_par:.2f}s "
                f"-> {t_sacre / t_par:.2f}x; identical scores: {same}"
            )
            peak = subprocess.run(
                [sys.executable, __file__, "--child", str(n), str(n_refs)],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.strip()
            print(f"{label}: bleuviz peak RSS {float(peak):.0f} MiB (1 worker, child process)")
            t_cmd_sacre, t_cmd_ours = whole_commands(hyp, refs)
            print(
                f"{label}: command sacrebleu {t_cmd_sacre:.2f}s, bleuviz score --sentence-level "
                f"{t_cmd_ours:.2f}s -> {t_cmd_sacre / t_cmd_ours:.2f}x"
            )


if __name__ == "__main__":
    main()
