"""Armed & Dangerous in the machine-readable rules: ``published/armed_dangerous/`` holds the
game's rules.json, JSON Schemas and rules for AI; objects of expansion games validate against
them (and base objects still against the base ones), and the rules texts and prompts name the
expansion only in games that have it."""

from __future__ import annotations

import dataclasses
import json
import random

from bangarena.engine import GameConfig, new_game, view_to_dict
from bangarena.engine.version import rules_version
from bangarena.prompts.memory import PromptMemory
from bangarena.prompts.render import render_system, render_turn
from bangarena.rules_machine import rules_document
from bangarena.rules_machine.publish import PUBLISHED_DIR
from bangarena.rules_machine.render import rules_text
from bangarena.rules_machine.validate import validate_instance

AD = ("armed_dangerous",)
ROOT = PUBLISHED_DIR / "armed_dangerous"


def test_expansion_objects_validate_against_the_expansion_schemas() -> None:
    kinds_seen: set[str] = set()
    for seed in range(4):
        game = new_game(GameConfig(seats=4 + seed, expansions=AD), 500 + seed)
        rnd = random.Random(seed)
        cursors = [0] * game.state.seats
        step = 0
        while not game.over:
            d = game.decision
            if step % 3 == 0:
                kinds_seen.add(d.kind)
                decision = json.loads(json.dumps(dataclasses.asdict(d)))
                assert validate_instance("Decision", decision, ROOT) == []
                v = game.view(d.seat, since=cursors[d.seat])
                cursors[d.seat] = v.cursor
                view = json.loads(json.dumps(view_to_dict(v)))
                assert validate_instance("SeatView", view, ROOT) == []
            moves = game.legal_moves
            game.apply_fast(moves[rnd.randrange(len(moves))])
            step += 1
        record = json.loads(json.dumps(game.omniscient_record()))
        assert validate_instance("GameRecord", record, ROOT) == []
        # The base schemas do not describe expansion games.
        assert validate_instance("GameRecord", record) != []
    assert {"optional_effect", "load_token"} <= kinds_seen


def test_the_expansion_rules_document() -> None:
    doc = rules_document(AD)
    assert doc["rules_version"] == rules_version(AD)
    assert doc["deck"]["size"] == 108
    assert {c["id"] for c in doc["cards"]} >= {"bomb", "mule_train", "double_barrel"}
    assert len(doc["characters"]) == 24
    assert doc["armed_dangerous"]["tokens"]["supply"] == 32
    assert doc["checks"]["jail_escape"]["fraction"] == "7/27"
    assert json.loads((ROOT / "rules.json").read_text("utf-8")) == doc
    base = rules_document()
    assert "armed_dangerous" not in base and base["deck"]["size"] == 80


def test_rules_for_ai_and_prompts_name_the_expansion_only_when_the_game_has_it() -> None:
    for lang in ("en", "pt", "es", "fr"):
        assert "Armed & Dangerous" in rules_text(lang, True, AD)
        assert "Armed & Dangerous" not in rules_text(lang, True)
        assert "Bomb" in rules_text(lang, False, AD)
    game = new_game(GameConfig(seats=5, expansions=AD), 3)
    d = game.decision
    view = game.view(d.seat)
    assert "Armed & Dangerous" in render_system(view, "pt")
    turn = render_turn(view, d, PromptMemory(), "en")
    assert "Supply: 32" in turn or "Supply:" in turn
    base = new_game(GameConfig(seats=5), 3)
    bview = base.view(base.decision.seat)
    assert "Armed & Dangerous" not in render_system(bview, "en")
    assert "Supply" not in render_turn(bview, base.decision, PromptMemory(), "en")
