"""The shipped conformance suite over seeded random games in every seat count × mode."""

from __future__ import annotations

import pytest

from bangarena.engine import GameConfig
from bangarena.engine.conformance import run_games
from bangarena.engine.roles import MODES

CELLS = [GameConfig(seats=n, mode=m) for n in range(4, 9) for m in MODES]
GAMES = 2000
CHUNKS = 8
"""The 2,000 games (seeds 10,000…11,999, cells round-robin) run as CHUNKS tests, so that
pytest-xdist spreads them over the cores."""


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_two_thousand_games_keep_every_invariant(chunk: int) -> None:
    size = GAMES // CHUNKS
    first = chunk * size
    offset = first % len(CELLS)
    cells = CELLS[offset:] + CELLS[:offset]  # game i of the whole run still plays CELLS[i % 40]
    # the full checks (every legal move applied, the JSON round-trip) every 75 steps and at the
    # end; the invariants at every step
    reports = list(run_games(cells, seed=10_000 + first, games=size, check=True, sample_every=75))
    bad = [(r.config, r.seed, r.violations[:3]) for r in reports if r.violations]
    assert not bad, bad[:5]
    assert len(reports) == size
    teams = {r.winning_team for r in reports}
    # Every outcome happens in each 250 games (draws need the cap: see the next test).
    assert {"law", "outlaws", "renegade"} <= teams


@pytest.mark.parametrize("mode", MODES)
def test_round_cap_ends_games_as_draws(mode: str) -> None:
    reports = list(run_games([GameConfig(seats=8, mode=mode, max_rounds=2)], seed=5, games=30))
    assert all(not r.violations for r in reports)
    assert any(r.winning_team == "draw" for r in reports)
