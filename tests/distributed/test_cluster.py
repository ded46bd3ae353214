"""On a real cluster: worker processes, the command line, and a worker killed mid-run.

One ``LocalCluster(n_workers=2, processes=True)`` serves the whole module (its
start is most of the module's time). The oracle is the one-machine command's
output, and the one-machine scores.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from typing import Any

import pytest

from bleuviz.cli.main import main
from bleuviz.distributed.engine import attach
from bleuviz.distributed.partials import Job
from bleuviz.distributed.run import compute, corpus_scores, plan_inputs
from bleuviz.io.load import load_paths
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.metrics.spec import Settings
from tests.distributed.conftest import HYPS, REFS, THREE_REFS


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """A client of two worker processes, one thread each."""
    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_command_prints_what_it_prints_without_dask(
    client: Any, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    argv = ["score", "-r", *REFS, "-i", *HYPS, "-m", "bleu", "chrf", "ter", "-f", fmt]
    assert main(argv) == 0
    here = capsys.readouterr().out
    address = client.scheduler.address
    assert main([*argv, "--dask", address, "--partition-rows", "40"]) == 0
    out, err = capsys.readouterr()
    assert out == here
    engine, dashboard = err.splitlines()
    assert engine == f"bleuviz: engine: dask {address} (2 workers), 4 partitions"
    assert dashboard == f"bleuviz: dashboard: {client.dashboard_link}"


def test_a_worker_killed_mid_run_leaves_the_result_exact(client: Any) -> None:
    settings = Settings()
    plan = plan_inputs(HYPS, THREE_REFS, rows=3)  # 42 partitions of TER, chrF and BLEU
    labels = ("BLEU", "chrF", "TER")
    pids = client.run(os.getpid)
    killed: list[int] = []

    def tick(message: str, fraction: float) -> None:
        # At the first partition done, most are queued or running; those the dead worker
        # held (done or not) are run again by Dask.
        if message == "partition 1 of 42 done" and not killed:
            victim = next(iter(pids.values()))
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    totals = compute(attach(client), plan, Job(labels, settings), tick)
    assert killed
    client.wait_for_workers(2, timeout=60)
    assert killed[0] not in client.run(os.getpid).values()  # a new process took its place
    here = Evaluation(load_paths(HYPS, THREE_REFS), settings)
    for label in labels:
        on_dask = corpus_scores(plan, totals, label, settings)
        for system, scores in here.scores(label).items():
            assert on_dask[system].corpus == scores.corpus
