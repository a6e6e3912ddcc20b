"""Ratings speed: the global fit and its cluster bootstrap (1,000 resamples) for 10,000 matches
of 12 participants, on one core (issue 11: ≤ 10 s), then the whole board (split-half
stability, head to head, openskill) for the same matches.

    python benchmarks/rating_speed.py [--matches 10000] [--participants 12] [--resamples 1000]

The matches are drawn from the model (``bangarena.leaderboard.synthetic``: a pool design over
4-, 5-, 6- and 7-seat tables, every deal in every rotation). The process is pinned to one CPU
and BLAS to one thread; CPU time and wall time are both printed (on a loaded machine the wall
time includes waiting for the CPU).
"""

from __future__ import annotations

import argparse
import math
import os
import time

from bangarena.leaderboard.board import build_board
from bangarena.leaderboard.bootstrap import bootstrap
from bangarena.leaderboard.data import Participant
from bangarena.leaderboard.ratings import fit_ratings
from bangarena.leaderboard.synthetic import REALISTIC_EFFECTS, ladder_truth, simulate_suite


def _timed(label: str, fn):  # noqa: ANN001, ANN202
    cpu, wall = time.process_time(), time.perf_counter()
    out = fn()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"{label:<44} cpu {cpu:6.2f} s   wall {wall:6.2f} s")
    return out, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--participants", type=int, default=12)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    truth = ladder_truth(args.participants, seed=args.seed)
    per_round = sum(int(t.split("/")[0]) for t in REALISTIC_EFFECTS) / len(REALISTIC_EFFECTS)
    deals = math.ceil(args.matches / per_round)
    matches = simulate_suite(truth, deals, seed=args.seed)[: args.matches]
    print(f"{len(matches)} matches, {deals} deals, {args.participants} participants, "
          f"{args.resamples} resamples, one core")  # fmt: skip
    fit, cpu_fit = _timed(
        "global fit (compile + L-BFGS + Newton)", lambda: fit_ratings(matches, truth.specs)
    )
    boot, cpu_boot = _timed(
        f"cluster bootstrap ({args.resamples} refits)", lambda: bootstrap(fit, args.resamples, 0)
    )
    print(f"{'ratings with intervals':<44} cpu {cpu_fit + cpu_boot:6.2f} s   (target ≤ 10 s)")
    print(
        f"  refit iterations ≤ {boot.report.iterations}, L-BFGS fallbacks {boot.report.fallbacks}"
    )
    people = {p: Participant(p, truth.specs[p], "synthetic", ("synthetic",)) for p in truth.specs}
    _timed(
        "whole board (+ 100 split halves, h2h, openskill)",
        lambda: build_board(matches, people, resamples=args.resamples, seed=0),
    )


if __name__ == "__main__":
    main()
