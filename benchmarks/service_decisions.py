"""The seat service's own work per decision, in one process and without HTTP: where a remote
decision's server CPU goes once uvicorn is set aside.

Matches of five remote seats (no bot) are made through the service's registry; each seat is a
coroutine that calls the very functions the fast path of ``GET /decision`` and ``POST /moves``
calls (``routes/decisions.py``: ``_poll`` and ``_move``, with the seat token in a request
scope), reads the payload's legal ids and answers one at random. Storing finished matches is
off (``benchmarks/service_load.py`` measures it with the rest, over HTTP). Printed: CPU per
decision (a poll and a move, the load generator's own ``json.loads`` of the payload included),
and the share of it in the main parts (timers around them: ~1 µs each).

    .venv/bin/python benchmarks/service_decisions.py                 # 40 matches, ~5 s
    .venv/bin/python benchmarks/service_decisions.py --matches 80 --profile
    .venv/bin/python benchmarks/service_decisions.py --via app --prompt none
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import functools
import gc
import json
import pstats
import random
import sys
import tempfile
import time
from typing import Any

from starlette.requests import Request

import bangarena.engine.game as game_module
import bangarena.harness.decision_payload as payload_module
from bangarena.cli.serve import GC_THRESHOLD
from bangarena.harness.decision_payload import PROMPT_PARTS, MoveAnswer
from bangarena.service import ServiceSettings, create_app
from bangarena.service.errors import ApiError
from bangarena.service.models import CreateMatch
from bangarena.service.routes.decisions import _move, _poll

PARTS = (
    (payload_module.DecisionPrompter, "prepare", "payload: prepare (view, move texts)"),
    (getattr(payload_module, "PreparedPayload", None), "json", "payload: JSON (with the prompt)"),
    (payload_module, "render_turn", "  of which the turn prompt (at first use)"),
    (game_module.Game, "view", "engine: views"),
    (game_module.Game, "apply", "engine: apply"),
)


def time_parts() -> dict[str, float]:
    """Wrap the parts of :data:`PARTS` with timers; returns their running totals (seconds)."""
    spent: dict[str, float] = {}
    for owner, name, label in PARTS:
        fn = getattr(owner, name, None)
        if fn is None:  # an older tree (run against a snapshot of the sources)
            continue

        @functools.wraps(fn)
        def timed(*args: Any, _fn: Any = fn, _label: str = label, **kwargs: Any) -> Any:
            t = time.perf_counter()
            try:
                return _fn(*args, **kwargs)
            finally:
                spent[_label] = spent.get(_label, 0.0) + time.perf_counter() - t

        setattr(owner, name, timed)
    return spent


def service_app(db: str) -> Any:
    """The service's app as the benchmark runs it: no storing, no extensions."""
    return create_app(
        ServiceSettings(db_url=db, store_matches=False, admin_token="a" * 43), extensions=[]
    )


def _asgi_seat(app: Any, rng: random.Random, prompt: str = "full") -> Any:
    """A seat coroutine (match id, token) → decisions, whose polls and moves go through the
    app's ASGI callable as uvicorn would call it (the fast path and its checks included)."""
    _empty = {"type": "http.request", "body": b"", "more_body": False}

    async def no_body() -> dict[str, Any]:
        return _empty

    async def seat(match_id: str, token: str) -> int:
        made = 0
        auth = [(b"authorization", f"Bearer {token}".encode())]
        base = {
            "type": "http", "http_version": "1.1", "scheme": "http", "root_path": "",
            "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 50000), "raw_path": b"",
        }  # fmt: skip
        poll = {**base, "method": "GET", "path": f"/v1/matches/{match_id}/decision",
                "query_string": b"wait=5" + (b"" if prompt == "full" else
                                                 f"&prompt={prompt}".encode())}  # fmt: skip
        move = {**base, "method": "POST", "path": f"/v1/matches/{match_id}/moves",
                "query_string": b""}  # fmt: skip
        sent: list[dict[str, Any]] = []  # one request's messages

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        while True:
            sent.clear()
            await app({**poll, "headers": auth}, no_body, send)
            status = sent[0]["status"]
            if status == 410:
                return made
            if status == 204:
                continue
            d = json.loads(sent[1]["body"])
            body = json.dumps(
                {
                    "decision_id": d["decision_id"],
                    "move_id": rng.choice([m["id"] for m in d["moves"]]),
                }
            ).encode()

            async def with_body(body: bytes = body) -> dict[str, Any]:
                return {"type": "http.request", "body": body, "more_body": False}

            headers = [*auth, (b"content-type", b"application/json"),
                       (b"content-length", b"%d" % len(body))]  # fmt: skip
            sent.clear()
            await app({**move, "headers": headers}, with_body, send)
            made += sent[0]["status"] == 200

    return seat


