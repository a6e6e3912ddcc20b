"""The seat service under load, side by side with a bare FastAPI endpoint, in the same run.

Two real server processes on loopback, both uvicorn with the same settings: ``bangarena serve``
and a bare app whose one route returns a constant. Against each, N concurrent clients (one
process, asyncio) for a fixed time. The clients are keep-alive connections on raw asyncio
streams (``--client raw``, the default): a request costs the load generator tens of
microseconds, so the latencies are the server's and not the generator's own CPU queueing on the
same two cores; ``--client sdk`` runs the same loops through ``bangarena.client.AsyncSeatClient``
(httpx and the client's models, milliseconds per request), as an agent would:

- service: every client is the remote seat of its own match (1 remote seat + bots, started at
  once) and loops ``GET /decision`` → ``POST /moves`` with a random legal move; when its match
  ends an admin creates the next one (not counted); the server's CPU includes the 4 bots'
  turns between the remote seat's decisions;
- remote5 (the all-remote variant, ``--lineups``): five clients per match, one per seat, no
  bot, so the server's CPU is the decisions' own (routes, payloads, the match driver, storing
  finished matches), not bots' engine time; its polls wait for the other seats' moves, so
  their latency is the game's pace (up to the 5 s wait), and its moves' latency is the one to
  read;
- lean5 (``--lineups remote,lean``): remote5 with every poll asking for none of our prompts
  (``prompt=none``: an agent with prompts of its own), so the service renders no turn prompt
  and sends ~3 KB instead of ~13.5 KB; the view, the move texts, the answer schema and the
  store stay;
- floor5 (``--lineups remote,floor``): remote5's load against a third server, the service
  with empty payloads (no prompts, move texts, view or schema; the legal ids stay) and no
  storing (``floor_main``): the rate the service's machinery alone allows (HTTP, tokens, the
  match driver, the engine), the ceiling of remote5's whatever its payloads cost;
  ``--floor-keep payload`` or ``--floor-keep store`` gives the floor server that part back,
  so that each part's cost over HTTP is one subtraction (floor5 with it less floor5 without);
  ``--floor-prompt none`` makes the floor's polls lean5's (``--floor-keep payload
  --floor-prompt none`` is lean5 on a service that stores nothing: storing's cost under load);
- asgi (``--lineups …,asgi``): the bare load against uvicorn serving a plain ASGI callable
  that returns the same constant: uvicorn's own share of a request, without FastAPI;
- bare: every client loops ``GET /bare``.

Printed per run: requests/s while the load ran, the server process's CPU seconds over the
whole window, until every client is back (from /proc, so the load generator's own CPU on the
same cores is not charged to the server), and the kernel's share of them, requests per server
CPU-second (every request of the window) ("per core"), the service's rate per core as a share of
the bare endpoint's, and p50/p99 latency (client-side wall time: with ``--client sdk`` it
includes the load generator's own queueing on a busy machine). With ``--rounds N`` the bare
endpoint and the lineups run N times in turn, and each lineup's median share closes the output.
With ``--pin`` every server runs on the first core only (all its threads, the store's
included) and the load generator on the other cores: the rate of one core, literally, with the
generator no longer competing for it. ``--gc`` traces every server's cyclic collector
(``benchmarks/gc_trace``) and prints its share of each run's CPU and its longest pass. The
servers run the engine build of the environment (``BANGARENA_ENGINE=compiled`` for the compiled
one; the header says which). First, the memory, each figure on a service of its own: RSS with
N live matches whose remote seats have connected once and wait at a decision → live matches per
GiB (``--matches``), and RSS with N matches played to their end and stored, which the service
keeps for late readers (``keep_finished``) → finished matches per GiB (``--finished``).

    .venv/bin/python benchmarks/service_load.py                  # short: ~1½ minutes
    .venv/bin/python benchmarks/service_load.py --seconds 20 --clients 64,8 --matches 500
    .venv/bin/python benchmarks/service_load.py --loop uvloop --http httptools
    .venv/bin/python benchmarks/service_load.py --lineups remote --clients 64
    .venv/bin/python benchmarks/service_load.py --lineups remote,floor,asgi --seconds 10
    .venv/bin/python benchmarks/service_load.py --lineups remote,floor --floor-keep payload
    .venv/bin/python benchmarks/service_load.py --lineups lean,floor --floor-keep payload \
        --floor-prompt none
    .venv/bin/python benchmarks/service_load.py --lineups remote,lean --clients 64 --pin
    .venv/bin/python benchmarks/service_load.py --lineups lean --clients 64,8 --gc
    .venv/bin/python benchmarks/service_load.py --client sdk
    .venv/bin/python benchmarks/service_load.py --lineups remote --clients 64 --rounds 5
    .venv/bin/python benchmarks/service_load.py --lineups remote,lean --clients 64 --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import httpx

from bangarena.client import (
    AsyncAdminClient,
    AsyncSeatClient,
    MatchCreated,
    MatchOver,
    StaleDecision,
    TransportError,
    bot,
    remote,
)
from bangarena.client.wire import PROMPT_PARTS

HOST = "127.0.0.1"
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


def free_port() -> int:
    """A port nobody listens on now."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def cpu_split(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of a process (from /proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / CLK_TCK, int(fields[12]) / CLK_TCK


