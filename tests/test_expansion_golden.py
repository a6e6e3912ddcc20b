"""Golden playthroughs with Armed & Dangerous: full seeded expansion games written to files and
diffed (``golden/armed_dangerous-*.jsonl``), so any change of the expansion's behaviour shows as
a readable diff. Regenerate on purpose with
``BANGARENA_UPDATE_GOLDEN=1 python -m pytest tests/test_expansion_golden.py``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from test_engine_golden import assert_matches_golden

from bangarena.engine import ENGINE_VERSION, GameConfig, new_game
from bangarena.engine.version import rules_version

GOLDEN = Path(__file__).parent / "golden"
AD = ("armed_dangerous",)
CASES = [(4, "classic", 21), (5, "double_agent", 22), (6, "old_classic", 23), (8, "partners", 24)]


def playthrough(seats: int, mode: str, seed: int) -> str:
    game = new_game(GameConfig(seats=seats, mode=mode, expansions=AD), seed)
    rnd = random.Random(seed)
    while not game.over:
        moves = game.legal_moves
        game.apply(game.to_move, moves[rnd.randrange(len(moves))].id)
    head = {
        "config": game.config.to_dict(),
        "seed": seed,
        "engine_version": ENGINE_VERSION,
        "rules_version": rules_version(AD),
    }
    lines = [json.dumps(head)]
    lines += [json.dumps(e, ensure_ascii=False) for e in game.omniscient_events()]
    lines.append(json.dumps({"result": game.result(), "state_hash": game.state_hash()}))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("seats", "mode", "seed"), CASES)
def test_expansion_golden_playthrough(seats: int, mode: str, seed: int) -> None:
    path = GOLDEN / f"armed_dangerous-{mode}-{seats}-seed{seed}.jsonl"
    text = playthrough(seats, mode, seed)
    assert_matches_golden(path, text)


def test_golden_games_use_the_expansion() -> None:
    """The goldens exercise tokens, Dangerous cards and the new decisions."""
    kinds: set[str] = set()
    for seats, mode, seed in CASES:
        for line in (GOLDEN / f"armed_dangerous-{mode}-{seats}-seed{seed}.jsonl").open():
            kinds.add(json.loads(line).get("kind", ""))
    assert {"tokens", "used"} <= kinds
