"""Throughput of the evaluation runner (figures for issue 10's closing note).

    python benchmarks/eval_throughput.py [--bots 1000] [--models 300] [--seconds 20]
                                         [--memory 100] [--skip bots,models,memory]

- **bots**: N seven-seat rule-bot matches through the whole runner and store (local backend,
  then ``--backend processes`` with 1 and 2 workers) against ``bangarena simulate --players
  rule --no-check`` and the bare match driver on the same number of games, in this run: wall
  and CPU ms per match (``*_cpu_ms``: this process and, for the processes backend, its reaped
  workers). The target is in CPU time, ``runner_vs_simulate_cpu`` (simulate is timed before
  and after the runners, the ratio uses their mean: a shared machine's load moves);
  ``processes_2_vs_1`` is wall time, beside ``simulate_2_processes_vs_1``, what bare simulate
  gets from two processes on this machine at that moment. ``storage_floor_*``: the least that
  storing a match as the store must (the record's JSON, zlib, the decision rows through bare
  ``sqlite3``) costs with no runner at all, and that as a share of simulate.
- **models**: N concurrent all-model seven-seat matches whose seats talk through the real
  OpenAI SDK to a loopback fake server (its own process) that answers after 1 s: model
  decisions per second over a steady window, p50 decision latency, CPU per decision, for the
  SDK's aiohttp transport and for httpx; then the SDK alone (the same ``client.post`` a model
  seat makes, N loops at once, same server, a real decision's prompts and schema; run before
  and after the matches, the mean is used) and the harness's own CPU per decision as a share
  of the SDK's per-call CPU (``harness_share``); then the OpenAI provider alone (the same
  request through ``OpenAIProvider.complete``): ``provider_cpu_ms_per_call`` is its part of the
  harness's share.
- **memory**: live seven-seat matches with transcripts (scripted seats, held at their end, the
  heaviest moment), with and without the runner's written-out decisions; bytes per stored
  match and store time per match.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bangarena.evals import parse_suite, plan_suite
from bangarena.evals.breakers import CircuitBreakers
from bangarena.evals.execute import PlayContext, Tally, play_planned
from bangarena.evals.runner import RunOptions, run_suite
from bangarena.evals.spool import RunnerMatch
from bangarena.harness.match import Match, MatchSettings
from bangarena.harness.pricing import prepare_prices
from bangarena.harness.providers.limits import ProviderLimits
from bangarena.harness.records import MoveRecord
from bangarena.harness.seats.factory import build_seat, plan_seat
from bangarena.harness.simulate import batch_gc, simulate

SEVEN = ["p"] * 7


def suite_text(name: str, spec: str, deals: int, *, matches: int = 64, extra: str = "") -> str:
    lineup = json.dumps(SEVEN)
    return f"""
[suite]
name = "{name}"
seed = 17
deals = {deals}

[[participants]]
id = "p"
spec = "{spec}"
{extra}

[[tables]]
seats = 7
time_per_move = 600
lineup = {lineup}

