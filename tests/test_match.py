"""The match driver with bot seats and misbehaving seats: full matches, the record (schema,
replay, per-move annotations), timeouts, exceptions and illegal ids ending in the autopilot,
and many matches sharing one event loop."""

from __future__ import annotations

import asyncio
import json

import jsonschema
import pytest

from bangarena.engine import Decision, SeatView, replay
from bangarena.engine.config import GameConfig
from bangarena.harness.match import Match, MatchSettings, MoveNotice, run_match
from bangarena.harness.records import (
    DecisionTelemetry,
    MatchRecord,
    SeatRecord,
    match_record_schema,
)
from bangarena.harness.seats import BotSeat, Deadline, SeatAnswer

VALIDATOR = jsonschema.Draft202012Validator(match_record_schema())


def check_record(rec: MatchRecord, settings: MatchSettings) -> dict:
    """Shared checks: schema-valid JSON, replayable, one annotated move per engine move."""
    data = json.loads(rec.model_dump_json())
    VALIDATOR.validate(data)
    game = rec.game
    assert [[m.seat, m.move] for m in rec.moves] == game["moves"]
    again = replay(GameConfig(settings.seats, settings.mode, settings.max_rounds), settings.seed,
                   game["moves"])  # fmt: skip
    assert again.result() == rec.result
    if rec.status == "complete":
        assert rec.result is not None and rec.result["decisions"] == len(rec.moves)
    else:  # the moves played so far, the game not over
        assert rec.result is None and rec.status_detail
    assert rec.totals.match.decisions == len(rec.moves)
    assert sum(t.decisions for t in rec.totals.seats) == len(rec.moves)
    assert sum(t.decisions for t in rec.totals.kinds.values()) == len(rec.moves)
    assert rec.version == 2 and rec.provenance is not None and rec.provenance.python
    return data


async def test_a_bot_match_plays_to_the_end_with_a_valid_record() -> None:
    settings = MatchSettings(seats=6, mode="double_agent", seed=5)
    seats = [BotSeat("rule" if i % 2 else "random", 50 + i, i) for i in range(6)]
    rec = await run_match(settings, seats)
    data = check_record(rec, settings)
    assert all(m.how == "chosen" and m.chosen_by == "bot" for m in rec.moves)
    assert [s["controller"] for s in data["seats"]] == ["bot"] * 6
    assert data["versions"]["engine"] and data["versions"]["prompts"]
    assert rec.totals.match.autopilot_moves == 0
    assert rec.totals.seats[0].first_try_valid_rate is None  # not a model: no such rate


class SlowSeat:
    """Answers correctly but too late on its first decisions."""

    controller, kind, spec, display_name = "ai", "model", "test:slow", "Slow"

    def __init__(self, late: int, sleep_s: float) -> None:
        self.late, self.sleep_s, self.calls = late, sleep_s, 0

    async def decide(self, view: SeatView, decision: Decision, deadline: Deadline) -> SeatAnswer:
        self.calls += 1
        if self.calls <= self.late:
            await asyncio.sleep(self.sleep_s)
        return SeatAnswer(decision.ids[-1], DecisionTelemetry())

    def seat_record(self, seat: int, time_per_move_s: float, transcripts: bool) -> SeatRecord:
        return SeatRecord(seat=seat, spec=self.spec, display_name=self.display_name,
                          controller="ai", kind="model", time_per_move_s=time_per_move_s)  # fmt: skip

    async def aclose(self) -> None:
        return None


class BrokenSeat(SlowSeat):
    """Raises on odd calls, answers an illegal id on even ones."""

    async def decide(self, view: SeatView, decision: Decision, deadline: Deadline) -> SeatAnswer:
        self.calls += 1
        if self.calls % 2:
            raise RuntimeError("the seat crashed")
        return SeatAnswer("no_such_move", DecisionTelemetry())


