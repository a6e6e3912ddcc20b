"""Batch simulation: many seeded games with bot or random players, aggregated into the stable
JSON summary that ``bangarena simulate`` prints."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bangarena.engine import GameConfig, new_game
from bangarena.engine.conformance import replay, result_violations, step_violations
from bangarena.engine.roles import MODES, ROLE_TABLE

SEAT_CHOICES = tuple(str(n) for n in ROLE_TABLE) + ("all",)
MODE_CHOICES = MODES + ("all",)


def cells(seats: str, mode: str) -> list[GameConfig]:
    """The (seats, mode) cells a run goes round-robin over."""
    seat_list = list(ROLE_TABLE) if seats == "all" else [int(seats)]
    mode_list = list(MODES) if mode == "all" else [mode]
    return [GameConfig(seats=n, mode=m) for n in seat_list for m in mode_list]


Chooser = Callable[[Any, int], str]


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
        }


def simulate(
    games: int,
    seed: int,
    seats: str = "all",
    mode: str = "all",
    check: bool = True,
) -> Summary:
    """Play ``games`` random-legal games (seed, seed+1, …) round-robin over the cells."""
    configs = cells(seats, mode)
    summary = Summary()
    t0 = time.perf_counter()
    for i in range(games):
        config = configs[i % len(configs)]
        game_seed = seed + i
        chooser = random.Random(game_seed ^ 0x5EED)
        game = new_game(config, game_seed)
        bad: list[str] = step_violations(game) if check else []
        while not game.over:
            moves = game.legal_moves
            game.apply_fast(moves[chooser.randrange(len(moves))])
            if check:
                bad += step_violations(game)
        g = game.state
        if check:
            bad += result_violations(game)
            if replay(config, game_seed, game.history).state_hash() != game.state_hash():
                bad.append("replay mismatch")
        summary.games += 1
        summary.decisions += len(g.history)
        summary.forced += g.forced
        summary.wins[g.winning_team or "draw"] += 1
        summary.violations += [f"game seed={game_seed} {config}: {v}" for v in bad]
    summary.seconds = time.perf_counter() - t0
    return summary
