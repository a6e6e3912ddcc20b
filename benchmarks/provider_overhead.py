"""Client-side cost of each provider against the fake model servers.

The fake server runs in its own process (its CPU is not charged to the client); the client
process measures, per provider:
  - latency_us: median wall time of one sequential call,
  - client_cpu_us: client process CPU per call (the SDK plus our layer),
  - layer_us: the provider layer's own CPU per call beyond the bare SDK call (same request
    made directly with the SDK client),
  - calls_per_s at each concurrency level (N calls in flight).
The scripted provider makes no network call; its figures are the whole cost of a call.

    .venv/bin/python benchmarks/provider_overhead.py [--calls 300] [--concurrency 1,50,200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from fakes.sample import LEGAL, make_request  # noqa: E402

from bangarena.harness.providers import get_provider  # noqa: E402
from bangarena.harness.providers.anthropic_provider import (  # noqa: E402
    anthropic_params,
    anthropic_system,
)
from bangarena.harness.providers.openai_provider import openai_messages  # noqa: E402


def _server_main(kind: str, conn: Any) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from fakes import FakeServer

    with FakeServer(kind) as fake:
        conn.send(fake.base_url)
        conn.recv()  # wait for "stop"


class ServerProcess:
    """A fake server in a child process."""

    def __init__(self, kind: str) -> None:
        ctx = mp.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(target=_server_main, args=(kind, child), daemon=True)

    def __enter__(self) -> str:
        self._proc.start()
        if not self._conn.poll(30):
            raise RuntimeError("fake server process did not start")
        return self._conn.recv()

    def __exit__(self, *exc: object) -> None:
        self._conn.send("stop")
        self._proc.join(10)


async def _sequential(call, n: int) -> tuple[float, float]:
    """(median wall µs, client CPU µs per call) over n sequential calls."""
    for _ in range(20):  # warm-up: imports, pydantic models, connection pool
        await call()
    walls = []
    cpu0 = time.process_time()
    for _ in range(n):
        t0 = time.perf_counter()
        await call()
        walls.append(time.perf_counter() - t0)
    cpu = time.process_time() - cpu0
    return statistics.median(walls) * 1e6, cpu / n * 1e6


async def _concurrent(call, in_flight: int, total: int) -> float:
    """Calls per second with `in_flight` calls at a time."""
    sem = asyncio.Semaphore(in_flight)

    async def one() -> None:
        async with sem:
            await call()

    t0 = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(total)))
    return total / (time.perf_counter() - t0)


async def bench_provider(spec: str, raw_call, args) -> dict[str, Any]:
    provider = get_provider(spec)
    model = spec.split(":", 1)[1].split("@", 1)[0]
    mode = "tool" if spec.startswith("anthropic") else "json_schema"
    req = make_request(mode, model=model, context=list(LEGAL), timeout_s=30)

    async def call() -> None:
        await provider.complete(req)

    out: dict[str, Any] = {"spec": spec.split("@")[0], "answer_mode": mode}
    out["latency_us"], out["client_cpu_us"] = await _sequential(call, args.calls)
    if raw_call is not None:
        raw = raw_call(provider, req)
        _, raw_cpu = await _sequential(raw, args.calls)
        out["sdk_cpu_us"] = raw_cpu
        out["layer_us"] = out["client_cpu_us"] - raw_cpu
    out["calls_per_s"] = {
        str(c): await _concurrent(call, c, max(args.calls, 2 * c)) for c in args.concurrency
    }
    await provider.aclose()
    return {k: (round(v, 1) if isinstance(v, float) else v) for k, v in out.items()} | {
        "calls_per_s": {k: round(v, 1) for k, v in out["calls_per_s"].items()}
    }


def raw_openai(provider, req):
    from bangarena.harness.providers.openai_provider import openai_params

    client = provider._client
    params = openai_params(req, official=False)

    async def call() -> None:
        await client.chat.completions.create(
            messages=openai_messages(req), timeout=req.timeout_s, **params
        )

    return call


def raw_anthropic(provider, req):
    client = provider._client
    params = anthropic_params(req)

    async def call() -> None:
        await client.messages.create(
            system=anthropic_system(req),
            messages=[{"role": m.role, "content": m.content} for m in req.messages],
            timeout=req.timeout_s,
            **params,
        )

    return call


async def main_async(args) -> list[dict[str, Any]]:
    results = []
    for kind in args.providers:
        if kind == "scripted":
            results.append(await bench_provider("scripted:rule", None, args))
            continue
        if kind == "litellm":
            try:
                import litellm  # noqa: F401
            except ImportError:
                print("litellm not installed: skipped", file=sys.stderr)
                continue
        server_kind = "anthropic" if kind == "anthropic" else "openai"
        with ServerProcess(server_kind) as url:
            if kind == "openai":
                spec, raw = f"openai:gpt-fake@{url}", raw_openai
            elif kind == "anthropic":
                spec, raw = f"anthropic:claude-fake@{url}", raw_anthropic
            else:
                spec, raw = f"litellm:openai/gpt-fake@{url}", None
            results.append(await bench_provider(spec, raw, args))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--concurrency", default="1,50,200")
    parser.add_argument("--providers", default="openai,anthropic,scripted,litellm")
    args = parser.parse_args()
    args.concurrency = [int(x) for x in args.concurrency.split(",")]
    args.providers = args.providers.split(",")
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    results = asyncio.run(main_async(args))
    print(json.dumps({"calls": args.calls, "results": results}, indent=2))


if __name__ == "__main__":
    main()
