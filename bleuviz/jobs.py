"""How many worker processes a command uses, and whether this process may fork them.

``--jobs N`` wins, then the ``BLEUVIZ_JOBS`` environment variable, then the
cores this process may run on: ``os.process_cpu_count()`` (Python 3.13+),
else the affinity mask (``os.sched_getaffinity``, Linux: a container's or
``taskset``'s share), else ``os.cpu_count()``. A count of 1 is the
single-process path.

Forking copies the caller's memory, the text included, so a forked worker is
sent only the bounds of its work; but a process running threads must not fork
(a lock held by another thread stays held in the child forever). The callers
that fork ask :func:`fork_context` first, and do the work otherwise (threads,
one process, or TER's fork server: ``bleuviz.metrics.ter_parallel``).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING

from bleuviz.errors import ConfigError
from bleuviz.limits import WHOLE_NUMBER

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

#: The environment variable that sets the job count when ``--jobs`` is not given.
JOBS_ENV = "BLEUVIZ_JOBS"


def usable_cores() -> int:
    """Return the cores this process may run on (at least 1)."""
    counted = getattr(os, "process_cpu_count", None)  # Python 3.13+
    if counted is not None:
        return int(counted() or 1)
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def job_count(option: int | None, environ: Mapping[str, str]) -> int:
    """Return the worker count: ``option`` (``--jobs``), else ``BLEUVIZ_JOBS``, else the cores.

    Raises:
        ConfigError: ``option`` or the variable is not a whole number of at least 1
            (the message names which).
    """
    if option is not None:
        if option < 1:
            raise ConfigError(f"--jobs: must be at least 1, got {option}")
        return option
    text = environ.get(JOBS_ENV)
    if text is None:
        return usable_cores()
    if not WHOLE_NUMBER.fullmatch(text.strip()) or int(text) < 1:
        raise ConfigError(f"{JOBS_ENV}: must be a whole number of at least 1, got {text[:40]!r}")
    return int(text)


def fork_context() -> BaseContext | None:
    """Return the ``fork`` context on Linux in a process running one thread, else None.

    Elsewhere forking is unsafe (macOS's system libraries) or impossible (Windows).
    """
    if not sys.platform.startswith("linux") or threading.active_count() != 1:
        return None
    # Imported here: multiprocessing takes 20 ms to import, a tenth of a small command.
    import multiprocessing

    return multiprocessing.get_context("fork")
