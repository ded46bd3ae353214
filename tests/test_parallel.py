"""``bleuviz.parallel``: runs of segments cut evenly, and work done in forked processes in order.

The oracle is the same work done here, task by task (``map``).
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from itertools import pairwise
from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleuviz import parallel
from bleuviz.errors import ConfigError
from bleuviz.parallel import even_cuts, in_order, in_processes, plan

PARENT = os.getpid()


def fork() -> multiprocessing.context.BaseContext:
    if not sys.platform.startswith("linux"):
        pytest.skip("worker processes are forked on Linux only")
    return multiprocessing.get_context("fork")


@given(weights=st.lists(st.integers(0, 50), max_size=40), parts=st.integers(1, 12))
def test_even_cuts_cover_every_segment_in_order_none_empty(weights: list[int], parts: int) -> None:
    cuts = even_cuts(np.array(weights, dtype=np.int64), parts)
    assert len(cuts) <= parts
    if not weights:
        assert cuts == []
        return
    assert cuts[0][0] == 0 and cuts[-1][1] == len(weights)
    assert all(a[1] == b[0] for a, b in pairwise(cuts))
    assert all(start < stop for start, stop in cuts)
    assert all(isinstance(bound, int) for cut in cuts for bound in cut)


def test_even_cuts_share_the_weight_evenly() -> None:
    cuts = even_cuts(np.full(1_000, 9, dtype=np.int64), 8)
    assert [stop - start for start, stop in cuts] == [125] * 8


def test_even_cuts_refuse_no_parts() -> None:
    with pytest.raises(ConfigError, match="parts: must be at least 1"):
        even_cuts(np.zeros(3, dtype=np.int64), 0)


def test_plan_forks_only_for_two_workers_from_the_threshold() -> None:
    context = fork()
    with mock.patch.object(parallel, "fork_context", lambda: context):
        assert plan(2, 100, 100) is context
        assert plan(2, 99, 100) is None
        assert plan(1, 10**9, 0) is None
    with mock.patch.object(parallel, "fork_context", lambda: None):  # a threaded caller
        assert plan(4, 10**9, 0) is None


def square_elsewhere(task: int) -> tuple[int, int]:
    """A task's square, and whether a worker process (not this one) computed it."""
    return task * task, int(os.getpid() != PARENT)


@pytest.mark.parametrize("workers", [2, 3])
def test_workers_return_every_part_in_order(workers: int) -> None:
    tasks = list(range(23))
    got = list(in_order(square_elsewhere, tasks, workers, fork()))
    assert [square for square, _ in got] == [t * t for t in tasks]
    assert all(elsewhere for _, elsewhere in got)


def test_one_worker_no_context_or_one_task_stay_here() -> None:
    for workers, context, tasks in ((1, fork(), [1, 2]), (2, None, [1, 2]), (2, fork(), [3])):
        got = list(in_order(square_elsewhere, tasks, workers, context))
        assert got == [(t * t, 0) for t in tasks]


def die_from_ten(task: int) -> tuple[int, int]:
    """A task function whose worker dies from task 10 on (as killed by the OOM killer)."""
    if task >= 10 and os.getpid() != PARENT:
        os._exit(1)
    return square_elsewhere(task)


def test_a_broken_pool_leaves_the_tasks_left_to_this_process() -> None:
    tasks = list(range(20))
    got = list(in_processes(die_from_ten, tasks, 2, fork()))
    assert [square for square, _ in got] == [t * t for t in tasks]
    assert [elsewhere for _, elsewhere in got[10:]] == [0] * 10
    assert any(elsewhere for _, elsewhere in got[:10])


def test_an_error_in_a_worker_is_raised_here() -> None:
    def fail(task: int) -> int:
        raise ValueError(f"task {task}")

    with pytest.raises(ValueError, match="task 0"):
        list(in_processes(fail, [0, 1, 2], 2, fork()))
