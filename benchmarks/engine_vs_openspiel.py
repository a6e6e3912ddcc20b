"""Our engine beside OpenSpiel in one run, all as CPU-time rates (``time.process_time``: the
machine may be shared).

Usage: python benchmarks/engine_vs_openspiel.py [--seconds 2] [--repeat 3] [--seats 7]

- random-legal decisions/s at ``--seats`` (classic): our engine, pure and — when a fresh
  compiled build exists (``bangarena engine compile``) — compiled, each in its own subprocess
  with ``BANGARENA_ENGINE`` set; the loop is ``benchmarks/engine_speed.py``'s (legal moves, a
  random one, ``apply_fast``), under the collector settings of ``bangarena simulate``'s batches
  (``batch_gc``: objects from before frozen, young collections rare);
- OpenSpiel's C++ ``hearts`` through ``pyspiel`` (4 players: its only table size), random
  playouts: ``legal_actions``, a random choice, ``apply_action``; chance nodes sampled from
  their outcome distribution; only the players' decisions are counted;
- OpenSpiel's pure-Python games (``python_*``), the same playouts; the fastest is the one shown;
- rule-bot games/s at ``--seats``, pure and compiled: ``benchmarks/bot_speed.py``'s loop.

Each rate is the median of ``--repeat`` runs of about ``--seconds`` of CPU time. The ratios
are printed at the end, with the reference figures of issue #17 (ours/hearts 0.48x, rule-bot
games 68/s median before the speed work).

``--paired N`` measures the ratio to hearts the way ``benchmarks/ab_speed.py`` compares two
revisions: ours and hearts at the same time, each in its own process pinned to one core, the
cores swapped every round, N rounds per build; printed per round and as the median ratio. Runs
taken one after the other on a shared machine move by ±20 %; paired runs share whatever slows
the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PYTHON_GAMES = (
    "python_kuhn_poker",
    "python_tic_tac_toe",
    "python_liars_poker",
    "python_block_dominoes",
)
REFERENCE = {"ours_over_hearts": 0.48, "rule_games_per_s": 68.0}


# -- the children (one per build) ----------------------------------------------------------------
def ours_random(seats: int, seconds: float) -> dict[str, float]:
    """Random-legal playouts of our engine for about ``seconds`` of CPU time."""
    from bangarena.engine import GameConfig, new_game
    from bangarena.harness.simulate import batch_gc

    config = GameConfig(seats=seats, mode="classic")
    rnd = random.Random(seats)
    decisions = games = 0
    # The collector as ``bangarena simulate`` sets it for its batches (docs/speed.md)
    with batch_gc():
        t0 = time.process_time()
        while time.process_time() - t0 < seconds:
            game = new_game(config, games)
            while not game.over:
                moves = game.legal_moves
                game.apply_fast(moves[rnd.randrange(len(moves))])
                decisions += 1
            games += 1
        return {"decisions": decisions, "games": games, "cpu": time.process_time() - t0}


def ours_rule(seats: int, seconds: float) -> dict[str, float]:
    """Rule-bot games for about ``seconds`` of CPU time, in ``bot_speed.py``'s loop (batches of
    games until the time is spent)."""
    sys.path.insert(0, str(HERE))
    from bot_speed import rule_games

    from bangarena.engine import GameConfig
    from bangarena.harness.simulate import batch_gc

    config = GameConfig(seats=seats, mode="classic")
    games = 0
    cpu = 0.0
    batch = 20
    with batch_gc():
        while cpu < seconds:
            cpu += rule_games(config, batch)["cpu"]
            games += batch
    return {"games": games, "cpu": cpu}


def child(kind: str, seats: int, seconds: float, repeat: int, cpu: int | None = None) -> None:
    """Print the build and ``repeat`` runs of ``kind`` as JSON (run under one BANGARENA_ENGINE),
    pinned to core ``cpu`` when given."""
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
    if kind == "hearts":
        spiel_random("hearts", 0.3)  # warm: the import and the game's tables
        runs = [spiel_random("hearts", seconds) for _ in range(repeat)]
        json.dump({"build": "c++", "runs": runs}, sys.stdout)
        return
    from bangarena.engine.compiled import build_info

    run = ours_random if kind == "random" else ours_rule
    if cpu is not None:
        run(seats, 0.3)  # warm, as hearts is
    runs = [run(seats, seconds) for _ in range(repeat)]
    json.dump({"build": build_info()["build"], "runs": runs}, sys.stdout)


def paired(args: argparse.Namespace) -> None:
    """Ours (each build) and hearts at the same time on swapped cores; the ratio per round."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        sys.exit("--paired needs two cores: ours and hearts run at the same time, one core each")
    print(f"paired: ours and hearts at once, cores {cpus[0]} and {cpus[1]} swapped every round; "
          f"load average {os.getloadavg()[0]:.1f} at the start")  # fmt: skip
    for build in ("pure", "compiled"):
        ratios = []
        for k in range(args.paired):
            a, b = (cpus[0], cpus[1]) if k % 2 == 0 else (cpus[1], cpus[0])
            procs = []
            for kind, core in (("random", a), ("hearts", b)):
                cmd = [sys.executable, __file__, "--child", kind, "--cpu", str(core)]
                cmd += ["--seats", str(args.seats), "--seconds", str(args.seconds)]
                env = dict(os.environ, BANGARENA_ENGINE=build)
                procs.append(subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                                              stderr=subprocess.PIPE, text=True))  # fmt: skip
            outs = [p.communicate() for p in procs]
            if any(p.returncode for p in procs):
                why = (outs[0][1].strip().splitlines() or ["failed"])[-1]
                print(f"  {build}: not measured ({why})")
                break
            ours, hearts = (json.loads(out) for out, _ in outs)
            if ours["build"] != build:
                print(f"  {build}: not measured (ran the {ours['build']} build)")
                break
            r_ours = median_rate(ours["runs"], "decisions")
            r_hearts = median_rate(hearts["runs"], "decisions")
            ratios.append(r_ours / r_hearts)
            print(f"  {build:8} round {k + 1}: ours {r_ours:>9,.0f}  hearts {r_hearts:>9,.0f} "
                  f"decisions/s  ours/hearts {r_ours / r_hearts:.3f}")  # fmt: skip
        if ratios:
            print(f"  {build:8} ours/hearts median {statistics.median(ratios):.3f} (range "
                  f"{min(ratios):.3f}–{max(ratios):.3f}, {len(ratios)} rounds; issue #17 "
                  f"targets: pure 0.75x, compiled 1.0x)")  # fmt: skip


