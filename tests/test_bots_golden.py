"""Golden rule-bot games: seeded all-rule games in every mode, summarised (wins, decisions) and
fingerprinted (a hash of every chosen move), so that a change of the bot's behaviour, or of
anything it reads, is seen at once, and a speed-up can show that it changed nothing. Regenerate
on purpose with ``BANGARENA_UPDATE_GOLDEN=1 python -m pytest tests/test_bots_golden.py``."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from bangarena.engine import GameConfig, new_game
from bangarena.harness.bots import make_bot
from bangarena.harness.simulate import bot_seed

GOLDEN = Path(__file__).parent / "golden" / "rule_bots.json"
# (seats, mode, games): every mode, the smallest and the largest tables.
CASES = [
    (7, "classic", 40),
    (4, "classic", 40),
    (5, "double_agent", 30),
    (8, "partners", 20),
    (6, "old_classic", 20),
]


def rule_games(seats: int, mode: str, games: int) -> dict[str, Any]:
    """All-rule games on seeds 0..games-1, driven as ``simulate`` drives them."""
    digest = hashlib.sha256()
    wins: dict[str, int] = {}
    decisions = 0
    for seed in range(games):
        game = new_game(GameConfig(seats=seats, mode=mode), seed)
        bots = [make_bot("rule", bot_seed(seed, s), s) for s in range(seats)]
        cursors = [0] * seats
        while not game.over:
            d = game.decision
            view = game.view(d.seat, since=cursors[d.seat])
            cursors[d.seat] = view.cursor
            game.apply(d.seat, bots[d.seat].choose(view, d))
        result = game.result()
        wins[result["winning_team"]] = wins.get(result["winning_team"], 0) + 1
        decisions += len(game.history)
        digest.update(json.dumps(game.history).encode())
    return {
        "wins": dict(sorted(wins.items())),
        "decisions": decisions,
        "moves_sha256": digest.hexdigest(),
    }


def test_rule_bot_games_match_the_golden_file() -> None:
    now = {
        f"{mode}-{seats}x{games}": rule_games(seats, mode, games) for seats, mode, games in CASES
    }
    if os.environ.get("BANGARENA_UPDATE_GOLDEN") == "1" or not GOLDEN.exists():
        GOLDEN.write_text(json.dumps(now, indent=2) + "\n", encoding="utf-8")
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for case, got in now.items():
        assert got == golden[case], f"{case}: golden {golden[case]}, now {got}"
    assert now.keys() == golden.keys()
