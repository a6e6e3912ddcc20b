"""Batch simulation: many seeded games with bot or random players, aggregated into the stable
JSON summary that ``bangarena simulate`` prints.

Two drivers share one loop shape:

- all seats uniformly random (``--players random``): the fast path, no views at all;
- any seat a bot of another kind: each seat gets a bot from :func:`make_bot`, and every bot that
  reads views is handed ``game.view(seat, since=<its previous cursor>)`` and the decision.
"""

from __future__ import annotations

import contextlib
import gc
import os
import random
import time
from collections.abc import Iterator
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from bangarena.engine import Game, GameConfig, new_game
from bangarena.engine.conformance import replay, result_violations, step_violations
from bangarena.engine.roles import DOUBLE_AGENT, MODES, OUTLAW, ROLE_TABLE, TEAM_OF, TEAMS

from .bots import BotSpecError, is_bot_spec, make_bot, parse_bot_spec
from .bots.information_set import information_set_sampler
from .bots.sanity import Sanity

SEAT_CHOICES = tuple(str(n) for n in ROLE_TABLE) + ("all",)
MODE_CHOICES = MODES + ("all",)
TEAM_CHOICES = TEAMS  # law (sheriff + deputies), outlaws (+ the double agent), renegade


def cells(seats: str, mode: str, expansions: tuple[str, ...] = ()) -> list[GameConfig]:
    """The (seats, mode) cells a run goes round-robin over (each with ``expansions``)."""
    seat_list = list(ROLE_TABLE) if seats == "all" else [int(seats)]
    mode_list = list(MODES) if mode == "all" else [mode]
    return [
        GameConfig(seats=n, mode=m, expansions=expansions) for n in seat_list for m in mode_list
    ]


