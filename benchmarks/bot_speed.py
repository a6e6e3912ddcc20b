"""Rule-bot speed on one core: full 7-seat classic games with a rule bot in every seat, driven
exactly as ``bangarena simulate --players rule`` drives them (one ``game.view(seat, since=...)``
per decision), with the time split between the engine (apply), view building and the bots.

Usage: python benchmarks/bot_speed.py [--games 300] [--repeat 3] [--seats 7] [--mode classic]
                                      [--profile]

Prints games/s and decisions/s (player decisions; forced moves are applied by the engine) of
``--repeat`` runs over the same deals: each run, their median and the best (on a shared machine
a run can be slowed by others; the best is the machine's speed, as ``timeit`` reports it); then
the CPU time per part, from one more run with CPU-clock reads around each part (the view's
events are rendered when first read: that is counted with the view); and for reference the
same deals played by uniform random choices with no views (the engine alone) and with a view
built per decision (the engine plus views).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time

from bangarena.engine import GameConfig, new_game
from bangarena.harness.bots import make_bot
from bangarena.harness.simulate import batch_gc, bot_seed


def rule_games(config: GameConfig, games: int, split: bool = False) -> dict[str, float]:
    """Rule bots in every seat. With ``split``, also the CPU seconds spent in views (the view
    and the reading of its events, which a view renders on first read), bots and the engine
    (four CPU-clock reads per decision, so games/s comes from a run without them)."""
    pc = time.perf_counter
    cpu_clock = time.process_time
    t_view = t_bot = t_apply = 0.0
    decisions = 0
    wall, cpu = pc(), time.process_time()
    for seed in range(games):
        game = new_game(config, seed)
        n = config.seats
        bots = [make_bot("rule", bot_seed(seed, s), s) for s in range(n)]
        cursors = [0] * n
        if not split:
            while not game.over:
                decision = game.decision
                seat = decision.seat
                view = game.view(seat, since=cursors[seat])
                cursors[seat] = view.cursor
                game.apply(seat, bots[seat].choose(view, decision))
            decisions += len(game.state.history)
            continue
        while not game.over:
            a = cpu_clock()
            decision = game.decision
            seat = decision.seat
            view = game.view(seat, since=cursors[seat])
            cursors[seat] = view.cursor
            view.events  # noqa: B018 - rendered on first read: counted with the view
            b = cpu_clock()
            move = bots[seat].choose(view, decision)
            c = cpu_clock()
            game.apply(seat, move)
            t_view += b - a
            t_bot += c - b
            t_apply += cpu_clock() - c
            decisions += 1
    return {
        "wall": pc() - wall,
        "cpu": time.process_time() - cpu,
        "decisions": decisions,
        "view": t_view,
        "bot": t_bot,
        "apply": t_apply,
    }


def random_games(config: GameConfig, games: int, views: bool) -> dict[str, float]:
    """Uniform random choices on the same deals, with or without a view per decision."""
    decisions = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for seed in range(games):
        game = new_game(config, seed)
        rnd = random.Random(seed)
        cursors = [0] * config.seats
        while not game.over:
            if views:
                seat = game.to_move
                cursors[seat] = game.view(seat, since=cursors[seat]).cursor
            moves = game.legal_moves
            game.apply_fast(moves[rnd.randrange(len(moves))])
            decisions += 1
    return {
        "wall": time.perf_counter() - wall,
        "cpu": time.process_time() - cpu,
        "decisions": decisions,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3, help="timed runs over the same deals")
    ap.add_argument("--seats", type=int, default=7)
    ap.add_argument("--mode", default="classic")
    ap.add_argument("--profile", action="store_true", help="also print a cProfile of the loop")
    args = ap.parse_args()
    config = GameConfig(seats=args.seats, mode=args.mode)
    n = args.games

    # The batch runs as `simulate` runs it: with the garbage collector tuned for batches.
    runs = []
    for _ in range(max(args.repeat, 1)):
        with batch_gc():
            runs.append(rule_games(config, n))
    d = runs[0]["decisions"]
    walls = sorted(r["wall"] for r in runs)
    median, best = statistics.median(walls), walls[0]
    print(
        f"rule bots, {args.seats} seats {args.mode}, {n} games x {len(runs)} runs, "
        f"{d / n:.0f} decisions/game"
    )
    per_run = " ".join(f"{n / r['wall']:.1f}" for r in runs)
    per_run_cpu = " ".join(f"{n / r['cpu']:.1f}" for r in runs)
    print(
        f"  games/s      {n / median:8.1f} median {n / best:8.1f} best   "
        f"(runs: {per_run}; from cpu time: {per_run_cpu})"
    )
    print(f"  decisions/s  {d / median:8.0f} median {d / best:8.0f} best")
    cpus = sorted(r["cpu"] for r in runs)
    print(
        f"  games/s from CPU time {n / statistics.median(cpus):8.1f} median "
        f"{n / cpus[0]:8.1f} best (what a loaded machine does not distort)"
    )
    r = rule_games(config, n, split=True)
    print(
        "  per decision (µs of CPU time, clock reads included): "
        f"view {1e6 * r['view'] / d:.1f}, bot {1e6 * r['bot'] / d:.1f}, "
        f"engine apply {1e6 * r['apply'] / d:.1f}"
    )
    total = r["view"] + r["bot"] + r["apply"]
    print(
        "  share of the loop: "
        f"view {100 * r['view'] / total:.0f} %, bot {100 * r['bot'] / total:.0f} %, "
        f"engine {100 * r['apply'] / total:.0f} %"
    )
    for label, views in (("random, no views (engine alone)", False), ("random + a view per decision", True)):  # fmt: skip
        x = random_games(config, n, views)
        print(
            f"{label}: {n / x['wall']:.1f} games/s wall, {n / x['cpu']:.1f} cpu, "
            f"{x['decisions'] / n:.0f} decisions/game"
        )
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        rule_games(config, max(n // 3, 1), split=True)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
