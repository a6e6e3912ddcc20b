"""The match driver: one engine game, one seat per chair, a clock per decision, the autopilot
when a seat has no legal answer in time, and the match record.

It runs on asyncio and never blocks, so many matches share one process (``asyncio.gather`` of
:func:`run_match` calls). Each seat gets only its own view — the events since its previous
decision — and the pending decision. A seat that times out, gives up (failures, transport,
budget), raises or answers an illegal id gets the autopilot's move, and the record says why.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.metadata
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bangarena.engine import (
    DEFAULT_MAX_ROUNDS,
    ENGINE_VERSION,
    RULES_VERSION,
    Game,
    GameConfig,
    new_game,
)
from bangarena.prompts.render import PROMPT_VERSION

from .records import (
    DecisionTelemetry,
    MatchConfigRecord,
    MatchRecord,
    MoveRecord,
    Totals,
    seat_totals,
)
from .seats.protocol import Deadline, Seat, SeatAnswer

PEOPLE_TIMES_S: tuple[int, ...] = (15, 30, 60, 90)
"""The table's time per move for people (rules.md §3)."""


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """How a match is played. ``time_per_move_s`` is the table's time for people (and bots);
    models get ``model_time_per_move_s`` (the table's time when None)."""

    seats: int = 5
    mode: str = "classic"
    seed: int = 0
    max_rounds: int = DEFAULT_MAX_ROUNDS
    lang: str = "en"
    time_per_move_s: float = 60.0
    model_time_per_move_s: float | None = None
    backoff_cap_s: float = 60.0
    grace_s: float = 1.0
    transcripts: bool = True

    def time_for(self, seat: Seat) -> float:
        if seat.controller == "ai" or seat.kind == "scripted":
            return self.model_time_per_move_s or self.time_per_move_s
        return self.time_per_move_s


OnMove = Callable[[MoveRecord, Game], None]


async def ask(
    seat: Seat, game: Game, seat_index: int, since: int, deadline: Deadline, grace_s: float
):
    """One decision of ``seat``: its answer, or a give-up on timeout or error. Returns
    (answer, the view's cursor)."""
    view = game.view(seat_index, since=since)
    decision = game.decision
    if seat.controller == "bot" and seat.kind != "scripted":
        # Bots answer synchronously inside decide(): no task, no timer needed.
        try:
            return await seat.decide(view, decision, deadline), view.cursor
        except Exception as e:  # noqa: BLE001 — a broken seat must not stop the table
            return _seat_error(e), view.cursor
    task = asyncio.ensure_future(seat.decide(view, decision, deadline))
    while not task.done():
        wait = deadline.remaining() + grace_s
        if wait <= 0:
            break
        await asyncio.wait({task}, timeout=wait)
    if not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        return SeatAnswer.give_up("timeout"), view.cursor
    exc = task.exception()
    if exc is not None:
        return _seat_error(exc), view.cursor
    return task.result(), view.cursor


def _seat_error(exc: BaseException) -> SeatAnswer:
    t = DecisionTelemetry(reason=f"{type(exc).__name__}: {exc}"[:300])
    return SeatAnswer.give_up("seat_error", t)