GC_TRACE_DIR: Final = Path(__file__).with_name("gc_trace")
GC_LOGS: dict[int, Path] = {}
"""Per server process traced with ``--gc``, the file its collector's passes go to."""


def gc_figures(pid: int, window: tuple[float, float]) -> dict[str, Any] | None:
    """The collector's passes of a traced server that started within ``window``: CPU seconds,
    passes of the young generation and of the older ones, the longest pass (None: not traced)."""
    path = GC_LOGS.get(pid)
    if path is None or not path.exists():
        return None
    start, end = window
    young = older = 0
    spent = longest = 0.0
    for line in path.read_text().splitlines():
        at, generation, ms = line.split()
        if start <= float(at) <= end:
            spent += float(ms) / 1e3
            longest = max(longest, float(ms))
            if generation == "0":
                young += 1
            else:
                older += 1
    return {"gc_cpu_s": round(spent, 3), "gc_young": young, "gc_older": older,
            "gc_longest_ms": round(longest, 1)}  # fmt: skip


def rss_bytes(pid: int) -> int:
    """Resident set size of a process (from /proc/PID/statm)."""
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_BYTES


# --- the bare endpoint --------------------------------------------------------------------------


def bare_main(port: int, loop: str, http: str) -> None:
    """The bare app: one route returning a constant, served as ``bangarena serve`` serves."""
    import uvicorn
    from fastapi import FastAPI

    app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)

    @app.get("/bare")
    async def bare() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/healthz")
    async def healthz() -> dict[str, bool]:
        return {"ok": True}

    uvicorn.run(app, host=HOST, port=port, log_level="warning",
                loop=loop, http=http)  # fmt: skip