[concurrency]
matches = {matches}
"""


# -- bots -----------------------------------------------------------------------------------------
def _cpu_with_children() -> float:
    """CPU seconds of this process and of its reaped children (the pool's workers: a run's
    pool is shut down, so waited for, before it returns)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def bots(n: int) -> dict[str, Any]:
    """Figures per match: wall and CPU (ms) of simulate, the bare match driver and the runner
    with its store; the runner's ratios to simulate in CPU time (the target) and in wall time."""
    out: dict[str, Any] = {"matches": n}
    simulate(20, 10**6, "7", "classic", check=False, players="rule")  # imports, caches
    t, c = time.perf_counter(), time.process_time()
    simulate(n, 0, "7", "classic", check=False, players="rule")
    out["simulate_ms"] = round((time.perf_counter() - t) / n * 1000, 2)
    out["simulate_cpu_ms"] = round((time.process_time() - c) / n * 1000, 2)

    async def driver() -> None:
        for s in range(n):
            seats = [build_seat(plan_seat("rule"), seat=i, seed=s) for i in range(7)]
            await Match(MatchSettings(seats=7, seed=s, time_per_move_s=30), seats).run()

    t, c = time.perf_counter(), time.process_time()
    with batch_gc():
        asyncio.run(driver())
    out["match_driver_ms"] = round((time.perf_counter() - t) / n * 1000, 2)
    out["match_driver_cpu_ms"] = round((time.process_time() - c) / n * 1000, 2)

    deals = math.ceil(n / 7)
    with tempfile.TemporaryDirectory() as d:
        warm = parse_suite(suite_text("bots-warm", "rule", 1))  # the store's imports
        run_suite(warm, RunOptions(db=str(Path(d) / "warm.db")))
        for label, backend, workers in (
            ("runner_local", "local", 1),
            ("runner_processes_1", "processes", 1),
            ("runner_processes_2", "processes", 2),
        ):
            suite = parse_suite(suite_text(f"bots-{label}", "rule", deals))
            db = Path(d) / f"{label}.db"
            t, c = time.perf_counter(), _cpu_with_children()
            r = run_suite(suite, RunOptions(db=str(db), backend=backend, workers=workers))
            wall = time.perf_counter() - t
            assert r.exit_code == 0, r.to_json()
            out[f"{label}_ms"] = round(wall / r.matches_run_now * 1000, 2)
            # driver and workers together (the workers' CPU once the pool is shut down)
            out[f"{label}_cpu_ms"] = round((_cpu_with_children() - c) / r.matches_run_now * 1000, 2)
    # simulate again: the machine's load moves; the ratio uses the mean of both runs
    c = time.process_time()
    simulate(n, 0, "7", "classic", check=False, players="rule")
    out["simulate_again_cpu_ms"] = round((time.process_time() - c) / n * 1000, 2)
    sim_cpu = (out["simulate_cpu_ms"] + out["simulate_again_cpu_ms"]) / 2
    out["simulate_2_processes_vs_1"] = simulate_scaling(min(n, 300))
    out["runner_vs_simulate_cpu"] = round(out["runner_local_cpu_ms"] / sim_cpu, 3)
    out["match_driver_vs_simulate_cpu"] = round(out["match_driver_cpu_ms"] / sim_cpu, 3)
    out["runner_vs_simulate"] = round(out["runner_local_ms"] / out["simulate_ms"], 2)
    out["runner_vs_match_driver"] = round(out["runner_local_ms"] / out["match_driver_ms"], 2)
    out["processes_2_vs_1"] = round(out["runner_processes_1_ms"] / out["runner_processes_2_ms"], 2)
    floor = storage_floor(min(n, 200))
    out.update(floor)
    out["storage_floor_vs_simulate_cpu"] = round(floor["storage_floor_cpu_ms"] / sim_cpu, 3)
    return out


def storage_floor(n: int) -> dict[str, Any]:
    """The least CPU per match that storing what the issue asks for costs, with no runner
    around it (ms): the record's JSON (pydantic-core), its zlib compression at the store's
    level, and its decision rows inserted with bare ``sqlite3.executemany`` on a WAL file
    (no SQLAlchemy, one transaction per match) — the records of ``n`` bare-driver matches."""
    import sqlite3
    import zlib

    from bangarena.evals.store.rows import DECISION_COLUMNS, ZLIB_LEVEL, decision_tuples

    suite = parse_suite(suite_text("floor", "rule", math.ceil(n / 7)))
    plan = plan_suite(suite)[:n]

    async def play() -> list:
        return [await m.play() for m in plan]

    records = asyncio.run(play())
    rows = [decision_tuples(m, r) for m, r in zip(plan, records, strict=True)]
    c = time.process_time()
    raws = [r.model_dump_json().encode() for r in records]
    dump = time.process_time() - c
    c = time.process_time()
    for raw in raws:
        zlib.compress(raw, ZLIB_LEVEL)
    compress = time.process_time() - c
    with tempfile.TemporaryDirectory() as d:
        db = sqlite3.connect(Path(d) / "floor.db")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute(
            f"CREATE TABLE decisions ({', '.join(DECISION_COLUMNS)}, PRIMARY KEY (match_id, idx))"
        )
        sql = f"INSERT INTO decisions VALUES ({', '.join('?' * len(DECISION_COLUMNS))})"
        c = time.process_time()
        for i, match_rows in enumerate(rows):
            with db:
                db.executemany(sql, [(i, *t[1:]) for t in match_rows])
        insert = time.process_time() - c
        db.close()
    per = {"dump": dump, "compress": compress, "insert": insert}
    out = {f"storage_floor_{k}_cpu_ms": round(v / n * 1000, 3) for k, v in per.items()}
    out["storage_floor_cpu_ms"] = round(sum(per.values()) / n * 1000, 3)
    out["decision_rows_per_match"] = round(sum(map(len, rows)) / n, 1)
    return out


def _simulate_ms(n: int) -> float:
    t = time.perf_counter()
    simulate(n, 0, "7", "classic", check=False, players="rule")
    return time.perf_counter() - t


