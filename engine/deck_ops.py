"""Moving cards: draws with reshuffles, discards, checks (flips and coins), hand removal.

These are the only functions that move cards, so card conservation and the per-card knowledge
masks (who may know a card's identity) are kept in one place.
"""

from __future__ import annotations

from .cards import CARD_IDS, CARD_KIND_OF, EXPLODES, HEARTS, RED
from .events import Check, Discarded, Drew, Reshuffled
from .rng import STREAMS, below, shuffle
from .state import PUBLIC_BIT, GameState, Player

SHUFFLE = STREAMS.index("shuffle")
COIN = STREAMS.index("coin")
PICK = STREAMS.index("pick")
# Checks that succeed on a red card (♥ ♦): the Bomb passes on, Julie Cutter shoots back.
RED_CHECKS = frozenset({"bomb", "julie_cutter"})


def card_id(c: int) -> str:
    return CARD_IDS[c]


def ids(cards: list[int]) -> list[str]:
    """The cards' ids (a loop: these lists are short, and a comprehension is a call)."""
    out = []
    for c in cards:
        out.append(CARD_IDS[c])
    return out


def reshuffle(g: GameState) -> bool:
    """Shuffle the discard pile into a new deck (rules.md §3). False if there was nothing."""
    if not g.discard:
        return False
    g.deck = g.discard
    g.discard = []
    shuffle(g.rng, SHUFFLE, g.deck)
    known = g.known
    for c in g.deck:
        known[c] = 0
    g.log.append(Reshuffled.make(deck_size=len(g.deck)))
    return True


def take_top(g: GameState) -> int:
    """Remove and return the deck's top card, reshuffling when empty; -1 if no card at all."""
    if not g.deck and not reshuffle(g):
        return -1
    return g.deck.pop()


def draw(g: GameState, p: Player, count: int, reason: str) -> list[int]:
    """``p`` draws up to ``count`` cards from the deck (fewer if deck and discard run out)."""
    deck = g.deck
    if 0 < count <= len(deck):
        # No reshuffle on the way: the top ``count`` cards in one slice (top first).
        got = deck[: -count - 1 : -1]
        del deck[-count:]
    else:
        got = []
        for _ in range(count):
            c = take_top(g)
            if c < 0:
                break
            got.append(c)
        if not got:
            return got
    bit = 1 << p.seat
    known = g.known
    names = []
    for c in got:
        known[c] |= bit
        names.append(CARD_IDS[c])
    p.hand += got
    p.v += 1
    g.log.append(
        Drew.make(
            seat=p.seat,
            count=len(got),
            source="deck",
            reason=reason,
            cards=names,
            private_to=[p.seat],
        )
    )
    return got


def discard_card(g: GameState, c: int) -> None:
    g.discard.append(c)
    g.known[c] = PUBLIC_BIT


def remove_from_hand(g: GameState, p: Player, c: int) -> None:
    """Take card ``c`` out of ``p``'s hand; Empty Hands draws at once if that emptied it."""
    p.hand.remove(c)
    p.v += 1
    if not p.hand:
        hand_emptied(g, p)


def hand_emptied(g: GameState, p: Player) -> None:
    """``p``'s hand has just been emptied: Empty Hands draws a card at once."""
    if p.character == "empty_hands" and p.alive:
        draw(g, p, 1, "empty_hands")


def first_of_kind(p: Player, kind: str) -> int:
    """The earliest-acquired card of ``kind`` in ``p``'s hand (the copy a play uses)."""
    for c in p.hand:
        if CARD_KIND_OF[c] == kind:
            return c
    raise KeyError(kind)


def last_of_kind(p: Player, kind: str) -> int:
    """The most recently acquired card of ``kind`` in ``p``'s hand (the copy a discard uses)."""
    for c in reversed(p.hand):
        if CARD_KIND_OF[c] == kind:
            return c
    raise KeyError(kind)


def discard_from_hand(g: GameState, p: Player, c: int, reason: str) -> None:
    """Discard card ``c`` from ``p``'s hand, publicly."""
    g.discard.append(c)
    g.known[c] = PUBLIC_BIT
    g.log.append(Discarded.make(seat=p.seat, cards=[CARD_IDS[c]], reason=reason))
    remove_from_hand(g, p, c)


def random_hand_card(g: GameState, p: Player) -> int:
    """A uniformly random card of ``p``'s hand (Snatch, Knock Off, Grip, Collector, Lockpick).

    A scenario may script the outcomes (``picks``, card numbers): the first scripted pick is
    used, and consumed, when that card is in the hand; otherwise the RNG picks."""
    if g.picks and g.picks[0] in p.hand:
        return g.picks.pop(0)
    return p.hand[below(g.rng, PICK, len(p.hand))]


def _coin(g: GameState) -> bool:
    if g.coins:
        return g.coins.pop(0)
    return below(g.rng, COIN, 2) == 1


def flip_check(g: GameState, p: Player, reason: str) -> bool | None:
    """A flip check for ``p`` (jail: ♥ escapes; dynamite: ♠2–9 explodes; old_classic cover: ♥).

    Lucky flips twice and keeps the better. Flipped cards go to the discard pile right after the
    check. Returns whether the check went the player's way, or None if no card could be flipped.
    """
    tries = 2 if p.character == "lucky" else 1
    flipped: list[int] = []
    for _ in range(tries):
        c = take_top(g)
        if c < 0:
            break
        flipped.append(c)
    # Both of Lucky's cards are off the deck before either is discarded, so a reshuffle between
    # the tries can never bring the first card back.
    for c in flipped:
        discard_card(g, c)
    if not flipped:
        return None
    if reason == "dynamite":
        success = any(not EXPLODES[c] for c in flipped)
    elif reason in RED_CHECKS:
        success = any(RED[c] for c in flipped)
    else:
        success = any(HEARTS[c] for c in flipped)
    g.log.append(
        Check.make(seat=p.seat, reason=reason, cards=ids(flipped), coins=[], success=success)
    )
    return success


def cover_check(g: GameState, p: Player) -> bool:
    """The Cover check: a fair coin (Lucky: two), or in old_classic a ♥ flip."""
    if g.mode == "old_classic":
        return bool(flip_check(g, p, "cover"))
    tries = 2 if p.character == "lucky" else 1
    coins = [_coin(g) for _ in range(tries)]
    success = any(coins)
    g.log.append(Check.make(seat=p.seat, reason="cover", cards=[], coins=coins, success=success))
    return success