def asgi_main(port: int, loop: str, http: str) -> None:
    """The ``asgi`` lineup's server: uvicorn alone, with the same settings, serving a plain ASGI
    callable that answers every request with the bare endpoint's constant (no FastAPI): what
    uvicorn's own HTTP handling costs a request."""
    import uvicorn

    body = b'{"ok":true}'
    start = {
        "type": "http.response.start",
        "status": 200,
        "headers": [(b"content-type", b"application/json"), (b"content-length", b"11")],
    }

    async def app(scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            await send(start)
            await send({"type": "http.response.body", "body": body})

    uvicorn.run(app, host=HOST, port=port, log_level="warning", loop=loop, http=http)


FLOOR_PARTS = ("payload", "store")
"""What ``--floor-keep`` can give the floor server back."""


def floor_main(port: int, loop: str, http: str, db: str, keep: frozenset[str]) -> None:
    """The service with none of the decision contract's content, for the ``floor`` lineup:
    each payload's prompts, move texts, view and answer schema are empty (the legal move ids
    stay, so the clients can answer) and finished matches are not stored. Everything else is
    ``bangarena serve``'s: the app, its fast path, the match driver, the engine, the tokens,
    the collector's settings, uvicorn's. What it serves per CPU-second is the ceiling of the
    real service's rate, whatever its payloads and store cost. ``keep``: the parts of
    :data:`FLOOR_PARTS` left as the service has them."""
    import uvicorn

    import bangarena.harness.decision_payload as payload
    from bangarena.cli.serve import server_gc
    from bangarena.service import ServiceSettings, create_app

    if "payload" not in keep:
        payload.render_system = lambda view, lang: ""  # type: ignore[assignment]
        payload.render_turn = lambda *args, **kwargs: ""  # type: ignore[assignment]
        payload.move_text = lambda *args, **kwargs: ""  # type: ignore[assignment]
        payload.view_to_dict = lambda *args, **kwargs: {}  # type: ignore[assignment]
        payload.constrained_schema = lambda ids, notes=False: {}  # type: ignore[assignment]
    app = create_app(ServiceSettings(db_url=db, store_matches="store" in keep))
    server_gc()
    uvicorn.run(app, host=HOST, port=port, log_level="warning", loop=loop, http=http)


# --- server processes ---------------------------------------------------------------------------


@contextlib.contextmanager
def server(
    argv: list[str],
    port: int,
    env: dict[str, str],
    log: Path,
    cpus: set[int] | None = None,
    gc_trace: bool = False,
) -> Iterator[subprocess.Popen]:
    """Start a server process (its output to ``log``, never a pipe nobody reads), on ``cpus``
    only when given (every thread it will start included), its collector traced next to
    ``log`` with ``gc_trace``; wait until ``/healthz`` answers; stop it (SIGINT) on exit."""
    out = log.open("wb")
    pin = None if cpus is None else functools.partial(os.sched_setaffinity, 0, cpus)
    trace = log.with_suffix(".gc") if gc_trace else None
    if trace is not None:
        path = os.pathsep.join(x for x in (str(GC_TRACE_DIR), env.get("PYTHONPATH")) if x)
        env = env | {"PYTHONPATH": path, "BANGARENA_GC_TRACE": str(trace)}
    proc = subprocess.Popen(argv, env=env, stdout=out, stderr=subprocess.STDOUT, preexec_fn=pin)
    if trace is not None:
        GC_LOGS[proc.pid] = trace
    deadline = time.monotonic() + 60
    try:
        while True:
            if proc.poll() is not None:
                err = log.read_text(errors="replace")
                raise RuntimeError(f"{argv[:3]} exited {proc.returncode}: {err[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://{HOST}:{port}/healthz", timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"{argv[:3]} did not start")
            time.sleep(0.1)
        yield proc
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        out.close()


# --- load ---------------------------------------------------------------------------------------


@dataclass
class Tally:
    """Latencies (seconds) per request kind, failures, matches made while timed, and the timed
    window: wall seconds and the server's CPU seconds (set up and tear-down left out)."""

    pid: int
    lat: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    created: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    system: float = 0.0
    """Of ``cpu``, the kernel's (system) seconds: the sockets' share of a request."""

    window: tuple[float, float] = (0.0, 0.0)
    """The timed window in monotonic seconds (the collector's trace is read within it)."""

    until: float = float("inf")
    """When the load stops (``perf_counter``): requests finished by then count in ``req/s``.
    The window goes on until every client is back (a long-poll may wait its full ``wait``),
    so the rate over the whole window would understate what the server served under load."""

    loaded: int = 0
    """Requests finished before :attr:`until`."""

    seconds: float = 0.0
    """How long the load ran (``start``'s ``seconds``)."""

    def start(self, seconds: float) -> float:
        """Open the window for a load of ``seconds``; returns when the load stops."""
        user, system = cpu_split(self.pid)
        self.wall, self.cpu, self.system = -time.perf_counter(), -user - system, -system
        self.window = (time.monotonic(), 0.0)
        self.seconds, self.until = seconds, time.perf_counter() + seconds
        return self.until

    def stop(self) -> None:
        user, system = cpu_split(self.pid)
        self.window = (self.window[0], time.monotonic())
        self.wall += time.perf_counter()
        self.cpu += user + system
        self.system += system

    def add(self, kind: str, seconds: float) -> None:
        self.lat.setdefault(kind, []).append(seconds)
        if time.perf_counter() <= self.until:
            self.loaded += 1

    def fail(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1

    @property
    def count(self) -> int:
        """Polls and moves (or bare requests)."""
        return sum(len(v) for v in self.lat.values())

    def all(self) -> list[float]:
        return [x for v in self.lat.values() for x in v]


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) in milliseconds."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


class RawHTTP:
    """One keep-alive HTTP/1.1 connection on raw asyncio streams: the lean load generator
    (``--client raw``). A request costs it tens of microseconds where httpx and the SDK's
    models cost milliseconds, so at 8 clients the latency measured is the server's, not the
    load generator's own CPU queueing (the 2-core machine runs both)."""

    def __init__(self, base: str, token: str | None = None) -> None:
        host, _, port = base.removeprefix("http://").partition(":")
        self.host, self.port = host, int(port)
        self.auth = f"Authorization: Bearer {token}\r\n".encode() if token else b""
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        """(status, body) of one request; reconnects once if the server closed the
        connection (its keep-alive timeout)."""
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n".encode() + self.auth
        if body:
            head += b"Content-Type: application/json\r\nContent-Length: %d\r\n" % len(body)
        for attempt in (0, 1):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            assert self.reader is not None
            try:
                self.writer.write(head + b"\r\n" + body)
                status_line = await self.reader.readuntil(b"\r\n")
                headers = await self.reader.readuntil(b"\r\n\r\n")
            except (ConnectionError, asyncio.IncompleteReadError):
                await self.aclose()
                if attempt:
                    raise
                continue
            length = 0
            for h in headers.split(b"\r\n"):
                if h[:15].lower() == b"content-length:":
                    length = int(h[15:])
            data = await self.reader.readexactly(length) if length else b""
            return int(status_line.split(b" ", 2)[1]), data
        raise AssertionError("unreachable")

    async def aclose(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(ConnectionError):
                await self.writer.wait_closed()
        self.reader = self.writer = None


@dataclass
class RawDecision:
    decision_id: int
    move_ids: list[str]


class RawSeat:
    """The calls of :class:`AsyncSeatClient` the load loops make, over :class:`RawHTTP`, with
    the same outcomes (a decision, None for 204, :class:`MatchOver` for 410,
    :class:`StaleDecision` for 409, :class:`TransportError` for anything else)."""

    def __init__(self, base: str, token: str, match_id: str) -> None:
        self.http = RawHTTP(base, token)
        self.prefix = f"/v1/matches/{match_id}"

    async def _call(self, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        try:
            status, data = await self.http.request(method, self.prefix + path, body)
        except (ConnectionError, asyncio.IncompleteReadError) as exc:
            raise TransportError(f"{type(exc).__name__}: {exc}") from exc
        if status == 410:
            raise MatchOver("the match is over", result=None)
        if status == 409:
            raise StaleDecision("stale decision")
        if status >= 400:
            raise TransportError(f"HTTP {status}: {data[:200]!r}")
        return status, data

    async def status(self) -> None:
        await self._call("GET", "")

    async def wait_decision(self, wait: float, *, prompt: str = "full") -> RawDecision | None:
        query = f"/decision?wait={wait:g}" + ("" if prompt == "full" else f"&prompt={prompt}")
        status, data = await self._call("GET", query)
        if status == 204:
            return None
        d = json.loads(data)
        return RawDecision(d["decision_id"], [m["id"] for m in d["moves"]])

    async def move(self, decision_id: int, move_id: str) -> None:
        body = json.dumps({"decision_id": decision_id, "move_id": move_id}).encode()
        await self._call("POST", "/moves", body)

    async def aclose(self) -> None:
        await self.http.aclose()


def seat_client(kind: str, base: str, token: str, match_id: str) -> Any:
    """The load loops' seat client: ``raw`` (:class:`RawSeat`) or ``sdk``
    (:class:`AsyncSeatClient`, the project's own client)."""
    if kind == "raw":
        return RawSeat(base, token, match_id)
    return AsyncSeatClient(base, token, match_id=match_id, timeout=60)


async def bare_load(
    pid: int, base: str, clients: int, seconds: float, client: str = "raw"
) -> Tally:
    """``clients`` loops of ``GET /bare`` for ``seconds``, each client with its own connection
    (as each seat client of the service run has: one shared pool of 64 is slower in httpx),
    through :class:`RawHTTP` (``raw``) or httpx (``sdk``)."""
    tally = Tally(pid)
    conns: list[Any]
    if client == "raw":
        conns = [RawHTTP(base) for _ in range(clients)]

        async def get(conn: Any) -> bool:
            status, _ = await conn.request("GET", "/bare")
            return status == 200
    else:
        conns = [httpx.AsyncClient(base_url=base, timeout=30) for _ in range(clients)]

        async def get(conn: Any) -> bool:
            return (await conn.get("/bare")).status_code == 200

    failures = (ConnectionError, asyncio.IncompleteReadError, httpx.HTTPError)
    try:
        # connect every client before the clock starts, as the service's clients are
        await asyncio.gather(*(get(c) for c in conns))
        stop = tally.start(seconds)

        async def one(conn: Any) -> None:
            while time.perf_counter() < stop:
                t = time.perf_counter()
                try:
                    ok = await get(conn)
                except failures:
                    ok = False
                if ok:
                    tally.add("bare", time.perf_counter() - t)
                else:
                    tally.fail("bare")

        await asyncio.gather(*(one(c) for c in conns))
        tally.stop()
    finally:
        await asyncio.gather(*(c.aclose() for c in conns))
    return tally


LINEUP = [remote("load"), bot("random"), bot("random"), bot("random"), bot("random")]


async def random_move(seat: Any, decision: Any, rng: random.Random, tally: Tally) -> None:
    """Answer ``decision`` with a random legal move, timed into ``tally`` (a stale decision or
    an ended match is a normal answer under load; a transport failure is counted apart)."""
    t = time.perf_counter()
    try:
        await seat.move(decision.decision_id, rng.choice(decision.move_ids))
    except (StaleDecision, MatchOver):
        pass
    except TransportError:
        tally.fail("move")
        return
    tally.add("move", time.perf_counter() - t)


async def service_load(
    pid: int,
    base: str,
    admin_token: str,
    clients: int,
    seconds: float,
    time_per_move: float,
    client: str = "raw",
) -> Tally:
    """``clients`` remote seats, each in its own match, answering for ``seconds``. A match
    made while timed (when one ends) is counted apart, its CPU in the server's."""
    tally = Tally(pid)
    rng = random.Random(7)
    async with AsyncAdminClient(base, admin_token, timeout=60) as admin:

        async def new_seat() -> Any:
            made = await create_with_retry(
                admin, LINEUP, seed=rng.randrange(2**53), time_per_move=time_per_move, start="now"
            )
            return seat_client(client, base, made.token_for(0), made.match_id)

        seats = await asyncio.gather(*(new_seat() for _ in range(clients)))

        async def connect(seat: Any) -> None:
            with contextlib.suppress(MatchOver, TransportError):
                await seat.status()  # the connection opened before the clock starts

        await asyncio.gather(*(connect(s) for s in seats))
        stop = tally.start(seconds)

        async def one(seat: Any) -> None:
            while time.perf_counter() < stop:
                t = time.perf_counter()
                try:
                    decision = await seat.wait_decision(wait=5)
                except MatchOver:
                    tally.add("poll", time.perf_counter() - t)
                    await seat.aclose()
                    seat = await new_seat()
                    tally.created += 1
                    continue
                except TransportError:
                    tally.fail("poll")
                    continue
                tally.add("poll", time.perf_counter() - t)
                if decision is None:
                    continue
                await random_move(seat, decision, rng, tally)
            await seat.aclose()

        await asyncio.gather(*(one(s) for s in seats))
        tally.stop()
    return tally


async def all_remote_load(
    pid: int,
    base: str,
    admin_token: str,
    clients: int,
    seconds: float,
    time_per_move: float,
    client: str = "raw",
    prompt: str = "full",
) -> Tally:
    """``clients`` remote seats, five to a match with no bot, each looping like
    :func:`service_load`'s: the server's work is the decisions' own (payload, driver, routes),
    not bots' turns between them. A table whose match ended makes the next one once all of its
    seats saw the end (an eliminated seat idles until then). ``prompt``: the prompt part each
    poll asks for."""
    tally = Tally(pid)
    rng = random.Random(11)
    lineup = [remote(f"load{i}") for i in range(5)]
    async with AsyncAdminClient(base, admin_token, timeout=60) as admin:

        async def new_table() -> list[Any]:
            made = await create_with_retry(
                admin, lineup, seed=rng.randrange(2**53), time_per_move=time_per_move, start="now"
            )
            return [seat_client(client, base, made.token_for(s), made.match_id) for s in range(5)]

        tables = await asyncio.gather(*(new_table() for _ in range(-(-clients // 5))))
        for seats in tables:
            for seat in seats:
                with contextlib.suppress(MatchOver, TransportError):
                    await seat.status()
        stop = tally.start(seconds)

        async def one(seat: Any) -> None:
            while time.perf_counter() < stop:
                t = time.perf_counter()
                try:
                    decision = await seat.wait_decision(wait=5, prompt=prompt)
                except MatchOver:
                    tally.add("poll", time.perf_counter() - t)
                    return
                except TransportError:
                    tally.fail("poll")
                    continue
                tally.add("poll", time.perf_counter() - t)
                if decision is None:
                    continue
                await random_move(seat, decision, rng, tally)

        async def table(seats: list[Any]) -> None:
            while True:
                await asyncio.gather(*(one(s) for s in seats))
                await asyncio.gather(*(s.aclose() for s in seats))
                if time.perf_counter() >= stop:
                    return
                seats = await new_table()
                tally.created += 1

        await asyncio.gather(*(table(seats) for seats in tables))
        tally.stop()
    return tally


async def create_with_retry(admin: AsyncAdminClient, lineup: list, **options) -> MatchCreated:
    """Create a match, retrying a dropped connection (a loaded machine can stall the server
    past its keep-alive timeout)."""
    for attempt in range(5):
        try:
            return await admin.create_match(lineup, **options)
        except TransportError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.2 * (attempt + 1))
    raise AssertionError("unreachable")


async def waiting_matches(base: str, admin_token: str, n: int) -> None:
    """``n`` live matches (2 remote seats + 3 bots), each remote seat connected once (a poll
    with no wait), so every match is started and waits at a remote seat's decision."""
    sem = asyncio.Semaphore(8)
    lineup = [remote("a"), bot("rule"), remote("b"), bot("rule"), bot("rule")]
    async with AsyncAdminClient(base, admin_token, timeout=60) as admin:

        async def one(k: int) -> None:
            async with sem:
                made = await create_with_retry(admin, lineup, seed=k, time_per_move=90)
                for s in made.remote_seats:
                    async with AsyncSeatClient(
                        base, made.token_for(s), match_id=made.match_id, timeout=60
                    ) as seat:
                        with contextlib.suppress(MatchOver, TransportError):
                            await seat.wait_decision(wait=0)

        await asyncio.gather(*(one(k) for k in range(n)))


async def finished_matches(base: str, admin_token: str, n: int) -> None:
    """``n`` matches (2 remote seats polling our full prompts, answering at random, + 3 bots)
    played to their end and stored: what a running service holds for the finished matches it
    keeps (``keep_finished``, 200 by default) for their late readers."""
    sem = asyncio.Semaphore(8)
    lineup = [remote("a"), bot("rule"), remote("b"), bot("rule"), bot("rule")]
    async with AsyncAdminClient(base, admin_token, timeout=60) as admin:

        async def one(k: int) -> None:
            async with sem:
                made = await create_with_retry(admin, lineup, seed=k, time_per_move=90)
                rng = random.Random(k)

                async def seat(token: str) -> None:
                    async with AsyncSeatClient(
                        base, token, match_id=made.match_id, timeout=60
                    ) as client:
                        await client.play(lambda d: rng.choice(d.move_ids), wait=5)

                await asyncio.gather(*(seat(made.token_for(s)) for s in made.remote_seats))
                while not (await admin.status(made.match_id))["stored"]:
                    await asyncio.sleep(0.05)

        await asyncio.gather(*(one(k) for k in range(n)))


def finished_memory(proc: subprocess.Popen, base: str, admin_token: str, n: int) -> dict:
    """RSS of a fresh service before and after ``n`` finished, stored matches it still keeps."""
    before = rss_bytes(proc.pid)
    asyncio.run(finished_matches(base, admin_token, n))
    time.sleep(0.3)
    return rss_figure(before, rss_bytes(proc.pid), n, "finished, stored matches kept",
                      "finished matches", key="finished_")  # fmt: skip


def memory(proc: subprocess.Popen, base: str, admin_token: str, n: int) -> dict:
    """RSS of the fresh service before and after ``n`` live matches wait on remote seats."""
    before = rss_bytes(proc.pid)
    live0 = httpx.get(f"{base}/healthz").json()["live_matches"]
    asyncio.run(waiting_matches(base, admin_token, n))
    time.sleep(0.3)
    made = httpx.get(f"{base}/healthz").json()["live_matches"] - live0
    return rss_figure(before, rss_bytes(proc.pid), made,
                      "live matches waiting on remote seats", "live matches")  # fmt: skip


def rss_figure(before: int, after: int, n: int, what: str, unit: str, key: str = "") -> dict:
    """Print and return the RSS growth for ``n`` matches (``what``): KiB per match and
    ``unit`` per GiB; the row's keys start with ``key``."""
    per_match = max(1.0, (after - before) / max(1, n))
    per_gib = (1 << 30) / per_match
    print(
        f"memory: RSS {before / 2**20:.0f} MiB → {after / 2**20:.0f} MiB with {n} {what}: "
        f"{per_match / 1024:.0f} KiB per match → {per_gib:,.0f} {unit} per GiB"
    )
    return {
        f"{key}rss_mib_before": round(before / 2**20, 1),
        f"{key}rss_mib_after": round(after / 2**20, 1),
        f"{key}matches": n,
        f"{key}kib_per_match": round(per_match / 1024, 1),
        f"{key}matches_per_gib": round(per_gib),
    }


# --- the run ------------------------------------------------------------------------------------


def line(name: str, clients: int, tally: Tally) -> dict:
    """Print one result row; return it."""
    wall, cpu = tally.wall, tally.cpu
    # requests per wall second while the load ran (the window's tail waits for the clients)
    loaded_s = min(wall, tally.seconds)
    rate = tally.loaded / loaded_s if loaded_s > 0 else float("nan")
    per_core = tally.count / cpu if cpu > 0 else float("nan")
    row = {
        "server": name,
        "clients": clients,
        "requests": tally.count,
        "req_per_s": round(rate),
        "server_cpu_s": round(cpu, 2),
        "server_system_cpu_s": round(tally.system, 2),
        "req_per_cpu_s": round(per_core),
        "p50_ms": round(pct(tally.all(), 0.5), 2),
        "p99_ms": round(pct(tally.all(), 0.99), 2),
        "errors": tally.errors,
        "matches_made_while_timed": tally.created,
    }
    traced = gc_figures(tally.pid, tally.window)
    if traced is not None:
        row.update(traced)
    for kind, values in sorted(tally.lat.items()):
        if kind != "bare":
            row[f"{kind}_p50_ms"] = round(pct(values, 0.5), 2)
            row[f"{kind}_p99_ms"] = round(pct(values, 0.99), 2)
    print(
        f"{name:8} {clients:3d} clients: {rate:7.0f} req/s, server CPU {cpu:5.2f} s "
        f"({tally.system / cpu if cpu > 0 else 0:.0%} system) → "
        f"{per_core:6.0f} req per CPU-s; p50 {row['p50_ms']:.2f} ms, p99 {row['p99_ms']:.2f} ms"
        + (f"; {tally.created} new matches" if tally.created else "")
        + (f"  errors {tally.errors}" if tally.errors else "")
    )
    if traced is not None:
        print(
            f"         collector: {traced['gc_cpu_s'] / cpu if cpu > 0 else 0:.1%} of the CPU "
            f"({traced['gc_young']} young passes, {traced['gc_older']} older; the longest "
            f"{traced['gc_longest_ms']:.0f} ms)"
        )
    kinds = [k for k in sorted(tally.lat) if k != "bare"]
    if len(kinds) > 1:  # a poll's wait is the game's pace; a move's latency is the server's
        print(
            "         by request: "
            + "; ".join(
                f"{k} p50 {row[f'{k}_p50_ms']:.2f} ms, p99 {row[f'{k}_p99_ms']:.2f} ms"
                for k in kinds
            )
        )
    return row


def print_rounds(rows: list[dict]) -> None:
    """The share of the bare endpoint per lineup and concurrency over the rounds: the median,
    and the lowest and highest (one run's share moves with the host's noise; each round's
    bare run is its own yardstick)."""
    shares: dict[tuple[str, int], list[float]] = {}
    for r in rows:
        if "share_of_bare_per_core" in r:
            shares.setdefault((r["server"], r["clients"]), []).append(r["share_of_bare_per_core"])
    print(
        f"over {max(len(v) for v in shares.values())} rounds, share of the bare endpoint per core:"
    )
    for (name, clients), values in shares.items():
        print(f"  {name:8} {clients:3d} clients: median {statistics.median(values):.0%} "
              f"(lowest {min(values):.0%}, highest {max(values):.0%})")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=5.0, help="per load run (default 5)")
    p.add_argument("--clients", default="64,8", help="concurrency levels (default 64,8)")
    p.add_argument("--matches", type=int, default=150, help="live matches for the RSS figure")
    p.add_argument(
        "--finished", type=int, default=100,
        help="finished, stored matches for the kept-matches RSS figure (≤ the service's "
        "keep_finished, 200; 0: skip it)",
    )  # fmt: skip
    p.add_argument("--time-per-move", type=float, default=90.0)
    p.add_argument("--loop", default="uvloop", help="uvicorn's loop, both servers (uvloop)")
    p.add_argument("--http", default="httptools", help="uvicorn's HTTP parser, both (httptools)")
    p.add_argument("--json", type=Path, default=None, help="also write the figures here")
    p.add_argument(
        "--rounds", type=int, default=1,
        help="run the bare endpoint and the lineups this many times in turn at each "
        "concurrency, then print each lineup's median share (default 1)",
    )  # fmt: skip
    p.add_argument(
        "--lineups", default="bots,remote",
        help="service loads, in order: 'bots' (1 remote seat + 4 random bots per match), "
        "'remote' (5 remote seats per match, no bot), 'lean' (remote's, polling with "
        "prompt=none), 'floor' (remote's load against the "
        "service with empty payloads and no storing: see floor_main) and 'asgi' (the bare "
        "load against uvicorn serving a plain ASGI callable); default bots,remote",
    )  # fmt: skip
    p.add_argument(
        "--client", default="raw", choices=("raw", "sdk"),
        help="the load generator's HTTP client: 'raw' (keep-alive asyncio streams, the "
        "default: its own CPU stays out of the latencies) or 'sdk' (httpx through "
        "bangarena.client.AsyncSeatClient, as an agent would)",
    )  # fmt: skip
    p.add_argument(
        "--floor-keep", default="",
        help="parts the floor server keeps, comma-separated: 'payload' (the contract's "
        "content), 'store' (storing finished matches); default none",
    )  # fmt: skip
    p.add_argument(
        "--floor-prompt", default="full", choices=PROMPT_PARTS,
        help="the prompt part the floor lineup's polls ask for (default full; with "
        "'--floor-keep payload --floor-prompt none' the floor is lean5 without storing)",
    )  # fmt: skip
    p.add_argument(
        "--pin", action="store_true",
        help="run the servers on the first core only and the load generator on the others "
        "(the rate of one core, without the generator's CPU competing on it)",
    )  # fmt: skip
    p.add_argument(
        "--gc", action="store_true",
        help="trace the servers' cyclic collector (benchmarks/gc_trace): its share of each "
        "run's CPU and its longest pass",
    )  # fmt: skip
    p.add_argument("--bare-server", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--floor-server", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--asgi-server", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--floor-db", default="", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    keep = frozenset(x for x in args.floor_keep.split(",") if x)
    if args.rounds < 1:
        p.error("--rounds: at least 1")
    if not keep <= set(FLOOR_PARTS):
        p.error(f"--floor-keep: a comma-separated list of {', '.join(FLOOR_PARTS)}")
    if args.bare_server is not None:
        bare_main(args.bare_server, args.loop, args.http)
        return 0
    if args.asgi_server is not None:
        asgi_main(args.asgi_server, args.loop, args.http)
        return 0
    if args.floor_server is not None:
        floor_main(args.floor_server, args.loop, args.http, args.floor_db, keep)
        return 0
    levels = [int(x) for x in args.clients.split(",") if x]
    floor_name = "floor5" + "".join(f"+{k}" for k in sorted(keep))
    if args.floor_prompt != "full":
        floor_name += f" ({args.floor_prompt})"
    known = {
        "bots": ("service", service_load),
        "remote": ("remote5", all_remote_load),
        "lean": ("lean5", functools.partial(all_remote_load, prompt="none")),
        "floor": (floor_name, functools.partial(all_remote_load, prompt=args.floor_prompt)),
        "asgi": (
            "asgi",
            lambda pid, base, _admin, clients, seconds, _tpm, client: bare_load(
                pid, base, clients, seconds, client
            ),
        ),
    }
    picked = [x for x in args.lineups.split(",") if x]
    if not picked or any(x not in known for x in picked):
        p.error(f"--lineups: a comma-separated list of {', '.join(known)}")
    loads = [(x, *known[x]) for x in picked]
    exe = shutil.which("bangarena") or str(Path(sys.executable).with_name("bangarena"))
    admin_token = secrets.token_urlsafe(32)
    env = os.environ | {"BANGARENA_ADMIN_TOKEN": admin_token}
    rows: list[dict] = []
    load = os.getloadavg()[0]
    print(f"{os.cpu_count()} cores (load average {load:.1f}); {args.seconds:g} s per run; "
          f"clients {levels}; uvicorn loop={args.loop} http={args.http}; "
          f"load client {args.client}; engine {os.environ.get('BANGARENA_ENGINE') or 'pure'}"
          f"{'; servers pinned to one core' if args.pin else ''}")  # fmt: skip
    if load > (os.cpu_count() or 1):
        print("  the machine is busy: rates and latencies are low; per-CPU-s figures hold up")
    with tempfile.TemporaryDirectory(prefix="bangarena-load-") as tmp:
        sport, bport, fport, aport = free_port(), free_port(), free_port(), free_port()

        def serve_on(port: int, db: str) -> list[str]:
            return [exe, "serve", "--host", HOST, "--port", str(port), "--db", f"{tmp}/{db}",
                    "--loop", args.loop, "--http", args.http, "--log-level", "warning"]  # fmt: skip

        serve = serve_on(sport, "live.db")
        bare = [sys.executable, __file__, "--bare-server", str(bport),
                "--loop", args.loop, "--http", args.http]  # fmt: skip
        floor = [sys.executable, __file__, "--floor-server", str(fport), "--floor-db",
                 f"{tmp}/floor.db", "--loop", args.loop, "--http", args.http,
                 "--floor-keep", ",".join(sorted(keep))]  # fmt: skip
        asgi = [sys.executable, __file__, "--asgi-server", str(aport),
                "--loop", args.loop, "--http", args.http]  # fmt: skip
        logs = Path(tmp)
        # The memory figure on a service of its own: its waiting matches go on (their remote
        # seats are autopiloted once away for 8 s, their bots play) and would be charged to
        # the load runs' CPU.
        mport = free_port()
        with server(serve_on(mport, "memory.db"), mport, env, logs / "memory.log") as mproc:
            rows.append(memory(mproc, f"http://{HOST}:{mport}", admin_token, args.matches))
        if args.finished:
            fmport = free_port()
            with server(serve_on(fmport, "finished.db"), fmport, env, logs / "finished.log") as fm:
                rows.append(finished_memory(fm, f"http://{HOST}:{fmport}", admin_token,
                                            args.finished))  # fmt: skip
        server_cpus = None
        if args.pin:
            # the servers on the first core, the load generator on the others
            first, *rest = sorted(os.sched_getaffinity(0))
            server_cpus = {first}
            os.sched_setaffinity(0, set(rest) or {first})
        with contextlib.ExitStack() as stack:
            pin, trace = server_cpus, args.gc
            sproc = stack.enter_context(server(serve, sport, env, logs / "serve.log", pin, trace))
            bproc = stack.enter_context(server(bare, bport, env, logs / "bare.log", pin, trace))
            sbase, bbase = f"http://{HOST}:{sport}", f"http://{HOST}:{bport}"
            targets = {"bots": (sproc, sbase), "remote": (sproc, sbase), "lean": (sproc, sbase)}
            if "floor" in picked:
                fproc = stack.enter_context(
                    server(floor, fport, env, logs / "floor.log", pin, trace)
                )
                targets["floor"] = (fproc, f"http://{HOST}:{fport}")
            if "asgi" in picked:
                aproc = stack.enter_context(server(asgi, aport, env, logs / "asgi.log", pin, trace))
                targets["asgi"] = (aproc, f"http://{HOST}:{aport}")
            for clients in levels:
                for _ in range(args.rounds):
                    b = line("bare", clients, asyncio.run(
                        bare_load(bproc.pid, bbase, clients, args.seconds, args.client)))  # fmt: skip
                    rows.append(b)
                    for key, name, load_fn in loads:
                        proc, base = targets[key]
                        s = line(name, clients, asyncio.run(load_fn(
                            proc.pid, base, admin_token, clients, args.seconds,
                            args.time_per_move, args.client,
                        )))  # fmt: skip
                        bare_rate = b["req_per_cpu_s"]
                        share = s["req_per_cpu_s"] / bare_rate if bare_rate else 0
                        print(f"         {name} per core = {share:.0%} of the bare endpoint's")
                        s["share_of_bare_per_core"] = round(share, 3)
                        rows.append(s)
    if args.rounds > 1:
        print_rounds(rows)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
