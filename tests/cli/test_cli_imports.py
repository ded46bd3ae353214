"""What a command imports: start-up is most of a small command's time.

``score -m chrf`` needs numpy and sacrebleu (its signature), not pandas (0.2 s to
import) nor pyarrow (0.1 s, BLEU's and chrF++'s tokenizers); BLEU with its
columnar tokenizers needs pyarrow but not pandas; each command's heavy modules
are imported where that command runs. Each case runs the command
in a fresh interpreter and lists the modules it left in ``sys.modules``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.data import ROOT, SAMPLE_HYPS, SAMPLE_REFS

HEAVY = ("pandas", "pyarrow", "sqlite3", "scipy", "plotly")


def imported_by(argv: list[str]) -> set[str]:
    """Return the heavy top-level modules ``python -m bleuviz ARGV`` imports."""
    code = (
        "import contextlib, io, json, sys\n"
        "from bleuviz.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    status = main({argv!r})\n"
        "print(json.dumps([status, sorted({m.split('.')[0] for m in sys.modules})]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    status, modules = json.loads(out.stdout)
    assert status == 0
    return set(modules) & set(HEAVY)


FILES = ["-r", str(SAMPLE_REFS[0]), "-i", str(SAMPLE_HYPS[0]), str(SAMPLE_HYPS[1])]


@pytest.mark.parametrize(
    ("argv", "heavy"),
    [
        (["score", *FILES, "-m", "chrf"], set()),
        (["score", *FILES, "-m", "chrf", "--chrf-word-order", "2"], {"pyarrow"}),
        (["score", *FILES], {"pyarrow"}),
        (["score", *FILES, "--sentence-level"], {"pyarrow"}),
        (["score", *FILES, "-m", "bleu", "chrf"], {"pyarrow"}),
        (["score", *FILES, "-tok", "char", "-lc"], {"pyarrow"}),
    ],
)
def test_score_imports_only_what_its_metrics_need(argv: list[str], heavy: set[str]) -> None:
    assert imported_by(argv) == heavy
