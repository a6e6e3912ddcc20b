"""The card kinds and deck tables: the base game's 22 kinds and 80 cards (rules.md §6, §8) and
the Armed & Dangerous expansion's 22 kinds and 28 cards (docs/rules-decisions.md).

Cards are identified at run time by their index in :data:`ALL_CARDS` (0..79 the base deck,
80..107 the expansion's cards, in every game that has it); every card also has a readable id
such as ``shot_07`` that names it in events, moves and scenarios.
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
    target: str = "none"  # none | any_other | in_range | distance1 | other_not_sheriff | any
    expansion: str = ""  # the expansion that adds the kind ("" for the base game)
    dangerous: bool = False  # an orange-bordered card: arrives with Load tokens
    cost: int = 0  # Dangerous card: tokens its effect costs; brown card: its upgrade's cost


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
ARMED_DANGEROUS: Final = "armed_dangerous"
EXPANSIONS: Final = (ARMED_DANGEROUS,)
"""The expansions a game may have (``GameConfig.expansions``)."""

_AD = ARMED_DANGEROUS
AD_KINDS: Final[tuple[CardKind, ...]] = (
    # Dangerous objects and weapons: ``cost`` tokens paid from the card use its effect.
    CardKind("ace_up_the_sleeve", BLUE, 1, expansion=_AD, dangerous=True, cost=2),
    CardKind("bandolier", BLUE, 1, expansion=_AD, dangerous=True, cost=1),
    CardKind("bomb", BLUE, 1, target="any", expansion=_AD, dangerous=True),
    CardKind("bell_tower", BLUE, 1, expansion=_AD, dangerous=True, cost=1),
    CardKind("crate", BLUE, 1, expansion=_AD, dangerous=True, cost=2),
    CardKind("tumbleweed", BLUE, 1, expansion=_AD, dangerous=True, cost=1),
    CardKind("whip", BLUE, 1, expansion=_AD, dangerous=True, cost=3),
    CardKind("beer_keg", BLUE, 1, expansion=_AD, dangerous=True, cost=3),
    CardKind("lockpick", BLUE, 1, expansion=_AD, dangerous=True, cost=3),
    CardKind("big_fifty", WEAPON, 1, range=6, expansion=_AD, dangerous=True, cost=1),
    CardKind("buntline_special", WEAPON, 1, range=2, expansion=_AD, dangerous=True, cost=1),
    CardKind("double_barrel", WEAPON, 1, range=1, expansion=_AD, dangerous=True, cost=1),
    CardKind("thunderer", WEAPON, 1, range=3, expansion=_AD, dangerous=True, cost=1),
    # New brown cards: ``cost`` is the upgrade's (0: no upgrade).
    CardKind("mule_train", BROWN, 1, expansion=_AD, cost=2),
    CardKind("little_nip", BROWN, 1, expansion=_AD, cost=3),
    CardKind("quick_shot", BROWN, 1, target="in_range", expansion=_AD, cost=1),
    CardKind("flintlock", BROWN, 1, target="in_range", expansion=_AD, cost=2),
    CardKind("arrow", BROWN, 1, target="any_other", expansion=_AD, cost=1),
    CardKind("duck", BROWN, 1, expansion=_AD, cost=2),
    CardKind("reloading", BROWN, 1, expansion=_AD),
    CardKind("rust", BROWN, 1, expansion=_AD),
    CardKind("squaw", BROWN, 1, target="any", expansion=_AD, cost=2),
)
ALL_KINDS: Final = CARD_KINDS + AD_KINDS
KIND_BY_ID: Final = {k.id: k for k in ALL_KINDS}
"""Every card kind of the base game and of every expansion, by id."""
KIND_IDS: Final = tuple(k.id for k in CARD_KINDS)
"""The base game's card kinds."""
AD_KIND_IDS: Final = tuple(k.id for k in AD_KINDS)
DANGEROUS: Final = frozenset(k.id for k in AD_KINDS if k.dangerous)
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
"""The base game's 80 cards."""
CARD_BY_ID: Final = {c.id: c for c in DECK}
DECK_SIZE: Final = len(DECK)

