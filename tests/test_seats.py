"""Seats: the deadline and its rate-limit credit, bot seats, the terminal seat (a real pipe: its
character's ability, the countdown on and off a terminal, the notice when eliminated), and seat
specs from the CLI (kinds, bad specs, missing keys)."""

from __future__ import annotations

import asyncio
import io
import os
import re
import time

import pytest
from rich.console import Console

from bangarena.engine import GameConfig, new_game
from bangarena.harness.model_spec import ModelOptions
from bangarena.harness.records import AttemptRecord, DecisionTelemetry
from bangarena.harness.seats import (
    BotSeat,
    Deadline,
    HumanSeat,
    ModelSeat,
    SeatSpecError,
    build_seat,
    plan_seat,
)
from bangarena.harness.seats.model_seat import lost_reason


def test_deadline_credit_is_capped() -> None:
    d = Deadline(10.0, backoff_cap_s=3.0)
    assert 9.9 < d.remaining() <= 10.0
    assert d.credit(2.0) == 2.0
    assert d.credit(2.0) == 1.0
    assert d.credit(5.0) == 0.0
    assert d.credited_s == 3.0
    assert 12.9 < d.remaining() <= 13.0
    assert not d.expired and Deadline(0.0).expired


def test_a_clock_spent_between_transport_retries_is_a_transport_loss() -> None:
    def tel(*outcomes: str) -> DecisionTelemetry:
        return DecisionTelemetry(
            attempts=[
                AttemptRecord(n=i, outcome=o, started_s=0.0) for i, o in enumerate(outcomes, 1)
            ]
        )

    # every attempt failed to reach the provider, then the clock ran out: transport
    assert lost_reason("timeout", tel("transport", "transport")) == "transport"
    # an answer came (or a call ran into the clock itself): the clock is the reason
    assert lost_reason("timeout", tel("transport", "timeout")) == "timeout"
    assert lost_reason("timeout", tel("unparsable")) == "timeout"
    assert lost_reason("timeout", tel()) == "timeout"  # spent before a first attempt
    assert lost_reason("failures", tel("transport", "illegal")) == "failures"
    assert lost_reason("auth", tel("transport")) == "auth"  # a 401: stop, not a dead host


async def test_bot_seats_answer_legal_moves_reproducibly() -> None:
    for kind in ("rule", "random"):
        runs = []
        for _ in range(2):
            game = new_game(GameConfig(seats=5), 9)
            seats = [BotSeat(kind, 100 + i, i) for i in range(5)]
            cursors = [0] * 5
            chosen = []
            for _ in range(80):
                d = game.decision
                view = game.view(d.seat, since=cursors[d.seat])
                cursors[d.seat] = view.cursor
                ans = await seats[d.seat].decide(view, d, Deadline(1))
                assert ans.move_id in d.ids and ans.telemetry.attempts == []
                chosen.append(ans.move_id)
                game.apply(d.seat, ans.move_id)
                if game.over:
                    break
            runs.append(chosen)
        assert runs[0] == runs[1]
        assert seats[0].seat_record(0, 60, True).controller == "bot"


class Pipe:
    """A real OS pipe: the seat reads its end line by line, the test writes to the other."""

    def __init__(self) -> None:
        r, w = os.pipe()
        self.reader = os.fdopen(r, "r", buffering=1)
        self.writer = os.fdopen(w, "w", buffering=1)

    def type(self, line: str) -> None:
        self.writer.write(line + "\n")
        self.writer.flush()

    def close(self) -> None:
        self.writer.close()


def _human(pipe: Pipe) -> tuple[HumanSeat, io.StringIO]:
    out = io.StringIO()
    return HumanSeat(stream=pipe.reader, console=Console(file=out, width=120)), out


async def test_human_seat_reads_numbers_and_ids_without_blocking_the_loop() -> None:
    pipe = Pipe()
    seat, out = _human(pipe)
    game = new_game(GameConfig(seats=4), 3)
    d = game.decision
    ticks = 0

    async def ticker() -> None:
        # The person types only after the loop has ticked (counted, not timed: a loaded
        # machine stretches every sleep), so an answer proves the loop ran meanwhile.
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1
            if ticks == 5:
                pipe.type("nonsense")
            elif ticks == 8:
                pipe.type("2")

    tick = asyncio.create_task(ticker())
    ans = await seat.decide(game.view(d.seat), d, Deadline(5))
    tick.cancel()
    assert ans.move_id == d.ids[1]
    assert ticks >= 8  # the loop kept running while the person was thinking
    text = out.getvalue()
    assert " 2. " in text and d.ids[1] in text and "not 1–" in text
    game.apply(d.seat, ans.move_id)
    d = game.decision
    pipe.type(d.ids[-1])
    ans = await seat.decide(game.view(d.seat), d, Deadline(5))
    assert ans.move_id == d.ids[-1]
    pipe.close()


async def test_human_seat_times_out_then_ignores_the_late_line_and_handles_eof() -> None:
    pipe = Pipe()
    seat, out = _human(pipe)
    game = new_game(GameConfig(seats=4), 3)
    d = game.decision
    t0 = time.monotonic()
    ans = await seat.decide(game.view(d.seat), d, Deadline(0.2))
    assert ans.move_id is None and ans.telemetry.autopilot_reason == "timeout"
    assert 0.15 < time.monotonic() - t0 < 1.0
    pipe.type("1")  # typed too late: not the answer to the next decision
    await asyncio.sleep(0.05)
    pipe.close()
    ans = await seat.decide(game.view(d.seat), d, Deadline(2))
    assert ans.move_id is None and ans.telemetry.autopilot_reason == "no_answer"
    assert "Time is up" in out.getvalue()


