"""The server's listening sockets made to send each response at once (``TCP_NODELAY``).

Streamlit's server binds its listening socket itself (``socket.socket(family)``,
protocol 0: ``streamlit.web.server.starlette.starlette_server._bind_socket``) and
hands it to uvicorn. The sockets it accepts report protocol 0 too, and asyncio
turns Nagle's algorithm off only on sockets reporting ``IPPROTO_TCP``
(CPython's ``asyncio.base_events._set_nodelay``; the same cause for uvicorn's own
pre-bound sockets: Kludex/uvicorn#3149). With Nagle on, the second write of a
response (uvicorn writes the headers, then the body) waits until the browser
acknowledges the first, and a browser delays that acknowledgement (40 ms on
Linux): every request after the first on a kept-alive connection took 44 ms
here, against 1 ms with ``TCP_NODELAY``. A page loads Streamlit's frontend as
about 120 JavaScript files over six connections, so a new session's first page
waited about 0.2 s longer (a deep link at 100,000 segments in a new session:
median 1.25 s against 1.05 s, 15 links each, alternating servers).

Sockets accepted from a listening socket inherit its ``TCP_NODELAY`` (Linux,
macOS), so :func:`send_at_once` sets it on the process's listening TCP sockets,
found among its open file descriptors, before the server accepts a connection
(``bleuviz.app.lifespan``). ``streamlit run app.py`` has no start-up hook: its
first page run does it (:func:`send_at_once_from_now`), and the connections its
first browser opened before keep Nagle's algorithm. Where the descriptors cannot
be listed (Windows), nothing changes.
"""

from __future__ import annotations

import os
import socket
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

#: Where this process's open file descriptors are listed, first found first.
_DESCRIPTOR_FOLDERS = ("/proc/self/fd", "/dev/fd")
_TCP_FAMILIES = frozenset({socket.AF_INET, socket.AF_INET6})


def send_at_once() -> int:
    """Turn Nagle's algorithm off on this process's listening TCP sockets; return how many.

    Connections they accept from now on send each write at once.
    """
    changed = 0
    for fd in _descriptors():
        with _socket_of(fd) as sock:
            if sock is not None and _listens_on_tcp(sock):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                changed += 1
    return changed


@cache
def send_at_once_from_now() -> int:
    """``send_at_once``, once per process: for a server started without ``serve.py``'s
    start-up, from its first page run."""
    return send_at_once()


def _descriptors() -> Iterator[int]:
    """This process's open file descriptors (none where they cannot be listed)."""
    for folder in _DESCRIPTOR_FOLDERS:
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        yield from (int(name) for name in names if name.isdigit())
        return


@contextmanager
def _socket_of(fd: int) -> Iterator[socket.socket | None]:
    """A socket object for descriptor ``fd`` if it is a socket (else None), on a duplicate
    descriptor closed on exit: the original stays open, owned by whoever holds it."""
    try:
        if not stat.S_ISSOCK(os.fstat(fd).st_mode):
            yield None
            return
        duplicate = os.dup(fd)
    except OSError:  # closed meanwhile (the descriptor that listed the folder, say)
        yield None
        return
    try:
        sock = socket.socket(fileno=duplicate)
    except OSError:
        os.close(duplicate)
        yield None
        return
    with sock:
        yield sock


def _listens_on_tcp(sock: socket.socket) -> bool:
    """Whether ``sock`` is a listening IPv4 or IPv6 stream socket."""
    if sock.family not in _TCP_FAMILIES or sock.type != socket.SOCK_STREAM:
        return False
    return bool(sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN))
