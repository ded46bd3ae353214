"""The server's start-up work, for what serves the app (``serve.py``, ``bleuviz.app.serve``).

The command line's files are read, saved and counted on a thread from the
moment the server starts (:mod:`bleuviz.app.ui.frame.start_up`), so the first
page finds them ready or nearly so.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import streamlit as st


def _count_ahead() -> None:
    """The start-up work, imports included (about a second: the server answers meanwhile)."""
    from bleuviz.app.ui.frame.start_up import count_ahead

    count_ahead()


@asynccontextmanager
async def lifespan(_app: st.App) -> AsyncIterator[None]:
    """Start the command line's files on a thread, and serve at once."""
    threading.Thread(target=_count_ahead, name="bleuviz-count-ahead", daemon=True).start()
    yield


#: The script every session runs.
MAIN_SCRIPT = Path(__file__).with_name("main.py")
