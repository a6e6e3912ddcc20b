"""The harness's own cost per model decision, and match throughput over a fake model server.

Part 1 — overhead per decision, no network: seeded 7-seat games played by rule bots; at every
decision, the time from the game to a validated move as a model seat spends it: build the
seat's view (events since its last decision), render the turn prompt, assemble the provider
request (fixed answer schema), parse a model-style JSON reply and check its id against the legal
list. The system prompt is rendered once per seat and not counted (it is the same bytes at every
decision). The bots' own thinking is not counted.

Part 2 — the whole model seat through the match driver, no network: seeded games whose every seat
is a ``ModelSeat`` over an in-process provider that answers at once (the first legal id of the
prompt's last line, as a JSON reply): CPU per decision of the driver, the seat (prompt, request,
attempt record, transport-retry handling, parsing) and the record, i.e. what a model decision
costs this process besides the SDK's own work.

Part 3 — throughput: N matches at once in this process; in each, ``--model-seats`` seats are
model seats using the real ``openai`` SDK against the fake OpenAI server (in its own process,
choosing like a scripted player: uniform over the ids the prompt lists), the rest rule bots.
Prints decisions/s (all and model) and this process's CPU per model decision.

    .venv/bin/python benchmarks/harness_overhead.py [--games 40] [--matches 200] [--model-seats 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

from bangarena.engine import GameConfig, new_game  # noqa: E402
from bangarena.harness.answers import Answer, parse_answer  # noqa: E402
from bangarena.harness.bots import make_bot  # noqa: E402
from bangarena.harness.providers import ChatMessage, ProviderRequest  # noqa: E402
from bangarena.prompts.memory import PromptMemory  # noqa: E402
from bangarena.prompts.render import render_turn  # noqa: E402

NOTES = "#3 shot me twice, likely Outlaw; #1 helped the Sheriff; keep Ricochets for #4's Duel."


def _schema() -> dict:
    try:
        from bangarena.rules_machine import answer_schema
    except ImportError:
        from bangarena.rules_machine.schemas import answer_schema
    return answer_schema(None, notes=True)


def overhead(games: int, seats: int, lang: str) -> list[float]:
    """Seconds per decision for view → prompt → request → parse → validate."""
    schema = _schema()
    pc = time.perf_counter
    samples: list[float] = []
    for seed in range(games):
        game = new_game(GameConfig(seats=seats, mode="classic"), seed)
        bots = [make_bot("rule", seed * 16 + s, s) for s in range(seats)]
        memories = [PromptMemory() for _ in range(seats)]
        notes: list[str | None] = [None] * seats
        cursors = [0] * seats
        bot_cursors = [0] * seats
        while not game.over:
            decision = game.decision
            s = decision.seat
            # the bot decides first (not timed); its answer is what the "model" replies
            bot_view = game.view(s, since=bot_cursors[s])
            bot_cursors[s] = bot_view.cursor
            move = bots[s].choose(bot_view, decision)
            reply = json.dumps(
                {"reason": "the bot's choice", "notes": f"{NOTES} {move}", "move": move}
            )
            t0 = pc()
            view = game.view(s, since=cursors[s])
            cursors[s] = view.cursor
            turn = render_turn(
                view, decision, memories[s], lang, notes=notes[s], notes_enabled=True
            )
            ProviderRequest(
                model="m", system="(rendered once per seat)", answer_mode="json_schema",
                messages=[ChatMessage(role="user", content=turn)], answer_schema=schema,
            )  # fmt: skip
            answer = parse_answer(reply, decision.ids)
            t1 = pc()
            assert isinstance(answer, Answer) and answer.move == move
            notes[s] = answer.notes
            samples.append(t1 - t0)
            game.apply(s, move)
    return samples


# -- part 2: throughput over a fake server in its own process -------------------------------------
def _server_main(conn: Any) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from fakes import FakeBehaviour, FakeServer

    with FakeServer("openai", FakeBehaviour(seed=1)) as fake:
        conn.send(fake.base_url)
        conn.recv()


async def throughput(matches: int, seats: int, model_seats: int, url: str) -> dict[str, float]:
    from bangarena.harness.match import MatchSettings, run_match
    from bangarena.harness.seats import BotSeat, build_seat, plan_seat

    plan = plan_seat(f"openai:fake-model@{url}")
    tables = []
    for m in range(matches):
        table = [
            build_seat(plan, seat=i, seed=m, environ={}, transcripts=False)
            if i < model_seats
            else BotSeat("rule", m * 16 + i, i)
            for i in range(seats)
        ]
        tables.append(
            (
                MatchSettings(seats=seats, seed=m, transcripts=False, model_time_per_move_s=120),
                table,
            )
        )
    wall, cpu = time.perf_counter(), time.process_time()
    records = await asyncio.gather(*(run_match(s, t) for s, t in tables))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    decisions = sum(len(r.moves) for r in records)
    model = sum(t.attempts for r in records for t in r.totals.seats[:model_seats])
    auto = sum(r.totals.match.autopilot_moves for r in records)
    return {
        "matches": matches,
        "wall_s": wall,
        "decisions": decisions,
        "decisions_per_s": decisions / wall,
        "model_requests": model,
        "model_requests_per_s": model / wall,
        "cpu_ms_per_model_request": 1000 * cpu / max(model, 1),
        "autopilot_moves": auto,
    }


class _InstantProvider:
    """A provider that answers every request at once with the prompt's first legal id."""

    def __init__(self) -> None:
        from bangarena.harness.providers.base import Usage

        self.usage = Usage(input_tokens=3000, output_tokens=20)

    async def complete(self, req: ProviderRequest) -> Any:
        from bangarena.harness.providers.base import ProviderReply
        from bangarena.prompts.render import LEGAL_IDS_PREFIX

        last = req.messages[-1].content.rsplit("\n", 1)[-1]
        move = last[len(LEGAL_IDS_PREFIX) :].split(",")[0].strip()
        text = json.dumps({"reason": "bench", "notes": None, "move": move})
        return ProviderReply(
            text=text, finish_reason="stop", usage=self.usage, model_id="instant",
            latency_s=0.0, request_params={}, sdk="none",
        )  # fmt: skip

    async def aclose(self) -> None:
        return None


