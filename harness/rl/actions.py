"""The fixed action enumeration: every move id the game can produce, one integer each.

Generated, never written by hand: the decision kinds' move-id patterns
(``rules_machine.ids.decision_moves``, read off the engine's legal-move generators and checked
against real games by the rules-machine tests) are expanded over the card kinds, card ids,
characters, seats and words they name, and the card data of ``rules.json`` prunes the ids no
card can produce (``<card_kind>`` alone only for cards played without a target,
``<card_kind>@<seat>`` only for cards that take one, ``pick:<card_kind>`` only for cards that
lie in play, ``use:<card_kind>`` only for cards with a token cost). Seats run over the largest
table (``MAX_SEATS``), so one enumeration serves every table size and mode: a policy trained at
5 seats reads the same action indexes at 7.

An expansion's enumeration (``action_ids(("armed_dangerous",))``) starts with the base ids in
the base order and appends the ids only the expansion's cards, characters and decision kinds
can produce, so a base index means the same move in both.

A new move kind, card or pattern in the engine changes the enumeration with it; a placeholder
this module does not know raises when an enumeration is built (the base one at import), so the
enumeration cannot silently drift.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Final

from bangarena.engine.config import check_expansions
from bangarena.engine.roles import MAX_SEATS
from bangarena.rules_machine.document import rules_document
from bangarena.rules_machine.ids import alternatives, decision_moves

_PLACEHOLDER: Final = re.compile(r"<([^<>]+)>")


class ActionSpecError(ValueError):
    """A move-id pattern holds a placeholder the enumeration cannot expand."""


def expansions_key(expansions: Sequence[str] = ()) -> tuple[str, ...]:
    """``expansions`` as the canonical tuple every cache of this package is keyed by (the
    order of ``engine.EXPANSIONS``); raises ``ConfigError`` for an unknown name."""
    if expansions == ():
        return ()
    return check_expansions(list(expansions) if type(expansions) is not tuple else expansions)


def _card_sets(expansions: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Card-kind vocabularies from rules.json: all kinds, and the subsets that prune ids."""
    doc = rules_document(expansions)
    cards = doc["cards"]
    return {
        "all": tuple(c["id"] for c in cards),
        "untargeted": tuple(c["id"] for c in cards if c["target"] == "none"),
        "targeted": tuple(c["id"] for c in cards if c["target"] != "none"),
        "in_play": tuple(c["id"] for c in cards if c["color"] != "brown"),
        # A ``use:`` names an effect paid in tokens: a Dangerous card's, a weapon's on a Shot
        # card, a brown card's upgrade (rules.json's ``cost``; base cards have none).
        "used": tuple(c["id"] for c in cards if c.get("cost", 0) > 0),
        "card_ids": tuple(c["id"] for c in doc["deck"]["cards"]),
        # A character named in a move id has an ability used as a move of its own: only an
        # expansion's characters do (the base ones act through base moves, as Grip's
        # ``grip@<seat>``).
        "characters": tuple(c["id"] for c in doc["characters"] if c.get("expansion")),
    }


def _kinds_for(move_kind: str, alt: str, sets: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The card kinds a ``<card_kind>`` placeholder runs over in this alternative."""
    if move_kind == "play":
        return sets["targeted"] if "@" in alt else sets["untargeted"]
    if move_kind == "pick":
        return sets["in_play"]
    if move_kind == "use":
        return sets["used"]
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


def _offers(expansions: tuple[str, ...]) -> dict[str, list[str]]:
    """Every id of a game with ``expansions`` -> the decision kinds that can offer it, in
    generation order: decision kinds as ``decision_moves`` lists them (the engine's order),
    then each kind's patterns in order."""
    sets = _card_sets(expansions)
    offered: dict[str, list[str]] = {}
    for kind, entries in decision_moves(expansions).items():
        for move_kind, pattern in entries:
            for alt in alternatives(pattern):
                for mid in _expand(move_kind, alt, sets):
                    kinds = offered.setdefault(mid, [])
                    if kind not in kinds:
                        kinds.append(kind)
    return offered


@cache
def _ids(expansions: tuple[str, ...]) -> tuple[str, ...]:
    if not expansions:
        return tuple(_offers(()))
    # The base ids first, in their order (a base index means the same move), then the rest.
    seen = dict.fromkeys(_ids(()))
    for mid in _offers(expansions):
        seen.setdefault(mid, None)
    return tuple(seen)


@cache
def _index(expansions: tuple[str, ...]) -> dict[str, int]:
    return {mid: i for i, mid in enumerate(_ids(expansions))}


def action_ids(expansions: Sequence[str] = ()) -> tuple[str, ...]:
    """Every move id of a game with ``expansions``, in enumeration order (action ``i`` is
    ``action_ids()[i]``).

    Order: decision kinds as ``decision_moves`` lists them (the engine's order), then each
    kind's patterns in order; an id offered by several decisions (``take_hit``, ``canteen``)
    keeps its first index. With expansions: the base enumeration, then the ids only the
    expansions add, in the same generation order."""
    return _ids(expansions_key(expansions))


def action_index(expansions: Sequence[str] = ()) -> dict[str, int]:
    """Move id -> action index (shared: do not modify)."""
    return _index(expansions_key(expansions))


def action_table(expansions: Sequence[str] = ()) -> list[dict[str, object]]:
    """The documented enumeration: per action its index, move id and the decision kinds that
    can offer it in a game with ``expansions`` (what ``docs/research.md`` prints)."""
    key = expansions_key(expansions)
    offered = _offers(key)
    return [{"index": i, "id": mid, "decisions": offered[mid]} for i, mid in enumerate(_ids(key))]


action_ids()  # the base enumeration at import: an unknown placeholder fails here, not mid-game
