"""Card sense: how much a card is worth keeping in hand, and what a weapon reaches.

Values are in rough "cards" units; only their order matters (which card to discard, which to put
back on the deck, which card to take with Vulture Junior).
"""

from __future__ import annotations

from bangarena.engine.cards import ALL_CARDS, KIND_BY_ID, REVOLVER_RANGE

WEAPONS = frozenset(k.id for k in KIND_BY_ID.values() if k.color == "weapon")
BLUES = frozenset(k.id for k in KIND_BY_ID.values() if k.color == "blue")
RANGE = {k: KIND_BY_ID[k].range for k in WEAPONS}
HIGH_NOON_ROUND = 8
# Card id -> kind for the public deck table (what kind_of computes, as one lookup).
KIND_OF_ID = {c.id: c.kind for c in ALL_CARDS}

BASE_VALUE = {
    "shot": 2.6,
    "ricochet": 2.4,
    "canteen": 2.2,
    "snatch": 1.9,
    "knock_off": 1.8,
    "duel": 2.0,
    "raid": 2.2,
    "wagon": 3.0,
    "bazaar": 1.2,
    "saloon": 1.0,
    "caravan": 3.5,
    "buckshot": 2.3,
    "jail": 2.2,
    "cover": 1.5,
    "horse": 1.5,
    "scope": 1.4,
    "dynamite": 0.5,
    # Armed & Dangerous
    "mule_train": 3.1,
    "little_nip": 2.0,
    "quick_shot": 2.4,
    "flintlock": 2.3,
    "arrow": 2.1,
    "duck": 2.5,
    "reloading": 1.2,
    "rust": 1.3,
    "squaw": 1.9,
    "ace_up_the_sleeve": 1.6,
    "bandolier": 1.3,
    "bomb": 1.2,
    "bell_tower": 1.0,
    "crate": 2.0,
    "tumbleweed": 1.0,
    "whip": 1.6,
    "beer_keg": 1.8,
    "lockpick": 1.6,
}


def kind_of(card_id: str) -> str:
    """``shot_07`` → ``shot``."""
    kind = KIND_OF_ID.get(card_id)
    return kind if kind is not None else card_id.rsplit("_", 1)[0]


def weapon_range(weapon_id: str | None, stars: list[str | None]) -> int:
    """Shot range of a seat from its public weapon and marksman stars."""
    base = RANGE[kind_of(weapon_id)] if weapon_id else REVOLVER_RANGE
    return base + stars.count("marksman")


def keep_value(
    kind: str,
    *,
    life: int,
    high_noon: bool,
    round_: int,
    held: int,
    in_play: set[str],
    weapon: str | None,
) -> float:
    """How much a card of ``kind`` is worth keeping; ``held`` copies are already counted
    (diminishing returns), ``in_play`` the kinds in front of the seat."""
    v = BASE_VALUE.get(kind)
    if kind in WEAPONS:
        cur = RANGE[kind_of(weapon)] if weapon else REVOLVER_RANGE
        better = RANGE[kind] > cur or (kind == "vulcan" and weapon is None)
        return (1.4 if better else 0.3) + 0.1 * RANGE[kind] - 0.5 * held
    if v is None:
        return 0.5
    if kind == "shot":
        v += 0.8 if held == 0 else 0.0
        if high_noon:
            v += 0.4
    elif kind == "ricochet" or kind == "duck":
        v += 0.6 if held == 0 else 0.0
        if life <= 2:
            v += 1.2
    elif kind == "canteen" or kind == "little_nip":
        if high_noon:
            return 0.0
        if life == 1:
            v += 1.5
        elif round_ >= HIGH_NOON_ROUND - 1:
            v -= 1.0
    elif kind == "saloon" and high_noon:
        return 0.0
    elif kind in BLUES:
        if kind in in_play:
            return 0.3
        if kind == "cover" and high_noon:
            return 0.2
        return v - 0.6 * held
    else:
        v -= 0.4 * held
    return v
