"""The server's listening sockets send each response at once (``bleuviz.app.sockets``).

Streamlit binds its listening socket with protocol 0, so asyncio leaves Nagle's
algorithm on in the connections it accepts (Kludex/uvicorn#3149 describes the
same cause); these tests bind sockets the same way.
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Callable, Iterator

import pytest
from streamlit.testing.v1 import AppTest

from bleuviz.app import lifespan, sockets
from bleuviz.app.sockets import send_at_once


def nodelay(sock: socket.socket) -> bool:
    return bool(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))


@pytest.fixture
def listening() -> Iterator[socket.socket]:
    """A listening socket bound as Streamlit binds its own (``socket.socket(family)``)."""
    sock = socket.socket(socket.AF_INET)
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    with sock:
        yield sock


def test_a_listening_socket_and_what_it_accepts_send_at_once(listening: socket.socket) -> None:
    assert listening.proto == 0 and not nodelay(listening)  # as asyncio would leave it
    assert send_at_once() >= 1
    assert nodelay(listening)
    with socket.create_connection(listening.getsockname()) as client:
        accepted, _ = listening.accept()
        with accepted:
            assert accepted.proto == 0  # asyncio's check would still skip it
            assert nodelay(accepted)
            client.sendall(b"ping")
            assert accepted.recv(4) == b"ping"  # the listening descriptor was left open


def test_other_sockets_are_left_as_they_are(listening: socket.socket) -> None:
    with socket.create_connection(listening.getsockname()) as client:
        accepted, _ = listening.accept()
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        local, other_end = socket.socketpair()
        with accepted, udp, local, other_end:
            send_at_once()
            assert not nodelay(client)  # connected, not listening
            assert not nodelay(accepted)  # accepted before: connections inherit, sockets don't
            local.sendall(b"still open")
            assert other_end.recv(10) == b"still open"


def test_nothing_changes_where_descriptors_cannot_be_listed(
    listening: socket.socket, monkeypatch: pytest.MonkeyPatch, tmp_path: os.PathLike[str]
) -> None:
    monkeypatch.setattr(sockets, "_DESCRIPTOR_FOLDERS", (os.path.join(tmp_path, "none"),))
    assert send_at_once() == 0
    assert not nodelay(listening)


def test_the_server_start_sets_it_before_serving(
    listening: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lifespan, "_count_ahead", lambda: None)
    monkeypatch.setattr(lifespan, "import_ahead", lambda: None)

    async def start() -> bool:
        async with lifespan.lifespan(None):  # type: ignore[arg-type]
            return nodelay(listening)

    assert asyncio.run(start())


def test_a_server_without_start_up_sets_it_once_from_its_first_run(
    listening: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    monkeypatch.setattr(sockets, "send_at_once", lambda: calls.append(1) or 1)
    sockets.send_at_once_from_now.cache_clear()
    try:
        assert sockets.send_at_once_from_now() == sockets.send_at_once_from_now() == 1
    finally:
        sockets.send_at_once_from_now.cache_clear()
    assert calls == [1]


def test_app_py_sets_it_on_its_first_run(
    new_app: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``streamlit run app.py`` has no start-up hook: its first page run asks for it."""
    calls = []
    monkeypatch.setattr(sockets, "send_at_once", lambda: calls.append(1) or 0)
    sockets.send_at_once_from_now.cache_clear()
    try:
        app = new_app()
        app.run()
        assert not app.exception
        app.run()
    finally:
        sockets.send_at_once_from_now.cache_clear()
    assert calls == [1]