async def play(
    matches: int,
    tables: int,
    db: str,
    app: Any = None,
    via: str = "routes",
    prompt: str = "full",
) -> tuple[int, float]:
    """Play ``matches`` five-remote-seat matches, ``tables`` at once, on ``app`` (a new one
    by default), calling the routes' functions (``via="routes"``) or the app's ASGI callable
    (``"app"``), every poll asking for the ``prompt`` part; (decisions, CPU s)."""
    app = service_app(db) if app is None else app
    registry = app.state.service.registry
    rng = random.Random(5)
    decisions = 0
    asgi_seat = _asgi_seat(app, rng, prompt) if via == "app" else None

    async def seat(match_id: str, token: str) -> None:
        nonlocal decisions
        if asgi_seat is not None:
            made = await asgi_seat(match_id, token)  # read before adding: others add too
            decisions += made
            return
        scope = {
            "type": "http", "method": "GET", "path": "/", "query_string": b"", "app": app,
            "headers": [(b"authorization", f"Bearer {token}".encode())],
        }  # fmt: skip
        request = Request(scope)
        while True:
            try:
                polled = await _poll(request, match_id, 5.0, prompt)  # type: ignore[arg-type]
            except ApiError:  # 410: the match is over or the seat is out
                return
            if polled.status_code == 204:
                continue
            d = json.loads(polled.body)
            answer = MoveAnswer(
                decision_id=d["decision_id"], move_id=rng.choice([m["id"] for m in d["moves"]])
            )
            try:
                (await _move(request, match_id, answer)).model_dump_json()
                decisions += 1
            except ApiError:
                pass

    async def one(k: int, gate: asyncio.Semaphore) -> None:
        async with gate:
            live, made = registry.create(CreateMatch.model_validate({
                "seats": 5, "seed": k, "start": "now", "time_per_move": 90,
                "players": [{"kind": "remote", "name": f"s{i}"} for i in range(5)],
            }))  # fmt: skip
            await asyncio.gather(*(seat(made.match_id, s.token) for s in made.seats if s.token))
            while live.record is None:
                await asyncio.sleep(0.001)

    gate = asyncio.Semaphore(tables)
    cpu = time.process_time()
    await asyncio.gather(*(one(k, gate) for k in range(matches)))
    return decisions, time.process_time() - cpu


_APP: list[Any] = []
"""The app of :func:`decisions_in_process` and its folder, made at the first call."""


def decisions_in_process(
    matches: int, tables: int = 13, via: str = "routes", prompt: str = "full"
) -> int:
    """Play ``matches`` matches as :func:`main` does, without timers, on one app for the whole
    process (its creation belongs to the warm-up); returns the decisions
    (``benchmarks/instructions.py``'s ``service`` workloads)."""
    if not _APP:
        tmp = tempfile.TemporaryDirectory(prefix="bangarena-decisions-")
        _APP.extend((tmp, service_app(f"{tmp.name}/live.db")))
    decisions, _ = asyncio.run(play(matches, tables, "", _APP[1], via, prompt))
    return decisions


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, default=40)
    p.add_argument("--tables", type=int, default=13, help="matches at once (13: 64 clients)")
    p.add_argument("--profile", action="store_true", help="cProfile instead of the timers")
    p.add_argument(
        "--via", choices=("routes", "app"), default="routes",
        help="call the routes' functions (default) or the app's ASGI callable, fast path "
        "included (what uvicorn calls)",
    )  # fmt: skip
    p.add_argument(
        "--prompt", default="full", choices=PROMPT_PARTS,
        help="the prompt part every poll asks for (default full; none: no turn prompt rendered)",
    )  # fmt: skip
    args = p.parse_args(argv)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)  # as `bangarena serve` runs
    with tempfile.TemporaryDirectory(prefix="bangarena-decisions-") as tmp:
        run = functools.partial(play, args.matches, args.tables, f"{tmp}/live.db", via=args.via,
                                prompt=args.prompt)  # fmt: skip
        if args.profile:
            prof = cProfile.Profile()
            decisions, cpu = prof.runcall(asyncio.run, run())
            pstats.Stats(prof).sort_stats("tottime").print_stats(40)
        else:
            spent = time_parts()
            decisions, cpu = asyncio.run(run())
    print(f"{decisions} decisions in {args.matches} matches: {1e6 * cpu / decisions:.0f} µs CPU "
          "per decision (a poll and a move, in process, no HTTP, no storing)")  # fmt: skip
    if not args.profile:
        for _, _, label in PARTS:
            seconds = spent.get(label, 0.0)
            print(f"  {label:40} {1e6 * seconds / decisions:6.1f} µs ({seconds / cpu:.0%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
