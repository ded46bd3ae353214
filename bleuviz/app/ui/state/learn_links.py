"""The Learn page's link: a segment's text, the tokenizer and case, the way back, a lesson.

``lesson`` carries a teacher's lesson (``bleuviz.teach.lesson``: compressed JSON in
URL-safe base64), so a class opening one link gets the same exercises; a value
that is not a valid lesson is reported in one line naming the parameter.

"Open this segment in Learn" (on Sentences and Compare) opens
``/learn?hyp=TEXT&ref=TEXT&tok=intl&lc=1&back=sentences?sys=A%26seg=5...``: the
segment's text, the sidebar's tokenizer and case (left out at their defaults,
as on every page), and ``back``, the address of the page the segment was open
on with its settings. Learn then draws a link back to that segment. ``back``
names one of the app's segment pages and is never followed as a URL, so a link
cannot send a visitor elsewhere.

``part`` names the part of the page on show (``/learn?part=chrf``): the BLEU
steps by default.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import parse_qsl, urlencode

import streamlit as st

from bleuviz.app import routes
from bleuviz.app.ui.state.link_values import LinkValueError, choice, flag, show_flag
from bleuviz.app.ui.state.links import PAGE_KEY, LinkParam, current_query
from bleuviz.bleu.tokenize import DEFAULT_TOKENIZER, TOKENIZERS
from bleuviz.errors import InputError
from bleuviz.teach.lesson import Lesson, decode_lesson, encode_lesson

#: Session-state keys of Learn's tokenizer, its case and the page it was opened from.
LEARN_TOKENIZE, LEARN_LOWERCASE, LEARN_BACK = "learn_tokenize", "learn_lowercase", "learn_back"
#: Session-state key of the teacher's lesson (a ``bleuviz.teach.lesson.Lesson``) the link carries.
LEARN_LESSON = "learn_lesson"
#: Session-state key of the part of the page on show (its tab's label).
LEARN_PART = "learn_part"
#: The page's parts: the ``part`` parameter's value -> its tab's label. Only the part
#: on show is computed and drawn, so a class opening one link loads one part each.
LEARN_PARTS = {
    "steps": "BLEU step by step",
    "libraries": "Every library",
    "tokenizers": "Tokenizers",
    "chrf": "chrF",
    "ter": "TER",
    "corpus": "Corpus vs sentence",
}
_PART_OF_LABEL = {label: part for part, label in LEARN_PARTS.items()}


def parse_lesson_link(raw: str) -> object:
    """A ``lesson`` parameter -> the Lesson it packs (``bleuviz.teach.lesson``), checked."""
    try:
        return decode_lesson(raw)
    except InputError as exc:
        raise LinkValueError(str(exc).removeprefix("lesson: ")) from None


def show_lesson_link(value: object) -> str:
    """A Lesson -> the ``lesson`` parameter's text."""
    if not isinstance(value, Lesson):
        raise TypeError(f"lesson: expected a Lesson, got {type(value).__name__}")
    return encode_lesson(value)


def parse_part(raw: str) -> object:
    """A ``part`` parameter -> the label of the tab it names."""
    if raw not in LEARN_PARTS:
        raise LinkValueError(f"no part of the page of that name (one of {', '.join(LEARN_PARTS)})")
    return LEARN_PARTS[raw]


def show_part(label: object) -> str:
    """A tab's label -> the ``part`` parameter's text."""
    return _PART_OF_LABEL[str(label)]


def parse_back(raw: str) -> object:
    """``PAGE?QUERY`` -> the same text, when PAGE is a segment page of this app."""
    path, _, query = raw.partition("?")
    if path not in routes.SEGMENT_PAGES:
        pages = ", ".join(routes.SEGMENT_PAGES)
        raise LinkValueError(f"not a page of this app that shows a segment ({pages})")
    try:
        parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query))
    except ValueError:
        raise LinkValueError("not a page's address (PAGE?NAME=VALUE&...)") from None
    return raw


def learn_params() -> list[LinkParam]:
    """Learn's ``tok``, ``lc`` (its own settings, named as the sidebar's), ``back``,
    ``lesson`` and ``part``."""
    return [
        LinkParam(
            "tok", LEARN_TOKENIZE, choice(list(TOKENIZERS), "tokenizer"), default=DEFAULT_TOKENIZER
        ),
        LinkParam("lc", LEARN_LOWERCASE, flag, show_flag, default=False),
        LinkParam("back", LEARN_BACK, parse_back, default_text="no link back"),
        LinkParam(
            "lesson", LEARN_LESSON, parse_lesson_link, show_lesson_link, default_text="no lesson"
        ),
        LinkParam("part", LEARN_PART, parse_part, show_part, default=LEARN_PARTS["steps"]),
    ]


def learn_query(hyp: str, refs: Sequence[str]) -> dict[str, str | list[str]]:
    """The query of a link opening one segment in Learn, from the page showing it.

    Carries the sidebar's tokenizer and case, and the address of this page as it
    stands now (``current_query``), so that Learn links back to the segment.
    """
    state = st.session_state
    query: dict[str, str | list[str]] = {"hyp": hyp, "ref": list(refs)}
    tokenizer = str(state.get("tokenize", DEFAULT_TOKENIZER))
    if tokenizer != DEFAULT_TOKENIZER:
        query["tok"] = tokenizer
    if state.get("lowercase"):
        query["lc"] = show_flag(True)
    here = str(state.get(PAGE_KEY, ""))
    if here in routes.SEGMENT_PAGES:
        pairs = [(name, value) for name, values in current_query().items() for value in values]
        query["back"] = f"{here}?{urlencode(pairs)}" if pairs else here
    return query


def back_target(raw: str) -> tuple[str, list[tuple[str, str]]]:
    """A checked ``back`` value -> the page script and its query, for ``st.page_link``."""
    path, _, query = raw.partition("?")
    return routes.SEGMENT_PAGES[path], parse_qsl(query, keep_blank_values=True)
