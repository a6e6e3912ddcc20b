"""A real seat service on loopback for tests: uvicorn in a background thread, on a free port
of 127.0.0.1, with the app's lifespan (the store opened and closed).

```python
from service_support import running_service, service_settings

with running_service(service_settings(tmp_path)) as svc:
    r = httpx.post(f"{svc.url}/v1/matches", json=body, headers=svc.admin_headers)
```

:func:`running_service` yields a :class:`RunningService`: ``url`` (the base URL), ``admin_token``
and ``admin_headers``, ``app`` (the FastAPI app; ``svc.state`` is its ServiceState, whose
``registry`` holds the live matches — reach it only through :meth:`RunningService.call`, which
runs a function in the server's event loop, where the matches live). Safe under pytest-xdist:
every server binds its own free port and the store is a file under the test's ``tmp_path``.
Helpers: :func:`create_match` (POST /v1/matches as admin), :func:`wait_status` (poll the public
status until a state), :func:`bot_players`, :func:`played_moves` (a match's moves so far, from
the driver or, once stored, from the store), :func:`finished_record` (its record once ended).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import httpx
import uvicorn

from bangarena.evals.live import LIVE_SUITE
from bangarena.service import ServiceSettings, create_app

HOST = "127.0.0.1"
T = TypeVar("T")


def service_settings(tmp_path: Path, **overrides: Any) -> ServiceSettings:
    """Settings for a test service: a SQLite store in ``tmp_path``, a fixed strong admin token
    and a small leaderboard bootstrap (overrides win)."""
    values: dict[str, Any] = {
        "db_url": str(tmp_path / "live.db"),
        "admin_token": "test-admin-token-0123456789abcdef",
        "leaderboard_resamples": 20,
    }
    values.update(overrides)
    return ServiceSettings(**values)


@dataclass
class RunningService:
    """A service being served: its base URL, admin token, app and server loop."""

    url: str
    admin_token: str
    app: Any
    loop: asyncio.AbstractEventLoop

    @property
    def admin_headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.admin_token}"}

    @property
    def state(self) -> Any:
        return self.app.state.service

    def call(self, fn: Callable[[], T], timeout: float = 10.0) -> T:
        """Run ``fn()`` in the server's event loop (where the registry and games live)."""

        async def run() -> T:
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout)


def _bind() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted sockets inherit it: no 40 ms Nagle/delayed-ACK stall per small response.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((HOST, 0))
    sock.listen(1024)
    sock.setblocking(False)
    return sock


class _Server(uvicorn.Server):
    """A uvicorn server that remembers its event loop (tests call into it)."""

    loop: asyncio.AbstractEventLoop | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        self.loop = asyncio.get_running_loop()
        await super().startup(sockets)


@contextlib.contextmanager
def running_service(
    settings: ServiceSettings,
    *,
    extensions: list[Any] | None = None,
    start_timeout: float = 20.0,
    **uvicorn_options: Any,
) -> Iterator[RunningService]:
    """Serve ``create_app(settings)`` with uvicorn from a background thread until the block
    ends (``extensions``: instead of the registered ones, e.g. ``[]`` for API v1 alone;
    ``uvicorn_options``: e.g. ``http="httptools", loop="uvloop"``)."""
    app = create_app(settings, extensions=extensions)
    token = app.state.service.settings.admin_token
    sock = _bind()
    options: dict[str, Any] = {
        "log_level": "warning",
        "access_log": False,
        "lifespan": "on",
        "loop": "asyncio",
        "http": "h11",
        "timeout_graceful_shutdown": 2,
    }
    options.update(uvicorn_options)
    server = _Server(uvicorn.Config(app, **options))
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="seat-service", daemon=True
    )
    thread.start()
    deadline = time.monotonic() + start_timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            sock.close()
            raise RuntimeError("the seat service did not start")
        time.sleep(0.01)
    assert server.loop is not None
    port = sock.getsockname()[1]
    try:
        yield RunningService(f"http://{HOST}:{port}", token, app, server.loop)
    finally:
        server.should_exit = True
        thread.join(timeout=start_timeout)
        sock.close()