async def run_match(
    settings: MatchSettings,
    seats: Sequence[Seat],
    *,
    on_move: OnMove | None = None,
    match_id: str | None = None,
    close_seats: bool = True,
) -> MatchRecord:
    """Play one full match; returns its record (the seats are closed at the end)."""
    if len(seats) != settings.seats:
        raise ValueError(f"{len(seats)} seats for a {settings.seats}-seat table")
    started_at = datetime.now(UTC)
    t0 = time.monotonic()
    game = new_game(GameConfig(settings.seats, settings.mode, settings.max_rounds), settings.seed)
    cursors = [0] * settings.seats
    limits = [settings.time_for(s) for s in seats]
    moves: list[MoveRecord] = []
    try:
        while not game.over:
            decision = game.decision
            i = decision.seat
            seat = seats[i]
            deadline = Deadline(limits[i], backoff_cap_s=settings.backoff_cap_s)
            answer, cursors[i] = await ask(seat, game, i, cursors[i], deadline, settings.grace_s)
            tel = answer.telemetry
            move_id, reason = answer.move_id, tel.autopilot_reason
            how = "chosen"
            if move_id is None or decision.get(move_id) is None:
                if move_id is not None:  # a seat that skipped validation: never trust it
                    reason = "seat_error"
                    tel.reason = f"illegal move id {move_id!r} from the seat"
                move_id, how = game.autopilot().id, "autopilot"
                reason = reason or "no_answer"
            else:
                reason = None
            rec = MoveRecord(
                index=len(moves), seat=i, decision=decision.kind, legal=len(decision.moves),
                move=move_id, how=how, autopilot_reason=reason,
                chosen_by=seat.controller if how == "chosen" else "autopilot",
                retries=max(0, len(tel.attempts) - 1), elapsed_s=round(deadline.elapsed(), 6),
                time_limit_s=limits[i], backoff_s=round(tel.backoff_s, 6),
                credited_s=round(deadline.credited_s, 6), attempts=tel.attempts,
                reason=tel.reason, notes=tel.notes,
            )  # fmt: skip
            if not settings.transcripts:
                for a in rec.attempts:
                    a.transcript = None
            game.apply(i, move_id)
            moves.append(rec)
            if on_move is not None:
                on_move(rec, game)
            await asyncio.sleep(0)  # let the other matches of this process run
    finally:
        if close_seats:
            for s in seats:
                with contextlib.suppress(Exception):
                    await s.aclose()
    return _record(
        settings, seats, game, moves, limits, started_at, time.monotonic() - t0, match_id
    )


def _versions(seats: Sequence[Seat]) -> dict[str, str]:
    out = {
        "harness": _dist_version("bangarena"),
        "prompts": PROMPT_VERSION,
        "engine": ENGINE_VERSION,
        "rules": RULES_VERSION,
    }
    for s in seats:
        sdk = getattr(s, "sdk", None)
        if sdk:
            name, _, ver = sdk.partition(" ")
            out[f"sdk:{name}"] = ver or name
    return out


def _dist_version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _record(
    settings: MatchSettings,
    seats: Sequence[Seat],
    game: Game,
    moves: list[MoveRecord],
    limits: list[float],
    started_at: datetime,
    duration_s: float,
    match_id: str | None,
) -> MatchRecord:
    seat_records = [s.seat_record(i, limits[i], settings.transcripts) for i, s in enumerate(seats)]
    per_seat = [
        seat_totals(i, [m for m in moves if m.seat == i], seats[i].controller)
        for i in range(len(seats))
    ]
    model_moves = [m for m in moves if seats[m.seat].controller == "ai" or m.attempts]
    match_totals = seat_totals(None, moves, None)
    if not model_moves:
        match_totals.first_try_valid_rate = None
    result = game.result()
    return MatchRecord(
        match_id=match_id or uuid.uuid4().hex[:12],
        started_at=started_at.isoformat(timespec="seconds"),
        finished_at=datetime.now(UTC).isoformat(timespec="seconds"),
        duration_s=round(duration_s, 3),
        versions=_versions(seats),
        config=MatchConfigRecord(
            seats=settings.seats,
            mode=settings.mode,
            seed=settings.seed,
            max_rounds=settings.max_rounds,
            lang=settings.lang,
            time_per_move_s=settings.time_per_move_s,
            model_time_per_move_s=settings.model_time_per_move_s or settings.time_per_move_s,
            backoff_cap_s=settings.backoff_cap_s,
            transcripts=settings.transcripts,
        ),  # fmt: skip
        seats=seat_records,
        moves=moves,
        totals=Totals(seats=per_seat, match=match_totals),
        result=result,
        game=game.record(),
    )
