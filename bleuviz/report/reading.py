"""A report read back: the test set it was made of, and the notes it shows.

A report that holds every segment carries its texts (the segment browser's),
and beside them the segment ids, every imported score exactly and every
error-span file whole (``whole_set``); this rebuilds the
``TestSet`` from them, so that the scores of the test set saved again equal
the report's. A report holding a sample says so and is refused.

Everything read is checked as a file from outside is: a report is a file
anyone may have edited, and a malformed one is refused with one line naming it.
"""

from __future__ import annotations

import binascii
import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bleuviz.errors import BleuvizError, InputError
from bleuviz.io.testset import TestSet
from bleuviz.report.segments import unpack_segments
from bleuviz.report.whole_set import testset_of

_DATA = re.compile(r'<script type="application/octet-stream" id="bv-data">([A-Za-z0-9+/=\s]*)<')


@dataclass(frozen=True, slots=True)
class ReportNote:
    """A note the report shows: on ``system``'s line of 0-based ``segment``."""

    system: str
    segment: int
    text: str
    category: str
    severity: str
    author: str
    span: tuple[int, int] | None


@dataclass(frozen=True, slots=True, eq=False)
class Reopened:
    """The test set a report holds, its notes, and the notes left out (on replaced lines)."""

    testset: TestSet
    notes: tuple[ReportNote, ...]
    earlier: int


def read_report(text: str, origin: str) -> Reopened:
    """Rebuild the test set and notes of the report ``text`` (read from ``origin``).

    Raises:
        InputError: not a bleuviz report, a malformed one, or one holding a sample
            of the segments (it cannot be reopened whole).
    """
    found = _DATA.search(text)
    if found is None:
        raise InputError(f"{origin}: not a bleuviz report (no segment data in it)")
    try:
        data = unpack_segments(found.group(1))
    except (binascii.Error, zlib.error, EOFError, OSError, ValueError) as e:
        raise InputError(f"{origin}: the report's segment data cannot be read ({e})") from None
    if not isinstance(data, dict) or not data.get("set"):
        held, total = len(data.get("segments", ())), data.get("total", "?")
        raise InputError(
            f"{origin}: this report holds {held:,} of its {total:,} segments (a sample past "
            "--max-segments); it cannot be reopened whole"
        )
    try:
        return _reopened(data)
    except BleuvizError as e:
        raise InputError(f"{origin}: {e}") from None
    except (KeyError, IndexError, TypeError, ValueError) as e:
        raise InputError(f"{origin}: the report's segment data is malformed ({e!r})") from None


def _reopened(data: Mapping[str, Any]) -> Reopened:
    """The test set and notes of unpacked report data."""
    notes, earlier = _notes(data["segments"], list(data["systems"]))
    return Reopened(testset_of(data), notes, earlier)


def _notes(
    segments: Sequence[Mapping[str, Any]], names: Sequence[str]
) -> tuple[tuple[ReportNote, ...], int]:
    """Every note shown on the current lines, and how many were on replaced lines."""
    notes, earlier = [], 0
    for i, segment in enumerate(segments):
        for k, hyp in enumerate(segment["hyps"]):
            for note in hyp.get("notes", ()):
                if note.get("earlier"):
                    earlier += 1
                    continue
                span = (int(note["span"][0]), int(note["span"][1])) if "span" in note else None
                fields = (note["text"], note["category"], note["severity"], note["author"])
                notes.append(ReportNote(names[k], i, *fields, span))
    return tuple(notes), earlier
