"""The JSON scenario fixtures in tests/scenarios/: the awkward cases of the rules, as data.

Each file holds ``rule`` and ``description`` (what it shows), ``scenario`` (a scenario as in
docs/scenarios.md: saved on its own, it runs with ``bangarena scenario run``), ``moves`` (applied in order, each by
the seat to move) and ``expect`` (the outcomes, keyed as in ``scenario_helpers.check``; seats are
JSON object keys, pairs are lists).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from scenario_helpers import check, events, run

from bangarena.engine.scenario import load_scenario

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.json"))
SEAT_KEYED = {
    "life",
    "max_life",
    "alive",
    "hand",
    "hand_kinds",
    "hand_size",
    "in_play",
    "weapon",
    "stars",
}
PAIRS = {"events", "absent"}


def _expectations(raw: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key in SEAT_KEYED:
            value = {int(s): v for s, v in value.items()}
        elif key in PAIRS:
            value = [tuple(pair) for pair in value]
        elif key == "decision":
            value = tuple(value)
        out[key] = value
    return out


def test_there_are_fixtures() -> None:
    assert len(FILES) >= 15


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_file(path: Path) -> None:
    doc = json.loads(path.read_text())
    assert doc["rule"] and doc["description"]
    game = load_scenario(doc["scenario"])
    run(game, doc["moves"])
    check(game, _expectations(doc["expect"]), events(game))