def test_plan_seat_kinds() -> None:
    assert plan_seat("rule").kind == "rule"
    assert plan_seat("random").kind == "random"
    assert plan_seat("human").kind == "human"
    assert plan_seat("scripted").kind == "scripted"
    p = plan_seat("scripted:random")
    assert p.kind == "scripted" and p.spec.model == "random"
    p = plan_seat("openai:qwen2.5:7b@http://127.0.0.1:11434/v1")
    assert p.kind == "model" and p.spec.model == "qwen2.5:7b"
    assert p.spec.base_url == "http://127.0.0.1:11434/v1"
    p = plan_seat("local", {"local": ModelOptions(spec="anthropic:claude-x", max_tokens=99)})
    assert p.spec.provider == "anthropic" and p.options.max_tokens == 99


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("gemini:pro", "unknown provider 'gemini'"),
        ("bot", "malformed model spec"),
        ("openai:", "model name is empty"),
        ("scripted:smart", "unknown scripted policy"),
        ("", "empty model spec"),
    ],
)
def test_bad_seat_specs_name_the_problem(spec: str, words: str) -> None:
    with pytest.raises(SeatSpecError) as e:
        plan_seat(spec)
    assert words in str(e.value) and "A seat is one of rule, random, human" in str(e.value)


def test_missing_api_key_is_found_when_the_seat_is_built() -> None:
    plan = plan_seat("openai:gpt-4.1-mini")
    with pytest.raises(SeatSpecError, match="needs an API key: set OPENAI_API_KEY"):
        build_seat(plan, seat=2, seed=1, environ={})
    local = build_seat(plan_seat("openai:llama@http://127.0.0.1:9/v1"), seat=2, seed=1, environ={})
    assert isinstance(local, ModelSeat) and local.controller == "ai"
    scripted = build_seat(plan_seat("scripted"), seat=1, seed=1, environ={})
    assert isinstance(scripted, ModelSeat)
    assert (scripted.controller, scripted.kind, scripted.display_name) == (
        "bot",
        "scripted",
        "Scripted 2",
    )


async def test_human_seat_shows_its_own_characters_ability() -> None:
    from bangarena.prompts.catalog import catalog

    pipe = Pipe()
    seat, out = _human(pipe)
    game = new_game(GameConfig(seats=4), 3)
    d = game.decision
    view = game.view(d.seat)
    pipe.type("1")
    await seat.decide(view, d, Deadline(5))
    me = view.players[d.seat].character
    text = " ".join(out.getvalue().split())
    cat = catalog("en")
    assert f"Your character: {cat.character[me]} — {' '.join(cat.ability[me].split())}" in text
    others = [p.character for p in view.players if p.seat != d.seat]
    assert not any(
        cat.ability[c] in out.getvalue() for c in others if cat.ability[c] != cat.ability[me]
    )
    pipe.close()


async def test_human_seat_counts_down_off_a_terminal() -> None:
    pipe = Pipe()
    out = io.StringIO()
    seat = HumanSeat(stream=pipe.reader, console=Console(file=out, width=120), warn_at_s=(0.6,))
    game = new_game(GameConfig(seats=4), 3)
    d = game.decision
    ans = await seat.decide(game.view(d.seat), d, Deadline(1.5))
    assert ans.telemetry.autopilot_reason == "timeout"
    text = out.getvalue()
    assert "Type a number (or a move id) — 2s left." in text or "— 1s left." in text
    assert text.count("s left.") == 2  # the prompt, then once at the threshold
    assert text.index("Time is up") > text.rindex("s left.")
    pipe.close()


async def test_human_seat_counts_down_live_on_a_terminal() -> None:
    pipe = Pipe()
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=True)
    seat = HumanSeat(stream=pipe.reader, console=console)
    game = new_game(GameConfig(seats=4), 3)
    d = game.decision
    asyncio.get_running_loop().call_later(2.3, pipe.type, "1")
    ans = await seat.decide(game.view(d.seat), d, Deadline(30))
    assert ans.move_id == d.ids[0]
    redraws = re.findall(
        r"\x1b7\x1b\[1A\r\x1b\[2mType a number \(or a move id\) — (\d+)s left\.", out.getvalue()
    )
    assert len(redraws) >= 2 and [int(x) for x in redraws] == sorted(
        map(int, redraws), reverse=True
    )
    assert int(redraws[-1]) < 30
    pipe.close()


@pytest.mark.parametrize(
    ("typed", "watching"), [("", True), ("q", False), ("Q", False), (None, True)]
)
async def test_an_eliminated_person_chooses_to_watch_or_leave(
    typed: str | None, watching: bool
) -> None:
    # a rule-bot game until seat 1 is eliminated (seed 10: early, the game goes on)
    game = new_game(GameConfig(seats=5), 10)
    bots = [BotSeat("rule", i, i) for i in range(5)]
    while game.state.players[1].alive:
        d = game.decision
        ans = await bots[d.seat].decide(game.view(d.seat), d, Deadline(1))
        game.apply(d.seat, ans.move_id)
    assert not game.over
    pipe = Pipe()
    seat, out = _human(pipe)
    if typed is None:
        pipe.close()  # input closed: watch (nothing to read a choice from)
    else:
        pipe.type(typed)
    await asyncio.wait_for(seat.eliminated(game.view(1)), 5)
    assert seat.watching is watching
    text = " ".join(out.getvalue().split())
    assert "You are out:" in text and "Press Enter to watch" in text and "type q" in text
    killer = next(
        e["killer"] for e in game.events(1) if e["kind"] == "eliminated" and e["seat"] == 1
    )
    if killer is not None:
        assert f"eliminated by #{killer}" in text
    assert ("You left the table" in text) is (not watching)
    if typed is not None:
        pipe.close()
