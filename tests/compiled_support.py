"""The pure and the compiled build play the same games: state hashes compared over many games.

``python tests/compiled_support.py --games 1000`` plays the games once with
``BANGARENA_ENGINE=pure`` and once with ``BANGARENA_ENGINE=compiled``, each in its own
subprocess (the two at once), and exits 1 when a game's fingerprint differs (or the compiled child did not run
compiled modules). The games cover every seat count and mode, the base game and Armed &
Dangerous, random players (with a view of the deciding seat every few decisions) and rule bots
(a view per decision). A fingerprint is the final state hash, the history's length and a
running hash of the views taken. ``.ci/compiled.sh`` runs it; ``tests/test_compiled_build.py``
runs a shorter one when a fresh build exists.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
from typing import Any

VIEW_EVERY = 7
"""A random game hashes the deciding seat's view every this many decisions."""


def game_cells() -> list[tuple[int, str, tuple[str, ...], str]]:
    """(seats, mode, expansions, players) of the mix, cycled over the game index."""
    from bangarena.engine.roles import MODES, ROLE_TABLE

    return [
        (n, m, exp, players)
        for players in ("random", "rule")
        for exp in ((), ("armed_dangerous",))
        for n in ROLE_TABLE
        for m in MODES
    ]


def play(index: int, seed: int) -> dict[str, Any]:
    """One game of the mix and its fingerprint."""
    from bangarena.engine import GameConfig, new_game, view_to_dict
    from bangarena.harness.bots import make_bot
    from bangarena.harness.simulate import bot_seed

    cells = game_cells()
    seats, mode, exps, players = cells[index % len(cells)]
    config = GameConfig(seats=seats, mode=mode, expansions=exps)
    game = new_game(config, seed)
    views = hashlib.sha256()
    step = 0
    if players == "random":
        chooser = random.Random(seed ^ 0x5EED)
        while not game.over:
            decision = game.decision
            if step % VIEW_EVERY == 0:
                v = view_to_dict(game.view(decision.seat))
                views.update(json.dumps(v, sort_keys=True).encode())
            move = decision.moves[chooser.randrange(len(decision.moves))]
            game.apply(decision.seat, move.id)
            step += 1
    else:
        bots = [make_bot("rule", bot_seed(seed, s), s) for s in range(seats)]
        cursors = [0] * seats
        while not game.over:
            decision = game.decision
            seat = decision.seat
            view = game.view(seat, since=cursors[seat])
            cursors[seat] = view.cursor
            game.apply(seat, bots[seat].choose(view, decision))
    return {
        "game": index,
        "cell": [seats, mode, list(exps), players],
        "seed": seed,
        "state": game.state_hash(),
        "moves": len(game.history),
        "views": views.hexdigest()[:16],
    }


def emit(games: int, seed: int) -> None:
    """Play the mix in this process and print the build and every fingerprint as JSON."""
    import bangarena.engine.game as game_module
    import bangarena.harness.bots.rule_bot as rule_bot_module
    from bangarena.engine.compiled import build_info

    out = {
        "build": build_info(),
        "files": {"engine.game": game_module.__file__, "bots.rule_bot": rule_bot_module.__file__},
        "games": [play(i, seed + i) for i in range(games)],
    }
    json.dump(out, sys.stdout)


def start_child(build: str, games: int, seed: int) -> subprocess.Popen[str]:
    """Start :func:`emit` in a subprocess with ``BANGARENA_ENGINE=build``."""
    env = dict(os.environ, BANGARENA_ENGINE=build)
    args = [sys.executable, __file__, "--emit", "--games", str(games), "--seed", str(seed)]
    return subprocess.Popen(
        args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def child_result(build: str, child: subprocess.Popen[str]) -> dict[str, Any]:
    """The JSON a child printed; raises when it failed."""
    out, err = child.communicate(timeout=1800)
    if child.returncode != 0:
        raise RuntimeError(f"the {build} child failed:\n{err[-4000:]}")
    return json.loads(out)


def compare(games: int, seed: int) -> list[str]:
    """Play the mix on both builds; the differences found (empty when they agree)."""
    # Both at once: one core each on a 2-core CI machine.
    children = {b: start_child(b, games, seed) for b in ("pure", "compiled")}
    try:
        pure, compiled = (child_result(b, c) for b, c in children.items())
    finally:
        for c in children.values():
            if c.poll() is None:
                c.kill()
    problems = []
    if pure["build"]["build"] != "pure":
        problems.append(f"the pure child ran {pure['build']}")
    if compiled["build"]["build"] != "compiled":
        problems.append(f"the compiled child ran {compiled['build']}")
    for name, path in compiled["files"].items():
        if not path.endswith(".so"):
            problems.append(f"the compiled child loaded {name} from {path}")
    for a, b in zip(pure["games"], compiled["games"], strict=True):
        if a != b:
            problems.append(f"game {a['game']} {a['cell']} seed={a['seed']}: {a} != {b}")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--emit", action="store_true", help="(child) play and print JSON")
    args = parser.parse_args()
    if args.emit:
        emit(args.games, args.seed)
        return
    problems = compare(args.games, args.seed)
    for p in problems[:20]:
        print(p, file=sys.stderr)
    if problems:
        print(
            f"{len(problems)} differences between the pure and the compiled build", file=sys.stderr
        )
        sys.exit(1)
    print(f"{args.games} games: the pure and the compiled build agree (state hashes, views)")


if __name__ == "__main__":
    main()
