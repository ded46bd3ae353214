"""Score a test set on Dask: plan the partitions, run them, sum them, score the sums.

The one driver the command line's ``score --dask`` and ``compare --dask`` call.
Every metric goes the same way, through the registry and the metric protocol:
rows per partition on the workers, int64 sums on the client, and the metric's
own ``corpus_score`` and ``signature`` of the sums (:mod:`bleuviz.distributed.partials`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from bleuviz.arrays import FloatArray
from bleuviz.distributed.engine import Engine
from bleuviz.distributed.partials import (
    Job,
    Key,
    Partial,
    Totals,
    fold,
    missing_rows,
    run_partition,
)
from bleuviz.distributed.sources import Plan, plan_parquet, plan_plain, plan_table
from bleuviz.errors import InputError
from bleuviz.io.decode import file_extension
from bleuviz.io.testset import TestSet
from bleuviz.metrics.registry import get_spec
from bleuviz.metrics.spec import MetricScores, Settings, readonly
from bleuviz.progress import Progress
from bleuviz.significance.resampling import (
    PairedResult,
    bootstrap_p_value,
    estimate_ci,
    paired_result,
)

#: Tokenizers that stay on this machine: MeCab's (sacrebleu[ja], sacrebleu[ko]) wraps
#: a C tagger and a dictionary installed here, which worker machines do not have
#: and which cannot be pickled to them.
_STAY_HOME = frozenset({"ja-mecab", "ko-mecab"})


def check_travels(settings: Settings) -> None:
    """Refuse settings the workers cannot reproduce, before anything is submitted.

    Raises:
        InputError: a MeCab tokenizer.
    """
    name = settings.tokenize.name
    if name in _STAY_HOME:
        raise InputError(
            f"--tokenize {name}: MeCab's tokenizer cannot travel to Dask workers (a C "
            "library and its dictionary, not picklable); score without --dask"
        )


def plan_inputs(
    hyps: Sequence[str],
    refs: Sequence[str],
    others: Sequence[str] = (),
    rows: int = 1,
    bounds: Sequence[int] | None = None,
) -> Plan:
    """Plan the inputs as the one-machine reader would read them, by their extensions.

    One ``.parquet`` file (or folder or glob), ``.jsonl`` or ``.tsv`` table given
    as the only ``--hyp`` holds the whole test set; anything else is plain text.

    Raises:
        InputError: a format --dask does not read (CSV, XML, SGML), or what the
            planner refuses (misaligned files, empty files).
    """
    files = [*hyps, *refs, *others]
    ext = file_extension(files[0].rstrip("/")) if files else ""
    folder = len(files) == 1 and ext == "" and not refs  # a folder (or glob) of Parquet files
    if len(files) == 1 and (ext == ".parquet" or folder):
        return plan_parquet(files[0], rows, bounds)
    if len(files) == 1 and ext in (".jsonl", ".json", ".tsv"):
        return plan_table(files[0], rows, bounds)
    for name in files:
        if file_extension(name) in (".csv", ".xml", ".sgm", ".sgml", ".parquet"):
            raise InputError(
                f"{name}: --dask reads plain files, or one .jsonl, .tsv or .parquet table alone"
            )
    return plan_plain(hyps, refs, others, rows, bounds)


def stub_testset(plan: Plan) -> TestSet:
    """A one-segment test set with the plan's systems and references (signatures read
    the number of references; no text is needed)."""
    layout = plan.layout
    return TestSet(
        {name: ("",) for name in layout.systems}, tuple(("",) for _ in range(layout.n_refs))
    )


def compute(engine: Engine, plan: Plan, job: Job, progress: Progress | None = None) -> Totals:
    """Run every partition and sum them exactly.

    A label whose rows are not all integers somewhere (TER with 3+ references) is
    summed in order on the client from every row: partitions that sent sums only
    are asked again for their rows of that label (no sentence files, no bootstrap).
    """
    partials = engine.map(run_partition, plan.partitions, plan.layout, job, progress=progress)
    keys: list[Key] = [(label, name) for label in job.labels for name in plan.layout.systems]
    todo = missing_rows(partials, keys)
    if todo:
        labels = tuple(sorted(set().union(*todo.values())))
        again_job = replace(job, labels=labels, keep_rows=labels, sentence_out=None, poisson=None)
        redo = [plan.partitions[i] for i in sorted(todo)]
        again = engine.map(run_partition, redo, plan.layout, again_job)
        by_index: dict[int, Partial] = {p.index: p for p in partials}
        for partial in again:
            by_index[partial.index].rows.update(partial.rows)
    return fold(partials, keys, job.keep_rows)


def corpus_scores(
    plan: Plan, totals: Totals, label: str, settings: Settings
) -> dict[str, MetricScores]:
    """Each system's corpus score and signature of ``label`` (no sentence scores: they are
    in the ``--sentence-out`` files), as the one-machine ``MetricScores``."""
    spec = get_spec(label)
    testset = stub_testset(plan)
    empty = readonly(np.zeros(0))
    out = {}
    for name in plan.layout.systems:
        matrix = totals.corpus[(label, name)]
        rows = totals.rows.get((label, name))
        out[name] = MetricScores(
            spec,
            empty if rows is None else readonly(spec.sentence_scores(rows, settings)),
            spec.corpus_score(matrix, settings),
            spec.signature(testset, settings, matrix),
            None if rows is None else readonly(rows),
        )
    return out


def poisson_samples(totals: Totals, label: str, system: str, settings: Settings) -> FloatArray:
    """Score a system's Poisson-bootstrap sums with the metric's own resampler."""
    spec = get_spec(label)
    key = (label, system)
    sums = totals.boot[key]
    resampler = spec.resampler(settings, totals.corpus[key])
    lasts = np.repeat(totals.last[key][None, :], len(sums), axis=0)
    return np.asarray(resampler.bootstrap_scores(sums, lasts), dtype=np.float64)


def poisson_paired(
    plan: Plan, totals: Totals, label: str, settings: Settings
) -> list[PairedResult]:
    """Paired bootstrap of every system against the first, from Poisson-bootstrap sums.

    The same statistics as sacrebleu's ``_paired_bs_test`` (CI from sorted samples,
    p = (c + 1) / (n + 1) over mean-shifted differences), but each resample weights
    every segment by its Poisson weight, shared by all systems.
    """
    names = plan.layout.systems
    scores = corpus_scores(plan, totals, label, settings)
    real = [scores[name].corpus for name in names]
    samples = [poisson_samples(totals, label, name, settings) for name in names]
    rows = [paired_result(names[0], estimate_ci(real[0], samples[0]), None, None)]
    for j in range(1, len(names)):
        p_bs = bootstrap_p_value(samples[0], samples[j], abs(real[0] - real[j]))
        rows.append(paired_result(names[j], estimate_ci(real[j], samples[j]), p_bs, None))
    return rows
