"""Engine speed on one core: random-legal playouts at 4–8 seats (decisions/s, games/s) and
views/s, timed in CPU time (``time.process_time``: the machine may be shared).

Usage: python benchmarks/engine_speed.py [--games 2000] [--mode classic]
       [--expansions armed_dangerous] [--seats 7] [--repeat 1]

``--seats N`` plays only that seat count; every run ends with the line the speed issue (#17)
quotes: random-legal decisions/s at 7 seats (or ``--seats``), with ``--repeat`` runs over the
same games (median and best: on a shared machine a run can be slowed by others).

With ``--expansions``, every seat count is played twice in the same run, base games and games
with the expansions alternately (one base game, then one expansion game with the same seed, …:
a change in the machine's load falls on both alike), and the expansion's decisions/s are shown
as a share of the base game's (the target: at least 90 %)."""

from __future__ import annotations

import argparse
import random
import statistics
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


def paired_playouts(
    seats: int, mode: str, games: int, expansions: tuple[str, ...]
) -> tuple[tuple[int, float, int], tuple[int, float, int]]:
    """Base and expansion games alternately, each timed on its own: ``(decisions, CPU
    seconds, legal moves offered)`` of the base games, then of the expansion games (each side
    plays the games :func:`playouts` would)."""
    sides = ((), expansions)
    rnds = [random.Random(seats), random.Random(seats)]
    decisions = [0, 0]
    cpu = [0.0, 0.0]
    legal = [0, 0]
    clock = time.process_time
    for seed in range(games):
        for i, exps in enumerate(sides):
            rnd = rnds[i]
            n = 0
            t0 = clock()
            game = new_game(GameConfig(seats=seats, mode=mode, expansions=exps), seed)
            k = 0
            while not game.over:
                moves = game.legal_moves
                k += len(moves)
                game.apply_fast(moves[rnd.randrange(len(moves))])
                n += 1
            cpu[i] += clock() - t0
            decisions[i] += n
            legal[i] += k
    return (decisions[0], cpu[0], legal[0]), (decisions[1], cpu[1], legal[1])


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


def decisions_line(seats: int, mode: str, games: int, repeat: int, exps: tuple[str, ...]) -> str:
    """The headline figure: random-legal decisions/s at ``seats`` seats, CPU time, median and
    best of ``repeat`` runs over the same games."""
    rates = sorted(playouts(seats, mode, games, exps)[0] for _ in range(max(repeat, 1)))
    label = f"{mode}" + (f" + {'+'.join(exps)}" if exps else "")
    return (
        f"random-legal decisions/s at {seats} seats ({label}, CPU time, {games} games x"
        f" {len(rates)}): {statistics.median(rates):,.0f} median, {rates[-1]:,.0f} best"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--mode", default="classic")
    ap.add_argument("--expansions", default="", help="comma-separated, e.g. armed_dangerous")
    ap.add_argument("--seats", type=int, default=0, help="one seat count only (default: 4-8)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of the headline line")
    args = ap.parse_args()
    exps = tuple(x.strip() for x in args.expansions.split(",") if x.strip())
    headline = args.seats or 7
    if args.seats:
        print(decisions_line(args.seats, args.mode, args.games, args.repeat, exps))
        return
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
        print(decisions_line(headline, args.mode, args.games, args.repeat, exps))
        return
    label = "+".join(exps)
    print(
        f"{'seats':>5} {'base dec/s':>11} {label + ' dec/s':>24} {'share':>7}"
        f" {'base dec/game':>13} {'exp dec/game':>12}"
    )
    total = {"base": [0, 0.0, 0], "exp": [0, 0.0, 0]}
    for seats in range(4, 9):
        bside, eside = paired_playouts(seats, args.mode, args.games, exps)
        for key, side in (("base", bside), ("exp", eside)):
            for i, x in enumerate(side):
                total[key][i] += x
        b, e = bside[0] / bside[1], eside[0] / eside[1]
        print(
            f"{seats:>5} {b:>11,.0f} {e:>24,.0f} {e / b:>7.1%}"
            f" {bside[0] / args.games:>13.1f} {eside[0] / args.games:>12.1f}"
        )
    (bdec, bcpu, blegal), (edec, ecpu, elegal) = total["base"], total["exp"]
    base_all, exp_all = bdec / bcpu, edec / ecpu
    print(f"  all {base_all:>11,.0f} {exp_all:>24,.0f} {exp_all / base_all:>7.1%}")
    print(
        f"legal moves per decision: base {blegal / bdec:.2f}, {label} {elegal / edec:.2f};"
        f" µs per legal move offered: base {bcpu / blegal * 1e6:.2f},"
        f" {label} {ecpu / elegal * 1e6:.2f}"
    )
    vb, ve = views(7, 20000), views(7, 20000, exps)
    print(f"views/s at 7 seats: base {vb:,.0f}, {label} {ve:,.0f} ({ve / vb:.0%})")
    print(decisions_line(headline, args.mode, args.games, args.repeat, ()))
    print(decisions_line(headline, args.mode, args.games, args.repeat, exps))


if __name__ == "__main__":
    main()
