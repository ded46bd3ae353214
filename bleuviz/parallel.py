"""A pure chunk function over chunks of a test set, in worker processes: the one mechanism.

Per-segment statistics (BLEU's n-gram counts, chrF's, TER's edits, ROUGE's
F-measures) are pure functions of a run of consecutive segments, so a test set
cut into such runs is computed run by run and the parts concatenated, in the
order of the runs: the result equals computing it whole, whatever the workers
and the cuts. :func:`in_processes` deals the runs (any picklable tasks) to
worker processes, given the whole work once per worker as the pool's
initializer argument:

* with the ``fork`` context (the command line: ``bleuviz.jobs.fork_context``),
  the worker inherits it when it is forked: nothing is copied or pickled, and
  each task sends only its bounds and brings back its part;
* with a fork server (a threaded caller: the app's server), the work is
  pickled once per worker, not once per task.

If the pool breaks (a worker killed), the tasks not yet done are done here, so
a result never depends on the workers. :func:`plan` says whether worker
processes pay for a given size, and :func:`even_cuts` cuts segments into runs
of about equal weight.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from bleuviz.errors import ConfigError
from bleuviz.heap import keep_freed_memory
from bleuviz.jobs import fork_context

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

    from bleuviz.arrays import IntArray

T = TypeVar("T")
R = TypeVar("R")

#: Runs each worker process takes at least, so that the work divides evenly when
#: some runs take longer than others.
CHUNKS_PER_WORKER = 4


def plan(workers: int, size: int, threshold: int) -> BaseContext | None:
    """Return the ``fork`` context if ``workers`` > 1 processes pay for work of ``size``.

    They pay from ``threshold`` (measured by each caller, in its own unit: characters,
    segments) in a process that may fork; else None: the work stays in this process
    and no pool is started.
    """
    if workers < 2 or size < threshold:
        return None
    return fork_context()


def even_cuts(weights: IntArray, parts: int) -> list[tuple[int, int]]:
    """Cut N segments into at most ``parts`` runs ``(start, stop)`` of about equal weight.

    A segment weighs its ``weights`` entry plus one (an empty line costs too);
    no run is empty, and the runs cover ``0..N`` in order (none for N = 0).
    """
    if parts < 1:
        raise ConfigError(f"parts: must be at least 1, got {parts}")
    n = len(weights)
    ends = np.cumsum(np.asarray(weights, dtype=np.int64) + 1)
    total = int(ends[-1]) if n else 0
    targets = total * np.arange(1, parts, dtype=np.int64) // parts
    inner = np.searchsorted(ends, targets, side="right")
    bounds = np.unique(np.concatenate([[0], inner, [n]]))
    return list(pairwise(bounds.tolist()))


def in_order(
    work: Callable[[T], R],
    tasks: Sequence[T],
    workers: int,
    context: BaseContext | None,
) -> Iterator[R]:
    """Yield ``work(task)`` for every task, in order: in ``workers`` processes of
    ``context`` when it is given and there are two tasks or more, else here."""
    if context is None or workers < 2 or len(tasks) < 2:
        return map(work, tasks)
    return in_processes(work, tasks, min(workers, len(tasks)), context)


def in_processes(
    work: Callable[[T], R],
    tasks: Sequence[T],
    workers: int,
    context: BaseContext,
) -> Iterator[R]:
    """Yield ``work(task)`` for every task, in order, from ``workers`` processes of ``context``.

    Each worker adopts ``work`` once (``_adopt``, the pool's initializer) and is
    sent only tasks. If the pool breaks, the tasks not yet yielded are done here.
    ``work`` must itself use one process (a worker never starts a pool).
    """
    # Imported here: multiprocessing takes 20 ms to import, a tenth of a small command.
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    done = 0
    try:
        pool = ProcessPoolExecutor(workers, context, initializer=_adopt, initargs=(work,))
        with pool:
            for part in pool.map(_run_adopted, tasks):
                yield part
                done += 1
    except BrokenProcessPool:
        pass
    for task in tasks[done:]:
        yield work(task)


#: The work a worker process adopted (``_adopt``: set in workers only, never sent back).
_adopted: list[Callable[[Any], Any]] = []


def _adopt(work: Callable[[Any], Any]) -> None:
    """Keep ``work`` in this worker, and the memory its tasks free (the pool's initializer)."""
    _adopted[:] = [work]
    keep_freed_memory()


def _run_adopted(task: Any) -> Any:
    """Do one task of the work this worker adopted."""
    return _adopted[0](task)
