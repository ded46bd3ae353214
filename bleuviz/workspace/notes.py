"""Notes on segments: the MQM-style categories and the ``Note`` record one segment holds.

A note may mark an error as an MQM rater does: the erroneous words, as character
offsets into the hypothesis line, and a severity. A note without a severity is
a comment, not an error (the MQM export writes it as a ``No-error`` row, see
``bleuviz.io.mqm_export``); marking words needs a severity.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from bleuviz.errors import InputError
from bleuviz.io.error_spans import MAJOR, MINOR, NEUTRAL
from bleuviz.io.mqm_export import RATER, MqmRow, normalise_comment
from bleuviz.render.spreadsheet import inert_cell

#: Error categories after MQM's top level (Lommel et al., 2014), in the order offered.
NOTE_CATEGORIES: tuple[str, ...] = (
    "accuracy/mistranslation",
    "omission",
    "addition",
    "fluency/grammar",
    "terminology",
    "style",
    "other",
)
#: How the MQM export (``bleuviz.io.mqm_export``) spells each category, as Google's
#: MQM files do (``Accuracy/Omission``; ``Terminology``, ``Style`` and ``Other`` at the
#: top level, which mt-metrics-eval's weights treat like their subcategories).
MQM_CATEGORIES: dict[str, str] = {
    "accuracy/mistranslation": "Accuracy/Mistranslation",
    "omission": "Accuracy/Omission",
    "addition": "Accuracy/Addition",
    "fluency/grammar": "Fluency/Grammar",
    "terminology": "Terminology",
    "style": "Style",
    "other": "Other",
}
#: A note's severities, as MQM's raters give them (lower case, as ``ErrorSpan.severity``);
#: ``NO_SEVERITY`` makes the note a comment.
NOTE_SEVERITIES: tuple[str, ...] = (MAJOR, MINOR, NEUTRAL)
NO_SEVERITY = ""
#: The longest note kept (characters): a note is a finding, not a document.
NOTE_MAX_CHARS = 10_000
#: Who wrote a note when the user gave no name.
ANONYMOUS = "anonymous"
#: The longest author name kept (characters).
AUTHOR_MAX_CHARS = 100


@dataclass(frozen=True, slots=True)
class Note:
    """What a user wrote about one system's output on one segment.

    Attributes:
        set_id: the test set's id.
        system: the system's name.
        segment: the segment's 0-based index (the app shows index + 1).
        text: the note as typed (may be empty: the category alone is a finding).
        category: one of ``NOTE_CATEGORIES``.
        saved: when it was last saved (UTC).
        revision: its revision number (1, 2, ...), counting deletions.
        author: who saved it (``ANONYMOUS`` if they gave no name).
        on_earlier_output: written on lines the system no longer has (it was replaced).
        deleted: this revision deleted the note (only in a note's history).
        severity: one of ``NOTE_SEVERITIES``, or ``NO_SEVERITY`` (a comment, not an error).
        span: the marked words: (start, end) character offsets into the hypothesis
            line the note was written on, end exclusive; None if none are marked.
    """

    set_id: str
    system: str
    segment: int
    text: str
    category: str
    saved: datetime
    revision: int = 1
    author: str = ANONYMOUS
    on_earlier_output: bool = False
    deleted: bool = False
    severity: str = NO_SEVERITY
    span: tuple[int, int] | None = None

    @property
    def is_error(self) -> bool:
        """Whether the note marks an error (it has a severity), not only comments."""
        return self.severity != NO_SEVERITY


def check_note(
    text: str, category: str, severity: str = NO_SEVERITY, span: tuple[int, int] | None = None
) -> None:
    """Refuse an unknown category or severity, an over-long note, or words without a severity.

    The span's offsets are checked against the line by ``check_span``.

    Raises:
        InputError: naming the category, the severity, the length or the span.
    """
    if category not in NOTE_CATEGORIES:
        raise InputError(f"category: {category!r} is not one of {', '.join(NOTE_CATEGORIES)}")
    if severity != NO_SEVERITY and severity not in NOTE_SEVERITIES:
        raise InputError(
            f"severity: {severity!r} is not one of {', '.join(NOTE_SEVERITIES)} (or none)"
        )
    if len(text) > NOTE_MAX_CHARS:
        raise InputError(f"note: {len(text)} characters, at most {NOTE_MAX_CHARS} are kept")
    if span is not None and severity == NO_SEVERITY:
        known = ", ".join(NOTE_SEVERITIES)
        raise InputError(f"severity: marked words are an error and need a severity ({known})")


def check_span(span: tuple[int, int], line: str) -> None:
    """Refuse marked words that are not a non-empty run of characters of ``line``.

    Raises:
        InputError: naming the offsets and the line's length.
    """
    start, end = span
    whole = all(isinstance(x, int) and not isinstance(x, bool) for x in span)
    if not whole or not 0 <= start < end <= len(line):
        raise InputError(
            f"span: ({start!r}, {end!r}) is not a run of the hypothesis's characters "
            f"(0 <= start < end <= {len(line)})"
        )


def check_author(author: str) -> str:
    """Return ``author`` on one line, ``ANONYMOUS`` if blank, refusing an over-long one.

    Raises:
        InputError: the name is longer than ``AUTHOR_MAX_CHARS``.
    """
    name = " ".join(author.split())
    if len(name) > AUTHOR_MAX_CHARS:
        raise InputError(f"author: {len(name)} characters, at most {AUTHOR_MAX_CHARS}")
    return name or ANONYMOUS


def keep_both(theirs: Note, mine: str, author: str) -> str:
    """Return one text holding the note saved meanwhile and the one being saved.

    The saved text comes first, then a line naming who adds the second; both
    stay in the note's history as well.
    """
    if not theirs.text:
        return mine
    if not mine:
        return theirs.text
    return f"{theirs.text}\n\n— {check_author(author)}: {mine}"


def mqm_rows(notes: Sequence[Note]) -> tuple[list[MqmRow], tuple[Note, ...]]:
    """Return the MQM TSV's rows of ``notes`` and the notes left out.

    Each row's rater is the note's author (``note_rater``).

    A note with a severity is an error: its category spelled as Google's files
    spell it (``MQM_CATEGORIES``), its marked words, its text the comment. A
    note without a severity is a comment, not an error: a ``No-error`` row
    (the rater looked at the segment and marked no error) whose comment is
    the note's text; its category is not written. A note written on an output
    since replaced is left out: its words and the current line no longer match.

    The comment and the rater, free text, start with ``'`` where a spreadsheet
    would run them (``inert_cell``, as every CSV/TSV export; the reader ignores
    comments); the system and the texts must stay the test set's, which the file
    is read back against.
    """
    kept = [n for n in notes if not n.on_earlier_output]
    rows = [
        MqmRow(n.system, n.segment, n.severity, MQM_CATEGORIES[n.category], n.span, _comment(n))
        for n in kept
    ]
    rows = [
        replace(row, rater=str(inert_cell(note_rater(n))))
        for row, n in zip(rows, kept, strict=True)
    ]
    return rows, tuple(n for n in notes if n.on_earlier_output)


def _comment(note: Note) -> str:
    """The note's text as the MQM TSV's comment: one field, never a spreadsheet formula."""
    return str(inert_cell(normalise_comment(note.text)))


def note_rater(note: Note) -> str:
    """The rater a note's errors go by: its author, ``bleuviz`` for an anonymous note."""
    return RATER if note.author == ANONYMOUS else note.author
