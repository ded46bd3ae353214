"""Time bleuviz's scoring core against sacrebleu in the same run, and report peak memory.

Usage: python benchmarks/bench_core.py [--sizes 3000 100000] [--refs 1 2] [--repeat 1]
                                       [--files HYP REF [REF ...]]

Each corpus is synthetic (about 25 tokens a line, words drawn from a fixed seeded
vocabulary), or, with ``--files``, real text: a hypothesis file and reference
files, each repeated up to the size asked for (see ``repeated``). It prints one line
per measurement:

* tokenizing alone (13a, hypothesis and references): sacrebleu's tokenizer per
  line, bleuviz's per-line path (that tokenizer, ``str.split()``, factorize) and
  bleuviz's columnar path (pyarrow), both of the latter up to integer token ids;
* sacrebleu ``corpus_bleu`` (corpus score only);
* bleuviz: reference index + statistics + sentence BLEU for every segment, with
  one worker and with one worker per core, and the ratio sacrebleu / bleuviz;
* that both corpus scores are identical;
* peak resident memory of a bleuviz-only child process (its own ``VmHWM``), on
  the columnar path and on the per-line path;
* the whole command, ``python -m bleuviz score --sentence-level`` against
  ``sacrebleu REF -i HYP``, as wall-clock time of each process, and the peak
  resident memory of the bleuviz command.

Every timed run starts with cold tokenizer caches (see ``cold_tokenizer_caches``).

Targets: at 100,000 segments, at least twice as fast as sacrebleu's corpus-only
time, with identical scores; peak memory under 1 GiB with 2 references (issues 2
and 11).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import sacrebleu  # noqa: E402

import bleuviz.bleu.encode as encode_module  # noqa: E402
from bleuviz.bleu import BleuConfig, corpus_score, sentence_scores  # noqa: E402
from bleuviz.bleu.encode import encode_lines  # noqa: E402
from bleuviz.bleu.references import build_reference_index  # noqa: E402
from bleuviz.bleu.stats import compute_stats  # noqa: E402
from bleuviz.bleu.tokenize import TokenizeConfig, default_workers, get_tokenizer  # noqa: E402

WORDS = [f"w{i}" for i in range(20000)] + [",", ".", "the", "of", "and", "a", '"', "(", ")"]


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


def repeated(path: str, n: int) -> list[str]:
    """Return n lines of ``path`` read over and over (real text at any size).

    Each pass appends its number as a last token, so no line repeats: sacrebleu's
    tokenizers memoize up to 65,536 lines, and a few thousand lines repeated would
    time its cache instead of its tokenizer.
    """
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    cycle = itertools.islice(itertools.cycle(lines), n)
    return [f"{line} {i // len(lines)}" for i, line in enumerate(cycle)]


def make_corpus(n: int, n_refs: int, files: list[str] | None) -> tuple[list[str], list[list[str]]]:
    """Return a hypothesis stream and n_refs reference streams of n lines each."""
    if not files:
        return corpus(n, 1), [corpus(n, 2 + r) for r in range(n_refs)]
    if len(files) < 1 + n_refs:
        sys.exit(f"--files: {n_refs} references need {1 + n_refs} files, got {len(files)}")
    return repeated(files[0], n), [repeated(path, n) for path in files[1 : 1 + n_refs]]


@contextlib.contextmanager
def per_line_path() -> Iterator[None]:
    """Run bleuviz as it did before the columnar path: every tokenizer per line.

    Emptying the registry of columnar tokenizers sends every name to sacrebleu's
    per-line tokenizer, ``str.split()`` and ``pandas.factorize`` (``encode_lines``).
    """
    registry = encode_module.COLUMNAR_TOKENIZERS
    encode_module.COLUMNAR_TOKENIZERS = {}
    try:
        yield
    finally:
        encode_module.COLUMNAR_TOKENIZERS = registry


def sacrebleu_tokenize(lines: list[str]) -> int:
    """sacrebleu's 13a tokenizer on every line, as its BLEU calls it; return the token count."""
    tokenizer = sacrebleu.BLEU()._preprocess_segment
    return sum(len(tokenizer(line).split()) for line in lines)


def encode_count(lines: list[str], columnar: bool) -> int:
    """bleuviz's path from lines to integer token ids; return the token count."""
    with contextlib.nullcontext() if columnar else per_line_path():
        return len(encode_lines(lines, TokenizeConfig()).ids)


def tokenizing(lines: list[str], label: str, repeat: int) -> None:
    """Time tokenizing alone on every path and print one line."""
    t_sacre, count = timed(partial(sacrebleu_tokenize, lines), repeat)
    t_line, count_line = timed(partial(encode_count, lines, False), repeat)
    t_col, count_col = timed(partial(encode_count, lines, True), repeat)
    print(
        f"{label}: tokenize {len(lines)} lines (13a): sacrebleu {t_sacre:.2f}s; bleuviz to ids "
        f"per line {t_line:.2f}s, columnar {t_col:.2f}s -> {t_sacre / t_col:.2f}x sacrebleu, "
        f"{t_line / t_col:.2f}x per line; same token count: {count == count_line == count_col}"
    )


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


