"""rules.json of a game with an expansion: the base document with the expansion's cards, deck,
characters, decision and move kinds merged in, check odds on the game's deck, the Load token
rules, and the game's own rules version (``rules_version(expansions)``). The base document is
not touched: base games keep their published rules and version."""

from __future__ import annotations

import copy
from fractions import Fraction
from functools import cache
from typing import Any

from bangarena.engine import texts
from bangarena.engine.cards import (
    AD_KINDS,
    EXPANSIONS,
    RANKS,
    SUIT_SYMBOL,
    SUITS,
    game_cards,
)
from bangarena.engine.characters import AD_CHARACTERS
from bangarena.engine.loads import ARRIVAL, MAX_LOAD, SUPPLY
from bangarena.engine.moves import AD_DECISION_KINDS, AD_MOVE_ID_PATTERNS, AD_MOVE_KINDS
from bangarena.engine.version import ENGINE_VERSION, expansion_play_data, play_data, rules_version

from .document import DYNAMITE_DAMAGE, _document, _fraction
from .ids import decision_context, decision_move_kinds, decision_moves, move_kind_regex

_AD = EXPANSIONS[0]


def _t(text: texts.Text) -> dict[str, str]:
    return {lang: text.get(lang) for lang in texts.LANGS}


def checks(expansions: tuple[str, ...]) -> dict[str, Any]:
    """Check odds on a freshly shuffled deck of the game (108 cards with Armed & Dangerous)."""
    deck = game_cards(expansions)
    n = len(deck)
    hearts = sum(c.suit == "hearts" for c in deck)
    red = sum(c.red for c in deck)
    boom = sum(c.explodes for c in deck)
    escape = Fraction(hearts, n)
    miss_twice = Fraction((n - hearts) * (n - hearts - 1), n * (n - 1))
    explode = Fraction(boom, n)
    boom_twice = Fraction(boom * (boom - 1), n * (n - 1))
    red_f = Fraction(red, n)
    black_twice = Fraction((n - red) * (n - red - 1), n * (n - 1))
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
        "bomb_passes": {"card": "hearts or diamonds", **_fraction(red_f),
                        "lucky": _fraction(1 - black_twice), "damage": 2},
        "julie_cutter_shoots": {"card": "hearts or diamonds", **_fraction(red_f)},
    }  # fmt: skip


def _deck(expansions: tuple[str, ...]) -> dict[str, Any]:
    deck = game_cards(expansions)
    by_suit = {s: sum(c.suit == s for c in deck) for s in SUITS}
    return {
        "size": len(deck),
        "suits": [{"id": s, "symbol": SUIT_SYMBOL[s]} for s in SUITS],
        "ranks": list(RANKS),
        "counts": {
            "by_suit": by_suit,
            "hearts": by_suit["hearts"],
            "spades_2_9": sum(c.explodes for c in deck),
        },
        "cards": [{"id": c.id, "kind": c.kind, "suit": c.suit, "rank": c.rank} for c in deck],
    }


@cache
def _expansion_document(expansions: tuple[str, ...]) -> dict[str, Any]:
    doc = copy.deepcopy(_document())
    deck = game_cards(expansions)
    ad = texts.EXPANSION_TEXTS[_AD]
    doc["rules_version"] = rules_version(expansions)
    doc["expansions"] = list(expansions)
    # Base kinds get the expansion's extra copies; the new kinds follow.
    for card in doc["cards"]:
        ids = [c.id for c in deck if c.kind == card["id"]]
        card["copies"] = len(ids)
        card["card_ids"] = ids
    for k in AD_KINDS:
        t = ad.section("cards")[k.id]
        doc["cards"].append(
            {
                "id": k.id,
                "names": _t(t.name),
                "color": k.color,
                "copies": k.copies,
                "range": k.range if k.color == "weapon" else None,
                "unlimited_shots": False,
                "target": k.target,
                "effect": _t(t.effect),
                "hint": _t(t.hint),
                "card_ids": [c.id for c in deck if c.kind == k.id],
                "expansion": _AD,
                "dangerous": k.dangerous,
                "cost": k.cost,
            }
        )
    doc["deck"] = _deck(expansions)
    for c in AD_CHARACTERS:
        t = ad.section("characters")[c.id]
        doc["characters"].append(
            {
                "id": c.id,
                "names": _t(t.name),
                "life": c.life,
                "old_classic_life": c.old_classic_life,
                "builtin_cover": False,
                "builtin_horse": 0,
                "builtin_scope": False,
                "unlimited_shots": False,
                "ability": _t(t.ability),
                "hint": _t(t.hint),
                "expansion": _AD,
                "start_tokens": c.start_tokens,
            }
        )
    doc["checks"] = checks(expansions)
    doc["terms"].update({k: _t(v) for k, v in ad.section("terms").items()})
    context = decision_context(expansions)
    moves = decision_moves(expansions)
    for d in doc["decision_kinds"]:
        d["move_kinds"] = list(decision_move_kinds(d["id"], expansions))
        d["moves"] = [{"kind": mk, "id_pattern": p} for mk, p in moves[d["id"]]]
        d["context"] = context[d["id"]]
    for k in AD_DECISION_KINDS:
        doc["decision_kinds"].append(
            {
                "id": k,
                "names": _t(ad.section("decision_kinds")[k]),
                "help": _t(ad.section("decision_help")[k]),
                "move_kinds": list(decision_move_kinds(k, expansions)),
                "moves": [{"kind": mk, "id_pattern": p} for mk, p in moves[k]],
                "context": context[k],
                "expansion": _AD,
            }
        )
    for m in doc["move_kinds"]:
        if m["id"] in AD_MOVE_ID_PATTERNS:
            m["id_pattern"] = AD_MOVE_ID_PATTERNS[m["id"]]
            m["id_regex"] = move_kind_regex(m["id"], expansions)
    for k in AD_MOVE_KINDS:
        doc["move_kinds"].append(
            {
                "id": k,
                "text": _t(ad.section("move_kinds")[k]),
                "id_pattern": AD_MOVE_ID_PATTERNS[k],
                "id_regex": move_kind_regex(k, expansions),
                "expansion": _AD,
            }
        )
    doc[_AD] = {
        "names": _t(ad.section("terms")["armed_dangerous"]),
        "tokens": {
            "supply": SUPPLY,
            "max_per_holder": MAX_LOAD,
            "arrival": ARRIVAL,
            "reload_per_blue_card": 1,
            "reload_per_hand_limit_discard": 1,
            "bomb_damage": 2,
        },
        "rules": {k: _t(v) for k, v in ad.section("rules").items()},
    }
    doc["rules_version_input"] = {
        "engine_version": ENGINE_VERSION,
        "data": {"base": play_data(), **{e: expansion_play_data(e) for e in expansions}},
    }
    return doc


def expansion_rules_document(expansions: tuple[str, ...]) -> dict[str, Any]:
    """rules.json of a game with ``expansions`` (a fresh copy)."""
    return copy.deepcopy(_expansion_document(tuple(expansions)))
