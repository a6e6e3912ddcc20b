"""Move ids as data: the id patterns of every move kind and decision kind, and their regexes.

The engine documents each move kind's id shape in ``engine.moves.MOVE_ID_PATTERNS`` with a tiny
pattern language: ``a | b`` (or ``a or b``) lists alternatives, ``<card_kind>``, ``<card_id>`` and
``<seat>`` stand for a card kind, a card id and a seat number, ``<x|y>`` for one of the words
listed. :func:`pattern_regex` turns such a pattern into an anchored regular expression, so the
JSON Schemas and the rules texts use the engine's own description of its ids.

:data:`DECISION_MOVES` says which moves each decision kind offers. It is read off
``engine/legal.py`` (one generator per decision kind) and checked against real games by the
tests: every legal move of every sampled decision matches one of its decision's entries, and
every entry is seen.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final

from bangarena.engine.cards import AD_KIND_IDS, DANGEROUS, DECK, KIND_IDS
from bangarena.engine.characters import AD_CHARACTER_IDS, CHARACTER_IDS
from bangarena.engine.moves import (
    AD_MOVE_ID_PATTERNS,
    ALL_MOVE_KINDS,
    MOVE_ID_PATTERNS,
    MOVE_KINDS,
)
from bangarena.engine.roles import MAX_SEATS

_PLACEHOLDER = re.compile(r"<([^<>]+)>")


def _placeholder_regex(name: str, expansions: tuple[str, ...] = ()) -> str:
    kinds = KIND_IDS + AD_KIND_IDS if expansions else KIND_IDS
    if "|" in name:
        return "(?:" + "|".join(re.escape(w) for w in name.split("|")) + ")"
    if name == "card_kind":
        return "(?:" + "|".join(re.escape(k) for k in kinds) + ")"
    if name == "card_id":
        return "(?:" + "|".join(re.escape(k) for k in kinds) + ")_[0-9]{2}"
    if name == "seat":
        return f"[0-{MAX_SEATS - 1}]"
    if name == "character" and expansions:
        return "(?:" + "|".join(re.escape(k) for k in CHARACTER_IDS + AD_CHARACTER_IDS) + ")"
    raise ValueError(f"unknown placeholder <{name}> in a move id pattern")


def alternatives(pattern: str) -> list[str]:
    """The alternatives of a pattern (``"a | b"`` and ``"a or b"`` both list two)."""
    parts = re.split(r"\s+\|\s+|\s+or\s+", pattern.strip())
    return [p.strip() for p in parts if p.strip()]


def _alternative_regex(alt: str, expansions: tuple[str, ...] = ()) -> str:
    out, pos = [], 0
    for m in _PLACEHOLDER.finditer(alt):
        out.append(re.escape(alt[pos : m.start()]))
        out.append(_placeholder_regex(m.group(1), expansions))
        pos = m.end()
    out.append(re.escape(alt[pos:]))
    return "".join(out)


@cache
def pattern_regex(pattern: str, expansions: tuple[str, ...] = ()) -> str:
    """An anchored regex (``^…$``) matching exactly the ids the pattern describes (card kinds
    and ids of the base game, or also of ``expansions``' cards)."""
    alts = [_alternative_regex(a, expansions) for a in alternatives(pattern)]
    body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
    return "^" + body + "$"


def move_kind_regex(move_kind: str, expansions: tuple[str, ...] = ()) -> str:
    """The id regex of a move kind, from ``MOVE_ID_PATTERNS`` (with ``expansions``: their
    patterns and card kinds too)."""
    return pattern_regex(move_id_patterns(expansions)[move_kind], expansions)


def move_id_patterns(expansions: tuple[str, ...] = ()) -> dict[str, str]:
    """The id pattern of every move kind of a game with ``expansions``."""
    if not expansions:
        return MOVE_ID_PATTERNS
    return {**MOVE_ID_PATTERNS, **AD_MOVE_ID_PATTERNS}


def move_kinds(expansions: tuple[str, ...] = ()) -> tuple[str, ...]:
    return ALL_MOVE_KINDS if expansions else MOVE_KINDS


DECISION_MOVES: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "play": (
        ("end_turn", "end_turn"),
        ("play", "<card_kind>"),
        ("play", "<card_kind>@<seat>"),
        ("play_as", "ricochet_as_shot@<seat>"),
        ("heal", "heal"),
    ),
    "discard_excess": (("discard", "discard:<card_kind>"),),
    "answer_shot": (
        ("take_hit", "take_hit"),
        ("answer", "ricochet"),
        ("answer", "shot_as_ricochet"),
        ("answer", "canteen"),
        ("heal", "heal"),
    ),
    "answer_raid": (
        ("take_hit", "take_hit"),
        ("answer", "shot"),
        ("answer", "ricochet_as_shot"),
        ("heal", "heal"),
    ),
    "answer_duel": (
        ("take_hit", "take_hit"),
        ("answer", "shot"),
        ("answer", "ricochet_as_shot"),
        ("heal", "heal"),
    ),
    "brace": (("take_hit", "take_hit"), ("heal", "heal")),
    "heal_discard": (("discard", "discard:<card_kind>"),),
    "draw_choice": (
        ("draw", "draw_deck"),
        ("draw", "draw_discard"),
        ("draw", "grip@<seat>"),
    ),
    "draw_keep": (("return", "return:<card_id>"),),
    "pick_card": (("pick", "pick:hand"), ("pick", "pick:<card_kind>")),
    "glory_upgrade": (("upgrade", "upgrade:<marksman|endurance|instinct>"),),
    "bounty_pick": (("bounty", "bounty:<marksman|endurance|instinct|none>"),),
}
"""Per decision kind: the (move kind, id pattern) pairs its legal moves take."""

