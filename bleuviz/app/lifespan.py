"""The server's start-up work, for what serves the app (``serve.py``, ``bleuviz.app.serve``).

The command line's files are read, saved and counted on a thread from the
moment the server starts (:mod:`bleuviz.app.ui.frame.start_up`), so the first
page finds them ready or nearly so. Another thread imports what the app's
scripts import: a new server's first page run otherwise spends about 0.6 s of
its 0.9 s importing (pandas, plotly, every section), while the browser is still
loading Streamlit's frontend and the server has nothing else to do. First, the
listening socket is made to send each response at once
(:mod:`bleuviz.app.sockets`): the frontend's files then arrive without waiting
on the browser's delayed acknowledgements.
"""

from __future__ import annotations

import ast
import importlib
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import streamlit as st
from streamlit.delta_generator import _maybe_print_use_warning

from bleuviz.app.routes import PAGE_SCRIPTS
from bleuviz.app.sockets import send_at_once


def _count_ahead() -> None:
    """The start-up work, imports included (about a second: the server answers meanwhile)."""
    from bleuviz.app.ui.frame.start_up import count_ahead

    count_ahead()


def script_imports(script: Path) -> list[str]:
    """The modules ``script`` imports by absolute name (``import a.b``, ``from a.b import c``)."""
    names = []
    for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"), str(script))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
    return list(dict.fromkeys(names))


def import_ahead() -> None:
    """Import every module the main script and the page scripts import."""
    for script in [MAIN_SCRIPT, *sorted(PAGE_SCRIPTS.glob("*.py"))]:
        for name in script_imports(script):
            importlib.import_module(name)
    # Streamlit asks, at a process's first element, whether it runs in a REPL by reading
    # the source of every frame of the stack (``env_util.is_repl``): 0.14 s from a page
    # script's deep stack, a moment from this thread's.
    _maybe_print_use_warning()


@asynccontextmanager
async def lifespan(_app: st.App) -> AsyncIterator[None]:
    """Send responses at once; start the command line's files and the scripts' imports on
    threads; serve at once."""
    send_at_once()  # before the first connection is accepted: connections inherit it
    threading.Thread(target=_count_ahead, name="bleuviz-count-ahead", daemon=True).start()
    threading.Thread(target=import_ahead, name="bleuviz-import-ahead", daemon=True).start()
    yield


#: The script every session runs.
MAIN_SCRIPT = Path(__file__).with_name("main.py")