async def test_a_slow_seat_is_autopiloted_on_timeout_and_the_match_goes_on() -> None:
    settings = MatchSettings(seats=4, seed=2, time_per_move_s=30, model_time_per_move_s=0.1,
                             grace_s=0.05)  # fmt: skip
    slow = SlowSeat(late=2, sleep_s=5.0)
    seats = [slow, *(BotSeat("rule", i, i) for i in range(1, 4))]
    rec = await run_match(settings, seats)
    check_record(rec, settings)
    mine = [m for m in rec.moves if m.seat == 0]
    assert [m.autopilot_reason for m in mine[:2]] == ["timeout", "timeout"]
    assert all(m.how == "autopilot" and m.chosen_by == "autopilot" for m in mine[:2])
    assert all(m.how == "chosen" for m in mine[2:])
    assert all(0.1 <= m.elapsed_s < 0.5 for m in mine[:2])
    assert rec.totals.seats[0].autopilot == {"timeout": 2}
    assert rec.seats[0].time_per_move_s == 0.1 and rec.seats[1].time_per_move_s == 30


async def test_a_crashing_or_lying_seat_never_stops_the_table() -> None:
    settings = MatchSettings(seats=5, seed=8)
    seats = [BotSeat("random", i, i) for i in range(5)]
    seats[2] = BrokenSeat(0, 0)
    rec = await run_match(settings, seats)
    check_record(rec, settings)
    mine = [m for m in rec.moves if m.seat == 2]
    assert mine and all(m.how == "autopilot" and m.autopilot_reason == "seat_error" for m in mine)
    assert "the seat crashed" in mine[0].reason
    if len(mine) > 1:
        assert "no_such_move" in mine[1].reason


async def test_many_matches_share_one_event_loop() -> None:
    settings = [MatchSettings(seats=4 + i % 5, seed=i) for i in range(24)]
    records = await asyncio.gather(
        *(
            run_match(s, [BotSeat("rule", 7 * s.seed + j, j) for j in range(s.seats)])
            for s in settings
        )
    )
    for s, rec in zip(settings, records, strict=True):
        assert rec.config.seed == s.seed and rec.result is not None
        assert len(rec.game["moves"]) == rec.result["decisions"]
    # the same seeds and seats reproduce the same games
    again = await run_match(settings[3], [BotSeat("rule", 21 + j, j) for j in range(7)])
    assert again.game["moves"] == records[3].game["moves"]


def test_match_record_schema_is_a_json_schema() -> None:
    schema = match_record_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["title"] == "BangArena match record"
    assert {"seats", "moves", "totals", "game", "versions"} <= set(schema["required"])


class WatchingSeat(BotSeat):
    """A rule bot that wants to know when it is eliminated (as the terminal seat does)."""

    def __init__(self, seed: int, seat: int) -> None:
        super().__init__("rule", seed, seat)
        self.told: list[SeatView] = []

    async def eliminated(self, view: SeatView) -> None:
        self.told.append(view)


async def test_an_eliminated_seat_is_told_once_with_its_own_view() -> None:
    told = 0
    for seed in range(6):
        settings = MatchSettings(seats=5, seed=seed)
        seats = [WatchingSeat(seed * 16 + i, i) for i in range(5)]
        rec = await run_match(settings, seats)
        check_record(rec, settings)
        dead = {e["seat"] for e in rec.game["events"] if e["kind"] == "eliminated"}
        for i, s in enumerate(seats):
            assert len(s.told) <= 1 and (not s.told or i in dead)
            if s.told:
                view = s.told[0]
                assert view.seat == i and not view.players[i].alive and not view.over
                assert any(e["kind"] == "eliminated" and e["seat"] == i for e in view.events)
                told += 1
    assert told >= 3


async def test_a_cancelled_match_keeps_what_was_played_as_aborted() -> None:
    settings = MatchSettings(seats=4, seed=2, time_per_move_s=30, model_time_per_move_s=30)
    slow = SlowSeat(late=10**6, sleep_s=60.0)  # never answers in time: the match hangs on it
    seats = [BotSeat("rule", i, i) for i in range(4)]
    seats[1] = slow
    match = Match(settings, seats)
    task = asyncio.create_task(match.run())
    while slow.calls == 0:
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    rec = match.record()
    assert rec.status == "aborted" and rec.status_detail == "interrupted"
    assert rec.moves and all(m.seat != 1 for m in rec.moves)  # the pending one is not recorded
    check_record(rec, settings)