def simulate_scaling(n: int) -> float:
    """What two processes give over one on this machine for bare ``simulate`` (the reference
    for the runner's ``--workers 2``: on a shared 2-vCPU machine the second core is not always
    there)."""
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.map(_simulate_ms, [5, 5])
        one = pool.apply(_simulate_ms, (n,))
        t = time.perf_counter()
        pool.map(_simulate_ms, [n, n])
        two = time.perf_counter() - t
    return round(one / (two / 2), 2)


# -- models ---------------------------------------------------------------------------------------
SERVER = r"""
import asyncio, json, sys, time
PREFIX = "Legal move ids: "
def legal(body):
    for m in reversed(body.get("messages") or []):
        if m.get("role") == "user":
            for line in reversed((m.get("content") or "").splitlines()):
                if line.startswith(PREFIX):
                    return [x.strip() for x in line[len(PREFIX):].split(",") if x.strip()]
            return []
    return []
def reply(body):
    ids = legal(body)
    text = json.dumps({"reason": "bench", "notes": None, "move": ids[0] if ids else "none"})
    return {"id": "c", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model", "m"),
            "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                         "message": {"role": "assistant", "content": text, "refusal": None}}],
            "usage": {"prompt_tokens": 3000, "completion_tokens": 20, "total_tokens": 3020}}
async def handle(reader, writer, latency):
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            n = 0
            for line in head.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    n = int(line[15:].strip())
            raw = await reader.readexactly(n) if n else b""
            await asyncio.sleep(latency)
            out = json.dumps(reply(json.loads(raw))).encode()
            writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
                         + str(len(out)).encode() + b"\r\n\r\n" + out)
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()
async def main(latency):
    server = await asyncio.start_server(lambda r, w: handle(r, w, latency), "127.0.0.1", 0,
                                        backlog=4096)
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()
asyncio.run(main(float(sys.argv[1])))
"""


class LatencyTally(Tally):
    """A tally that also keeps each model decision's time and its first attempt's latency."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[tuple[float, float]] = []

    def add_move(self, rec: MoveRecord) -> None:
        super().add_move(rec)
        if rec.attempts:
            self.events.append((time.monotonic(), rec.attempts[0].latency_s))


async def model_window(n: int, seconds: float, port: int, warmup: float) -> dict[str, Any]:
    spec = f"openai:bench@http://127.0.0.1:{port}/v1"
    suite = parse_suite(suite_text("models", spec, math.ceil(n / 7), matches=n))
    for p in suite.file.participants:  # the price table loads once, before the clock
        prepare_prices(p.plan.spec, p.plan.options)
    plan = plan_suite(suite)[:n]
    tally = LatencyTally()
    ctx = PlayContext(limits=ProviderLimits(), breakers=CircuitBreakers(), tally=tally)
    tasks = [asyncio.ensure_future(play_planned(m, ctx)) for m in plan]
    await asyncio.sleep(warmup)
    t0, c0, d0 = time.monotonic(), time.process_time(), len(tally.events)
    await asyncio.sleep(seconds)
    t1, c1, d1 = time.monotonic(), time.process_time(), len(tally.events)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    window = [lat for when, lat in tally.events if t0 <= when <= t1]
    decisions = d1 - d0
    return {
        "matches": n,
        "decisions_per_s": round(decisions / (t1 - t0), 1),
        "target_decisions_per_s": round(0.9 * n, 1),
        "p50_latency_s": round(statistics.median(window), 3) if window else None,
        "p90_latency_s": round(statistics.quantiles(window, n=10)[-1], 3)
        if len(window) > 10
        else None,
        "cpu_ms_per_decision": round((c1 - c0) / max(1, decisions) * 1000, 2),
        "failures": dict(tally.failures),
    }


def _sample_request() -> tuple[str, str, dict[str, Any]]:
    """A real decision's system prompt, turn prompt and answer schema (a 7-seat rule-bot game's
    first decision of seat 0 past the deal): what the bare SDK calls send."""
    from bangarena.engine import GameConfig, new_game
    from bangarena.harness.decision_payload import constrained_schema
    from bangarena.prompts.memory import PromptMemory
    from bangarena.prompts.render import render_system, render_turn

    game = new_game(GameConfig(seats=7), 3)
    while game.decision.seat != 0:
        game.apply(game.decision.seat, game.decision.ids[0])
    view, decision = game.view(0), game.decision
    turn = render_turn(view, decision, PromptMemory())
    return render_system(view), turn, constrained_schema(decision.ids)


async def _call_window(
    n: int, seconds: float, warmup: float, call: Callable[[], Awaitable[None]]
) -> dict[str, Any]:
    """``n`` loops of ``call`` at once: calls per second and this process's CPU per call over
    ``seconds``, after ``warmup``."""
    calls = 0

    async def loop() -> None:
        nonlocal calls
        while True:
            await call()
            calls += 1

    tasks = [asyncio.ensure_future(loop()) for _ in range(n)]
    await asyncio.sleep(warmup)
    t0, c0, k0 = time.monotonic(), time.process_time(), calls
    await asyncio.sleep(seconds)
    t1, c1, k1 = time.monotonic(), time.process_time(), calls
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "calls_per_s": round((k1 - k0) / (t1 - t0), 1),
        "cpu_ms_per_call": round((c1 - c0) / max(1, k1 - k0) * 1000, 3),
    }


async def provider_window(n: int, seconds: float, port: int, warmup: float) -> dict[str, Any]:
    """The OpenAI provider alone: ``n`` loops of ``OpenAIProvider.complete`` with the same
    request as :func:`sdk_window` (its params, messages, reply and usage mapping around the
    same SDK call): the provider's own CPU per call is this window's minus the SDK's."""
    from bangarena.harness.providers.base import ChatMessage, ProviderRequest
    from bangarena.harness.providers.openai_provider import OpenAIProvider

    system, turn, schema = _sample_request()
    provider = OpenAIProvider("bench", base_url=f"http://127.0.0.1:{port}/v1", api_key="x")

    async def call() -> None:
        req = ProviderRequest(
            model="bench", system=system, messages=[ChatMessage(role="user", content=turn)],
            answer_mode="json_schema", answer_schema=schema, max_tokens=400, timeout_s=30.0,
        )  # fmt: skip
        await provider.complete(req)

    try:
        return await _call_window(n, seconds, warmup, call)
    finally:
        await provider.aclose()


