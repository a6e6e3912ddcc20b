"""Engine speed on one core: random-legal playouts at 4–8 seats (decisions/s, games/s) and
views/s, timed in CPU time (``time.process_time``: the machine may be shared).

Usage: python benchmarks/engine_speed.py [--games 2000] [--mode classic]
       [--expansions armed_dangerous]

With ``--expansions``, every seat count is played twice in the same run, base games and games
with the expansions, and the expansion's decisions/s are shown as a share of the base game's
(the target: at least 90 %)."""

from __future__ import annotations

import argparse
import random
import time

from bangarena.engine import GameConfig, new_game


def playouts(
    seats: int, mode: str, games: int, expansions: tuple[str, ...] = ()
) -> tuple[float, float, int, int]:
    rnd = random.Random(seats)
    decisions = unfinished = 0
    t0 = time.process_time()
    for seed in range(games):
        game = new_game(GameConfig(seats=seats, mode=mode, expansions=expansions), seed)
        while not game.over:
            moves = game.legal_moves
            game.apply_fast(moves[rnd.randrange(len(moves))])
            decisions += 1
        unfinished += game.state.winning_team is None
    dt = time.process_time() - t0
    return decisions / dt, games / dt, decisions, unfinished


def views(seats: int, count: int, expansions: tuple[str, ...] = ()) -> float:
    rnd = random.Random(1)
    states = []
    seed = 0
    while len(states) < 200:
        game = new_game(GameConfig(seats=seats, expansions=expansions), seed)
        seed += 1
        while not game.over:
            moves = game.legal_moves
            game.apply_fast(moves[rnd.randrange(len(moves))])
            if rnd.random() < 0.05:
                states.append(game.clone())
    t0 = time.process_time()
    n = 0
    while n < count:
        for g in states:
            # A seat's view with the events of the last ~20 log entries (the cursor pattern).
            g.view(g.to_move or 0, since=max(0, len(g.state.log) - 20))
            n += 1
    return n / (time.process_time() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--mode", default="classic")
    ap.add_argument("--expansions", default="", help="comma-separated, e.g. armed_dangerous")
    args = ap.parse_args()
    exps = tuple(x.strip() for x in args.expansions.split(",") if x.strip())
    print(
        f"random-legal playouts, mode={args.mode}, {args.games} games per seat count, one core,"
        " CPU time"
    )
    if not exps:
        print(
            f"{'seats':>5} {'decisions/s':>12} {'games/s':>9} {'decisions/game':>15}"
            f" {'unfinished':>10}"
        )
        for seats in range(4, 9):
            dps, gps, dec, unfinished = playouts(seats, args.mode, args.games)
            print(
                f"{seats:>5} {dps:>12,.0f} {gps:>9,.1f} {dec / args.games:>15.1f} {unfinished:>10}"
            )
        print(f"views/s at 7 seats (with ~20 new events each): {views(7, 20000):,.0f}")
        return
    label = "+".join(exps)
    print(
        f"{'seats':>5} {'base dec/s':>11} {label + ' dec/s':>24} {'share':>6}"
        f" {'base dec/game':>13} {'exp dec/game':>12}"
    )
    total = {"base": [0, 0.0], "exp": [0, 0.0]}
    for seats in range(4, 9):
        b, _, bdec, _ = playouts(seats, args.mode, args.games)
        e, _, edec, _ = playouts(seats, args.mode, args.games, exps)
        total["base"][0] += bdec
        total["base"][1] += bdec / b
        total["exp"][0] += edec
        total["exp"][1] += edec / e
        print(
            f"{seats:>5} {b:>11,.0f} {e:>24,.0f} {e / b:>6.0%}"
            f" {bdec / args.games:>13.1f} {edec / args.games:>12.1f}"
        )
    base_all = total["base"][0] / total["base"][1]
    exp_all = total["exp"][0] / total["exp"][1]
    print(f"  all {base_all:>11,.0f} {exp_all:>24,.0f} {exp_all / base_all:>6.0%}")
    vb, ve = views(7, 20000), views(7, 20000, exps)
    print(f"views/s at 7 seats: base {vb:,.0f}, {label} {ve:,.0f} ({ve / vb:.0%})")


if __name__ == "__main__":
    main()