async def test_totals_never_mix_bots_into_the_rule_following_statistics() -> None:
    from bangarena.harness.model_spec import ModelOptions, parse_model_spec
    from bangarena.harness.seats import build_seat
    from bangarena.harness.seats.factory import SeatPlan

    options = ModelOptions(faults={"invalid_json": 0.3, "illegal_id": 0.2})
    plan = SeatPlan("scripted", "scripted", parse_model_spec("scripted"), options)
    settings = MatchSettings(seats=5, seed=3, transcripts=False)
    seats = [build_seat(plan, seat=0, seed=3, environ={}),
             *(BotSeat("rule", 48 + i, i) for i in range(1, 5))]  # fmt: skip
    rec = await run_match(settings, seats)
    check_record(rec, settings)
    mine, bots = rec.totals.seats[0], rec.totals.kinds["rule"]
    assert mine.answered == mine.decisions and mine.first_try_valid_rate < 0.9
    assert rec.totals.kinds["scripted"].first_try_valid_rate == mine.first_try_valid_rate
    assert rec.totals.match.first_try_valid_rate == mine.first_try_valid_rate
    assert rec.totals.match.decisions == mine.decisions + bots.decisions
    assert bots.first_try_valid is None and bots.first_try_valid_rate is None
    assert bots.answered is None and bots.retries == 0 and not any(bots.failures.values())
    assert rec.totals.match.retries == mine.retries > 0
    assert rec.totals.match.failures == mine.failures


class CreditedSeat(SlowSeat):
    """Sleeps past its time per move on its first decision, after crediting the clock back by
    the same (as a rate limit's backoff is credited), so it is still in time."""

    async def decide(self, view: SeatView, decision: Decision, deadline: Deadline) -> SeatAnswer:
        self.calls += 1
        if self.calls == 1:
            deadline.credit(self.sleep_s)
            await asyncio.sleep(self.sleep_s)
        return SeatAnswer(decision.ids[-1], DecisionTelemetry())


class DroppedSeat(SlowSeat):
    """Its first decision waits on an answer future that something else cancels (a dropped
    connection): its own CancelledError, not the match's."""

    async def decide(self, view: SeatView, decision: Decision, deadline: Deadline) -> SeatAnswer:
        self.calls += 1
        if self.calls == 1:
            answer = asyncio.get_running_loop().create_future()
            asyncio.get_running_loop().call_later(0.02, answer.cancel)
            await answer
        return SeatAnswer(decision.ids[-1], DecisionTelemetry())


async def test_a_deadline_moved_later_while_the_seat_works_is_the_one_kept() -> None:
    settings = MatchSettings(seats=4, seed=2, time_per_move_s=30, model_time_per_move_s=0.1,
                             grace_s=0.05)  # fmt: skip
    seat = CreditedSeat(late=1, sleep_s=0.3)  # 0.3 s of work, 0.1 s + 0.3 s credited
    rec = await run_match(settings, [seat, *(BotSeat("rule", i, i) for i in range(1, 4))])
    first = next(m for m in rec.moves if m.seat == 0)
    assert first.how == "chosen" and first.autopilot_reason is None
    assert 0.3 <= first.elapsed_s < 0.45 and first.credited_s == pytest.approx(0.3)


@pytest.mark.parametrize("self_timed", [False, True])
async def test_a_seat_whose_own_wait_is_cancelled_is_autopiloted_and_the_match_goes_on(
    self_timed: bool,
) -> None:
    """With the driver's timer, or without it for a seat that keeps its own clock."""
    settings = MatchSettings(seats=4, seed=2, time_per_move_s=30, model_time_per_move_s=5)
    seat = DroppedSeat(late=1, sleep_s=0)
    seat.self_timed = self_timed  # type: ignore[attr-defined]
    rec = await run_match(settings, [seat, *(BotSeat("rule", i, i) for i in range(1, 4))])
    check_record(rec, settings)
    assert rec.status == "complete"
    mine = [m for m in rec.moves if m.seat == 0]
    assert mine[0].how == "autopilot" and mine[0].autopilot_reason == "timeout"
    assert all(m.how == "chosen" for m in mine[1:])


