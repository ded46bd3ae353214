"""A long computation's progress on a terminal: one stderr line, rewritten in place.

Only when stderr is a terminal: a log file or a pipe gets nothing, so what a
script captures is the command's output and its errors alone.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from bleuviz.progress import Progress


@dataclass(slots=True)
class _Line:
    """The line drawn last (working state): its length, to blank what a shorter one leaves."""

    title: str
    width: int = 0

    def __call__(self, what: str, fraction: float) -> None:
        text = f"bleuviz: {self.title}: {what}"
        print(f"\r{text.ljust(self.width)}", end="", file=sys.stderr)
        sys.stderr.flush()
        self.width = len(text)


@contextmanager
def terminal_progress(title: str) -> Iterator[Progress | None]:
    """Give a callback drawing ``title``'s reports on stderr's terminal (None off a terminal).

    Each report rewrites the line ("bleuviz: TER: 1,280 of 22,500 segments (12
    systems)"); leaving the block ends the line, if one was drawn.
    """
    if not sys.stderr.isatty():
        yield None
        return
    line = _Line(title)
    try:
        yield line
    finally:
        if line.width:
            print(file=sys.stderr)
