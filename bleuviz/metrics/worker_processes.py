"""Worker processes that never run the caller's main script: the one adapter to
``multiprocessing``'s private start-up code.

A fork server's worker (and a spawned one) starts by running its parent's main
module again, as ``__mp_main__``, so that functions defined there can be
unpickled (``multiprocessing.spawn.prepare``). In the app's
server the main module is Streamlit's stand-in for the page script (its script
runner installs it as ``sys.modules["__main__"]``, with the script's
``__file__``): every TER worker ran the page without a Streamlit runtime,
which wrote 720 warning lines to the server's log per TER computation and took
a second and more per worker. The tasks sent to these workers are bleuviz
functions, which need nothing from the main module, so :func:`fork_server`'s
workers are sent the parent's preparation data without it.

Deviation from ``multiprocessing`` kept on purpose: a function defined in the
caller's main script cannot be run in these workers (it cannot be unpickled).
"""

from __future__ import annotations

import io
import os
from multiprocessing import context, forkserver, popen_forkserver, reduction, spawn, util
from typing import Any

#: What ``spawn.get_preparation_data`` adds for the main module (``prepare`` runs it).
_MAIN_KEYS = ("init_main_from_name", "init_main_from_path")


class _Popen(popen_forkserver.Popen):
    """The fork server's ``Popen``, which sends no main module to run."""

    def _launch(self, process_obj: Any) -> None:
        # CPython 3.11's popen_forkserver.Popen._launch but for the marked line (a change
        # upstream fails tests/metrics/test_ter_workers.py).
        prep_data = spawn.get_preparation_data(process_obj._name)
        for key in _MAIN_KEYS:  # this line: the worker never runs the main script
            prep_data.pop(key, None)
        buf = io.BytesIO()
        context.set_spawning_popen(self)
        try:
            reduction.dump(prep_data, buf)
            reduction.dump(process_obj, buf)
        finally:
            context.set_spawning_popen(None)
        self.sentinel, w = forkserver.connect_to_new_process(self._fds)  # type: ignore[attr-defined]
        _parent_w = os.dup(w)
        close = util.close_fds  # type: ignore[attr-defined]
        self.finalizer = util.Finalize(self, close, (_parent_w, self.sentinel))
        with open(w, "wb", closefd=True) as f:
            f.write(buf.getbuffer())
        self.pid = forkserver.read_signed(self.sentinel)


class _Process(context.ForkServerProcess):
    """A fork server's process, started by ``_Popen``."""

    @staticmethod
    def _Popen(process_obj: Any) -> _Popen:
        return _Popen(process_obj)


class _Context(context.ForkServerContext):
    """The ``forkserver`` context, its processes started without the main module."""

    Process = _Process


def fork_server() -> context.BaseContext:
    """Return a ``forkserver`` context whose workers never run the caller's main script.

    Its fork server is ``multiprocessing``'s own (``set_forkserver_preload`` applies).
    """
    return _Context()
