"""The fixed action enumeration: every move id the game can produce, one integer each.

Generated, never written by hand: the decision kinds' move-id patterns
(``rules_machine.ids.DECISION_MOVES``, read off the engine's legal-move generators and checked
against real games by the rules-machine tests) are expanded over the card kinds, card ids, seats
and words they name, and the card data of ``rules.json`` prunes the ids no card can produce
(``<card_kind>`` alone only for cards played without a target, ``<card_kind>@<seat>`` only for
cards that take one, ``pick:<card_kind>`` only for cards that lie in play). Seats run over the
largest table (``MAX_SEATS``), so one enumeration serves every table size and mode: a policy
trained at 5 seats reads the same action indexes at 7.

A new move kind, card or pattern in the engine changes the enumeration with it; a placeholder
this module does not know raises at import, so the enumeration cannot silently drift.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final

from bangarena.engine.roles import MAX_SEATS
from bangarena.rules_machine.document import rules_document
from bangarena.rules_machine.ids import DECISION_MOVES, alternatives

_PLACEHOLDER: Final = re.compile(r"<([^<>]+)>")


class ActionSpecError(ValueError):
    """A move-id pattern holds a placeholder the enumeration cannot expand."""


def _card_sets() -> dict[str, tuple[str, ...]]:
    """Card-kind vocabularies from rules.json: all kinds, and the subsets that prune ids."""
    doc = rules_document()
    cards = doc["cards"]
    return {
        "all": tuple(c["id"] for c in cards),
        "untargeted": tuple(c["id"] for c in cards if c["target"] == "none"),
        "targeted": tuple(c["id"] for c in cards if c["target"] != "none"),
        "in_play": tuple(c["id"] for c in cards if c["color"] != "brown"),
        "card_ids": tuple(c["id"] for c in doc["deck"]["cards"]),
        "characters": tuple(c["id"] for c in doc["characters"]),
    }


def _kinds_for(move_kind: str, alt: str, sets: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The card kinds a ``<card_kind>`` placeholder runs over in this alternative."""
    if move_kind == "play":
        return sets["targeted"] if "@" in alt else sets["untargeted"]
    if move_kind == "pick":
        return sets["in_play"]
    return sets["all"]


def _expand(move_kind: str, alt: str, sets: dict[str, tuple[str, ...]]) -> list[str]:
    """Every concrete id of one pattern alternative, in a stable order."""
    names = _PLACEHOLDER.findall(alt)
    if not names:
        return [alt]
    out = [alt]
    for name in names:
        token = f"<{name}>"
        if "|" in name:
            values: tuple[str, ...] = tuple(name.split("|"))
        elif name == "card_kind":
            values = _kinds_for(move_kind, alt, sets)
        elif name == "card_id":
            values = sets["card_ids"]
        elif name == "character":
            values = sets["characters"]
        elif name == "seat":
            values = tuple(str(s) for s in range(MAX_SEATS))
        else:
            raise ActionSpecError(f"unknown placeholder {token} in move-id pattern {alt!r}")
        out = [o.replace(token, v, 1) for o in out for v in values]
    return out


@cache
def action_ids() -> tuple[str, ...]:
    """Every move id, in enumeration order (action ``i`` is ``action_ids()[i]``).

    Order: decision kinds as ``DECISION_MOVES`` lists them (the engine's order), then each
    kind's patterns in order; an id offered by several decisions (``take_hit``, ``canteen``)
    keeps its first index."""
    sets = _card_sets()
    seen: dict[str, None] = {}
    for entries in DECISION_MOVES.values():
        for move_kind, pattern in entries:
            for alt in alternatives(pattern):
                for mid in _expand(move_kind, alt, sets):
                    seen.setdefault(mid, None)
    return tuple(seen)


@cache
def action_index() -> dict[str, int]:
    """Move id -> action index."""
    return {mid: i for i, mid in enumerate(action_ids())}


def action_table() -> list[dict[str, object]]:
    """The documented enumeration: per action its index, move id and the decision kinds that
    can offer it (what ``docs/research.md`` prints)."""
    sets = _card_sets()
    offered: dict[str, list[str]] = {}
    for kind, entries in DECISION_MOVES.items():
        for move_kind, pattern in entries:
            for alt in alternatives(pattern):
                for mid in _expand(move_kind, alt, sets):
                    kinds = offered.setdefault(mid, [])
                    if kind not in kinds:
                        kinds.append(kind)
    return [
        {"index": i, "id": mid, "decisions": offered[mid]} for i, mid in enumerate(action_ids())
    ]
