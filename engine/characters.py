"""The 16 characters (rules.md §9): life and the flags the rules check."""

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
CHARACTER_BY_ID: Final = {c.id: c for c in CHARACTERS}
CHARACTER_IDS: Final = tuple(c.id for c in CHARACTERS)
