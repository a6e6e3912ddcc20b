"""A first end-to-end check: seeded random games run to the end with no invariant broken."""

from bangarena.harness.simulate import simulate


def test_random_games_all_cells_are_clean() -> None:
    summary = simulate(games=40, seed=3, seats="all", mode="all", check=True)
    assert summary.violations == []
    assert summary.games == 40
    assert sum(summary.wins.values()) == 40
