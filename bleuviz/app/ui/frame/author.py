"""Who is writing notes: a name the user may give in the sidebar, else "anonymous".

Every revision of a note records its author (``bleuviz.workspace.Note.author``),
so a workspace shared by a team shows who wrote what. The name is kept for the
session only; it is not a login.
"""

from __future__ import annotations

import streamlit as st

from bleuviz.app.ui.cache.workspace import AUTHOR_KEY, workspace_readonly
from bleuviz.workspace.notes import ANONYMOUS, AUTHOR_MAX_CHARS


def author_sidebar() -> None:
    """A "Your name" text input (the author of the notes saved), shown when notes can be saved."""
    st.session_state.setdefault(AUTHOR_KEY, "")
    if workspace_readonly():
        return
    st.sidebar.text_input(
        "Your name",
        key=AUTHOR_KEY,
        max_chars=AUTHOR_MAX_CHARS,
        placeholder=ANONYMOUS,
        help=f"Each revision of a note records who saved it; blank saves as {ANONYMOUS!r}.",
    )
