"""Run an ASGI app with uvicorn on 127.0.0.1 and a free port; yield its base URL.

`serve(app)` runs the server in a background thread with its own event loop (usable from sync
and async tests alike); `aserve(app)` is the async form: the same thread by default, or a task
in the caller's loop with `same_loop=True`. Both shut the server down cleanly on exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import uvicorn

HOST = "127.0.0.1"


def _bind() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((HOST, 0))
    sock.listen(1024)
    sock.setblocking(False)
    return sock


def _server(app: Any) -> uvicorn.Server:
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="off",
        loop="asyncio",
        http="h11",
        timeout_graceful_shutdown=1,
        backlog=1024,
    )
    return uvicorn.Server(config)


def _url(app: Any, sock: socket.socket) -> str:
    port = sock.getsockname()[1]
    return f"http://{HOST}:{port}{getattr(getattr(app, 'state', None), 'base_path', '')}"


@contextlib.contextmanager
def serve(app: Any, *, start_timeout: float = 10.0) -> Iterator[str]:
    """Serve `app` from a background thread; yield the base URL (`app.state.base_path` added)."""
    sock = _bind()
    server = _server(app)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="fake-server", daemon=True
    )
    thread.start()
    deadline = time.monotonic() + start_timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            sock.close()
            raise RuntimeError("the fake server did not start")
        time.sleep(0.005)
    try:
        yield _url(app, sock)
    finally:
        server.should_exit = True
        thread.join(timeout=start_timeout)
        sock.close()


@contextlib.asynccontextmanager
async def aserve(app: Any, *, same_loop: bool = False) -> AsyncIterator[str]:
    """Async `serve`: in its own thread (default) or as a task on the running loop."""
    if not same_loop:
        cm = serve(app)
        url = await asyncio.to_thread(cm.__enter__)
        try:
            yield url
        finally:
            await asyncio.to_thread(cm.__exit__, None, None, None)
        return
    sock = _bind()
    server = _server(app)
    task = asyncio.create_task(server._serve(sockets=[sock]))  # no signal handlers in tests
    try:
        while not server.started:
            if task.done():
                task.result()
                raise RuntimeError("the fake server did not start")
            await asyncio.sleep(0.005)
        yield _url(app, sock)
    finally:
        server.should_exit = True
        await task
        sock.close()


@contextlib.contextmanager
def reset_server(base_path: str = "/v1") -> Iterator[str]:
    """A server that reads each request and resets the connection (TCP RST) without answering:
    a provider dying mid-request. Yields its base URL."""
    import struct

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, 0))
    sock.listen(64)
    sock.settimeout(0.05)
    stop = threading.Event()
    resets = 0

    def loop() -> None:
        nonlocal resets
        while not stop.is_set():
            try:
                conn, _ = sock.accept()
            except (TimeoutError, OSError):
                continue
            with contextlib.suppress(OSError):
                conn.settimeout(1.0)
                conn.recv(65536)
                # linger 0: close() sends RST instead of FIN
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            conn.close()
            resets += 1

    thread = threading.Thread(target=loop, name="reset-server", daemon=True)
    thread.start()
    try:
        yield f"http://{HOST}:{sock.getsockname()[1]}{base_path}"
    finally:
        stop.set()
        thread.join(5)
        sock.close()