async def sdk_window(n: int, seconds: float, port: int, warmup: float) -> dict[str, Any]:
    """The SDK alone: ``n`` loops of the call a model seat makes (``client.post`` to
    ``/chat/completions`` with the same kind of body, through the same shared client), no
    match, no prompt, no record: its CPU per call is the denominator of the harness's share."""
    from openai.types.chat import ChatCompletion

    from bangarena.harness.providers.openai_provider import make_openai_client
    from bangarena.harness.providers.sdk_client import http_transport

    system, turn, schema = _sample_request()
    client = make_openai_client(
        http_transport(), base_url=f"http://127.0.0.1:{port}/v1", api_key="x", max_retries=0
    )

    async def call() -> None:
        body = {
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": turn},
            ],
            "model": "bench",
            "max_tokens": 400,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "answer", "schema": schema, "strict": True},
            },
        }
        await client.post(
            "/chat/completions",
            body=body,
            cast_to=ChatCompletion,
            options={"timeout": 30.0, "security": {"bearer_auth": True}},
        )

    try:
        return await _call_window(n, seconds, warmup, call)
    finally:
        await client.close()


def models(n: int, seconds: float, latency: float = 1.0) -> dict[str, Any]:
    """Per transport: the model matches' window, the bare SDK's window at the same concurrency
    against the same server, and the harness's own CPU per decision as a share of the SDK's
    (``harness_share``: (CPU per model decision − SDK CPU per call) / SDK CPU per call)."""
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(latency)], stdout=subprocess.PIPE, text=True
    )
    try:
        port = int(server.stdout.readline())
        out: dict[str, Any] = {"server_latency_s": latency}
        for transport in ("aiohttp", "httpx"):
            os.environ["BANGARENA_HTTP_TRANSPORT"] = transport
            with batch_gc():
                # the SDK alone before and after the matches: the share uses their mean (a
                # shared machine's speed drifts by more than the harness's own cost)
                before = asyncio.run(sdk_window(n, seconds / 2, port, warmup=3.0))
                figures = asyncio.run(model_window(n, seconds, port, warmup=5.0))
                after = asyncio.run(sdk_window(n, seconds / 2, port, warmup=3.0))
            per_call = round((before["cpu_ms_per_call"] + after["cpu_ms_per_call"]) / 2, 3)
            sdk = {
                "calls_per_s": round((before["calls_per_s"] + after["calls_per_s"]) / 2, 1),
                "cpu_ms_per_call": per_call,
                "cpu_ms_per_call_before_after": [
                    before["cpu_ms_per_call"],
                    after["cpu_ms_per_call"],
                ],
            }
            figures["sdk_alone"] = sdk
            with batch_gc():
                provider = asyncio.run(provider_window(n, seconds / 2, port, warmup=3.0))
            figures["provider_alone"] = provider
            # what the provider adds around the SDK call; the rest of the harness's share is
            # the seat, the driver, the runner and their interplay with 300 matches in flight
            figures["provider_cpu_ms_per_call"] = round(provider["cpu_ms_per_call"] - per_call, 3)
            figures["harness_cpu_ms_per_decision"] = round(
                figures["cpu_ms_per_decision"] - per_call, 3
            )
            figures["harness_share"] = round(
                (figures["cpu_ms_per_decision"] - per_call) / per_call, 3
            )
            out[transport] = figures
        os.environ.pop("BANGARENA_HTTP_TRANSPORT", None)
        return out
    finally:
        server.kill()


