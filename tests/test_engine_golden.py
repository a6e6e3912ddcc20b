"""Golden playthroughs: full seeded games written to files and diffed, so any change of the
rules' behaviour shows up as a readable diff. Regenerate on purpose with
``BANGARENA_UPDATE_GOLDEN=1 python -m pytest tests/test_engine_golden.py``."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from bangarena.engine import ENGINE_VERSION, GameConfig, new_game

GOLDEN = Path(__file__).parent / "golden"
CASES = [
    (4, "classic", 1),
    (5, "double_agent", 2),
    (7, "old_classic", 3),
    (8, "partners", 4),
    (6, "classic", 5),
]


def playthrough(seats: int, mode: str, seed: int) -> str:
    game = new_game(GameConfig(seats=seats, mode=mode), seed)
    rnd = random.Random(seed)
    while not game.over:
        moves = game.legal_moves
        game.apply(game.to_move, moves[rnd.randrange(len(moves))].id)
    lines = [
        json.dumps(
            {"config": game.config.to_dict(), "seed": seed, "engine_version": ENGINE_VERSION}
        )
    ]
    lines += [json.dumps(e, ensure_ascii=False) for e in game.omniscient_events()]
    lines.append(json.dumps({"result": game.result(), "state_hash": game.state_hash()}))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("seats", "mode", "seed"), CASES)
def test_golden_playthrough(seats: int, mode: str, seed: int) -> None:
    path = GOLDEN / f"{mode}-{seats}-seed{seed}.jsonl"
    text = playthrough(seats, mode, seed)
    assert_matches_golden(path, text)


def assert_matches_golden(path: Path, text: str) -> None:
    """``text`` equals the golden file ``path`` line by line (written when missing, or with
    ``BANGARENA_UPDATE_GOLDEN=1``)."""
    if os.environ.get("BANGARENA_UPDATE_GOLDEN") == "1" or not path.exists():
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8").splitlines()
    actual = text.splitlines()
    for i, (a, b) in enumerate(zip(actual, expected, strict=False)):
        assert a == b, f"{path.name} line {i + 1} differs:\n  golden: {b}\n  now:    {a}"
    assert len(actual) == len(expected), (
        f"{path.name}: {len(actual)} lines now, {len(expected)} golden"
    )
