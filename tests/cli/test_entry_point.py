"""``python -m bleuviz`` leaves without the interpreter's teardown: nothing written is lost.

The entry point flushes the output itself and calls ``os._exit``. These runs use
block-buffered output (``PYTHONUNBUFFERED`` removed from the environment), where
a missing flush would lose what the command printed.
"""

from __future__ import annotations

import os
import subprocess
import sys

import sacrebleu

from tests.cli.test_cli import HYPS, REFS, ROOT, lines


def buffered_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def bleuviz(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bleuviz", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=buffered_env(),
    )


def test_every_line_printed_reaches_the_reader() -> None:
    done = bleuviz("score", "--ref", *REFS, "--hyp", *HYPS, "-m", "bleu", "chrf")
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert len(out) == 2 * len(HYPS) + 2  # a score line per system and metric, two signatures
    chrf = sacrebleu.corpus_chrf(lines(HYPS[-1]), [lines(r) for r in REFS]).score
    assert out[-3] == f"repeat: chrF2 = {chrf:.2f}"
    assert out[-1].startswith("chrF2|nrefs:2|")


def test_an_error_is_written_with_its_status() -> None:
    done = bleuviz("score", "--ref", *REFS, "--hyp", str(ROOT / "no-such-file.txt"))
    assert done.returncode == 2
    assert done.stderr.startswith("bleuviz: error: no such file: ")
    assert done.stdout == ""


def test_a_reader_that_leaves_early_is_no_error() -> None:
    with subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bleuviz",
            "score",
            "--ref",
            *REFS,
            "--hyp",
            *HYPS,
            "--sentence-level",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=buffered_env(),
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()
        proc.stdout.close()
        status = proc.wait()
        errors = proc.stderr.read()
    assert first.startswith(b"literal: BLEU = ")
    assert status == 0
    assert errors == b""
