"""``--jobs`` and ``BLEUVIZ_JOBS``: the worker count of the scoring commands, which changes no byte.

The outputs are compared between whole processes (``python -m bleuviz``), one
counting in one process (``--jobs 1``), the other with two workers; the
bundled sample is too small for worker processes, so a second case lowers
``bleuviz.bleu.chunks.PROCESSES_FROM`` and ``COLUMNAR_PROCESSES_FROM`` to 0 in its
process, so that they count it (under 13a, columnar, and intl, per line).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bleuviz.cli.main import build_parser, main
from bleuviz.cli.options import bleu_config, cli_settings
from bleuviz.jobs import JOBS_ENV, usable_cores
from tests.conftest import ROOT
from tests.data import HUMAN_SCORES, SAMPLE_HYPS, SAMPLE_REFS

FILES = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]
SENTENCES = ["score", *FILES, "--sentence-level", "--format", "json"]

#: ``python -m bleuviz`` with worker processes from 0 characters (both thresholds).
POOLED = (
    "import sys\n"
    "from bleuviz.bleu import chunks\n"
    "from bleuviz.cli.main import run\n"
    "from bleuviz.analysis import error_tokens\n"
    "chunks.PROCESSES_FROM = chunks.COLUMNAR_PROCESSES_FROM = error_tokens.PROCESSES_FROM = 0\n"
    "sys.argv = ['bleuviz', *sys.argv[1:]]\n"
    "run()\n"
)


def bleuviz(*argv: str, pooled: bool = False, env: dict[str, str] | None = None) -> bytes:
    """Run the command line in a fresh process with the worktree first; return its stdout."""
    command = [sys.executable, *(["-c", POOLED] if pooled else ["-m", "bleuviz"]), *argv]
    environ = {name: value for name, value in os.environ.items() if name != JOBS_ENV}
    environ |= {"PYTHONPATH": str(ROOT), **(env or {})}
    done = subprocess.run(command, cwd=ROOT, env=environ, capture_output=True, check=True)
    return done.stdout


@pytest.mark.parametrize("tokenize", ["13a", "intl"])
def test_sentence_level_json_is_the_same_bytes_with_one_or_two_jobs(tokenize: str) -> None:
    one = bleuviz(*SENTENCES, "-tok", tokenize, "--jobs", "1")
    assert b'"sentences"' in one
    assert bleuviz(*SENTENCES, "-tok", tokenize, "--jobs", "2") == one
    assert bleuviz(*SENTENCES, "-tok", tokenize, "--jobs", "2", pooled=True) == one
    assert bleuviz(*SENTENCES, "-tok", tokenize, pooled=True, env={JOBS_ENV: "3"}) == one


def settings_of(*argv: str):  # type: ignore[no-untyped-def]
    args = build_parser(list(argv)).parse_args(list(argv))
    return cli_settings(args, bleu_config(args))


@pytest.mark.parametrize(
    ("argv", "environ", "expected"),
    [
        (["--jobs", "1"], {}, 1),
        (["--jobs", "3"], {JOBS_ENV: "2"}, 3),
        ([], {JOBS_ENV: "2"}, 2),
        ([], {}, None),
    ],
)
@pytest.mark.parametrize("command", ["score", "compare", "correlate"])
def test_the_settings_carry_the_job_count(
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    argv: list[str],
    environ: dict[str, str],
    expected: int | None,
) -> None:
    monkeypatch.delenv(JOBS_ENV, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    extra = ["--human", "x"] if command == "correlate" else []
    settings = settings_of(command, *FILES, *extra, *argv)
    assert settings.workers == (usable_cores() if expected is None else expected)


def test_report_takes_jobs_and_does_not_state_it() -> None:
    args = build_parser(["report"]).parse_args(["report", *FILES, "-o", "x.html", "--jobs", "2"])
    assert cli_settings(args, bleu_config(args)).workers == 2
    from bleuviz.cli.report import _UNSTATED

    assert "jobs" in _UNSTATED  # the same bytes whatever the job count


def test_spans_prints_the_same_bytes_with_one_or_two_jobs() -> None:
    """Each system tallied in a forked worker (threshold 0) or here: the same analysis."""
    from tests.cli.test_spans_cli import BASE

    one = bleuviz(*BASE, "--format", "json", "--jobs", "1")
    assert b'"error_tokens"' in one
    assert bleuviz(*BASE, "--format", "json", "--jobs", "2", pooled=True) == one


COMMANDS = {
    "score": ["score", *FILES],
    "compare": ["compare", *FILES],
    "correlate": ["correlate", *FILES, "--seg-scores", str(HUMAN_SCORES), "--human", "human"],
    "report": ["report", *FILES, "-o", "{out}"],
    "spans": ["spans", *FILES],
}


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("0", "argument --jobs: must be at least 1, got 0"),
        ("-2", "argument --jobs: must be at least 1, got -2"),
        ("two", "argument --jobs: not a whole number: 'two'"),
        ("1.5", "argument --jobs: not a whole number: '1.5'"),
    ],
)
def test_a_bad_option_is_one_line_naming_it(
    capsys: pytest.CaptureFixture[str], tmp_path, command: str, value: str, message: str
) -> None:
    argv = [a.format(out=tmp_path / "r.html") for a in COMMANDS[command]]
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--jobs", value])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert err.count("\n") == 1 and err.endswith(f"error: {message}\n")


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("value", ["0", "-1", "two", "1.5", ""])
def test_a_bad_variable_is_one_line_naming_it(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path,
    command: str,
    value: str,
) -> None:
    monkeypatch.setenv(JOBS_ENV, value)
    argv = [a.format(out=tmp_path / "r.html") for a in COMMANDS[command]]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == (
        f"bleuviz: error: {JOBS_ENV}: must be a whole number of at least 1, got {value!r}\n"
    )
    assert not (tmp_path / "r.html").exists()


def test_a_bad_variable_is_refused_by_the_command_line(tmp_path) -> None:
    """The same in a whole process: exit status 2, one line, no traceback."""
    command = [sys.executable, "-m", "bleuviz", *SENTENCES]
    env = {**os.environ, "PYTHONPATH": str(ROOT), JOBS_ENV: "many"}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    expected = f"{JOBS_ENV}: must be a whole number of at least 1, got 'many'"
    assert done.stderr == f"bleuviz: error: {expected}\n"


#: ``python -m bleuviz`` with chrF's, ROUGE's and TER's worker processes from the first
#: character (segment for TER), writing "pool of N tasks" on stderr for each pool it starts.
POOLED_METRICS = (
    "import sys\n"
    "from bleuviz import parallel\n"
    "from bleuviz.cli.main import run\n"
    "from bleuviz.metrics import chrf_scorers, rouge_metric, ter_parallel\n"
    "chrf_scorers.PROCESSES_FROM = rouge_metric.PROCESSES_FROM = 0\n"
    "ter_parallel.PARALLEL_FROM, ter_parallel.CHUNK_SEGMENTS = 1, 7\n"
    "real = parallel.in_processes\n"
    "def told(work, tasks, workers, context):\n"
    "    sys.stderr.write(f'pool of {len(tasks)} tasks\\n')\n"
    "    return real(work, tasks, workers, context)\n"
    "parallel.in_processes = ter_parallel.in_processes = told\n"
    "sys.argv = ['bleuviz', *sys.argv[1:]]\n"
    "run()\n"
)


@pytest.mark.parametrize(
    "metrics",
    [
        ["chrf"],
        ["chrf++", "--chrf-lowercase"],
        ["ter", "--ter-normalized"],
        ["rouge-l", "rouge-2", "chrf", "ter"],
    ],
)
def test_metrics_print_the_same_bytes_from_worker_processes(metrics: list[str]) -> None:
    """chrF, TER and ROUGE rows from two worker processes, as from one process."""
    argv = ["score", *FILES, "--sentence-level", "--format", "json", "-m", *metrics]
    one = bleuviz(*argv, "--jobs", "1")
    assert b'"sentences"' in one
    assert bleuviz(*argv, "--jobs", "2") == one
    command = [sys.executable, "-c", POOLED_METRICS, *argv, "--jobs", "2"]
    environ = {name: value for name, value in os.environ.items() if name != JOBS_ENV}
    done = subprocess.run(
        command, cwd=ROOT, env={**environ, "PYTHONPATH": str(ROOT)}, capture_output=True, check=True
    )
    assert done.stdout == one
    pools = [line for line in done.stderr.decode().splitlines() if line.startswith("pool of")]
    assert len(pools) == len([m for m in metrics if not m.startswith("--")])
