"""Instructions per decision, counted by valgrind's callgrind: a figure a shared machine does not
move, for changes too small to see in CPU-time rates that vary by ±20 % from run to run.

Each workload runs twice under ``valgrind --tool=callgrind`` (with ``PYTHONHASHSEED=0``): once
with the imports and a warm-up only, once with the same and ``--games`` more games. The
difference, divided by the decisions of those games, is the count per decision; start-up, imports
and the warm-up cancel out. Workloads:

- ``random``: random-legal play at ``--seats`` (classic), the loop of
  ``benchmarks/engine_vs_openspiel.py`` (legal moves, a random one, ``apply_fast``), under the
  collector settings ``bangarena simulate`` plays its batches with (``batch_gc``);
- ``bots``: rule bots in every seat, ``benchmarks/bot_speed.py``'s loop (the game's decisions),
  under ``batch_gc`` too, as ``bot_speed.py`` and ``ab_speed.py`` time it (before 2026-12-07 it
  ran without it: ~2,100 instructions more per compiled decision, the collector's passes);
- ``service``: the seat service's own work per remote decision (a poll and a move), in one
  process and without HTTP: ``benchmarks/service_decisions.py``'s matches of five remote seats
  (``--seats`` does not apply; "games" are matches). Tokens and match ids are random, so two
  runs differ by a few hundred instructions per decision;
- ``service-app``: the same matches with every poll and move through the app's ASGI callable,
  as uvicorn calls it (the fast path's reading of the request and sending of the answer
  included; uvicorn's own work not);
- ``service-lean``: ``service-app`` with every poll asking for none of our prompts
  (``prompt=none``);
- ``hearts``: OpenSpiel's C++ hearts through ``pyspiel``, random playouts as in
  ``engine_vs_openspiel.py`` (only the players' decisions are counted; the deal's chance nodes
  are part of the cost).

``--build pure|compiled`` (both by default) sets ``BANGARENA_ENGINE`` for ours; the compiled
build must be fresh (``bangarena engine compile``). An instruction is not a nanosecond: C++ code
retires more instructions per cycle than the interpreter does, so ours/hearts in instructions is
higher than the same ratio in CPU time (docs/speed.md compares the two).

    .venv/bin/python benchmarks/instructions.py                       # ~1 min on 2 cores
    .venv/bin/python benchmarks/instructions.py --workloads bots --games 10
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORKLOADS = ("random", "bots", "service", "service-app", "service-lean", "hearts")


def play(workload: str, games: int, seats: int) -> int:
    """Play ``games`` games of ``workload``; returns the decisions made."""
    if workload == "hearts":
        import pyspiel

        sys.path.insert(0, str(HERE))
        from engine_vs_openspiel import spiel_playout

        game = pyspiel.load_game("hearts")
        rnd = random.Random(0)
        return sum(spiel_playout(game, rnd) for _ in range(games))
    if workload.startswith("service"):
        sys.path.insert(0, str(HERE))
        from service_decisions import decisions_in_process

        via = "routes" if workload == "service" else "app"
        return decisions_in_process(games, via=via, prompt="none" if "lean" in workload else "full")
    from bangarena.engine import GameConfig, new_game
    from bangarena.harness.simulate import batch_gc

    config = GameConfig(seats=seats, mode="classic")
    if workload == "bots":
        sys.path.insert(0, str(HERE))
        from bot_speed import rule_games

        # Under simulate's collector settings, as bot_speed.py and ab_speed.py time it
        with batch_gc():
            return int(rule_games(config, games)["decisions"])
    rnd = random.Random(seats)
    decisions = 0
    with batch_gc():
        for seed in range(games):
            g = new_game(config, seed)
            while not g.over:
                moves = g.legal_moves
                g.apply_fast(moves[rnd.randrange(len(moves))])
                decisions += 1
    return decisions


def child(workload: str, games: int, seats: int, out: str) -> None:
    """The process valgrind runs: a warm-up (imports, tables, caches), then ``games`` games."""
    warm = 3 if workload == "hearts" else 2
    play(workload, warm, seats)
    decisions = play(workload, games, seats) if games else 0
    Path(out).write_text(json.dumps({"decisions": decisions}), encoding="utf-8")


def counted(workload: str, games: int, seats: int, build: str, tmp: Path) -> tuple[int, int]:
    """(instructions, decisions) of one child run under callgrind."""
    tag = f"{workload}-{build}-{games}"
    out, profile = tmp / f"{tag}.json", tmp / f"{tag}.callgrind"
    cmd = [
        "valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}",
        sys.executable, __file__, "--child", workload, "--games", str(games),
        "--seats", str(seats), "--out", str(out),
    ]  # fmt: skip
    env = dict(os.environ, PYTHONHASHSEED="0", BANGARENA_ENGINE=build)
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-5:])
        raise SystemExit(f"{tag}: the run failed (exit {done.returncode}):\n{tail}")
    for line in profile.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("totals:"):
            return int(line.split()[1]), json.loads(out.read_text())["decisions"]
    raise SystemExit(f"{tag}: callgrind wrote no totals")


def per_decision(workload: str, games: int, seats: int, build: str, tmp: Path) -> float:
    """Instructions per decision: the run with ``games`` games less the warm-up-only run."""
    with ThreadPoolExecutor(2) as pool:  # the two runs at once, one core each
        base, full = pool.map(
            lambda n: counted(workload, n, seats, build, tmp), (0, games)
        )  # fmt: skip
    return (full[0] - base[0]) / full[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workloads", default="random,hearts", help=f"of {', '.join(WORKLOADS)}")
    ap.add_argument("--build", choices=("pure", "compiled", "both"), default="both")
    ap.add_argument("--games", type=int, default=0, help="games per run (default per workload)")
    ap.add_argument("--seats", type=int, default=7)
    ap.add_argument("--child", choices=WORKLOADS, help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.games, args.seats, args.out)
        return
    if shutil.which("valgrind") is None:
        sys.exit("needs valgrind (Debian: apt-get install valgrind)")
    workloads = [w for w in args.workloads.split(",") if w]
    if unknown := set(workloads) - set(WORKLOADS):
        ap.error(f"unknown workloads {sorted(unknown)}; known: {', '.join(WORKLOADS)}")
    builds = ("pure", "compiled") if args.build == "both" else (args.build,)
    default_games = {
        "random": 40,
        "bots": 8,
        "service": 6,
        "service-app": 6,
        "service-lean": 6,
        "hearts": 50,
    }
    rows: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="bangarena-instructions-") as name:
        tmp = Path(name)
        for workload in workloads:
            games = args.games or default_games[workload]
            for build in ("c++",) if workload == "hearts" else builds:
                label = f"{workload} ({build})"
                rows[label] = per_decision(workload, games, args.seats, build, tmp)
                print(f"{label:20} {rows[label]:>10,.0f} instructions per decision "
                      f"({games} games)", flush=True)  # fmt: skip
    hearts = rows.get("hearts (c++)")
    if hearts:
        for build in builds:
            ours = rows.get(f"random ({build})")
            if ours:
                print(f"ours/hearts, {build}: {hearts / ours:.2f}x in instructions (the rate "
                      "ratio at equal instructions per cycle; in CPU time it is lower)")  # fmt: skip


if __name__ == "__main__":
    main()
