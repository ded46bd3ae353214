"""bleuviz's server: ``streamlit run serve.py [-- --ref R ... --hyp H ...]``.

The app is ``app.py``'s; this entry adds start-up work: the command line's files
are read, saved and counted on a thread from the moment the server starts
(:mod:`ui.start_up`), so the first page finds them ready or nearly so.
Streamlit runs this file as an ASGI app (``st.App``, with uvicorn).
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import streamlit as st


def _count_ahead() -> None:
    """The start-up work, imports included (about a second: the server answers meanwhile)."""
    from ui.start_up import count_ahead

    count_ahead()


@asynccontextmanager
async def lifespan(_app: st.App) -> AsyncIterator[None]:
    """Start the command line's files on a thread, and serve at once."""
    threading.Thread(target=_count_ahead, name="bleuviz-count-ahead", daemon=True).start()
    yield


app = st.App(Path(__file__).with_name("app.py"), lifespan=lifespan)
