"""Issue #12's throughput target as a budget per decision: what the contract's own work costs
beside what the target allows, in one run.

The target: at 64 clients, decision polls and moves per server CPU-second ≥ 50 % of a bare
FastAPI endpoint's requests per CPU-second. A decision is a poll and a move, so the target
allows ``2 / (0.5 × bare)`` CPU-seconds per decision, whatever the service does with them.

Measured here:

- over HTTP (``service_load.py --lineups remote,floor,asgi`` at 64 clients): the bare endpoint,
  uvicorn serving a constant with no framework (``asgi``), the service with empty payloads and
  no storing (``floor5``) and the service as it is (``remote5``), each per decision;
- in process, on uvloop as the service runs (``service_decisions.py``'s matches of five remote
  seats through the app's ASGI callable): the decision contract's content — the payload made
  at each decision (turn prompt, move texts, view, answer schema) and its JSON — and the
  engine's views and moves, per decision;
- storing: the finished matches of that in-process run written to a new SQLite store one by
  one, as the service's store thread writes them when it is idle (CPU per match ÷ decisions
  per match; under load that thread spends 2–3× as much).

Printed: the budget, and what of it the mandatory parts take (uvicorn and the kernel for two
requests, the content, the engine, storing) and what is left for the service's own machinery
(tokens, routing, the long-poll, the match driver and its clock, the record, making matches),
beside what that machinery costs now (``floor5`` less uvicorn's share).

    .venv/bin/python benchmarks/service_budget.py               # ~1 minute
    .venv/bin/python benchmarks/service_budget.py --seconds 10 --matches 80
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import sys
import tempfile
import time
from pathlib import Path

import uvloop

sys.path.insert(0, str(Path(__file__).parent))

import service_decisions  # noqa: E402 — a sibling script
import service_load  # noqa: E402

from bangarena.cli.serve import GC_THRESHOLD  # noqa: E402
from bangarena.evals.live import store_live_matches  # noqa: E402
from bangarena.evals.store import open_store  # noqa: E402

TARGET_SHARE = 0.5
CLIENTS = 64


def over_http(seconds: float) -> dict[str, float]:
    """Requests per server CPU-second of each server at :data:`CLIENTS` clients."""
    with tempfile.TemporaryDirectory(prefix="bangarena-budget-") as tmp:
        out = Path(tmp) / "load.json"
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            service_load.main([
                "--lineups", "remote,floor,asgi", "--clients", str(CLIENTS),
                "--seconds", str(seconds), "--matches", "1", "--json", str(out),
            ])  # fmt: skip
        # its memory figure (one live match) means nothing here
        print("".join(x for x in printed.getvalue().splitlines(True) if "memory:" not in x))
        rows = json.loads(out.read_text())
    return {r["server"]: r["req_per_cpu_s"] for r in rows if "req_per_cpu_s" in r}


def in_process(matches: int) -> tuple[dict[str, float], float]:
    """(µs per decision of the timed parts, storing's µs per decision) from ``matches``
    five-remote-seat matches played in process on uvloop."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)
    with tempfile.TemporaryDirectory(prefix="bangarena-budget-") as tmp:
        app = service_decisions.service_app(f"{tmp}/live.db")
        uvloop.run(service_decisions.play(5, 13, "", app, "app"))  # warm-up, not timed
        spent = service_decisions.time_parts()
        app.state.service.registry.matches.clear()
        decisions, cpu = uvloop.run(service_decisions.play(matches, 13, "", app, "app"))
        parts = {label: 1e6 * s / decisions for label, s in spent.items()}
        parts["all (in process)"] = 1e6 * cpu / decisions
        lives = [m for m in app.state.service.registry.matches.values() if m.record]
        store = open_store(f"{tmp}/stored.db")
        first, *rest = [(m.record, [i.participant for i in m.info]) for m in lives]
        store_live_matches(store, [first])  # the suite and its participants: once per store
        t = time.process_time()
        for item in rest:
            store_live_matches(store, [item])
        stored = time.process_time() - t
        store.close()
        moves = sum(len(r.moves) for r, _ in rest)
    return parts, 1e6 * stored / moves


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=8.0, help="per HTTP load run (default 8)")
    p.add_argument("--matches", type=int, default=60, help="in-process matches (default 60)")
    args = p.parse_args(argv)
    rates = over_http(args.seconds)
    parts, storing = in_process(args.matches)

    def per_decision(name: str) -> float:
        return 2e6 / rates[name]

    budget = per_decision("bare") / TARGET_SHARE
    uvicorn = per_decision("asgi")
    content = sum(v for k, v in parts.items() if k.startswith("payload:"))
    engine = sum(v for k, v in parts.items() if k.startswith("engine:"))
    mandatory = uvicorn + content + engine + storing
    machinery_now = per_decision("floor5") - uvicorn - engine
    print()
    print(f"CPU µs per decision (a poll and a move) at {CLIENTS} clients:")
    rows = [
        (f"the target's budget ({TARGET_SHARE:.0%} of the bare endpoint's rate)", budget),
        ("  uvicorn and the kernel, two requests of a constant (asgi)", uvicorn),
        ("  the payload: turn prompt, move texts, view, schema (in process)",
         parts.get("payload: prepare (prompt, view, moves)", 0.0)),
        ("  the payload's JSON (in process)", parts.get("payload: JSON", 0.0)),
        ("  the engine: the seat's view and the move (in process)", engine),
        ("  storing the match, a row per decision (store thread idle)", storing),
        ("  = the mandatory parts", mandatory),
        ("  left for the service's machinery", budget - mandatory),
        ("the service's machinery now (floor5 − asgi − engine)", machinery_now),
        ("the whole service in process (no HTTP, no storing; with the client)",
         parts["all (in process)"]),
        ("remote5 now (the service as it is)", per_decision("remote5")),
    ]  # fmt: skip
    for label, value in rows:
        print(f"  {label:68} {value:7.1f}")
    print(
        f"remote5 = {rates['remote5'] / rates['bare']:.0%} of the bare endpoint per CPU-s, "
        f"floor5 = {rates['floor5'] / rates['bare']:.0%}; meeting the target would need the "
        f"machinery at {max(0.0, budget - mandatory):.0f} µs instead of {machinery_now:.0f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
