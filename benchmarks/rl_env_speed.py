"""The PettingZoo environment's speed against the engine's "random moves with a view per
decision" rate, in the same run and over the same deals (CPU time, one core).

Usage: python benchmarks/rl_env_speed.py [--games 200] [--seats 5] [--mode classic]
                                         [--expansions armed_dangerous]

Both loops play the same games move for move (the same deals, the same random draws). The
engine loop: per decision one ``game.view(seat, since=cursor)`` and a uniformly random legal
move. The environment loop: ``agent_iter`` / ``last()`` (the encoded observation and the
action mask) / a uniformly random action among the mask's ones (``info["legal_actions"]``) /
``step``. The issue's target:
the environment steps at ≥ 60 % of the engine loop's rate.
"""

from __future__ import annotations

import argparse
import random
import time

from bangarena.engine import GameConfig, new_game
from bangarena.harness.rl import env as make_env
from bangarena.harness.simulate import batch_gc


def engine_loop(config: GameConfig, seeds: list[int], seed: int) -> tuple[int, float]:
    """(decisions, CPU seconds) of random games with a view per decision: the deals ``seeds``,
    each move drawn from ``random.Random(seed)`` as :func:`env_loop` draws its actions (the
    mask's legal actions are the moves in engine order), so both loops play the same games
    move for move."""
    decisions = 0
    chooser = random.Random(seed)
    t0 = time.process_time()
    for deal in seeds:
        game = new_game(config, deal)
        cursors = [0] * config.seats
        while not game.over:
            d = game.decision
            s = d.seat
            view = game.view(s, since=cursors[s])
            cursors[s] = view.cursor
            moves = d.moves
            game.apply(s, moves[chooser.randrange(len(moves))].id)
            decisions += 1
    return decisions, time.process_time() - t0


def env_loop(config: GameConfig, games: int, seed: int) -> tuple[int, float]:
    """(steps of live agents, CPU seconds) of random masked games in the environment."""
    e = make_env(config.seats, config.mode, seed=seed, expansions=config.expansions)
    chooser = random.Random(seed)
    steps = 0
    t0 = time.process_time()
    for _ in range(games):
        e.reset()
        for _agent in e.agent_iter():
            obs, _, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = info["legal_actions"]  # the mask's ones, as the engine loop's move list
            e.step(legal[chooser.randrange(len(legal))])
            steps += 1
    return steps, time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seats", type=int, default=5)
    ap.add_argument("--mode", default="classic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--expansions", default="", help="comma-separated, e.g. armed_dangerous")
    args = ap.parse_args()
    expansions = tuple(n for n in args.expansions.split(",") if n)
    config = GameConfig(args.seats, args.mode, expansions=expansions)
    with batch_gc():
        engine_loop(config, [0, 1, 2], 0)  # warm the interned moves and shared event forms
        # Interleaved in chunks of 10 games (a neighbour's load on a shared machine hits both
        # loops alike), each chunk the same 10 games in both loops: the environment seeded
        # with S deals random.Random(S)'s first 10 draws and draws its actions from another
        # random.Random(S), as the engine loop does.
        n_eng = n_env = 0
        t_eng = t_env = 0.0
        for at in range(0, args.games, 10):
            count = min(10, args.games - at)
            deals = random.Random(args.seed + at)
            seeds = [deals.getrandbits(64) for _ in range(count)]
            n, t = engine_loop(config, seeds, args.seed + at)
            n_eng, t_eng = n_eng + n, t_eng + t
            m, t = env_loop(config, count, args.seed + at)
            assert m == n, f"the loops played different games ({n} decisions, {m} steps)"
            n_env, t_env = n_env + m, t_env + t
    r_eng, r_env = n_eng / t_eng, n_env / t_env
    table = f"{args.games} games, {args.seats} seats, {args.mode}"
    if expansions:
        table += f", {'+'.join(expansions)}"
    print(f"{table} (CPU time, one core)")
    print(f"engine, random moves with a view per decision: {r_eng:,.0f} decisions/s")
    print(f"AEC env, random masked policy:                 {r_env:,.0f} steps/s")
    print(f"ratio: {100 * r_env / r_eng:.0f} % (target ≥ 60 %)")


if __name__ == "__main__":
    main()
