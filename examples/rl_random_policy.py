"""A random masked policy in the PettingZoo environment: 1,000 games, no training.

    python examples/rl_random_policy.py [--games 1000] [--seats 5] [--mode classic] [--seed 0]
                                        [--expansions armed_dangerous]

Each agent picks uniformly among the actions its mask allows (what a learning agent would
sample from before training); the script prints the outcomes per team and the mean return per
seat role, the baseline any trained policy is compared with.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np

from bangarena.harness.rl import env


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seats", type=int, default=5)
    ap.add_argument("--mode", default="classic")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--expansions", default="", help="comma-separated, e.g. armed_dangerous")
    args = ap.parse_args()
    expansions = [n for n in args.expansions.split(",") if n]
    e = env(args.seats, args.mode, seed=args.seed, expansions=expansions)
    policy = np.random.default_rng(args.seed)
    outcomes: Counter[str] = Counter()
    returns: dict[str, list[float]] = {}
    steps = 0
    t0 = time.perf_counter()
    for _ in range(args.games):
        e.reset()
        for _agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                role = info["view"].role
                returns.setdefault(role, []).append(reward)
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(policy.choice(legal)))
            steps += 1
        outcomes[e.unwrapped.game.state.winning_team] += 1
    dt = time.perf_counter() - t0
    table = f"{args.games} games, {args.seats} seats, {args.mode}"
    if expansions:
        table += f", {'+'.join(expansions)}"
    print(f"{table}: {steps} steps in {dt:.1f} s "
          f"({steps / dt:,.0f} steps/s)")  # fmt: skip
    for team, n in sorted(outcomes.items()):
        print(f"  {team:<9} {n:5d} ({100 * n / args.games:.1f} %)")
    for role, rs in sorted(returns.items()):
        print(f"  mean return, {role:<12} {sum(rs) / len(rs):+.3f} over {len(rs)} seats")


if __name__ == "__main__":
    main()
