"""On a terminal, ``score`` and ``compare`` draw TER's progress in segments on one stderr line.

The oracle is the number of segments: every system's lines, counted chunk by
chunk as they are scored (paragraph-long lines come a few to a chunk; the
budget is made small here so the short sample's lines do the same).
"""

from __future__ import annotations

import re
import sys

import pytest

from bleuviz.cli.main import main
from bleuviz.metrics import ter_parallel
from tests.data import SAMPLE_HYPS, SAMPLE_REFS, SAMPLE_SYSTEM_LINES

HYPS = [str(p) for p in SAMPLE_HYPS]
REFS = [str(p) for p in SAMPLE_REFS]
N_SYSTEMS = len(SAMPLE_SYSTEM_LINES)
TOTAL = sum(len(lines) for lines in SAMPLE_SYSTEM_LINES.values())


@pytest.mark.parametrize(
    "command",
    [
        ["score", "-m", "ter"],
        ["compare", "--metric", "TER", "--paired-bs", "10", "--paired-ar", "0"],
    ],
)
def test_a_terminal_sees_the_segments_scored(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setattr(ter_parallel, "CHUNK_PAIRS", 4_000)
    ter_parallel.clear_cache()
    assert main([*command, "-r", *REFS, "-i", *HYPS]) == 0
    err = capsys.readouterr().err
    line = re.compile(rf"\rbleuviz: TER: ([0-9,]+) of {TOTAL:,} segments \({N_SYSTEMS} systems\) *")
    drawn = line.findall(err)
    done = [int(d.replace(",", "")) for d in drawn]
    assert done[0] == 0 and done[-1] == TOTAL
    assert done == sorted(done) and len(set(done)) > N_SYSTEMS + 1  # within systems too
    last = err.rsplit("\r", 1)[1]
    assert last.rstrip(" \n") == f"bleuviz: TER: {N_SYSTEMS} systems scored"
    drawing = err[err.index("\r") :]  # compare may warn first (its --paired-bs)
    assert drawing.count("\n") == 1 and drawing.endswith("\n")  # one line, rewritten in place


def test_a_pipe_sees_no_progress(capsys: pytest.CaptureFixture[str]) -> None:
    ter_parallel.clear_cache()
    assert main(["score", "-m", "ter", "-r", *REFS, "-i", *HYPS]) == 0
    assert capsys.readouterr().err == ""
