"""``score`` with BLEU on plain files reads them chunk by chunk (issue 48: memory bounded by
the chunk): no file is read whole, and every byte printed is the whole-text path's.

Oracle: the same command on the whole-text path (``Evaluation`` over the test
set read whole), which the golden outputs hold to sacrebleu; errors are held
to the whole-file reader's messages.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from bleuviz.bleu import chunks
from bleuviz.bleu import streamed as streamed_counting
from bleuviz.cli import score
from bleuviz.cli.main import build_parser, main
from bleuviz.io import load
from tests.conftest import ROOT
from tests.data import SAMPLE_HYPS, SAMPLE_REFS

SAMPLE = ROOT / "bleuviz" / "sample_data"
FILES = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]


def printed(argv: list[str], streamed: bool) -> str:
    """What ``main(argv)`` prints, read chunk by chunk or (``streamed`` False) whole."""
    out = io.StringIO()
    whole = mock.patch.object(score, "_streams", lambda args: False)
    with contextlib.redirect_stdout(out), whole if not streamed else contextlib.nullcontext():
        assert main(argv) == 0
    return out.getvalue()


def refuse_whole_reads(*args: object, **kwargs: object) -> None:
    raise AssertionError("a file was read whole")


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--sentence-level"],
        ["--sentence-level", "-f", "json"],
        ["-f", "latex"],
        ["--sentence-level", "-f", "json", "--flavor", "nltk", "--smooth", "method7"],
        ["--sentence-level", "--flavor", "tf-nmt", "--max-order", "3"],
        ["--sentence-level", "-f", "json", "-tok", "intl", "-lc", "--jobs", "2"],
        ["-tok", "char", "--jobs", "2", "--src", str(SAMPLE / "source.de")],
        ["--docids", str(SAMPLE / "docids.txt"), "-s", "floor", "-sv", "0.2"],
        ["--confidence", "--confidence-n", "50", "--sentence-level", "-f", "json"],
        ["--confidence", "--seed", "7", "-f", "latex", "--flavor", "nltk", "--jobs", "2"],
    ],
)
def test_bleu_on_plain_files_is_read_in_chunks_and_prints_the_same_bytes(
    options: list[str],
) -> None:
    argv = ["score", *FILES, *options]
    with (
        mock.patch.object(load, "read_path", refuse_whole_reads),
        mock.patch.object(streamed_counting, "STREAMED_CHARACTERS", 300),  # several chunks
        mock.patch.object(chunks, "PROCESSES_FROM", 0),  # -tok intl --jobs 2: processes
    ):
        streamed = printed(argv, streamed=True)
    assert streamed == printed(argv, streamed=False)


def test_the_same_file_twice_keeps_its_two_names_and_paths() -> None:
    argv = ["score", "--ref", str(SAMPLE_REFS[0]), "--hyp", *[str(SAMPLE_HYPS[0])] * 2]
    streamed = printed([*argv, "-f", "json"], streamed=True)
    assert streamed == printed([*argv, "-f", "json"], streamed=False)
    assert '"name": "literal (2)"' in streamed


@pytest.mark.parametrize(
    ("options", "streams"),
    [
        ([], True),
        (["-m", "bleu", "chrf"], False),  # chrF's rows are its own
        (["-m", "ter"], False),
        (["--confidence"], True),  # sacrebleu's bootstrap: every row kept, no text
        (["--seg-scores", "x.seg.score"], False),
        (["--mqm-weights", "major:5"], False),
        (["--lower-is-better", "x"], False),
    ],
)
def test_what_is_read_whole(options: list[str], streams: bool) -> None:
    argv = ["score", *FILES, *options]
    assert score._streams(build_parser(argv).parse_args(argv)) is streams


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "--hyp", "-", "--ref", "r.txt"],  # standard input
        ["score", "--hyp", "test.tsv"],  # a table holding the references
        ["score", "--hyp", "h.txt", "--ref", "r.txt", "--src", "s.xml"],
        ["score", "--set", "wmt17"],
    ],
)
def test_other_inputs_are_read_whole(argv: list[str]) -> None:
    assert not score._streams(build_parser(argv).parse_args(argv))


def bleuviz(*argv: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "bleuviz", *argv], cwd=ROOT, env=environ, capture_output=True,
        text=True,
    )  # fmt: skip


def one_line_error(proc: subprocess.CompletedProcess[str]) -> str:
    """The error line of a refused command: exit status 2, one line, no traceback."""
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    return proc.stderr.strip()


def test_a_file_shorter_than_another_is_named_with_both_counts(tmp_path: Path) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\n" * 5, encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a b c\n" * 3, encoding="utf-8")
    message = one_line_error(bleuviz("score", "--ref", str(ref), "--hyp", str(hyp)))
    assert message == f"bleuviz: error: line counts differ: {ref} has 5 lines, {hyp} has 3 lines"


def test_invalid_utf8_is_named_with_its_file_and_line(tmp_path: Path) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\n" * 5, encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_bytes(b"a b c\n" * 3 + b"a \xff c\n" + b"a b c\n")
    message = one_line_error(bleuviz("score", "--ref", str(ref), "--hyp", str(hyp)))
    assert message == f"bleuviz: error: {hyp}: invalid UTF-8 at line 4 (byte offset 20)"


def test_an_empty_file_is_named(tmp_path: Path) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\n", encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_bytes(b"")
    message = one_line_error(bleuviz("score", "--ref", str(ref), "--hyp", str(hyp)))
    assert message == f"bleuviz: error: {hyp}: file is empty"


def test_a_terminal_sees_the_segments_counted_and_the_input_read(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setattr(streamed_counting, "STREAMED_CHARACTERS", 300)
    assert main(["score", *FILES]) == 0
    err = capsys.readouterr().err
    drawn = re.findall(r"\rbleuviz: BLEU: ([0-9,]+) segments, ([0-9]+)% of the input read *", err)
    counted = [int(segments.replace(",", "")) for segments, _ in drawn]
    percents = [int(percent) for _, percent in drawn]
    n = len(SAMPLE_REFS[0].read_text(encoding="utf-8").splitlines())
    assert counted[0] == 0 and counted[-1] == n and len(counted) > 3
    assert counted == sorted(counted) and percents == sorted(percents) and percents[-1] == 100
    assert err.endswith("\n") and err.count("\n") == 1