DECISION_CONTEXT: Final[dict[str, dict[str, str | None]]] = {
    "play": {"source": None, "needed": None, "card": None},
    "discard_excess": {"source": None, "needed": None, "card": None},
    "answer_shot": {
        "source": "the shooter's seat",
        "needed": "Ricochets still needed to cancel the hit (2 against Twin Barrels at distance 1)",
        "card": "the attacking card kind: shot or buckshot",
    },
    "answer_raid": {"source": "the attacker's seat", "needed": None, "card": "raid"},
    "answer_duel": {"source": "the other duellist's seat", "needed": None, "card": "duel"},
    "brace": {
        "source": None,
        "needed": "the ♥ about to be lost",
        "card": "the cause of the loss (dynamite)",
    },
    "heal_discard": {"source": None, "needed": None, "card": None},
    "draw_choice": {"source": None, "needed": None, "card": None},
    "draw_keep": {"source": None, "needed": None, "card": None},
    "pick_card": {
        "source": "the target's seat",
        "needed": None,
        "card": "the card being played: snatch or knock_off",
    },
    "glory_upgrade": {"source": None, "needed": None, "card": None},
    "bounty_pick": {"source": "the eliminated player's seat", "needed": None, "card": None},
}
"""What the public context fields (``source``, ``needed``, ``card``) of each decision kind hold;
None: always null for that kind."""


_HOLDER = "<character|" + "|".join(sorted(DANGEROUS)) + ">"
AD_DECISION_MOVES: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "play": (
        *DECISION_MOVES["play"],
        ("use", "use:<card_kind>"),
        ("use", "use:<card_kind>@<seat>"),
        ("use", "use:<character>"),
        ("use", "use:<character>@<seat>"),
    ),
    "answer_shot": (
        *DECISION_MOVES["answer_shot"],
        ("answer", "duck"),
        ("use", "use:crate"),
    ),
    "optional_effect": (
        ("pass", "pass"),
        ("use", "use:<card_kind>"),
        ("use", "use:<card_kind>@<seat>"),
        ("use", "use:<character>"),
    ),
    "pay_token": (("pay", "pay:" + _HOLDER),),
    "load_token": (("pass", "pass"), ("load", "load:" + _HOLDER)),
    "discard_card": (("discard", "discard:<card_kind>"),),
    "take_token": (("take", "take:" + _HOLDER + "@<seat>"),),
    "pass_bomb": (("give", "give@<seat>"),),
}
"""Armed & Dangerous: the decision kinds it adds, and the moves it adds to base ones."""

AD_DECISION_CONTEXT: Final[dict[str, dict[str, str | None]]] = {
    "optional_effect": {
        "source": "the seat whose act opened the window (Ms. Abigail's attacker, Al Preacher's player), if any",
        "needed": None,
        "card": "the effect: a card kind (an upgrade, a weapon effect, tumbleweed, taking flintlock or duck back) or a character (al_preacher, ms_abigail)",
    },
    "pay_token": {"source": None, "needed": "tokens still to pay", "card": "what they pay for"},
    "load_token": {
        "source": None,
        "needed": "picks still to make",
        "card": "why the tokens come (blue_card, hand_limit, reloading, bass_greeves, red_ringo)",
    },
    "discard_card": {
        "source": None,
        "needed": None,
        "card": "why: buntline_special or bass_greeves",
    },
    "take_token": {"source": None, "needed": None, "card": "frankie_canton"},
    "pass_bomb": {"source": None, "needed": None, "card": "bomb"},
}


def decision_moves(expansions: tuple[str, ...] = ()) -> dict[str, tuple[tuple[str, str], ...]]:
    """Per decision kind of a game with ``expansions``, its (move kind, id pattern) pairs."""
    if not expansions:
        return DECISION_MOVES
    return {**DECISION_MOVES, **AD_DECISION_MOVES}


def decision_context(expansions: tuple[str, ...] = ()) -> dict[str, dict[str, str | None]]:
    if not expansions:
        return DECISION_CONTEXT
    ctx = {**DECISION_CONTEXT, **AD_DECISION_CONTEXT}
    ctx["answer_shot"] = {
        **DECISION_CONTEXT["answer_shot"],
        "card": "the attacking card kind: shot, buckshot, quick_shot, flintlock, mexicali_kid or julie_cutter",
    }
    ctx["answer_raid"] = {**DECISION_CONTEXT["answer_raid"], "card": "raid or arrow"}
    ctx["pick_card"] = {
        **DECISION_CONTEXT["pick_card"],
        "card": "the card being played: snatch, knock_off, whip, squaw or squaw_take",
    }
    return ctx


def decision_move_kinds(decision_kind: str, expansions: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The move kinds a decision kind offers, in engine order, without repeats."""
    kinds = [k for k, _ in decision_moves(expansions)[decision_kind]]
    return tuple(k for k in move_kinds(expansions) if k in kinds)


def example_id(alternative: str) -> str:
    """One concrete id of a pattern alternative (first word, first card kind, seat 1)."""

    def fill(m: re.Match[str]) -> str:
        name = m.group(1)
        if "|" in name:
            return name.split("|")[0]
        return {"card_kind": KIND_IDS[0], "card_id": DECK[0].id, "seat": "1"}[name]

    return _PLACEHOLDER.sub(fill, alternative)
