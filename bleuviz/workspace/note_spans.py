"""A test set's notes as error spans: the user's own marks, shown like a file's.

A note with a severity is one error (an MQM rater's row): its marked words, or,
without marked words, an error marked nowhere (drawn as a marker, as the MQM
TSV reader reads an unmarked error). A note without a severity is a comment:
its segment counts as rated with no error, as the notes' MQM export writes it
(a ``No-error`` row). So these spans are the ones ``bleuviz notes -f mqm`` read
back with ``--mqm`` would give, without the round trip through a file.

Notes written on an output since replaced are left out (their words no longer
fit the line), and so is a note whose words do not fit the current line.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from bleuviz.io.error_spans import HUMAN, ErrorAnnotations, ErrorSpan, SegmentAnnotation
from bleuviz.io.mqm_export import RATER
from bleuviz.io.testset import TestSet
from bleuviz.workspace.notes import MQM_CATEGORIES, Note, note_rater

#: The name the notes' spans go by beside the files' (``MQM``, ``ESA``, ...).
NOTES_NAME = "Your notes"
#: The rater of a note saved without an author's name (the MQM export's rater).
NOTES_RATER = RATER


def note_annotations(notes: Iterable[Note], testset: TestSet) -> ErrorAnnotations | None:
    """The error spans the notes on ``testset`` mark; None when no note marks an error.

    The rater is the note's author (``NOTES_RATER`` for an anonymous note), the
    category as the MQM export spells it. The annotations' ``origin`` ends with
    a digest of the notes used, so that a cache keyed on it sees every save.
    """
    used = [note for note in notes if _fits(note, testset)]
    if not any(note.is_error for note in used):
        return None
    per_system: dict[str, list[SegmentAnnotation | None]] = {}
    digest = hashlib.sha256()
    for note in sorted(used, key=lambda n: (n.system, n.segment)):
        marked = per_system.setdefault(note.system, [None] * testset.n_segments)
        rater = note_rater(note)
        marked[note.segment] = SegmentAnnotation((rater,), _spans(note, rater))
        digest.update(repr((note.system, note.segment, note.revision, note.saved)).encode())
    errors = sum(note.is_error for note in used)
    origin = f"{errors} marked notes on set {used[0].set_id} ({digest.hexdigest()[:16]})"
    segments = {name: tuple(per_system[name]) for name in testset.systems if name in per_system}
    return ErrorAnnotations(NOTES_NAME, origin, HUMAN, segments)


def _fits(note: Note, testset: TestSet) -> bool:
    """Whether ``note`` can be drawn on ``testset``'s current lines."""
    lines = testset.systems.get(note.system)
    if note.deleted or note.on_earlier_output or lines is None:
        return False
    if not 0 <= note.segment < testset.n_segments:
        return False
    return note.span is None or 0 <= note.span[0] < note.span[1] <= len(lines[note.segment])


def _spans(note: Note, rater: str) -> tuple[ErrorSpan, ...]:
    """The one error a note marks (none for a comment)."""
    if not note.is_error:
        return ()
    category = MQM_CATEGORIES.get(note.category, note.category)
    if note.span is None:
        return (ErrorSpan(0, 0, note.severity, category, rater, omission=True),)
    return (ErrorSpan(*note.span, note.severity, category, rater),)
