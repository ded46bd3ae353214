"""Faults on a real cluster: each is one line on stderr, exit status 2, after a bounded wait.

A worker killed while it runs a partition (Dask allowed no retry here: its
``KilledWorker``), a scheduler without any worker, a scheduler killed mid-run,
and a reader's refusal inside a partition (no worker log before the line). The
kills happen at the first partition done (the progress callback), when the
others are queued or running.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bleuviz.cli.main import main
from bleuviz.distributed import engine, run
from tests.distributed.conftest import HYPS, REFS
from tests.serving import free_port

#: TER of the sample, three segments a task: 42 partitions, each a few milliseconds.
ARGV = ["score", "-r", *REFS, "-i", *HYPS, "-m", "ter", "--partition-rows", "3"]


def _run(capfd: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str, float]:
    """Run the command here; return its status, stdout, stderr (workers' too) and seconds."""
    start = time.monotonic()
    status = main(argv)
    out, err = capfd.readouterr()
    return status, out, err, time.monotonic() - start


def _hear(monkeypatch: pytest.MonkeyPatch, act: Callable[[], None] = lambda: None) -> list[str]:
    """Hear the run's progress reports; call ``act`` at the first (a partition done)."""
    heard: list[str] = []
    real = run.compute

    def compute(*args: Any) -> Any:
        def report(message: str, fraction: float) -> None:
            heard.append(message)
            if len(heard) == 1:
                act()

        return real(*args[:3], report)

    monkeypatch.setattr(run, "compute", compute)
    return heard


def _one_line(err: str, start: str) -> None:
    lines = err.splitlines()
    assert lines[:1] == [line for line in lines if line.startswith("bleuviz: engine:")]
    error = [line for line in lines if not line.startswith(("bleuviz: engine:", "bleuviz: dash"))]
    assert len(error) == 1 and error[0].startswith(f"bleuviz: error: {start}"), err
    assert "Traceback" not in err


def test_a_worker_killed_running_a_partition_is_one_line(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import dask
    from distributed import Client, LocalCluster

    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        (pid,) = client.run(os.getpid).values()
        _hear(monkeypatch, lambda: os.kill(pid, signal.SIGKILL))
        capfd.readouterr()
        status, out, err, _ = _run(capfd, [*ARGV, "--dask", cluster.scheduler_address])
    assert (status, out) == (2, "")
    _one_line(err, "--dask: a partition's worker died 1 time (killed, or out of memory)")


def test_a_scheduler_without_workers_is_one_line_after_a_bounded_wait(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from distributed import LocalCluster

    monkeypatch.setattr(engine, "NO_WORKER_TIMEOUT", 3)
    heard = _hear(monkeypatch)
    with LocalCluster(n_workers=0, dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        status, out, err, seconds = _run(capfd, [*ARGV, "--dask", address])
    assert (status, out) == (2, "")
    _one_line(err, f"--dask: the scheduler at {address} has had no worker for 3 s")
    assert seconds < 3 + 10
    assert heard and all(m.startswith("no worker; waiting ") for m in heard)  # the wait, shown


def test_a_scheduler_killed_mid_run_is_one_line(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {**os.environ, "DASK_LOGGING__DISTRIBUTED": "critical"}
    scheduler = subprocess.Popen(
        ["dask", "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
        env=quiet,
        stderr=subprocess.DEVNULL,
    )
    worker = subprocess.Popen(
        ["dask", "worker", address, "--nthreads", "1", "--no-dashboard", "--no-nanny"],
        env=quiet,
        stderr=subprocess.DEVNULL,
    )
    try:
        from distributed import Client

        with Client(address, timeout=30) as client:
            client.wait_for_workers(1, timeout=60)
        _hear(monkeypatch, scheduler.kill)
        status, out, err, seconds = _run(capfd, [*ARGV, "--dask", address])
    finally:
        for proc in (worker, scheduler):
            proc.kill()
            proc.wait()
    assert (status, out) == (2, "")
    _one_line(err, f"--dask: lost the Dask scheduler at {address} mid-run")
    assert seconds < 60


def test_bad_utf8_inside_a_partition_is_one_line_without_the_workers_log(
    capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = Path(HYPS[0]).read_bytes().split(b"\n")
    lines[100] = b"bad \xff byte"
    bad = tmp_path / "hyp.bad.en"
    bad.write_bytes(b"\n".join(lines))
    argv = ["score", "-r", REFS[0], "-i", str(bad), "--partition-rows", "50", "--dask", "local:1"]
    status, out, err, _ = _run(capfd, argv)
    assert (status, out) == (2, "")
    _one_line(err, f"{bad}: invalid UTF-8 at line 101")


def test_a_worker_that_cannot_write_sentence_scores_says_so(tmp_path: Path) -> None:
    """The folder the client made is not where a worker writes (another machine, gone)."""
    from bleuviz.distributed.partials import Job, run_partition
    from bleuviz.distributed.run import plan_inputs
    from bleuviz.errors import InputError
    from bleuviz.metrics.spec import Settings

    (tmp_path / "a-file").write_text("not a folder")
    out = str(tmp_path / "a-file" / "scores")
    plan = plan_inputs(HYPS, REFS, rows=50)
    with pytest.raises(
        InputError, match=r"^--sentence-out .*: a worker cannot write .*part\.00000"
    ):
        run_partition(plan.partitions[0], plan.layout, Job(("BLEU",), Settings(), sentence_out=out))


def test_a_scheduler_killed_under_the_command_line_prints_no_client_log(tmp_path: Path) -> None:
    """The command as a user runs it: ``distributed.client`` keeps its own ERROR level, so
    silencing ``distributed`` left its reconnect traceback before the line (review r3)."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {**os.environ, "DASK_LOGGING__DISTRIBUTED": "critical"}
    words = [
        "the",
        "cat",
        "sat",
        "on",
        "a",
        "mat",
        "while",
        "one",
        "dog",
        "ran",
        "far",
        "away",
        "from",
        "home",
    ]
    lines = [" ".join(words[(i + k) % len(words)] for k in range(20)) for i in range(40_000)]
    (tmp_path / "hyp.txt").write_text("\n".join(lines) + "\n")
    (tmp_path / "ref.txt").write_text("\n".join(reversed(lines)) + "\n")
    scheduler = subprocess.Popen(
        ["dask", "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
        env=quiet,
        stderr=subprocess.DEVNULL,
    )
    worker = subprocess.Popen(
        ["dask", "worker", address, "--nthreads", "1", "--no-dashboard", "--no-nanny"],
        env=quiet,
        stderr=subprocess.DEVNULL,
    )
    argv = ["score", "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt")]
    argv += ["-m", "ter", "--partition-rows", "500", "--dask", address]
    try:
        from distributed import Client

        with Client(address, timeout=30) as client:
            client.wait_for_workers(1, timeout=60)
        command = subprocess.Popen(
            [sys.executable, "-m", "bleuviz", *argv],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ),
        )  # fmt: skip
        assert command.stderr is not None
        engine_line = command.stderr.readline()
        assert engine_line.startswith("bleuviz: engine:")
        time.sleep(1)  # partitions under way
        scheduler.kill()
        out, err = command.communicate(timeout=120)
    finally:
        for proc in (worker, scheduler):
            proc.kill()
            proc.wait()
    assert (command.returncode, out) == (2, "")
    _one_line(engine_line + err, f"--dask: lost the Dask scheduler at {address} mid-run")
