"""Client-side cost of the agent seats: push agents (``http:URL``) and A2A agents (``a2a:URL``).

The example agents (random moves) run in a child process each, so the CPU charged here is the
harness's alone: the match driver, the payload (view, prompts, schema), the HTTP or A2A client
and the answer check. Per protocol it plays matches of two agent seats and two rule bots and
prints the client CPU (time.process_time, the whole match: bots and driver included) per agent
decision, and the median attempt latency from the records.

    .venv/bin/python benchmarks/agent_protocols.py [--matches 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import socket
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def _port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def _serve(kind: str, port: int) -> None:
    import logging

    import uvicorn
    from fakes.agent_a2a import example

    logging.disable(logging.WARNING)
    url = f"http://127.0.0.1:{port}"
    if kind == "http":
        push = example("push_agent")
        app = push.create_app(push.random_policy(1))
    else:
        a2a = example("a2a_agent")
        app = a2a.create_app(url, a2a.random_policy(1))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="error", access_log=False)


async def _play(spec: str, matches: int) -> dict[str, Any]:
    from bangarena.harness.match import MatchSettings, run_match
    from bangarena.harness.seats import BotSeat, build_seat, plan_seat

    cpu = decisions = 0.0
    latencies: list[float] = []
    for m in range(matches):
        seats = [
            build_seat(plan_seat(spec), seat=i, seed=m, environ={})
            if i % 2 == 0
            else BotSeat("rule", m * 10 + i, i)
            for i in range(4)
        ]
        t0 = time.process_time()
        rec = await run_match(MatchSettings(seats=4, seed=m, transcripts=False), seats)
        cpu += time.process_time() - t0
        mine = [mv for mv in rec.moves if mv.seat % 2 == 0]
        decisions += len(mine)
        latencies += [a.latency_s for mv in mine for a in mv.attempts]
    return {
        "decisions": int(decisions),
        "client_cpu_ms_per_decision": round(1000 * cpu / max(1, decisions), 3),
        "median_attempt_latency_ms": round(1000 * statistics.median(latencies), 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--matches", type=int, default=3)
    args = ap.parse_args()
    out: dict[str, Any] = {}
    ctx = mp.get_context("spawn")
    for kind in ("http", "a2a"):
        port = _port()
        proc = ctx.Process(target=_serve, args=(kind, port), daemon=True)
        proc.start()
        try:
            for _ in range(200):
                try:
                    socket.create_connection(("127.0.0.1", port), 0.1).close()
                    break
                except OSError:
                    time.sleep(0.05)
            spec = (
                f"http:http://127.0.0.1:{port}/decide"
                if kind == "http"
                else (f"a2a:http://127.0.0.1:{port}")
            )
            out[kind] = asyncio.run(_play(spec, args.matches))
        finally:
            proc.terminate()
            proc.join(5)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