def run_child(build: str, kind: str, args: argparse.Namespace) -> dict[str, Any] | str:
    """The child's JSON, or why it could not run (a compiled build that is missing or stale)."""
    env = dict(os.environ, BANGARENA_ENGINE=build)
    cmd = [sys.executable, __file__, "--child", kind, "--seats", str(args.seats)]
    cmd += ["--seconds", str(args.seconds), "--repeat", str(args.repeat)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        return (done.stderr.strip().splitlines() or ["failed"])[-1]
    return json.loads(done.stdout)


# -- OpenSpiel -----------------------------------------------------------------------------------
def spiel_random(name: str, seconds: float) -> dict[str, float]:
    """Random playouts of an OpenSpiel game for about ``seconds`` of CPU time."""
    import pyspiel

    game = pyspiel.load_game(name)
    if game.get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise ValueError(f"{name} has simultaneous moves (not a sequential playout)")
    rnd = random.Random(0)
    decisions = games = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        decisions += spiel_playout(game, rnd)
        games += 1
    return {"decisions": decisions, "games": games, "cpu": time.process_time() - t0}


def spiel_playout(game: Any, rnd: random.Random) -> int:
    """One random playout of an OpenSpiel game: chance nodes sampled from their outcome
    distribution, players' moves uniform among the legal ones. Returns the players' decisions."""
    decisions = 0
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            weights = [p for _, p in outcomes]
            state.apply_action(rnd.choices(actions, weights)[0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rnd.randrange(len(legal))])
            decisions += 1
    return decisions


def median_rate(runs: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] / r["cpu"] for r in runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per timed run")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seats", type=int, default=7)
    ap.add_argument("--paired", type=int, default=0, metavar="N",
                    help="only the ratio to hearts: N paired rounds per build (see above)")  # fmt: skip
    ap.add_argument("--child", choices=("random", "rule", "hearts"), help=argparse.SUPPRESS)
    ap.add_argument("--cpu", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.seats, args.seconds, 1 if args.cpu is not None else args.repeat,
              args.cpu)  # fmt: skip
        return
    if args.paired:
        paired(args)
        return

    import pyspiel
    from open_spiel.python import games as _python_games  # noqa: F401  (registers python_*)

    rates: dict[str, float] = {}
    notes: dict[str, str] = {}
    for build in ("pure", "compiled"):
        for kind, key in (("random", "decisions"), ("rule", "games")):
            got = run_child(build, kind, args)
            if isinstance(got, str):
                notes[f"{build} {kind}"] = got
                continue
            if got["build"] != build:
                notes[f"{build} {kind}"] = f"ran the {got['build']} build"
                continue
            rates[f"{build} {kind}"] = median_rate(got["runs"], key)
    hearts = [spiel_random("hearts", args.seconds) for _ in range(args.repeat)]
    rates["hearts"] = median_rate(hearts, "decisions")
    python_rates = {}
    for name in PYTHON_GAMES:
        try:
            runs = [spiel_random(name, args.seconds / 2) for _ in range(args.repeat)]
        except (pyspiel.SpielError, ValueError) as e:  # lacking here, or not turn-based
            notes[name] = str(e).splitlines()[0]
            continue
        python_rates[name] = median_rate(runs, "decisions")
    fastest = max(python_rates, key=python_rates.__getitem__)
    rates["python"] = python_rates[fastest]

    print(f"random-legal decisions/s (CPU time, median of {args.repeat} x ~{args.seconds} s)")
    for label, key in (
        (f"ours, pure, {args.seats} seats", "pure random"),
        (f"ours, compiled, {args.seats} seats", "compiled random"),
        ("OpenSpiel hearts (C++, pyspiel, 4 players)", "hearts"),
        (f"OpenSpiel {fastest} (fastest pure-Python game)", "python"),
    ):
        shown = f"{rates[key]:12,.0f}" if key in rates else f"{'-':>12}  ({notes.get(key, '')})"
        print(f"  {label:<52} {shown}")
    for name, r in sorted(python_rates.items(), key=lambda x: -x[1]):
        print(f"    {name:<50} {r:12,.0f}")
    print(f"rule-bot games/s at {args.seats} seats (classic, CPU time)")
    for label, key in (("pure", "pure rule"), ("compiled", "compiled rule")):
        shown = f"{rates[key]:10.1f}" if key in rates else f"{'-':>10}  ({notes.get(key, '')})"
        print(f"  {label:<52} {shown}")
    print("ratios")
    h = rates["hearts"]
    for label, key in (("pure", "pure random"), ("compiled", "compiled random")):
        if key in rates:
            print(
                f"  ours {label} / hearts      {rates[key] / h:6.2f}x   "
                f"(issue #17 reference, pure: {REFERENCE['ours_over_hearts']}x)"
            )
            print(f"  ours {label} / {fastest:<15} {rates[key] / rates['python']:6.2f}x")
    if "pure random" in rates and "compiled random" in rates:
        print(
            f"  compiled / pure, random    {rates['compiled random'] / rates['pure random']:6.2f}x"
        )
    if "pure rule" in rates:
        print(
            f"  rule bots pure / 68 games/s (issue #17's median) "
            f"{rates['pure rule'] / REFERENCE['rule_games_per_s']:6.2f}x"
        )
    if "pure rule" in rates and "compiled rule" in rates:
        print(f"  compiled / pure, rule bots {rates['compiled rule'] / rates['pure rule']:6.2f}x")


if __name__ == "__main__":
    main()
