"""``--dask``, ``--partition-rows`` and ``--sentence-out``: score and compare on Dask.

The options of ``score`` and ``compare`` that send the work to Dask (the
``bleuviz[dask]`` extra), and the runs behind them (:mod:`bleuviz.distributed`).
What the commands print is the one-machine output, byte for byte; what Dask
adds goes to stderr: one line naming the engine, the dashboard's address when
there is one, and the partitions done on a terminal.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bleuviz.cli.options import STDIN, whole_number
from bleuviz.cli.ticker import terminal_progress
from bleuviz.errors import ConfigError, InputError

if TYPE_CHECKING:
    from bleuviz.cli.tested import TestedMetric
    from bleuviz.distributed.partials import Totals
    from bleuviz.distributed.sources import Plan
    from bleuviz.metrics.spec import Settings

#: Options that only mean something with --dask.
_DASK_ONLY = ("partition_rows", "sentence_out")


def add_dask_options(parser: argparse.ArgumentParser, sentence_out: bool = True) -> None:
    """Add --dask and --partition-rows (and --sentence-out, for score)."""
    group = parser.add_argument_group("Dask (pip install 'bleuviz[dask]')")
    group.add_argument(
        "--dask",
        metavar="ENGINE",
        help="run on Dask: local[:WORKERS] starts worker processes here; tcp://HOST:PORT "
        "joins a running scheduler. Output as without it; the engine is named on stderr",
    )
    group.add_argument(
        "--partition-rows",
        type=whole_number(1),
        metavar="N",
        help="segments per Dask task (default 250,000)",
    )
    if sentence_out:
        group.add_argument(
            "--sentence-out",
            metavar="DIR",
            help="with --dask: write every segment's scores as Parquet files in DIR "
            "(local or an fsspec URL), one per partition",
        )


def check_dask_args(args: argparse.Namespace) -> None:
    """Refuse --dask with what it cannot do, and its options without it.

    Raises:
        ConfigError: a Dask-only option without --dask, or --dask with --set,
            ``--hyp -``, --seg-scores or --sentence-level.
    """
    if args.dask is None:
        given = [name for name in _DASK_ONLY if getattr(args, name, None) is not None]
        if given:
            raise ConfigError(f"--{given[0].replace('_', '-')}: only with --dask")
        return
    refused = [
        ("--set", args.set is not None, "give the files (a saved test set is read here)"),
        ("--hyp -", STDIN in args.hyp, "give a file (workers cannot read this standard input)"),
        ("--seg-scores", bool(args.seg_scores), "imported scores are not read on Dask"),
        (
            "--sentence-level",
            getattr(args, "sentence_level", False),
            "use --sentence-out DIR: sentence scores are written by the workers",
        ),
    ]
    for option, given_, why in refused:
        if given_:
            raise ConfigError(f"{option}: not with --dask; {why}")


@dataclass(frozen=True, slots=True)
class DaskRun:
    """A test set scored on Dask: its plan and the exact sums."""

    plan: Plan
    totals: Totals


def plan_on_dask(args: argparse.Namespace, settings: Settings) -> Plan:
    """Check the settings can travel and plan the files' partitions (nothing submitted yet).

    Raises:
        ConfigError: Dask is not installed.
        InputError: a MeCab tokenizer, or the files are refused (misaligned, empty,
            a format --dask does not read).
    """
    try:
        from bleuviz.distributed.limits import DEFAULT_PARTITION_ROWS
        from bleuviz.distributed.run import check_travels, plan_inputs
    except ImportError as e:
        raise ConfigError(
            f"--dask: {e.name} is not installed; pip install 'bleuviz[dask]'"
        ) from None
    check_travels(settings)
    others = [path for path in (args.src, args.docids) if path is not None]
    return plan_inputs(args.hyp, args.ref, others, args.partition_rows or DEFAULT_PARTITION_ROWS)


def run_on_dask(
    args: argparse.Namespace,
    plan: Plan,
    settings: Settings,
    labels: tuple[str, ...],
    keep_rows: tuple[str, ...] = (),
    poisson: tuple[int, int] | None = None,
) -> DaskRun:
    """Start or join the engine and sum every partition's statistics.

    ``keep_rows`` labels come back whole (sacrebleu-identical paired tests); past
    ``EXACT_RESAMPLING_SEGMENTS`` segments the workers instead run a Poisson
    bootstrap of them with ``poisson`` (seed, resamples).

    Raises:
        ConfigError: --dask names no engine.
        InputError: a partition is refused, or the scheduler does not answer.
    """
    from bleuviz.distributed.engine import connect
    from bleuviz.distributed.partials import Job
    from bleuviz.distributed.run import compute

    large = is_large(plan)
    sentence_out = getattr(args, "sentence_out", None)
    if sentence_out is not None:
        _prepare_folder(sentence_out)
    job = Job(
        labels,
        settings,
        keep_rows=() if large else keep_rows,
        sentence_out=sentence_out,
        poisson=poisson if large and keep_rows else None,
        poisson_labels=keep_rows if large else (),
    )
    with connect(args.dask) as engine:
        n = len(plan.partitions)
        parts = f"{n:,} partition{'s' if n != 1 else ''}"
        print(f"bleuviz: engine: {engine.description}, {parts}", file=sys.stderr)
        if engine.dashboard:
            print(f"bleuviz: dashboard: {engine.dashboard}", file=sys.stderr)
        with terminal_progress("dask") as progress:  # a terminal sees the partitions done
            totals = compute(engine, plan, job, progress)
    return DaskRun(plan, totals)


def is_large(plan: Plan) -> bool:
    """Whether the corpus is past sacrebleu-identical resampling (a Poisson bootstrap runs)."""
    from bleuviz.distributed import limits

    return plan.n_segments > limits.EXACT_RESAMPLING_SEGMENTS


def _prepare_folder(url: str) -> None:
    """Create the --sentence-out folder; refuse one that holds files (never overwrite)."""
    import fsspec

    # An unknown protocol (ValueError), a missing backend (ImportError), a read-only one
    # (NotImplementedError), a path that cannot be made (OSError).
    try:
        fs, path = fsspec.core.url_to_fs(url)
        held = fs.exists(path) and bool(fs.ls(path))
        if not held:
            fs.makedirs(path, exist_ok=True)
    except (ImportError, NotImplementedError, OSError, ValueError) as e:
        raise InputError(f"--sentence-out {url}: cannot write there ({e})") from None
    if held:
        raise InputError(f"--sentence-out {url}: the folder is not empty; give a new one")


def tested_on_dask(
    run: DaskRun, label: str, settings: Settings, args: argparse.Namespace
) -> TestedMetric:
    """The metric ``compare`` tests, scored on Dask.

    Up to ``EXACT_RESAMPLING_SEGMENTS`` segments every row came back, and the
    tests are the one-machine tests (sacrebleu's random stream); past it, the
    Poisson bootstrap's paired test (no approximate randomization, no all-pairs).
    """
    from bleuviz.cli.tested import TestedMetric
    from bleuviz.distributed.run import corpus_scores, poisson_paired
    from bleuviz.metrics.registry import get_spec
    from bleuviz.significance.all_pairs import PairTest
    from bleuviz.significance.by_metric import pair_tester, segments_tested, tested_pairs

    spec = get_spec(label)
    scores = corpus_scores(run.plan, run.totals, label, settings)
    first = scores[run.plan.layout.systems[0]].signature
    counts = (args.paired_bs, args.paired_ar, args.seed)
    if is_large(run.plan):
        results = poisson_paired(run.plan, run.totals, label, settings)

        def every_pair() -> tuple[dict[str, float], list[PairTest]]:
            raise ConfigError("--all-pairs: not past the exact limit on Dask")

        return TestedMetric(
            spec, scores, lambda *_: results, lambda *_: run.plan.n_segments, first, every_pair
        )

    def used(baseline: str, system: str) -> int:
        return segments_tested(spec, scores[baseline], scores[system])

    def all_pairs() -> tuple[dict[str, float], list[PairTest]]:
        return tested_pairs(spec, settings, scores, *counts)

    return TestedMetric(
        spec, scores, pair_tester(spec, settings, scores, *counts), used, first, all_pairs
    )
