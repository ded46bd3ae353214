"""A counting process's heap: keep the memory one chunk frees for the next (glibc only).

glibc maps an allocation of 128 KiB or more afresh and gives the heap's free top
back past 128 KiB, raising both thresholds only as large blocks are freed
(mallopt(3), ``M_MMAP_THRESHOLD``, ``M_TRIM_THRESHOLD``). A process that counts
chunk after chunk allocates and frees arrays of a few MiB over and over, so it
faulted their pages in again and again: the app's count workers spent 0.67-0.77 s
of system time on the 100,000 segments of ``benchmarks/bench_app.py``, 0.22-0.26 s
with these settings, at the same user time; the whole ``score --sentence-level``
at 100,000 segments spent 0.38 s against 0.51 s (medians of 6 alternating runs,
``GLIBC_TUNABLES`` set to the same values). The largest arrays of a chunk stay
below 32 MiB, the mapping threshold's maximum on 64-bit systems; the memory is
given back when the process ends.
"""

from __future__ import annotations

import ctypes
import os

#: mallopt(3)'s parameters (glibc's malloc.h).
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3


def keep_freed_memory() -> None:
    """Let this process reuse the memory its chunks free (a no-op without glibc)."""
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION"):
            return
        libc = ctypes.CDLL(None)
    except (ValueError, OSError):  # not glibc, or no C library to load
        return
    libc.mallopt(_M_MMAP_THRESHOLD, 32 * 1024 * 1024)
    libc.mallopt(_M_TRIM_THRESHOLD, 512 * 1024 * 1024)
