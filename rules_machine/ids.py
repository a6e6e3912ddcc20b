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

from bangarena.engine.cards import DECK, KIND_IDS
from bangarena.engine.moves import MOVE_ID_PATTERNS, MOVE_KINDS
from bangarena.engine.roles import MAX_SEATS

_PLACEHOLDER = re.compile(r"<([^<>]+)>")


def _placeholder_regex(name: str) -> str:
    if "|" in name:
        return "(?:" + "|".join(re.escape(w) for w in name.split("|")) + ")"
    if name == "card_kind":
        return "(?:" + "|".join(re.escape(k) for k in KIND_IDS) + ")"
    if name == "card_id":
        return "(?:" + "|".join(re.escape(k) for k in KIND_IDS) + ")_[0-9]{2}"
    if name == "seat":
        return f"[0-{MAX_SEATS - 1}]"
    raise ValueError(f"unknown placeholder <{name}> in a move id pattern")


def alternatives(pattern: str) -> list[str]:
    """The alternatives of a pattern (``"a | b"`` and ``"a or b"`` both list two)."""
    parts = re.split(r"\s+\|\s+|\s+or\s+", pattern.strip())
    return [p.strip() for p in parts if p.strip()]


def _alternative_regex(alt: str) -> str:
    out, pos = [], 0
    for m in _PLACEHOLDER.finditer(alt):
        out.append(re.escape(alt[pos : m.start()]))
        out.append(_placeholder_regex(m.group(1)))
        pos = m.end()
    out.append(re.escape(alt[pos:]))
    return "".join(out)


@cache
def pattern_regex(pattern: str) -> str:
    """An anchored regex (``^…$``) matching exactly the ids the pattern describes."""
    alts = [_alternative_regex(a) for a in alternatives(pattern)]
    body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
    return "^" + body + "$"


def move_kind_regex(move_kind: str) -> str:
    """The id regex of a move kind, from ``MOVE_ID_PATTERNS``."""
    return pattern_regex(MOVE_ID_PATTERNS[move_kind])


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


def decision_move_kinds(decision_kind: str) -> tuple[str, ...]:
    """The move kinds a decision kind offers, in engine order, without repeats."""
    kinds = [k for k, _ in DECISION_MOVES[decision_kind]]
    return tuple(k for k in MOVE_KINDS if k in kinds)


def example_id(alternative: str) -> str:
    """One concrete id of a pattern alternative (first word, first card kind, seat 1)."""

    def fill(m: re.Match[str]) -> str:
        name = m.group(1)
        if "|" in name:
            return name.split("|")[0]
        return {"card_kind": KIND_IDS[0], "card_id": DECK[0].id, "seat": "1"}[name]

    return _PLACEHOLDER.sub(fill, alternative)
