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
    """

    set_id: str
    system: str
    segment: int
    text: str
    category: str
    saved: datetime


def check_note(text: str, category: str) -> None:
    """Refuse an unknown category or a note longer than ``NOTE_MAX_CHARS``.

    Raises:
        InputError: naming the category or the length.
    """
    if category not in NOTE_CATEGORIES:
        raise InputError(f"category: {category!r} is not one of {', '.join(NOTE_CATEGORIES)}")
    if len(text) > NOTE_MAX_CHARS:
        raise InputError(f"note: {len(text)} characters, at most {NOTE_MAX_CHARS} are kept")
