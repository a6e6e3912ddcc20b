"""A game state's JSON form, both ways, and the conformance suite's checked games: what a state
hash, a saved state and the suite's round trips cost.

Usage: python benchmarks/state_json.py [--games 30] [--seats 7] [--repeat 5] [--checked 200]

Prints, for the final states of ``--games`` random games (their whole logs included): the
milliseconds per state of ``state_to_dict``, ``state_from_dict`` and ``Game.state_hash`` (best of
``--repeat`` runs, CPU time), then the CPU seconds per 100 games of the conformance suite's
checked games (``run_games(check=True, sample_every=75)``, as the CI test plays them, over the
20 cells; the collector set as the test workers set it).
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable
from typing import Any

from bangarena.engine import GameConfig
from bangarena.engine.conformance import play_random_game, run_games
from bangarena.engine.roles import MODES
from bangarena.engine.state import state_from_dict, state_to_dict


def best_ms(call: Callable[[Any], object], items: list[Any], repeat: int) -> float:
    """The best of ``repeat`` runs over ``items``: CPU milliseconds per item."""
    runs = []
    for _ in range(repeat):
        started = time.process_time()
        for item in items:
            call(item)
        runs.append((time.process_time() - started) / len(items) * 1e3)
    return min(runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seats", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--checked", type=int, default=200, help="checked conformance games")
    args = ap.parse_args()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)
    config = GameConfig(seats=args.seats, mode="classic")
    games = [play_random_game(config, seed, check=False)[0] for seed in range(args.games)]
    forms = [state_to_dict(g.state) for g in games]
    events = sum(len(g.state.log) for g in games) / len(games)
    print(f"{args.games} final states of {args.seats}-seat games, {events:.0f} events each:")
    print(
        f"  state_to_dict    {best_ms(lambda g: state_to_dict(g.state), games, args.repeat):.3f} ms"
    )
    print(f"  state_from_dict  {best_ms(state_from_dict, forms, args.repeat):.3f} ms")
    print(f"  Game.state_hash  {best_ms(lambda g: g.state_hash(), games, args.repeat):.3f} ms")
    cells = [GameConfig(seats=n, mode=m) for n in range(4, 9) for m in MODES]
    started = time.process_time()
    list(run_games(cells, seed=10_000, games=args.checked, check=True, sample_every=75))
    per_100 = (time.process_time() - started) / args.checked * 100
    print(f"conformance, checked games: {per_100:.2f} CPU-s per 100 games ({args.checked} played)")


if __name__ == "__main__":
    main()