async def seat_cost(games: int, seats: int) -> tuple[int, float]:
    """(decisions, CPU seconds) of ``games`` matches of model seats over the instant provider."""
    from bangarena.harness.match import Match, MatchSettings
    from bangarena.harness.model_spec import parse_model_spec
    from bangarena.harness.seats.model_seat import ModelSeat

    spec = parse_model_spec("openai:bench")
    decisions, cpu = 0, 0.0
    for g in range(games):
        players = [ModelSeat(spec, _InstantProvider(), seat=i) for i in range(seats)]
        match = Match(MatchSettings(seats=seats, seed=g, time_per_move_s=30), players)
        t = time.process_time()
        record = await match.run()
        cpu += time.process_time() - t
        decisions += len(record.moves)
    return decisions, cpu


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seats", type=int, default=7)
    ap.add_argument("--lang", default="en")
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--match-seats", type=int, default=4)
    ap.add_argument("--model-seats", type=int, default=1)
    ap.add_argument("--skip-throughput", action="store_true")
    args = ap.parse_args()

    samples = overhead(args.games, args.seats, args.lang)
    samples.sort()
    us = [x * 1e6 for x in samples]
    print(json.dumps({
        "part": "overhead per decision (view -> prompt -> request -> parse -> validate)",
        "seats": args.seats, "games": args.games, "decisions": len(us),
        "median_us": round(statistics.median(us), 1), "p90_us": round(us[len(us) * 9 // 10], 1),
        "p99_us": round(us[len(us) * 99 // 100], 1), "max_us": round(us[-1], 1),
    }))  # fmt: skip
    asyncio.run(seat_cost(2, args.seats))  # imports, caches, the answer schema
    n, cpu = asyncio.run(seat_cost(args.games // 2, args.seats))
    print(json.dumps({
        "part": "model seats through the match driver, instant in-process provider (no SDK)",
        "seats": args.seats, "games": args.games // 2, "decisions": n,
        "cpu_us_per_decision": round(cpu / n * 1e6, 1),
    }))  # fmt: skip
    if args.skip_throughput:
        return
    ctx = mp.get_context("spawn")
    conn, child = ctx.Pipe()
    proc = ctx.Process(target=_server_main, args=(child,), daemon=True)
    proc.start()
    try:
        url = conn.recv()
        out = asyncio.run(throughput(args.matches, args.match_seats, args.model_seats, url))
        print(json.dumps({"part": "concurrent matches over the fake OpenAI server (own process)",
                          "seats": args.match_seats, "model_seats": args.model_seats,
                          **{k: round(v, 3) if isinstance(v, float) else v for k, v in out.items()}}))  # fmt: skip
    finally:
        conn.send("stop")
        proc.join(10)


if __name__ == "__main__":
    main()
