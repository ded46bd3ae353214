"""Notes on segments: the MQM-style categories and the ``Note`` record one segment holds."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bleuviz.errors import InputError

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


def check_note(text: str, category: str) -> None:
    """Refuse an unknown category or a note longer than ``NOTE_MAX_CHARS``.

    Raises:
        InputError: naming the category or the length.
    """
    if category not in NOTE_CATEGORIES:
        raise InputError(f"category: {category!r} is not one of {', '.join(NOTE_CATEGORIES)}")
    if len(text) > NOTE_MAX_CHARS:
        raise InputError(f"note: {len(text)} characters, at most {NOTE_MAX_CHARS} are kept")


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
