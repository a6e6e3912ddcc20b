"""The shipped conformance suite over seeded random games in every seat count × mode."""

from __future__ import annotations

import pytest

from bangarena.engine import GameConfig
from bangarena.engine.conformance import run_games
from bangarena.engine.roles import MODES

CELLS = [GameConfig(seats=n, mode=m) for n in range(4, 9) for m in MODES]
GAMES = 2000


def test_two_thousand_games_keep_every_invariant() -> None:
    reports = list(run_games(CELLS, seed=10_000, games=GAMES, check=True))
    bad = [(r.config, r.seed, r.violations[:3]) for r in reports if r.violations]
    assert not bad, bad[:5]
    assert len(reports) == GAMES
    teams = {r.winning_team for r in reports}
    # Every outcome happens somewhere in 2,000 games (draws need the cap: see the next test).
    assert {"law", "outlaws", "renegade"} <= teams


@pytest.mark.parametrize("mode", MODES)
def test_round_cap_ends_games_as_draws(mode: str) -> None:
    reports = list(run_games([GameConfig(seats=8, mode=mode, max_rounds=2)], seed=5, games=30))
    assert all(not r.violations for r in reports)
    assert any(r.winning_team == "draw" for r in reports)
