"""Versions: ``ENGINE_VERSION`` is bumped whenever the engine's behaviour changes;
``RULES_VERSION`` is a content hash of the data that changes play (not names or texts)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .cards import CARD_KINDS, DECK
from .characters import CHARACTERS
from .config import DEFAULT_MAX_ROUNDS
from .roles import (
    DRAW_PER_TURN,
    HIGH_NOON_ROUND,
    MODES,
    OLD_CLASSIC_OUTLAW_REWARD,
    OLD_CLASSIC_SHERIFF_LIFE_BONUS,
    ROLE_TABLE,
    SHERIFF_HAND_ADJUST,
    SHERIFF_LIFE_BONUS,
    TEAM_OF,
    UPGRADES,
    roles_for,
)

ENGINE_VERSION = "1.0.0"


def play_data() -> dict[str, Any]:
    """Everything that changes play, as plain data (the input of the rules version hash)."""
    return {
        "card_kinds": [
            {"id": k.id, "color": k.color, "copies": k.copies, "range": k.range,
             "unlimited_shots": k.unlimited_shots, "target": k.target}
            for k in CARD_KINDS
        ],
        "deck": [[c.id, c.kind, c.suit, c.rank] for c in DECK],
        "characters": [
            {"id": c.id, "life": c.life, "old_classic_life": c.old_classic_life,
             "builtin_cover": c.builtin_cover, "builtin_horse": c.builtin_horse,
             "builtin_scope": c.builtin_scope, "unlimited_shots": c.unlimited_shots}
            for c in CHARACTERS
        ],
        "teams": dict(sorted(TEAM_OF.items())),
        "roles_by_seats": {m: {str(n): list(roles_for(n, m)) for n in ROLE_TABLE} for m in MODES},
        "sheriff_life_bonus": {str(k): v for k, v in SHERIFF_LIFE_BONUS.items()},
        "sheriff_hand_adjust": {str(k): v for k, v in SHERIFF_HAND_ADJUST.items()},
        "old_classic_sheriff_life_bonus": OLD_CLASSIC_SHERIFF_LIFE_BONUS,
        "old_classic_outlaw_reward": OLD_CLASSIC_OUTLAW_REWARD,
        "high_noon_round": HIGH_NOON_ROUND,
        "draw_per_turn": DRAW_PER_TURN,
        "upgrades": list(UPGRADES),
        "default_max_rounds": DEFAULT_MAX_ROUNDS,
    }  # fmt: skip


def _hash(obj: Any) -> str:
    blob = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


RULES_VERSION = _hash({"engine_version": ENGINE_VERSION, "data": play_data()})
"""The base game's rules version (records of base games keep it)."""


def expansion_play_data(expansion: str) -> dict[str, Any]:
    """What an expansion adds to :func:`play_data` (its card kinds, cards and characters)."""
    from .cards import AD_KINDS, EXPANSION_CARDS
    from .characters import AD_CHARACTERS

    return {
        "card_kinds": [
            {"id": k.id, "color": k.color, "range": k.range, "target": k.target,
             "dangerous": k.dangerous, "cost": k.cost}
            for k in AD_KINDS if k.expansion == expansion
        ],
        "cards": [[c.id, c.kind, c.suit, c.rank] for c in EXPANSION_CARDS[expansion]],
        "characters": [
            {"id": c.id, "life": c.life, "start_tokens": c.start_tokens}
            for c in AD_CHARACTERS if c.expansion == expansion
        ],
        "tokens": {"supply": 32, "max_per_holder": 4, "arrival": 3},
    }  # fmt: skip


def rules_version(expansions: tuple[str, ...] | list[str] = ()) -> str:
    """The rules version of a game with ``expansions``: :data:`RULES_VERSION` for the base
    game, a hash of the base data and each expansion's for the others."""
    if not expansions:
        return RULES_VERSION
    data = {"base": play_data(), **{e: expansion_play_data(e) for e in expansions}}
    return _hash({"engine_version": ENGINE_VERSION, "data": data})
