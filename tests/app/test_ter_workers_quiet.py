"""TER in the app leaves the server's log quiet: its workers never run the page script.

Before, each worker process re-ran the app's script as ``__mp_main__`` without
a Streamlit runtime (the script runner installs the page as
``sys.modules["__main__"]``): hundreds of "missing ScriptRunContext" warnings
per TER computation. The app runs in a fresh process (``AppTest``, whose script
runner installs ``__main__`` as the server's does), so that its fork server and
workers write to the stderr read here.
"""

from __future__ import annotations

import os
import subprocess
import sys

from tests.data import ROOT

SCRIPT = """\
import sys
from streamlit.testing.v1 import AppTest
from bleuviz.metrics import ter_parallel

ter_parallel.PARALLEL_FROM = 1  # the sample's 378 segments go to the workers
ter_parallel.prepare_workers()  # as the server does once a test set is loaded
pools = []
real = ter_parallel._in_pool
ter_parallel._in_pool = lambda *a: pools.append(1) or real(*a)
sys.argv = ["app.py"]
at = AppTest.from_file({app!r}, default_timeout=120)
at.query_params["metrics"] = "TER"
print("--- the app runs", file=sys.stderr, flush=True)  # AppTest's own warning is before
at.run()
assert not at.exception, at.exception
assert pools == [1], "TER scored in worker processes"
"""


def test_ter_workers_write_nothing_to_the_server_log() -> None:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(app=str(ROOT / "app.py"))],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    log = done.stderr.split("--- the app runs\n", 1)[1]
    assert "ScriptRunContext" not in log
    assert log == ""
