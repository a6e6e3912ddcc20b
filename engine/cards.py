"""The 22 card kinds and the 80-card deck table (rules.md §6, §8).

Cards are identified at run time by their index in :data:`DECK` (0..79); every card also has a
readable id such as ``shot_07`` that names it in events, moves and scenarios.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

BROWN: Final = "brown"
BLUE: Final = "blue"
WEAPON: Final = "weapon"

SUITS: Final = ("hearts", "diamonds", "clubs", "spades")
SUIT_SYMBOL: Final = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠"}
RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


@dataclass(frozen=True, slots=True)
class CardKind:
    """One kind of card: how many copies, its colour and, for weapons, its range."""

    id: str
    color: str
    copies: int
    range: int = 0
    unlimited_shots: bool = False
    target: str = "none"  # none | any_other | in_range | distance1 | other_not_sheriff


CARD_KINDS: Final[tuple[CardKind, ...]] = (
    CardKind("shot", BROWN, 25, target="in_range"),
    CardKind("ricochet", BROWN, 12),
    CardKind("canteen", BROWN, 6),
    CardKind("snatch", BROWN, 4, target="distance1"),
    CardKind("knock_off", BROWN, 4, target="any_other"),
    CardKind("duel", BROWN, 3, target="any_other"),
    CardKind("raid", BROWN, 2),
    CardKind("wagon", BROWN, 2),
    CardKind("bazaar", BROWN, 2),
    CardKind("saloon", BROWN, 1),
    CardKind("caravan", BROWN, 1),
    CardKind("buckshot", BROWN, 1),
    CardKind("jail", BLUE, 3, target="other_not_sheriff"),
    CardKind("cover", BLUE, 2),
    CardKind("horse", BLUE, 2),
    CardKind("scope", BLUE, 1),
    CardKind("dynamite", BLUE, 1),
    CardKind("vulcan", WEAPON, 2, range=1, unlimited_shots=True),
    CardKind("sawed_off", WEAPON, 3, range=2),
    CardKind("shotgun", WEAPON, 1, range=3),
    CardKind("carbine", WEAPON, 1, range=4),
    CardKind("long_rifle", WEAPON, 1, range=5),
)
KIND_BY_ID: Final = {k.id: k for k in CARD_KINDS}
KIND_IDS: Final = tuple(k.id for k in CARD_KINDS)
REVOLVER_RANGE: Final = 1


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card of the deck."""

    index: int
    id: str
    kind: str
    suit: str
    rank: str

    @property
    def red(self) -> bool:
        return self.suit in ("hearts", "diamonds")

    @property
    def explodes(self) -> bool:
        """True for ♠ 2–9, the Dynamite explosion range."""
        return self.suit == "spades" and self.rank in RANKS[:8]

    @property
    def label(self) -> str:
        return f"{self.rank}{SUIT_SYMBOL[self.suit]}"


def _suit_rank_slots() -> list[tuple[str, str]]:
    """The 80 suit/rank slots: the original game's deck changed in three places.

    The original deck is a 52-card pack plus a second 8–A in every suit (20 ♥, 10 ♠ 2–9).
    BangArena needs 21 ♥ and 12 ♠ 2–9 (rules.md §6), reached with three suit changes:
    the second A♦ becomes A♥, and the second 8♣ and 9♣ become 8♠ and 9♠.
    """
    slots = [(s, r) for s in SUITS for r in RANKS]
    slots += [(s, r) for s in SUITS for r in RANKS[6:]]
    changes = {52 + 7 + 6: "hearts", 52 + 14: "spades", 52 + 15: "spades"}
    for i, suit in changes.items():
        slots[i] = (suit, slots[i][1])
    return slots


def _build_deck() -> tuple[Card, ...]:
    kinds = [k.id for k in CARD_KINDS for _ in range(k.copies)]
    slots = _suit_rank_slots()
    # A fixed stride (coprime with 80) spreads each kind's copies over the suits and ranks,
    # so no kind is all-hearts or all-spades; the table is data, published in rules.json.
    slots.sort(key=lambda sr: (RANKS.index(sr[1]), SUITS.index(sr[0])))
    stride = 33
    cards = []
    counters: dict[str, int] = {}
    for i, kind in enumerate(kinds):
        suit, rank = slots[(i * stride) % len(slots)]
        counters[kind] = counters.get(kind, 0) + 1
        cards.append(Card(i, f"{kind}_{counters[kind]:02d}", kind, suit, rank))
    return tuple(cards)


DECK: Final[tuple[Card, ...]] = _build_deck()
CARD_BY_ID: Final = {c.id: c for c in DECK}
DECK_SIZE: Final = len(DECK)
CARD_KIND_OF: Final = tuple(c.kind for c in DECK)
CARD_IDS: Final = tuple(c.id for c in DECK)
HEARTS: Final = tuple(c.suit == "hearts" for c in DECK)
EXPLODES: Final = tuple(c.explodes for c in DECK)
RED: Final = tuple(c.red for c in DECK)