def start_serve(db: Path, env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    """``bangarena serve`` in a process of its own on a free port, its store at ``db``, with
    ``env`` as its environment and its stderr piped; returns it and its base URL once
    ``/healthz`` answers. The caller stops it."""
    with socket.socket() as s:  # a free port, given back for the server to bind
        s.bind((HOST, 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "bangarena.cli", "serve", "--port", str(port)]
    cmd += ["--db", str(db), "--log-level", "warning"]
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, text=True)
    base = f"http://{HOST}:{port}"
    end = time.monotonic() + 30
    while True:
        try:
            httpx.get(f"{base}/healthz", timeout=2).raise_for_status()
            return proc, base
        except httpx.HTTPError:
            if time.monotonic() > end or proc.poll() is not None:
                proc.kill()
                raise RuntimeError("bangarena serve did not start") from None
            time.sleep(0.1)


def bot_players(n: int, spec: str = "rule") -> list[dict[str, Any]]:
    return [{"kind": "bot", "spec": spec} for _ in range(n)]


def create_match(client: httpx.Client, svc: RunningService, **body: Any) -> dict[str, Any]:
    """POST /v1/matches as admin; returns the 201 body (asserts the status)."""
    r = client.post(f"{svc.url}/v1/matches", json=body, headers=svc.admin_headers)
    assert r.status_code == 201, r.text
    return r.json()


def wait_status(
    client: httpx.Client, svc: RunningService, match_id: str, states: tuple[str, ...],
    timeout: float = 30.0,
) -> dict[str, Any]:  # fmt: skip
    """Poll the public status until it is one of ``states``; returns it."""
    end = time.monotonic() + timeout
    while True:
        body = client.get(f"{svc.url}/v1/matches/{match_id}").json()
        if body["status"] in states or time.monotonic() > end:
            assert body["status"] in states, body
            return body
        time.sleep(0.02)


def played_moves(svc: RunningService, live: Any) -> list[Any]:
    """The ``MoveRecord``s of a live match so far: the driver's while the service holds them,
    the stored record's once the match is stored (``LiveMatch.mark_stored`` lets the driver's
    go), so a test that watches moves does not miss a match that ended between two looks."""
    moves, stored = svc.call(lambda: (list(live.match.moves), live.stored))
    return list(_stored_record(svc, live.match_id).moves) if stored else moves


def _stored_record(svc: RunningService, match_id: str) -> Any:
    """A match's record from the service's store (done, or void when it stopped or failed);
    the store's engine is thread-safe, so the read does not go through the loop."""
    store = svc.state.store
    (row,) = [r for r in store.matches(LIVE_SUITE) if r["key"] == match_id]
    return store.load_record(match_id, LIVE_SUITE, status=row["status"])


def finished_record(svc: RunningService, match_id: str, timeout: float = 10.0) -> Any:
    """The ``MatchRecord`` of a match once it has ended: the service's while it holds it, the
    store's once stored (a stored match lets its record go: ``LiveMatch.mark_stored``)."""
    live = svc.call(lambda: svc.state.registry.get(match_id))
    end = time.monotonic() + timeout
    while True:
        record, stored = svc.call(lambda: (live.record, live.stored))
        if record is not None:
            return record
        if stored:
            return _stored_record(svc, match_id)
        assert time.monotonic() < end, f"match {match_id} did not end"
        time.sleep(0.025)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def play_remote(
    url: str,
    match_id: str,
    token: str,
    seed: int,
    *,
    wait: float = 5.0,
    illegal_first: bool = False,
) -> list[tuple[int, str]]:
    """A plain-httpx agent: long-poll, answer a seeded random legal move, until 410. Returns
    the (decision_id, move_id) pairs it played; ``illegal_first``: its first answer is an
    illegal id (refused with 422, then it answers legally)."""
    import random

    rng = random.Random(seed)
    played: list[tuple[int, str]] = []
    with httpx.Client(base_url=url, headers=bearer(token), timeout=wait + 10) as client:
        while True:
            r = client.get(f"/v1/matches/{match_id}/decision", params={"wait": wait})
            if r.status_code == 410:
                return played
            if r.status_code == 204:
                continue
            assert r.status_code == 200, r.text
            payload = r.json()
            moves = f"/v1/matches/{match_id}/moves"
            if illegal_first:
                illegal_first = False
                bad = client.post(
                    moves, json={"decision_id": payload["decision_id"], "move_id": "x"}
                )
                assert bad.status_code == 422 and bad.json()["error"] == "illegal_move", bad.text
            move = rng.choice(payload["moves"])["id"]
            r = client.post(moves, json={"decision_id": payload["decision_id"], "move_id": move})
            if r.status_code == 410:
                return played
            assert r.status_code == 200, r.text
            played.append((payload["decision_id"], move))


def sse_events(response: httpx.Response) -> Iterator[dict[str, str]]:
    """The events of an open ``text/event-stream`` response: dicts with ``event``, ``data``
    and (when given) ``id``; comments (pings) are skipped."""
    event: dict[str, str] = {}
    for line in response.iter_lines():
        if not line:
            if "data" in event:
                yield event
            event = {}
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        event[name] = event[name] + "\n" + value if name == "data" and name in event else value


__all__ = [
    "RunningService",
    "bearer",
    "bot_players",
    "play_remote",
    "sse_events",
    "create_match",
    "running_service",
    "service_settings",
    "wait_status",
]
