"""The job count (``--jobs``, ``BLEUVIZ_JOBS``, the usable cores) and when forking is safe."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from bleuviz import jobs
from bleuviz.errors import ConfigError
from bleuviz.jobs import JOBS_ENV, fork_context, job_count, usable_cores


@pytest.mark.parametrize(
    ("process_cpu_count", "affinity", "cpu_count", "expected"),
    [
        (lambda: 6, {0, 1}, 8, 6),  # Python 3.13+: os.process_cpu_count
        (None, {0, 2, 5}, 8, 3),  # the affinity mask (taskset, a container's cpuset)
        (None, None, 8, 8),  # neither: every core
        (None, None, None, 1),  # os.cpu_count() unknown
    ],
)
def test_usable_cores_prefer_the_process_count_then_the_affinity_mask(
    monkeypatch: pytest.MonkeyPatch,
    process_cpu_count: object,
    affinity: set[int] | None,
    cpu_count: int | None,
    expected: int,
) -> None:
    for name, value in [
        ("process_cpu_count", process_cpu_count),
        ("sched_getaffinity", None if affinity is None else lambda pid: affinity),
    ]:
        if value is None:
            monkeypatch.delattr(os, name, raising=False)
        else:
            monkeypatch.setattr(os, name, value, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: cpu_count)
    assert usable_cores() == expected


def test_usable_cores_are_this_process_affinity_here() -> None:
    if hasattr(os, "process_cpu_count"):
        assert usable_cores() == os.process_cpu_count()
    elif hasattr(os, "sched_getaffinity"):
        assert usable_cores() == len(os.sched_getaffinity(0))
    else:
        assert usable_cores() == os.cpu_count()


@pytest.mark.parametrize(
    ("option", "environ", "expected"),
    [
        (3, {}, 3),
        (1, {}, 1),
        (None, {JOBS_ENV: "4"}, 4),
        (None, {JOBS_ENV: " 2 "}, 2),
        (2, {JOBS_ENV: "4"}, 2),  # the option wins over the variable
        (2, {JOBS_ENV: "zero"}, 2),  # ... which is then not read
        (None, {"OTHER": "5"}, None),  # neither: the usable cores
    ],
)
def test_job_count_takes_the_option_then_the_variable_then_the_cores(
    option: int | None, environ: dict[str, str], expected: int | None
) -> None:
    assert job_count(option, environ) == (usable_cores() if expected is None else expected)


@pytest.mark.parametrize("option", [0, -1, -8])
def test_a_job_count_below_one_is_refused_naming_the_option(option: int) -> None:
    with pytest.raises(ConfigError, match=rf"^--jobs: must be at least 1, got {option}$"):
        job_count(option, {})


@pytest.mark.parametrize("value", ["0", "-2", "two", "1.5", "", "2_0", "٣", "+0"])
def test_a_bad_variable_is_refused_naming_it(value: str) -> None:
    with pytest.raises(ConfigError, match=rf"^{JOBS_ENV}: must be a whole number of at least 1"):
        job_count(None, {JOBS_ENV: value})


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux only")
def test_fork_only_in_a_process_without_other_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs.threading, "active_count", lambda: 1)
    context = fork_context()
    assert context is not None and context.get_start_method() == "fork"
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    monkeypatch.undo()
    thread.start()
    try:
        assert fork_context() is None  # a lock another thread holds would stay held
    finally:
        release.set()
        thread.join()


def test_no_fork_off_linux(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs.threading, "active_count", lambda: 1)
    monkeypatch.setattr(jobs.sys, "platform", "darwin")
    assert fork_context() is None
