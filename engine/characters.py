"""The 16 characters (rules.md §9) and the 8 of Armed & Dangerous: life and the flags the rules
check."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Character:
    """A character: its life (and old_classic life where it differs) and built-in equipment."""

    id: str
    life: int
    old_classic_life: int
    builtin_cover: bool = False
    builtin_horse: int = 0  # how much further others see him
    builtin_scope: bool = False
    unlimited_shots: bool = False
    expansion: str = ""  # the expansion that adds the character ("" for the base game)
    start_tokens: int = 0  # Load tokens on the character at the deal (Red Ringo)


CHARACTERS: Final[tuple[Character, ...]] = (
    Character("stone_leopard", 3, 4),
    Character("red_suit", 4, 4),
    Character("two_face", 4, 4),
    Character("collector", 3, 3),
    Character("grip", 4, 4),
    Character("iron_brow", 4, 4, builtin_cover=True),
    Character("three_eyes", 4, 4),
    Character("lucky", 4, 4),
    Character("canyon_shadow", 3, 3, builtin_horse=2),
    Character("vulture_junior", 4, 4),
    Character("eagle_eye", 4, 4, builtin_scope=True),
    Character("bonesetter", 5, 5),
    Character("twin_barrels", 4, 4),
    Character("empty_hands", 4, 4),
    Character("scavenger", 4, 4),
    Character("mad_dog", 4, 4, builtin_scope=True, unlimited_shots=True),
)
_AD = "armed_dangerous"
AD_CHARACTERS: Final[tuple[Character, ...]] = (
    Character("al_preacher", 4, 4, expansion=_AD),
    Character("bass_greeves", 4, 4, expansion=_AD),
    Character("bloody_mary", 4, 4, expansion=_AD),
    Character("frankie_canton", 4, 4, expansion=_AD),
    Character("julie_cutter", 4, 4, expansion=_AD),
    Character("mexicali_kid", 4, 4, expansion=_AD),
    Character("ms_abigail", 4, 4, expansion=_AD),
    Character("red_ringo", 5, 5, expansion=_AD, start_tokens=4),
)
ALL_CHARACTERS: Final = CHARACTERS + AD_CHARACTERS
CHARACTER_BY_ID: Final = {c.id: c for c in ALL_CHARACTERS}
"""Every character of the base game and of every expansion, by id."""
CHARACTER_IDS: Final = tuple(c.id for c in CHARACTERS)
"""The base game's characters."""
AD_CHARACTER_IDS: Final = tuple(c.id for c in AD_CHARACTERS)


def game_characters(expansions: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The character pool of a game with ``expansions`` (the base 16, then each expansion's)."""
    out = CHARACTER_IDS
    if _AD in expansions:
        out = out + AD_CHARACTER_IDS
    return out
