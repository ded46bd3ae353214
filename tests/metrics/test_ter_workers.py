"""TER's worker processes never run the caller's main script.

``multiprocessing`` starts a fork server's (or spawned) worker by running the
parent's main script again as ``__mp_main__``. In the app's server that script
is the Streamlit page (``streamlit run`` installs it as ``sys.modules["__main__"]``),
and every worker ran it without a Streamlit runtime: 720 warning lines in the
server log per TER computation, and a second and more per worker. The oracle is
a marker line the script writes each time it runs: once, in the caller alone.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.data import ROOT, SAMPLE_HYPS, SAMPLE_REFS

SCRIPT = """\
import sys, threading, time

with open(sys.argv[1], "a", encoding="utf-8") as marker:  # every run of this file
    marker.write(__name__ + "\\n")

if __name__ == "__main__":
    from bleuviz.metrics import ter_parallel
    from bleuviz.metrics.ter_config import TerConfig

    # A server's threads: TER's workers come from a fork server, as in the app.
    threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
    ter_parallel.PARALLEL_FROM = 1
    ter_parallel.prepare_workers()
    refs = [open(p, encoding="utf-8").read().splitlines() for p in {refs!r}]
    hyps = {{p: open(p, encoding="utf-8").read().splitlines() for p in {hyps!r}}}
    pools = []
    real = ter_parallel._in_pool
    ter_parallel._in_pool = lambda *a: pools.append(1) or real(*a)
    ter_parallel.ter_systems(hyps, refs, TerConfig(), workers=2)
    assert pools == [1], "scored in worker processes"
"""


def test_workers_do_not_run_the_main_script(tmp_path: Path) -> None:
    script = tmp_path / "page.py"
    script.write_text(
        SCRIPT.format(refs=[str(p) for p in SAMPLE_REFS], hyps=[str(p) for p in SAMPLE_HYPS])
    )
    marker = tmp_path / "runs.txt"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, str(script), str(marker)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert marker.read_text(encoding="utf-8").splitlines() == ["__main__"]
