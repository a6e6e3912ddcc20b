"""Engine speed on one core: random-legal playouts at 4–8 seats (decisions/s, games/s) and
views/s. Usage: python benchmarks/engine_speed.py [--games 2000] [--mode classic]"""

from __future__ import annotations

import argparse
import random
import time

from bangarena.engine import GameConfig, new_game


def playouts(seats: int, mode: str, games: int) -> tuple[float, float, int, int]:
    rnd = random.Random(seats)
    decisions = unfinished = 0
    t0 = time.perf_counter()
    for seed in range(games):
        game = new_game(GameConfig(seats=seats, mode=mode), seed)
        while not game.over:
            moves = game.legal_moves
            game.apply_fast(moves[rnd.randrange(len(moves))])
            decisions += 1
        unfinished += game.state.winning_team is None
    dt = time.perf_counter() - t0
    return decisions / dt, games / dt, decisions, unfinished


def views(seats: int, count: int) -> float:
    rnd = random.Random(1)
    states = []
    seed = 0
    while len(states) < 200:
        game = new_game(GameConfig(seats=seats), seed)
        seed += 1
        while not game.over:
            moves = game.legal_moves
            game.apply_fast(moves[rnd.randrange(len(moves))])
            if rnd.random() < 0.05:
                states.append(game.clone())
    t0 = time.perf_counter()
    n = 0
    while n < count:
        for g in states:
            # A seat's view with the events of the last ~20 log entries (the cursor pattern).
            g.view(g.to_move or 0, since=max(0, len(g.state.log) - 20))
            n += 1
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--mode", default="classic")
    args = ap.parse_args()
    print(f"random-legal playouts, mode={args.mode}, {args.games} games per seat count, one core")
    print(
        f"{'seats':>5} {'decisions/s':>12} {'games/s':>9} {'decisions/game':>15} {'unfinished':>10}"
    )
    for seats in range(4, 9):
        dps, gps, dec, unfinished = playouts(seats, args.mode, args.games)
        print(f"{seats:>5} {dps:>12,.0f} {gps:>9,.1f} {dec / args.games:>15.1f} {unfinished:>10}")
    print(f"views/s at 7 seats (with ~20 new events each): {views(7, 20000):,.0f}")


if __name__ == "__main__":
    main()
