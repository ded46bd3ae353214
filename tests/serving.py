"""A server started by a command, in its own process group, until it answers its health check.

Shared by the browser tests, and the tests of ``bleuviz app`` from a checkout and from a wheel.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

STARTUP_TIMEOUT = 90.0  # a cold start on a slow, shared machine


def free_port() -> int:
    """Return a TCP port that is free right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def streamlit_command(script: str, port: int) -> list[str]:
    """``streamlit run SCRIPT`` on ``port``, headless and sending no usage statistics."""
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        script,
        "--server.port",
        str(port),
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
    ]


@contextmanager
def serving(
    command: Sequence[str], port: int, cwd: Path, env: Mapping[str, str], log: Path
) -> Iterator[str]:
    """Run ``command`` until ``/_stcore/health`` on ``port`` answers ``ok``; yield the base URL.

    The process group is terminated on exit (killed if it lingers).
    """
    with log.open("wb") as out:
        proc = subprocess.Popen(
            list(command),
            cwd=cwd,
            env=dict(env),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_healthy(url, proc, log)
            yield url
        finally:
            _stop(proc)


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    """Poll the health check; fail with the server's log if it exits or never answers."""
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the server exited with {proc.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.read().strip() == b"ok":
                    return
        except OSError:
            pass
        time.sleep(0.25)
    pytest.fail(
        f"no answer from {url}/_stcore/health in {STARTUP_TIMEOUT:.0f} s:\n{log.read_text()}"
    )


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Terminate the server's process group; kill it if it does not leave."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=15)
