"""A process's first decision costs a seat no more of its clock than later ones: what it used to
build then (the answer schema's models, the prompt templates, the scripted provider's
tokenizer: ~0.45 s of CPU) is built when the seat is, before its match starts."""

from __future__ import annotations

import json
import subprocess
import sys

# Run in a fresh interpreter: this test process has imported everything already.
PROBE = r"""
import asyncio, json, sys, time
from bangarena.engine import GameConfig, new_game
from bangarena.harness.seats.factory import build_seat, plan_seat
from bangarena.harness.seats.protocol import Deadline
from bangarena.harness.decision_payload import DecisionPrompter

kind = sys.argv[1]
game = new_game(GameConfig(5), 7)
if kind == "scripted":
    seat = build_seat(plan_seat("scripted:rule"), seat=0, seed=1)
else:
    prompter = DecisionPrompter("fr")
out = []

async def main():
    for _ in range(3):
        d = game.decision
        view = game.view(d.seat)
        before = set(sys.modules)
        t = time.process_time()
        if kind == "scripted":
            move = (await seat.decide(view, d, Deadline(30))).move_id
        else:
            prompter.payload("m", len(game.state.history), view, d, 30.0)
            move = d.ids[0]
        out.append({"cpu_s": time.process_time() - t, "imported": sorted(set(sys.modules) - before)})
        game.apply(d.seat, move)

asyncio.run(main())
print(json.dumps(out))
"""


def _probe(kind: str) -> list[dict]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, kind], capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_model_seats_first_decision_imports_and_builds_nothing() -> None:
    first, *later = _probe("scripted")
    assert first["imported"] == [], first["imported"]
    assert all(d["imported"] == [] for d in later)
    # Unwarmed, the first decision took ~0.45 s of CPU on an idle machine; warmed, ~2 ms.
    assert first["cpu_s"] < 0.15, first


def test_an_agents_first_payload_imports_nothing() -> None:
    first, *later = _probe("payload")
    assert first["imported"] == [], first["imported"]
    assert all(d["imported"] == [] for d in later)