def parse_players(spec: str) -> dict[str, str]:
    """A bot spec for every seat (``random``, ``rule``, ``rule:eps=0.3``), or per team
    ``law=rule:eps=0.3,outlaws=random`` — each item split on its first ``=`` (a team left out
    plays ``random``). Returns team -> canonical bot spec; raises ValueError."""
    spec = spec.strip()
    if is_bot_spec(spec) and not any(spec.startswith(f"{t}=") for t in TEAMS):
        try:
            return dict.fromkeys(TEAMS, str(parse_bot_spec(spec)))
        except BotSpecError as e:
            raise ValueError(str(e)) from None
    out = dict.fromkeys(TEAMS, "random")
    seen: set[str] = set()
    for part in spec.split(","):
        team, sep, kind = (x.strip() for x in part.partition("="))
        if not sep or team not in TEAMS or not is_bot_spec(kind):
            raise ValueError(
                f"bad player spec {part!r}: use a bot spec (random, rule, rule:eps=0.3) for "
                f"every seat, or TEAM=SPEC pairs with teams {', '.join(TEAMS)}"
            )
        if team in seen:
            raise ValueError(f"team {team!r} given twice")
        seen.add(team)
        try:
            out[team] = str(parse_bot_spec(kind))
        except BotSpecError as e:
            raise ValueError(f"team {team}: {e}") from None
    return out


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of game ``game_seed`` (its own stream, not the game's)."""
    return (game_seed * 1_000_003 + seat * 7_919) ^ 0xB07


@dataclass
class Summary:
    """Aggregated figures of a simulation run (the keys of the CLI's JSON output)."""

    games: int = 0
    decisions: int = 0
    forced: int = 0
    seconds: float = 0.0
    wins: dict[str, int] = field(
        default_factory=lambda: {"law": 0, "outlaws": 0, "renegade": 0, "draw": 0}
    )
    violations: list[str] = field(default_factory=list)
    players: dict[str, str] = field(default_factory=lambda: dict.fromkeys(TEAMS, "random"))
    sanity: Sanity = field(default_factory=Sanity)

    def to_dict(self) -> dict[str, Any]:
        s = max(self.seconds, 1e-9)
        return {
            "games": self.games,
            "decisions": self.decisions,
            "forced": self.forced,
            "decisions_per_s": round(self.decisions / s, 1),
            "games_per_s": round(self.games / s, 2),
            "wins": dict(self.wins),
            "mean_decisions_per_game": round(self.decisions / max(self.games, 1), 2),
            "violations": len(self.violations),
            "seconds": round(self.seconds, 3),
            "players": dict(self.players),
            "sanity": self.sanity.to_dict(),
        }


def simulate(
    games: int,
    seed: int,
    seats: str = "all",
    mode: str = "all",
    check: bool = True,
    players: str | dict[str, str] = "random",
    expansions: tuple[str, ...] = (),
    executor: Executor | None = None,
    workers: int = 1,
) -> Summary:
    """Play ``games`` seeded games (seed, seed+1, …) round-robin over the cells; ``players`` says
    which bot kind plays each team (see :func:`parse_players`); ``expansions`` the expansions
    every game has (``("armed_dangerous",)``).

    With an ``executor`` (``workers`` processes), the games are played in chunks of consecutive
    games (:func:`chunk_ranges`) on it and the chunks' summaries merged in game order: every
    game has the seed and cell it has in one process, so everything but the timings and rates
    is the same as one process gives."""
    teams = parse_players(players) if isinstance(players, str) else dict(players)
    if executor is None:
        return simulate_range(0, games, seed, seats, mode, check, teams, expansions)
    # The workers start (and import the engine and the bots) before the clock does, as the
    # one-process run imported them before its own: the rates compare the games alone.
    for f in [executor.submit(warm_worker, WARM_SECONDS) for _ in range(workers)]:
        f.result()
    t0 = time.perf_counter()
    futures = [
        executor.submit(simulate_range, a, b, seed, seats, mode, check, teams, expansions)
        for a, b in chunk_ranges(games, workers)
    ]
    summary = merge_summaries([f.result() for f in futures], teams)
    summary.seconds = time.perf_counter() - t0
    return summary


def simulate_range(
    start: int,
    stop: int,
    seed: int,
    seats: str,
    mode: str,
    check: bool,
    teams: dict[str, str],
    expansions: tuple[str, ...] = (),
) -> Summary:
    """Games ``start ≤ i < stop`` of a run (seed ``seed + i``, cell ``i`` round-robin): one
    process's share of :func:`simulate` (it pickles, for worker processes)."""
    configs = cells(seats, mode, expansions)
    summary = Summary(players=dict(teams))
    with batch_gc():
        _play_batch(summary, configs, start, stop, seed, check, teams)
    return summary


WARM_SECONDS = 0.05
"""How long a start-up task holds its worker, so that each worker takes one."""


def warm_worker(seconds: float) -> int:
    """A start-up task: by the time it runs, this module (the engine, the bots) is imported in
    the worker; it holds the worker ``seconds`` so that the next one goes to another."""
    time.sleep(seconds)
    return os.getpid()


CHUNKS_PER_WORKER = 4
MIN_CHUNK = 25
"""Games per chunk at least (a rule-bot game takes ~15 ms, a task's round trip ~1 ms)."""


def chunk_ranges(games: int, workers: int) -> list[tuple[int, int]]:
    """``[start, stop)`` chunks of consecutive games for ``workers`` processes: a few per worker
    (so one slow chunk does not leave the others idle at the end), each big enough that a
    task's round trip is small beside its games."""
    chunks = max(1, min(games, workers * CHUNKS_PER_WORKER, games // MIN_CHUNK or 1))
    size, extra = divmod(games, chunks)
    out, a = [], 0
    for k in range(chunks):
        b = a + size + (k < extra)
        out.append((a, b))
        a = b
    return out


def merge_summaries(parts: list[Summary], teams: dict[str, str]) -> Summary:
    """The summary of consecutive chunks, in game order (timings are the caller's)."""
    out = Summary(players=dict(teams))
    for p in parts:
        out.games += p.games
        out.decisions += p.decisions
        out.forced += p.forced
        for team, n in p.wins.items():
            out.wins[team] = out.wins.get(team, 0) + n
        out.violations += p.violations
        for kind, counts in p.sanity.counts.items():
            mine = out.sanity.counts.setdefault(kind, dict.fromkeys(counts, 0))
            for name, n in counts.items():
                mine[name] = mine.get(name, 0) + n
    return out


def _play_batch(
    summary: Summary,
    configs: list[GameConfig],
    start: int,
    stop: int,
    seed: int,
    check: bool,
    teams: dict[str, str],
) -> None:
    all_random = all(k == "random" for k in teams.values())
    t0 = time.perf_counter()
    for i in range(start, stop):
        config = configs[i % len(configs)]
        game_seed = seed + i
        if all_random:
            game, bad, kinds = _random_game(config, game_seed, check, summary.sanity)
        else:
            game, bad, kinds = _bot_game(config, game_seed, check, teams, summary.sanity)
        g = game.state
        if check:
            bad += result_violations(game)
            if replay(config, game_seed, game.history).state_hash() != game.state_hash():
                bad.append("replay mismatch")
        summary.games += 1
        summary.decisions += len(g.history)
        summary.forced += g.forced
        summary.wins[g.winning_team or "draw"] += 1
        summary.sanity.add_game(g.log, kinds)
        summary.violations += [f"game seed={game_seed} {config}: {v}" for v in bad]
    summary.seconds = time.perf_counter() - t0


@contextlib.contextmanager
def batch_gc() -> Iterator[None]:
    """Run a batch with the cyclic garbage collector mostly out of the way.

    A batch allocates millions of short-lived, acyclic objects (views, event forms, move lists)
    that reference counting frees at once; the collector's frequent young-generation passes find
    nothing and cost ~4 % of a rule-bot batch. Objects from before the batch are frozen, and the
    thresholds are restored afterwards. What the process had frozen before (``bangarena serve``
    freezes its heap at start, and its A2A evaluator runs suites) stays frozen: the collector
    has one permanent generation, and unfreezing it would hand the server's whole heap back to
    the full collections it was taken from.
    """
    old = gc.get_threshold()
    frozen_before = gc.get_freeze_count() > 0
    gc.freeze()
    gc.set_threshold(100_000, 50, 50)
    try:
        yield
    finally:
        gc.set_threshold(*old)
        if not frozen_before:
            gc.unfreeze()


def _shot_at(moves: tuple, seat: int) -> bool:
    for m in moves:
        if m.target == seat and (m.kind == "play_as" or m.card == "shot"):
            return True
    return False


def _random_game(
    config: GameConfig, game_seed: int, check: bool, sanity: Sanity
) -> tuple[Game, list[str], list[str]]:
    """Every seat uniformly random from one shared stream; no views are built."""
    chooser = random.Random(game_seed ^ 0x5EED)
    game = new_game(config, game_seed)
    g = game.state
    outlaw_side = [p.role in (OUTLAW, DOUBLE_AGENT) for p in g.players]
    sheriff = g.sheriff
    bad: list[str] = step_violations(game) if check else []
    while not game.over:
        moves = game.legal_moves
        move = moves[chooser.randrange(len(moves))]
        if move.kind == "end_turn" and outlaw_side[g.pending[1]]:
            sanity.note_end_turn("random", _shot_at(moves, sheriff))
        game.apply_fast(move)
        if check:
            bad += step_violations(game)
    return game, bad, ["random"] * config.seats


def _bot_game(
    config: GameConfig, game_seed: int, check: bool, teams: dict[str, str], sanity: Sanity
) -> tuple[Game, list[str], list[str]]:
    """Each seat played by the bot kind of its team, through its views."""
    game = new_game(config, game_seed)
    n = config.seats
    # The driver deals the seats to bots by team, as a host would; the bots themselves only
    # ever get their own views.
    roles = [game.view(s).role or "" for s in range(n)]
    kinds = [teams[TEAM_OF[r]] for r in roles]
    bots = [make_bot(kinds[s], bot_seed(game_seed, s), s) for s in range(n)]
    views = [b.needs_view for b in bots]
    wants_sampler = [getattr(b, "wants_sampler", False) for b in bots]
    outlaw_side = [r in (OUTLAW, DOUBLE_AGENT) for r in roles]
    sheriff = roles.index("sheriff")
    cursors = [0] * n
    bad: list[str] = step_violations(game) if check else []
    while not game.over:
        decision = game.decision
        seat = decision.seat
        if views[seat]:
            view = game.view(seat, since=cursors[seat])
            cursors[seat] = view.cursor
        else:
            view = None  # the bot declared it ignores views (Bot.needs_view)
        if wants_sampler[seat]:  # a searching bot: its information set, never the game
            bots[seat].sampler = information_set_sampler(game, seat)  # type: ignore[attr-defined]
        move_id = bots[seat].choose(view, decision)  # type: ignore[arg-type]
        if move_id == "end_turn" and outlaw_side[seat]:
            sanity.note_end_turn(kinds[seat], _shot_at(decision.moves, sheriff))
        game.apply(seat, move_id)
        if check:
            bad += step_violations(game)
    return game, bad, kinds
