"""What a command imports: start-up is most of a small command's time.

``score -m chrf`` needs numpy, not pandas (0.2 s to import), pyarrow (0.15 s,
BLEU's tokenizers and the words of a large chrF++) nor sacrebleu (0.1-0.2 s; the
signatures are written without it); BLEU with its columnar tokenizers needs
pyarrow but not pandas nor sacrebleu (its other tokenizers are sacrebleu's
own); each command's heavy modules are
imported where that command runs, and only the module of the subcommand run.
Each case runs the command in a fresh interpreter and lists the modules it left
in ``sys.modules``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.data import ROOT, SAMPLE_HYPS, SAMPLE_REFS

HEAVY = ("pandas", "pyarrow", "sqlite3", "scipy", "plotly", "sacrebleu", "multiprocessing")


def modules_after(argv: list[str]) -> set[str]:
    """Return every module ``python -m bleuviz ARGV`` leaves imported."""
    code = (
        "import contextlib, io, json, sys\n"
        "from bleuviz.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    status = main({argv!r})\n"
        "print(json.dumps([status, sorted(sys.modules)]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    status, modules = json.loads(out.stdout)
    assert status == 0
    return set(modules)


def imported_by(argv: list[str]) -> set[str]:
    """Return the heavy top-level modules ``python -m bleuviz ARGV`` imports."""
    return {name.split(".")[0] for name in modules_after(argv)} & set(HEAVY)


FILES = ["-r", str(SAMPLE_REFS[0]), "-i", str(SAMPLE_HYPS[0]), str(SAMPLE_HYPS[1])]


@pytest.mark.parametrize(
    ("argv", "heavy"),
    [
        (["score", *FILES, "-m", "chrf"], set()),
        (["score", *FILES, "-m", "chrf", "--chrf-word-order", "2"], set()),
        (["score", *FILES], {"pyarrow"}),
        (["score", *FILES, "--sentence-level"], {"pyarrow"}),
        (["score", *FILES, "-m", "bleu", "chrf"], {"pyarrow"}),
        (["score", *FILES, "-tok", "char", "-lc"], {"pyarrow"}),
        # A per-line tokenizer is sacrebleu's; its words are numbered by pa.array,
        # which imports pandas (bleuviz.bleu.encode says why that trade is taken).
        (["score", *FILES, "-tok", "intl"], {"pyarrow", "sacrebleu", "pandas"}),
        (["score", *FILES, "-m", "ter"], {"sacrebleu", "multiprocessing"}),
    ],
)
def test_score_imports_only_what_its_metrics_need(argv: list[str], heavy: set[str]) -> None:
    assert imported_by(argv) == heavy


def test_a_command_imports_no_other_commands_module() -> None:
    commands = modules_after(["score", *FILES, "-m", "chrf"])
    others = {"compare", "rouge", "correlate", "add", "listing", "tested"}
    assert {f"bleuviz.cli.{name}" for name in others} & commands == set()
    assert "bleuviz.cli.score" in commands


#: Modules a plain-text chrF command has no use for: other formats' readers and
#: writers, TER's, resampling, and concurrent.futures (with logging; plain
#: threads count).
NOT_FOR_PLAIN_CHRF = {
    "bleuviz.significance.resampling",
    "bleuviz.io.table",
    "bleuviz.io.wmt_xml",
    "bleuviz.io.strict_json",
    "bleuviz.render.json_stream",
    "bleuviz.render.latex",
    "bleuviz.metrics.ter_score",
    "concurrent.futures",
}


def test_plain_text_chrf_loads_no_other_format_or_metric() -> None:
    assert modules_after(["score", *FILES, "-m", "chrf"]) & NOT_FOR_PLAIN_CHRF == set()
    as_json = modules_after(["score", *FILES, "-m", "chrf", "--format", "json"])
    assert "bleuviz.render.json_stream" in as_json