# -- memory ---------------------------------------------------------------------------------------
async def live_matches(count: int, spool: bool) -> float:
    """KiB held per live 7-seat scripted match with transcripts, at its end (before record)."""

    def build(seed: int) -> Any:
        settings = MatchSettings(seats=7, seed=seed, time_per_move_s=600, transcripts=True)
        seats = [build_seat(plan_seat("scripted:rule"), seat=i, seed=seed) for i in range(7)]
        if spool:
            return RunnerMatch(settings, seats, spool=True)
        return Match(settings, seats, close_seats=False)

    warm = build(10_000)
    await warm._play()
    del warm
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    held = []
    for s in range(count):
        m = build(s)
        await m._play()
        held.append(m)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / count / 1024


def memory(count: int) -> dict[str, Any]:
    out: dict[str, Any] = {"matches": count}
    for spool in (False, True):
        kib = asyncio.run(live_matches(count, spool))
        label = "written_out" if spool else "held"
        out[f"{label}_kib_per_live_match"] = round(kib, 1)
        out[f"{label}_live_matches_per_gb"] = int(2**30 / (kib * 1024))
    with tempfile.TemporaryDirectory() as d:
        suite = parse_suite(suite_text("stored", "scripted:rule", 20))
        db = Path(d) / "s.db"
        ctx_times: list[float] = []
        t = time.perf_counter()
        r = run_suite(suite, RunOptions(db=str(db), max_matches=40))
        ctx_times.append(time.perf_counter() - t)
        from bangarena.evals.store import open_store

        store = open_store(db)
        rows = store.matches("stored")
        with store.engine.connect() as conn:
            from sqlalchemy import func, select

            from bangarena.evals.store.tables import MatchRow

            blob = conn.execute(select(func.avg(func.length(MatchRow.record)))).scalar_one()
        store.close()
        out["stored_json_bytes_per_match"] = int(
            statistics.fmean(r_["record_bytes"] for r_ in rows)
        )
        out["stored_bytes_per_match"] = int(blob)
        out["store_matches_run"] = r.matches_run_now
    out.update(store_times())
    return out


def store_times() -> dict[str, Any]:
    """Time to prepare (compress, telemetry rows) and insert one 7-seat transcripts match."""
    from bangarena.evals.store import open_store
    from bangarena.evals.store.rows import prepare_match

    suite = parse_suite(suite_text("timing", "scripted:rule", 6))
    plan = plan_suite(suite)[::7]

    async def play() -> list:
        return [await m.play() for m in plan]

    records = asyncio.run(play())
    with tempfile.TemporaryDirectory() as d:
        store = open_store(Path(d) / "t.db")
        store.register_suite(suite, plan)
        prep, ins = [], []
        for m, rec in zip(plan, records, strict=True):
            t0 = time.perf_counter()
            p = prepare_match(m, rec)
            t1 = time.perf_counter()
            store.write_prepared(p)
            prep.append(t1 - t0)
            ins.append(time.perf_counter() - t1)
        store.close()
    return {
        "prepare_ms_per_match": round(statistics.median(prep) * 1000, 2),
        "insert_ms_per_match": round(statistics.median(ins) * 1000, 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bots", type=int, default=1000)
    ap.add_argument("--models", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--latency", type=float, default=1.0)
    ap.add_argument("--memory", type=int, default=100)
    ap.add_argument("--skip", default="", help="comma-separated: bots, models, memory")
    args = ap.parse_args()
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    figures: dict[str, Any] = {}
    if "bots" not in skip:
        figures["bots"] = bots(args.bots)
        print(json.dumps({"bots": figures["bots"]}), flush=True)
    if "models" not in skip:
        figures["models"] = models(args.models, args.seconds, args.latency)
        print(json.dumps({"models": figures["models"]}), flush=True)
    if "memory" not in skip:
        figures["memory"] = memory(args.memory)
        print(json.dumps({"memory": figures["memory"]}), flush=True)


if __name__ == "__main__":
    main()
