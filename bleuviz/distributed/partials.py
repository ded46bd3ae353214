"""One partition's statistics (a task on a worker), and their exact sum (on the client).

The map: a worker reads its partition (:mod:`bleuviz.distributed.sources`) and
asks every metric for its rows through the one protocol
(:meth:`bleuviz.metrics.spec.MetricSpec.rows`), exactly as the one-machine path
does for the whole test set; rows are per segment, so a partition's rows are
the whole test set's rows of its segments. It sends back int64 column sums, the
partition's last row, and, where the client must see every row, the rows:

* rows that are not all integers (TER's average reference length with three or
  more references): the one-machine score sums them in order, rounding as it
  goes, so the client sums them in the same order (:func:`fold`);
* the metric a paired test resamples (sacrebleu-identical mode).

Sentence scores are written by the worker, one Parquet file per partition
(``part.00007.parquet``: ``segment`` then ``score:METRIC:SYSTEM`` columns, the
table reader's names for imported scores), and never travel to the client.

The reduce: int64 sums, exact in any order. A metric's corpus score is then its
own ``corpus_score`` of two rows, the sum of every row but the last and the
last (nltk's BLEU smoothing reads the last segment), which sum to the corpus.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from bleuviz.arrays import FloatArray, IntArray
from bleuviz.distributed.poisson import weighted_sums
from bleuviz.distributed.sources import Layout, Partition, read_partition
from bleuviz.errors import InputError
from bleuviz.metrics.registry import get_spec
from bleuviz.metrics.spec import Settings

#: A metric's label and a system's name.
Key = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Job:
    """What every partition computes.

    Attributes:
        labels: the registry's metric labels.
        settings: the metrics' settings (``workers`` is set to 1 on a worker:
            Dask runs the partitions in parallel).
        keep_rows: labels whose every row comes back (the paired tests' metric).
        sentence_out: a folder (local or fsspec URL) for sentence scores, or None.
        poisson: (seed, resamples) of a Poisson bootstrap of the ``poisson_labels``.
        poisson_labels: the labels the Poisson bootstrap resamples.
    """

    labels: tuple[str, ...]
    settings: Settings
    keep_rows: tuple[str, ...] = ()
    sentence_out: str | None = None
    poisson: tuple[int, int] | None = None
    poisson_labels: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Partial:
    """What one partition sends back: sums, its last row, and rows where needed."""

    index: int
    size: int
    sums: dict[Key, IntArray] = field(default_factory=dict)
    rows: dict[Key, FloatArray] = field(default_factory=dict)
    last: dict[Key, FloatArray] = field(default_factory=dict)
    boot: dict[Key, FloatArray] = field(default_factory=dict)


def run_partition(part: Partition, layout: Layout, job: Job) -> Partial:
    """Compute one partition's statistics (a Dask task: pure, text in, numbers out).

    Raises:
        InputError: the partition cannot be read (file, line and counts named).
    """
    testset = read_partition(part, layout)
    if testset is None:
        _write_sentences(part, job, {})
        return Partial(part.index, 0)
    settings = replace(job.settings, workers=1)
    out = Partial(part.index, part.size)
    columns: dict[str, FloatArray] = {}
    for label in job.labels:
        spec = get_spec(label)
        name = spec.score_name(settings)
        for system, matrix in spec.rows(testset, settings).items():
            key = (label, system)
            ints = np.rint(matrix)
            if label in job.keep_rows or not np.array_equal(ints, matrix):
                out.rows[key] = matrix
            else:
                out.sums[key] = ints.astype(np.int64).sum(axis=0)
            out.last[key] = matrix[-1].copy()
            if job.sentence_out is not None:
                columns[f"score:{name}:{system}"] = spec.sentence_scores(matrix, settings)
            if job.poisson is not None and label in job.poisson_labels:
                seed, n = job.poisson
                out.boot[key] = weighted_sums([matrix], seed, part.first, n)[0]
    _write_sentences(part, job, columns)
    return out


def _write_sentences(part: Partition, job: Job, columns: dict[str, FloatArray]) -> None:
    """Write this partition's sentence scores to ``part.NNNNN.parquet`` in the output folder."""
    if job.sentence_out is None:
        return
    import fsspec
    import pyarrow as pa
    import pyarrow.parquet as pq

    names = ["segment", *columns]
    arrays = [pa.array(np.arange(part.first, part.first + part.size, dtype=np.int64))]
    arrays += [pa.array(values, type=pa.float64()) for values in columns.values()]
    if not columns:  # an empty partition: the schema of the others is written by them
        names, arrays = ["segment"], arrays[:1]
    table = pa.table(arrays, names=names)
    path = f"{job.sentence_out.rstrip('/')}/part.{part.index:05d}.parquet"
    try:  # the folder the client made may not be where a worker writes (another machine)
        with fsspec.open(path, "wb") as f:
            pq.write_table(table, f)
    except (ImportError, NotImplementedError, OSError, ValueError) as e:
        raise InputError(
            f"--sentence-out {job.sentence_out}: a worker cannot write {path} ({e})"
        ) from None


@dataclass(frozen=True, slots=True)
class Totals:
    """The corpus, summed: per key, a small matrix whose rows sum to the corpus's.

    Attributes:
        n_segments: segments summed.
        corpus: key -> ``[sum of every row but the last, last row]`` (one row for a
            one-segment corpus), or every row where they do not all sum exactly.
        rows: key -> every row, in order, for the labels a paired test resamples.
        boot: key -> (resamples, k) Poisson bootstrap sums.
        last: key -> the corpus's last row.
    """

    n_segments: int
    corpus: dict[Key, FloatArray]
    rows: dict[Key, FloatArray]
    boot: dict[Key, FloatArray]
    last: dict[Key, FloatArray]


def fold(partials: Sequence[Partial], keys: Sequence[Key], keep: Sequence[str]) -> Totals:
    """Sum partitions (in partition order) into what the metrics score.

    Raises:
        InputError: a key has integer sums in some partitions and rows in others
            where rows are needed in order (``missing_rows`` says which to redo).
    """
    ordered = sorted((p for p in partials if p.size), key=lambda p: p.index)
    if not ordered:
        raise InputError("no segments: every partition is empty")
    n = sum(p.size for p in ordered)
    corpus, rows, boot, last = {}, {}, {}, {}
    for key in keys:
        last[key] = ordered[-1].last[key]
        if any(key in p.rows for p in ordered):
            every = np.concatenate([_rows_of(p, key) for p in ordered])
            corpus[key] = every
            if key[0] in keep:
                rows[key] = every
        else:
            total = np.sum([p.sums[key] for p in ordered], axis=0, dtype=np.int64)
            head = (total - np.rint(last[key]).astype(np.int64)).astype(np.float64)
            corpus[key] = np.vstack([head, last[key]]) if n > 1 else last[key][None, :].copy()
        if all(key in p.boot for p in ordered):
            boot[key] = np.sum([p.boot[key] for p in ordered], axis=0)
    return Totals(n, corpus, rows, boot, last)


def missing_rows(partials: Sequence[Partial], keys: Sequence[Key]) -> dict[int, set[str]]:
    """Partitions whose rows of some label must be fetched: that label's rows are not all
    integers elsewhere, so the client sums every row in order (partition -> labels)."""
    todo: dict[int, set[str]] = {}
    for key in keys:
        if any(key in p.rows for p in partials):
            for p in partials:
                if p.size and key not in p.rows:
                    todo.setdefault(p.index, set()).add(key[0])
    return todo


def _rows_of(part: Partial, key: Key) -> FloatArray:
    """A partition's rows of ``key`` (every partition must have sent them)."""
    if key not in part.rows:
        raise InputError(f"partition {part.index}: rows of {key[0]} for {key[1]!r} not sent")
    return part.rows[key]