async def test_notice_observers_get_the_on_move_notices_and_view_free_bots_get_no_view() -> None:
    """``on_notice`` gets the very notices ``on_move`` gets (no view is built for it), and a
    bot that ignores views (``random``) is handed none while a rule bot gets its own."""
    settings = MatchSettings(seats=5, seed=11)
    with_views: list[MoveNotice] = []
    alone: list[MoveNotice] = []

    def seats() -> list[BotSeat]:
        return [BotSeat("random" if i % 2 else "rule", 70 + i, i) for i in range(5)]

    first = Match(settings, seats(), on_move=lambda n, _v: with_views.append(n))
    second_seats = seats()
    given: dict[int, list[object]] = {i: [] for i in range(5)}
    for i, s in enumerate(second_seats):
        inner = s.choose_now

        def spy(view, decision, _i=i, _inner=inner):  # type: ignore[no-untyped-def]
            given[_i].append(view)
            return _inner(view, decision)

        s.choose_now = spy  # type: ignore[method-assign]
    second = Match(settings, second_seats, on_notice=alone.append)
    a, b = await first.run(), await second.run()
    assert [m.move for m in a.moves] == [m.move for m in b.moves]
    assert with_views == alone and len(alone) == len(b.moves)
    assert all(v is None for i in (1, 3) for v in given[i]) and given[1]
    assert all(isinstance(v, SeatView) and v.seat == i for i in (0, 2, 4) for v in given[i])


async def test_a_self_timed_seat_that_crashes_is_autopiloted_and_a_cancelled_match_stops() -> None:
    """A seat that keeps its own clock runs without the driver's timer, and still never stops
    the table by raising, while cancelling the match still stops it."""
    settings = MatchSettings(seats=5, seed=8)
    broken = BrokenSeat(0, 0)
    broken.self_timed = True  # type: ignore[attr-defined]
    seats = [BotSeat("random", i, i) for i in range(5)]
    seats[2] = broken  # type: ignore[call-overload]
    rec = await run_match(settings, seats)
    check_record(rec, settings)
    mine = [m for m in rec.moves if m.seat == 2]
    assert mine and all(m.how == "autopilot" and m.autopilot_reason == "seat_error" for m in mine)

    slow = SlowSeat(late=99, sleep_s=30)
    slow.self_timed = True  # type: ignore[attr-defined]
    match = Match(
        MatchSettings(seats=4, seed=2), [slow, *(BotSeat("rule", i, i) for i in (1, 2, 3))]
    )
    task = asyncio.create_task(match.run())
    while slow.calls == 0:
        await asyncio.sleep(0.001)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert match.record().status == "aborted"


async def test_on_applied_is_told_each_index_once_applied_before_bots_play_on() -> None:
    """``on_applied`` gets every decision's index in order, once its move is in the game; what
    it wakes after a seat that answered from outside (awaiting, as a remote seat does) runs
    before anyone's next move."""
    settings = MatchSettings(seats=4, seed=3)
    outside = SlowSeat(late=10**6, sleep_s=0)
    match = Match(settings, [outside, *(BotSeat("rule", i, i) for i in (1, 2, 3))])
    told: list[tuple[int, int]] = []
    woken: list[tuple[int, int]] = []
    loop = asyncio.get_running_loop()

    async def wake_up(index: int, fut: asyncio.Future[None]) -> None:
        await fut
        woken.append((index, len(match.game.state.history)))

    def on_applied(index: int) -> None:
        told.append((index, len(match.game.state.history)))
        if match.moves[index].seat == 0 and not match.game.over:
            fut = loop.create_future()
            waiters.append(asyncio.ensure_future(wake_up(index, fut)))
            fut.set_result(None)

    waiters: list[asyncio.Task[None]] = []
    match.on_applied = on_applied
    rec = await match.run()
    await asyncio.gather(*waiters)
    assert [i for i, _ in told] == list(range(len(rec.moves)))
    assert all(applied == i + 1 for i, applied in told)
    assert woken and all(applied == i + 1 for i, applied in woken)