# The expansion's 28 cards with their printed suits and ranks (spec armed-dangerous.md); the
# base kinds' copies continue their numbering (shot_26 …).
_AD_CARDS: Final = (
    ("ace_up_the_sleeve", "hearts", "A"),
    ("bandolier", "hearts", "2"),
    ("big_fifty", "spades", "Q"),
    ("bomb", "diamonds", "7"),
    ("buntline_special", "spades", "J"),
    ("bell_tower", "clubs", "7"),
    ("crate", "hearts", "3"),
    ("tumbleweed", "clubs", "4"),
    ("double_barrel", "clubs", "6"),
    ("whip", "clubs", "5"),
    ("beer_keg", "hearts", "4"),
    ("lockpick", "clubs", "2"),
    ("thunderer", "clubs", "3"),
    ("mule_train", "spades", "2"),
    ("little_nip", "hearts", "5"),
    ("quick_shot", "spades", "3"),
    ("flintlock", "spades", "A"),
    ("arrow", "diamonds", "5"),
    ("duck", "diamonds", "3"),
    ("reloading", "diamonds", "4"),
    ("rust", "spades", "9"),
    ("squaw", "diamonds", "3"),
    ("shot", "hearts", "6"),
    ("shot", "clubs", "2"),
    ("shot", "diamonds", "2"),
    ("shot", "diamonds", "3"),
    ("knock_off", "hearts", "3"),
    ("ricochet", "spades", "K"),
)


def _build_expansion_cards() -> tuple[Card, ...]:
    counters = {k.id: k.copies for k in CARD_KINDS}
    cards = []
    for i, (kind, suit, rank) in enumerate(_AD_CARDS, start=len(DECK)):
        counters[kind] = counters.get(kind, 0) + 1
        cards.append(Card(i, f"{kind}_{counters[kind]:02d}", kind, suit, rank))
    return tuple(cards)


AD_CARDS: Final[tuple[Card, ...]] = _build_expansion_cards()
"""The Armed & Dangerous expansion's 28 cards (indexes 80..107)."""
ALL_CARDS: Final[tuple[Card, ...]] = DECK + AD_CARDS
"""Every physical card of the base game and the expansions, indexed by card number."""
ALL_CARD_BY_ID: Final = {c.id: c for c in ALL_CARDS}
EXPANSION_CARDS: Final[dict[str, tuple[Card, ...]]] = {ARMED_DANGEROUS: AD_CARDS}
CARD_KIND_OF: Final = tuple(c.kind for c in ALL_CARDS)
CARD_IDS: Final = tuple(c.id for c in ALL_CARDS)
HEARTS: Final = tuple(c.suit == "hearts" for c in ALL_CARDS)
EXPLODES: Final = tuple(c.explodes for c in ALL_CARDS)
RED: Final = tuple(c.red for c in ALL_CARDS)
HIGH_RANK: Final = tuple(c.rank in ("J", "Q", "K", "A") for c in ALL_CARDS)
DIAMONDS: Final = tuple(c.suit == "diamonds" for c in ALL_CARDS)
IS_DANGEROUS: Final = tuple(c.kind in DANGEROUS for c in ALL_CARDS)


def game_cards(expansions: tuple[str, ...] | list[str]) -> tuple[Card, ...]:
    """The cards of a game with ``expansions``: the base deck, then each expansion's cards."""
    out = DECK
    for e in EXPANSIONS:  # in a fixed order, so indexes never depend on how they were listed
        if e in expansions:
            out = out + EXPANSION_CARDS[e]
    return out


def game_deck_size(expansions: tuple[str, ...] | list[str]) -> int:
    """How many cards a game with ``expansions`` has (80, or 108 with Armed & Dangerous)."""
    return len(game_cards(expansions))
