"""rules.json: the machine-readable rules, built from the engine's own data and texts.

``rules_version`` is the engine's :data:`RULES_VERSION` (a content hash of the data that changes
play, with the engine version); ``texts_version`` is a hash of every display text (the engine's
names, effects, hints and decision texts, and this package's sentences). Both hashes are of
canonical JSON (sorted keys, no whitespace, ASCII), so they are the same on every machine.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
from fractions import Fraction
from functools import cache
from typing import Any, Final

from bangarena.engine import texts
from bangarena.engine.cards import CARD_KINDS, DECK, RANKS, REVOLVER_RANGE, SUIT_SYMBOL, SUITS
from bangarena.engine.characters import CHARACTERS
from bangarena.engine.config import DEFAULT_MAX_ROUNDS
from bangarena.engine.moves import DECISION_KINDS, MOVE_ID_PATTERNS, MOVE_KINDS
from bangarena.engine.roles import (
    DISCONNECTED_TIME_S,
    DOUBLE_AGENT_MODE,
    DRAW,
    DRAW_PER_TURN,
    HIGH_NOON_ROUND,
    MAX_SEATS,
    MIN_SEATS,
    MODES,
    OLD_CLASSIC,
    OLD_CLASSIC_OUTLAW_REWARD,
    OLD_CLASSIC_SHERIFF_LIFE_BONUS,
    PARTNERS,
    ROLE_TABLE,
    ROLES,
    SHERIFF,
    SHERIFF_HAND_ADJUST,
    SHERIFF_LIFE_BONUS,
    TEAM_OF,
    TEAMS,
    TIMES_PER_MOVE_S,
    UPGRADES,
    roles_for,
)
from bangarena.engine.version import ENGINE_VERSION, RULES_VERSION, play_data

from .ids import DECISION_CONTEXT, DECISION_MOVES, decision_move_kinds, move_kind_regex
from .phrases import ENGINE_DECISIONS, PHRASES, TEAM_WINS
from .wording import phrase

FORMAT: Final = "bangarena-rules/1"
DYNAMITE_DAMAGE: Final = 3  # rules.md §6; the engine's Dynamite task deals 3


def digest(obj: Any) -> str:
    """The first 16 hex digits of the SHA-256 of ``obj`` as canonical JSON."""
    blob = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _t(text: texts.Text) -> dict[str, str]:
    return {lang: text.get(lang) for lang in texts.LANGS}


def _phrase(key: str) -> dict[str, str]:
    return {lang: phrase(key, lang) for lang in texts.LANGS}


def _texts_data() -> dict[str, Any]:
    """Every display text rules.json and the rules for AI are made of."""

    def plain(d: dict[str, Any]) -> dict[str, Any]:
        return {k: dataclasses.asdict(v) for k, v in d.items()}

    return {
        "cards": plain(texts.CARDS),
        "characters": plain(texts.CHARACTERS),
        "roles": plain(texts.ROLES),
        "teams": plain(texts.TEAMS),
        "modes": plain(texts.MODES),
        "mode_descriptions": plain(texts.MODE_DESCRIPTIONS),
        "terms": plain(texts.TERMS),
        "upgrades": plain(texts.UPGRADES),
        "decision_kinds": plain(texts.DECISION_KINDS),
        "decision_help": plain(texts.DECISION_HELP),
        "move_kinds": plain(texts.MOVE_KINDS),
        "phrases": plain(PHRASES),
        "team_wins": plain(TEAM_WINS),
        "decision_context": DECISION_CONTEXT,
    }


def texts_version() -> str:
    """A hash of every display text (changes with a name, effect, hint or sentence)."""
    return digest(_texts_data())


def _fraction(f: Fraction) -> dict[str, Any]:
    return {"fraction": f"{f.numerator}/{f.denominator}", "approx": round(float(f), 4)}


def _checks() -> dict[str, Any]:
    """Check odds on a freshly shuffled full deck; Lucky's two flips are drawn without
    replacement, his two coins are independent."""
    n = len(DECK)
    hearts = sum(c.suit == "hearts" for c in DECK)
    boom = sum(c.explodes for c in DECK)
    escape = Fraction(hearts, n)
    explode = Fraction(boom, n)
    miss_twice = Fraction((n - hearts) * (n - hearts - 1), n * (n - 1))
    boom_twice = Fraction(boom * (boom - 1), n * (n - 1))
    return {
        "jail_escape": {"card": "hearts", **_fraction(escape), "lucky": _fraction(1 - miss_twice)},
        "dynamite_explodes": {
            "card": "spades 2-9",
            **_fraction(explode),
            "lucky": _fraction(boom_twice),
            "damage": DYNAMITE_DAMAGE,
        },
        "cover": {"coin": True, **_fraction(Fraction(1, 2)), "lucky": _fraction(Fraction(3, 4))},
        "cover_old_classic": {
            "card": "hearts",
            **_fraction(escape),
            "lucky": _fraction(1 - miss_twice),
        },
    }


def _cards() -> list[dict[str, Any]]:
    out = []
    for k in CARD_KINDS:
        t = texts.CARDS[k.id]
        out.append(
            {
                "id": k.id,
                "names": _t(t.name),
                "color": k.color,
                "copies": k.copies,
                "range": k.range if k.color == "weapon" else None,
                "unlimited_shots": k.unlimited_shots,
                "target": k.target,
                "effect": _t(t.effect),
                "hint": _t(t.hint),
                "card_ids": [c.id for c in DECK if c.kind == k.id],
            }
        )
    return out


def _deck() -> dict[str, Any]:
    by_suit = {s: sum(c.suit == s for c in DECK) for s in SUITS}
    return {
        "size": len(DECK),
        "suits": [{"id": s, "symbol": SUIT_SYMBOL[s]} for s in SUITS],
        "ranks": list(RANKS),
        "counts": {
            "by_suit": by_suit,
            "hearts": by_suit["hearts"],
            "spades_2_9": sum(c.explodes for c in DECK),
        },
        "cards": [{"id": c.id, "kind": c.kind, "suit": c.suit, "rank": c.rank} for c in DECK],
    }


def _characters() -> list[dict[str, Any]]:
    out = []
    for c in CHARACTERS:
        t = texts.CHARACTERS[c.id]
        out.append(
            {
                "id": c.id,
                "names": _t(t.name),
                "life": c.life,
                "old_classic_life": c.old_classic_life,
                "builtin_cover": c.builtin_cover,
                "builtin_horse": c.builtin_horse,
                "builtin_scope": c.builtin_scope,
                "unlimited_shots": c.unlimited_shots,
                "ability": _t(t.ability),
                "hint": _t(t.hint),
            }
        )
    return out


def _roles() -> list[dict[str, Any]]:
    return [
        {
            "id": r,
            "names": _t(texts.ROLES[r].name),
            "team": TEAM_OF[r],
            "public": r == SHERIFF,
            "objective": _t(texts.ROLES[r].objective),
        }
        for r in ROLES
    ]


def _teams() -> list[dict[str, Any]]:
    return [
        {
            "id": t,
            "names": _t(texts.TEAMS[t]),
            "roles": [r for r in ROLES if TEAM_OF[r] == t],
            "wins_when": _t(TEAM_WINS[t]),
        }
        for t in TEAMS
    ]


def _modes() -> list[dict[str, Any]]:
    stone_life = {c.id: c.old_classic_life for c in CHARACTERS if c.old_classic_life != c.life}
    out = []
    for m in MODES:
        old = m == OLD_CLASSIC
        out.append(
            {
                "id": m,
                "names": _t(texts.MODES[m]),
                "description": _t(texts.MODE_DESCRIPTIONS[m]),
                "summary": _phrase("mode_" + m),
                "high_noon": not old,
                "glory": not old,
                "cover_check": "card_hearts" if old else "coin",
                "failed_jail": "lose_turn" if old else "no_play",
                "canteen_needs_three_alive": old,
                "sheriff_life_bonus": (
                    {str(n): OLD_CLASSIC_SHERIFF_LIFE_BONUS for n in ROLE_TABLE}
                    if old
                    else {str(n): v for n, v in SHERIFF_LIFE_BONUS.items()}
                ),
                "sheriff_hand_adjust": (
                    {str(n): 0 for n in ROLE_TABLE}
                    if old
                    else {str(n): v for n, v in SHERIFF_HAND_ADJUST.items()}
                ),
                "character_life": stone_life if old else {},
                "outlaw_elimination_draw": OLD_CLASSIC_OUTLAW_REWARD if old else 0,
                "renegades_win_together": m == PARTNERS,
                "double_agent_from_seats": (
                    min(n for n in ROLE_TABLE if "double_agent" in roles_for(n, m))
                    if m == DOUBLE_AGENT_MODE
                    else None
                ),
                "roles_by_seats": {str(n): list(roles_for(n, m)) for n in ROLE_TABLE},
            }
        )
    return out


def _decision_kinds() -> list[dict[str, Any]]:
    return [
        {
            "id": k,
            "names": _t(texts.DECISION_KINDS[k]),
            "help": _t(texts.DECISION_HELP[k]),
            "move_kinds": list(decision_move_kinds(k)),
            "moves": [{"kind": mk, "id_pattern": p} for mk, p in DECISION_MOVES[k]],
            "context": DECISION_CONTEXT[k],
        }
        for k in DECISION_KINDS
    ]


def _move_kinds() -> list[dict[str, Any]]:
    return [
        {
            "id": k,
            "text": _t(texts.MOVE_KINDS[k]),
            "id_pattern": MOVE_ID_PATTERNS[k],
            "id_regex": move_kind_regex(k),
        }
        for k in MOVE_KINDS
    ]


@cache
def _document() -> dict[str, Any]:
    revolver = texts.CARDS["revolver"]
    return {
        "format": FORMAT,
        "rules_version": RULES_VERSION,
        "engine_version": ENGINE_VERSION,
        "texts_version": texts_version(),
        "languages": list(texts.LANGS),
        "seats": {"min": MIN_SEATS, "max": MAX_SEATS},
        "cards": _cards(),
        "default_weapon": {
            "id": "revolver",
            "names": _t(revolver.name),
            "range": REVOLVER_RANGE,
            "effect": _t(revolver.effect),
            "hint": _t(revolver.hint),
        },
        "deck": _deck(),
        "characters": _characters(),
        "teams": _teams(),
        "roles": _roles(),
        "modes": _modes(),
        "constants": {
            "draw_per_turn": DRAW_PER_TURN,
            "high_noon_round": HIGH_NOON_ROUND,
            "max_rounds_default": DEFAULT_MAX_ROUNDS,
            "sheriff_life_bonus": {str(n): v for n, v in SHERIFF_LIFE_BONUS.items()},
            "sheriff_hand_adjust": {str(n): v for n, v in SHERIFF_HAND_ADJUST.items()},
            "old_classic_sheriff_life_bonus": OLD_CLASSIC_SHERIFF_LIFE_BONUS,
            "old_classic_outlaw_reward": OLD_CLASSIC_OUTLAW_REWARD,
            "dynamite_damage": DYNAMITE_DAMAGE,
            "times_per_move_s": list(TIMES_PER_MOVE_S),
            "disconnected_time_s": DISCONNECTED_TIME_S,
            "winning_teams": [*TEAMS, DRAW],
        },
        "checks": _checks(),
        "glory": {
            "upgrades": [
                {
                    "id": u,
                    "names": _t(texts.TERMS[u]),
                    "effect": _t(texts.UPGRADES[u]),
                }
                for u in UPGRADES
            ],
            "instinct_once": True,
            "instinct_not_for": ["three_eyes"],
            "stack": ["marksman", "endurance"],
        },
        "terms": {k: _t(v) for k, v in texts.TERMS.items()},
        "decision_kinds": _decision_kinds(),
        "move_kinds": _move_kinds(),
        "engine_decisions": [{"id": k, "text": _phrase(k)} for k in ENGINE_DECISIONS],
        "rules_version_input": {"engine_version": ENGINE_VERSION, "data": play_data()},
    }


def rules_document(expansions: tuple[str, ...] = ()) -> dict[str, Any]:
    """The content of rules.json (a fresh copy); with ``expansions``, the rules of a game that
    has them (``published/<expansion>/rules.json``).

    ``rules_version`` equals the first 16 hex digits of the SHA-256 of
    ``rules_version_input`` as canonical JSON (sorted keys, separators ``,`` ``:``, ASCII).
    """
    if expansions:
        from .expansion_document import expansion_rules_document

        return expansion_rules_document(tuple(expansions))
    return copy.deepcopy(_document())