def child_peak(n: int, n_refs: int, columnar: bool, files: list[str] | None) -> None:
    """In a child process: run bleuviz once and print its peak RSS in MiB."""
    hyp, refs = make_corpus(n, n_refs, files)
    with contextlib.nullcontext() if columnar else per_line_path():
        bleuviz_run(hyp, refs, 1)
    print(peak_rss_mib())


def peak_of_child(n: int, n_refs: int, columnar: bool, files: list[str] | None) -> float:
    """Run ``child_peak`` in a fresh process; return its peak RSS in MiB."""
    path = "columnar" if columnar else "per-line"
    cmd = [sys.executable, __file__, "--child", str(n), str(n_refs), path]
    cmd += ["--files", *files] if files else []
    return float(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


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


# ``python -m bleuviz ARGS``, then the process's own peak RSS (VmHWM, in kB) on stderr.
MEASURED_BLEUVIZ = """import runpy, sys
sys.argv = ["bleuviz", *sys.argv[1:]]
try:
    runpy.run_module("bleuviz", run_name="__main__", alter_sys=True)
finally:
    hwm = [s for s in open("/proc/self/status") if s.startswith("VmHWM:")]
    sys.stderr.write("\\nVmHWM " + (hwm[0].split()[1] if hwm else "0") + "\\n")
"""


def whole_commands(hyp: list[str], refs: list[list[str]]) -> tuple[float, float, float]:
    """Time both command lines on files; return (sacrebleu s, bleuviz s, bleuviz peak MiB)."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, lines in enumerate([hyp, *refs]):
            path = Path(tmp) / f"{'hyp' if i == 0 else f'ref{i}'}.txt"
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            paths.append(str(path))
        sacre = [sys.executable, "-m", "sacrebleu", *paths[1:], "-i", paths[0]]
        ours = [sys.executable, "-c", MEASURED_BLEUVIZ, "score", "--ref", *paths[1:]]
        ours += ["--hyp", paths[0], "--sentence-level", "--format", "json"]
        times, stderr = [], ""
        for cmd in (sacre, ours):
            start = time.perf_counter()
            done = subprocess.run(
                cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT
            )
            times.append(time.perf_counter() - start)
            stderr = done.stderr.decode("utf-8", "replace")
        peak_kib = int(stderr.rsplit("VmHWM ", 1)[1].split()[0])
        return times[0], times[1], peak_kib / 1024


def main() -> None:
    """Run every configuration and print one line per measurement."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[3000, 100000])
    parser.add_argument("--refs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--files", nargs="+", metavar="HYP REF", help="real text, repeated")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        n, n_refs, path = args.child
        child_peak(int(n), int(n_refs), path == "columnar", args.files)
        return
    print(f"cores: {os.cpu_count()}  sacrebleu {sacrebleu.__version__}")
    print(f"text: {' '.join(args.files) + ' (repeated)' if args.files else 'synthetic'}")
    for n in args.sizes:
        for n_refs in args.refs:
            measure(n, n_refs, args.files, args.repeat)


def measure(n: int, n_refs: int, files: list[str] | None, repeat: int) -> None:
    """Print every measurement for one corpus size and number of references."""
    hyp, refs = make_corpus(n, n_refs, files)
    label = f"n={n} refs={n_refs}"
    workers = default_workers()
    tokenizing([*hyp, *(line for stream in refs for line in stream)], label, repeat)
    t_sacre, ref_score = timed(partial(sacrebleu_score, hyp, refs), repeat)
    t_one, score_one = timed(partial(bleuviz_run, hyp, refs, 1), repeat)
    t_par, score_par = timed(partial(bleuviz_run, hyp, refs, workers), repeat)
    same = score_one == score_par == ref_score
    print(f"{label}: sacrebleu corpus_bleu {t_sacre:.2f}s (BLEU {ref_score:.4f})")
    print(
        f"{label}: bleuviz stats+sentence BLEU, 1 worker {t_one:.2f}s "
        f"-> {t_sacre / t_one:.2f}x; {workers} workers {t_par:.2f}s "
        f"-> {t_sacre / t_par:.2f}x; identical scores: {same}"
    )
    columnar, per_line = (
        peak_of_child(n, n_refs, True, files),
        peak_of_child(n, n_refs, False, files),
    )
    print(
        f"{label}: bleuviz peak RSS {columnar:.0f} MiB columnar, {per_line:.0f} MiB per line "
        "(1 worker, child process)"
    )
    t_cmd_sacre, t_cmd_ours, peak_cmd = whole_commands(hyp, refs)
    print(
        f"{label}: command sacrebleu {t_cmd_sacre:.2f}s, bleuviz score --sentence-level "
        f"{t_cmd_ours:.2f}s -> {t_cmd_sacre / t_cmd_ours:.2f}x; bleuviz peak RSS {peak_cmd:.0f} MiB"
    )


if __name__ == "__main__":
    main()
