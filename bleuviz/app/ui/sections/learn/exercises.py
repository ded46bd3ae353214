"""The Learn page's exercises: a teacher's lesson (upload or link) and predict-first mode.

A lesson (``bleuviz.teach.lesson``) puts its items at the top of the example
menu and travels in the page's link (``lesson=``), so a class opening that link
gets the same exercises. In predict-first mode the student's guesses are taken
before the steps are drawn, and marked (``bleuviz.teach.predict``) on Reveal.
"""

from __future__ import annotations

import streamlit as st

from bleuviz.app.ui.sections.learn.inputs import PREDICT, REVEALED, load_example
from bleuviz.app.ui.state.learn_links import LEARN_LESSON
from bleuviz.errors import InputError
from bleuviz.render.labels import escape_markdown as md
from bleuviz.teach.lesson import MAX_ITEMS, Lesson, encode_lesson, parse_lesson
from bleuviz.teach.predict import mark, marks_frame, quantities
from bleuviz.teach.walkthrough import Walkthrough

GUESSES = "learn_guesses"
UPLOADED = "learn_lesson_upload"  # (file id, error or None) of the last lesson file read
LESSON_HELP = (
    "A lesson is a small file of sentences the class works through. **JSON**: "
    '`{"title": "…", "items": [{"hyp": "…", "refs": ["…"], "question": "…", '
    '"explanation": "…"}]}` (question and explanation optional). **TSV**: one item per '
    f"line, candidate, a tab, then the references, tab-separated. At most {MAX_ITEMS} items."
)


def lesson_loader() -> None:
    """Upload a lesson; show the link that gives a class the same exercises."""
    lesson = st.session_state.get(LEARN_LESSON)
    with st.expander("Teacher: a lesson for the class", expanded=isinstance(lesson, Lesson)):
        st.markdown(LESSON_HELP)
        upload = st.file_uploader(
            "Lesson file (JSON or TSV)", type=["json", "tsv", "txt"], key="learn_lesson_file"
        )
        if upload is not None:
            _read(upload.file_id, upload.name, upload.getvalue())
            error = st.session_state[UPLOADED][1]
            if error:
                st.error(md(error), icon=":material/error:")
        lesson = st.session_state.get(LEARN_LESSON)
        if isinstance(lesson, Lesson):
            st.markdown(
                f"**{md(lesson.title or 'Lesson')}**: {len(lesson.items)} items, first in the "
                "example menu. Give the class this page's address with:"
            )
            st.text(f"?lesson={encode_lesson(lesson)}")
            st.button("Close the lesson", key="learn_lesson_close", on_click=_close)


def _read(file_id: str, name: str, data: bytes) -> None:
    """Read a newly uploaded lesson once, loading its first item, or keep its error."""
    if st.session_state.get(UPLOADED, ("", None))[0] == file_id:
        return
    try:
        lesson = parse_lesson(data, name)
    except InputError as exc:
        st.session_state[UPLOADED] = (file_id, str(exc))
        return
    st.session_state[UPLOADED] = (file_id, None)
    st.session_state[LEARN_LESSON] = lesson
    load_example(lesson.items[0].key)


def _close() -> None:
    st.session_state.pop(LEARN_LESSON, None)


def predict_section(walk: Walkthrough, hyp: str, refs: list[str]) -> bool:
    """Take the student's guesses, or mark them once revealed; return whether to draw the steps."""
    if not st.session_state.get(PREDICT):
        return True
    st.header("Predict first")
    shown = (hyp, tuple(refs))
    if st.session_state.get(REVEALED) != shown:
        st.markdown(
            "Guess before you look: the clipped counts mₙ, the precisions pₙ after smoothing "
            "(0 to 1), the brevity penalty and BLEU (0 to 100), with the settings below. "
            "Leave a box empty to skip it, then press **Reveal**."
        )
        _guess_inputs(walk)
        st.button("Reveal", key="learn_reveal", on_click=_reveal, args=(walk, shown))
        return False
    marks = mark(walk, st.session_state.get(GUESSES, {}))
    guessed = [m for m in marks if m.right is not None]
    right = sum(bool(m.right) for m in guessed)
    st.markdown(f"**{right} of {len(guessed)}** guesses right. Each answer's step explains it:")
    # st.table wraps the explanations; they hold numbers and bleuviz's words, no user text.
    st.table(marks_frame(marks), hide_index=True)
    st.button("Guess again", key="learn_guess_again", on_click=_hide)
    return True


def _guess_inputs(walk: Walkthrough) -> None:
    """One number box per quantity: counts as whole numbers, the rest as decimals."""
    names = list(quantities(walk))
    for row in (names[: len(walk.orders)], names[len(walk.orders) :]):
        for column, name in zip(st.columns(len(row)), row, strict=True):
            whole = name.startswith("m")
            column.number_input(
                name,
                min_value=0 if whole else 0.0,
                value=None,
                step=1 if whole else 0.01,
                format=None if whole else "%.4f",
                key=f"learn_guess_{name}",
            )


def _reveal(walk: Walkthrough, shown: tuple[str, tuple[str, ...]]) -> None:
    """Keep the guesses (their boxes are not drawn after Reveal) and reveal this input."""
    st.session_state[GUESSES] = {
        name: st.session_state.get(f"learn_guess_{name}") for name in quantities(walk)
    }
    st.session_state[REVEALED] = shown


def _hide() -> None:
    st.session_state.pop(REVEALED, None)
