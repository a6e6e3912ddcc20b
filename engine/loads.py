"""Load tokens (Armed & Dangerous): the common supply, the holders (a character and the
Dangerous cards in front of a player), gains capped at 4 and by the supply, spending with the
discard of an exhausted card (a Bomb explodes), tokens back to the supply when a card leaves
play, and the payment and loading tasks (one single pick per token where the holder is a choice).

Every token movement goes through this module, so ``supply + tokens on holders == 32`` is kept
in one place (the conformance suite checks it after every step)."""

from __future__ import annotations

from .cards import CARD_IDS, CARD_KIND_OF, IS_DANGEROUS, KIND_BY_ID
from .events import BombExploded, Discarded, Tokens
from .moves import LOAD_TOKEN, PAY_TOKEN
from .state import PUBLIC_BIT, GameState, Player

SUPPLY = 32  # Load tokens in the box
MAX_LOAD = 4  # on any card or character
ARRIVAL = 3  # tokens a Dangerous card arrives with
CHARACTER = "character"

_ORDER = {k: i for i, k in enumerate(KIND_BY_ID)}
_KEY = tuple(_ORDER[k] for k in CARD_KIND_OF)  # per card number: its kind's table order
# The Dangerous cards' numbers: a set test on ``in_play`` answers "has he any?" without a loop.
DANGER_CARDS = frozenset(i for i, d in enumerate(IS_DANGEROUS) if d)


def has_dangerous(p: Player) -> bool:
    """Whether ``p`` has a Dangerous card in play (the weapon included)."""
    return bool(p.in_play and not DANGER_CARDS.isdisjoint(p.in_play)) or p.weapon in DANGER_CARDS


def dangerous_cards(p: Player) -> list[int]:
    """``p``'s Dangerous cards in play (the weapon included), in deck-table order of kinds."""
    in_play = p.in_play
    if in_play and not DANGER_CARDS.isdisjoint(in_play):
        out = [c for c in in_play if c in DANGER_CARDS]
    else:
        out = []
    if p.weapon in DANGER_CARDS:
        out.append(p.weapon)
    if len(out) > 1:
        out.sort(key=_KEY.__getitem__)
    return out


def card_of(p: Player, holder: str) -> int:
    """The card of holder ``holder`` (a Dangerous card's kind) in front of ``p``; -1 for the
    character or a card not there."""
    if holder == CHARACTER:
        return -1
    for c in p.in_play:
        if CARD_KIND_OF[c] == holder:
            return c
    if p.weapon >= 0 and CARD_KIND_OF[p.weapon] == holder:
        return p.weapon
    return -1


def on(g: GameState, p: Player, card: int) -> int:
    """Tokens on ``card`` (-1: on ``p``'s character)."""
    return p.tokens if card < 0 else g.loads[card]


def total(g: GameState, p: Player) -> int:
    """Every token ``p`` may spend: on the character and on each of his Dangerous cards."""
    n = p.tokens
    loads = g.loads
    for c in p.in_play:
        n += loads[c]
    if p.weapon >= 0:
        n += loads[p.weapon]
    return n


def holder_name(card: int) -> str:
    return CHARACTER if card < 0 else CARD_KIND_OF[card]


def _log(g: GameState, p: Player, card: int, change: int, reason: str) -> None:
    g.log.append(
        Tokens.make(
            seat=p.seat,
            holder=CHARACTER if card < 0 else CARD_IDS[card],
            change=change,
            tokens=on(g, p, card),
            supply=g.supply,
            reason=reason,
        )
    )


def gain(g: GameState, p: Player, card: int, n: int, reason: str) -> int:
    """Put up to ``n`` tokens from the supply on a holder (at most 4 on it; extra ones are
    ignored, as are ones the supply lacks). Returns how many came."""
    # ``on`` and ``_log`` inlined: a token moves at every third decision.
    have = p.tokens if card < 0 else g.loads[card]
    n = min(n, g.supply, MAX_LOAD - have)
    if n <= 0:
        return 0
    if card < 0:
        p.tokens = have + n
    else:
        g.loads[card] = have + n
    g.supply -= n
    p.v += 1
    g.log.append(
        Tokens.make(
            seat=p.seat,
            holder=CHARACTER if card < 0 else CARD_IDS[card],
            change=n,
            tokens=have + n,
            supply=g.supply,
            reason=reason,
        )
    )
    return n


def spend(g: GameState, p: Player, card: int, n: int, reason: str) -> None:
    """Take ``n`` tokens off a holder back to the supply; a Dangerous card left without tokens is
    discarded at once (a Bomb explodes: its holder loses 2 ♥)."""
    if n <= 0:
        return
    if card < 0:
        left = p.tokens = p.tokens - n
    else:
        left = g.loads[card] = g.loads[card] - n
    g.supply += n
    p.v += 1
    g.log.append(
        Tokens.make(
            seat=p.seat,
            holder=CHARACTER if card < 0 else CARD_IDS[card],
            change=-n,
            tokens=left,
            supply=g.supply,
            reason=reason,
        )
    )
    if card >= 0 and left == 0:
        exhausted(g, p, card)


def exhausted(g: GameState, p: Player, card: int) -> None:
    """A Dangerous card whose last token went: discarded; a Bomb explodes."""
    # No Dangerous card changes distances (none is a Horse or a Scope): the memo stays.
    if p.weapon == card:
        p.weapon = -1
    else:
        p.in_play.remove(card)
    p.v += 1
    g.discard.append(card)
    g.known[card] = PUBLIC_BIT
    g.log.append(Discarded.make(seat=p.seat, cards=[CARD_IDS[card]], reason="no_tokens"))
    if CARD_KIND_OF[card] == "bomb":
        g.log.append(BombExploded.make(seat=p.seat))
        g.stack.append(["lose", p.seat, -1, 2, "bomb"])


def left_play(g: GameState, p: Player, card: int, reason: str) -> None:
    """``card`` is leaving ``p``'s play area (snatched, discarded, eliminated): its tokens go
    back to the supply. Call before moving the card."""
    n = g.loads[card] if g.loads else 0
    if n:
        g.loads[card] = 0
        g.supply += n
        p.v += 1
        g.log.append(
            Tokens.make(
                seat=p.seat, holder=CARD_IDS[card], change=-n, tokens=0, supply=g.supply,
                reason=reason,
            )
        )  # fmt: skip


def character_out(g: GameState, p: Player, reason: str) -> None:
    """An eliminated character's tokens go back to the supply."""
    if p.tokens:
        n = p.tokens
        p.tokens = 0
        g.supply += n
        p.v += 1
        g.log.append(
            Tokens.make(seat=p.seat, holder=CHARACTER, change=-n, tokens=0, supply=g.supply,
                   reason=reason)
        )  # fmt: skip


def arrive(g: GameState, p: Player, card: int) -> None:
    """A Dangerous card comes into play in front of ``p`` with 3 tokens from the supply."""
    g.loads[card] = 0
    gain(g, p, card, ARRIVAL, "arrival")


# -- payments and loading as tasks ---------------------------------------------------------------
def payers(g: GameState, p: Player) -> list[int]:
    """``p``'s holders with at least one token (-1 the character first, then his cards)."""
    out = [-1] if p.tokens else []
    out += [c for c in dangerous_cards(p) if g.loads[c]]
    return out


def pay(g: GameState, seat: int, amount: int, reason: str) -> None:
    """Queue the payment of ``amount`` tokens from ``seat``'s holders (any combination): a
    ``pay_token`` decision per token where the holder is a real choice. Runs before anything
    queued earlier (the effect paid for is queued first)."""
    if amount > 0:
        g.stack.append(["pay", seat, amount, reason])


def task_pay(g: GameState, task: list) -> None:
    """``["pay", seat, amount, reason]``."""
    _, seat, amount, reason = task
    p: Player = g.players[seat]
    holders = payers(g, p)
    if not holders:
        return
    if len(holders) == 1 or total(g, p) <= amount:
        # One holder, or every token goes: nothing to choose.
        for c in holders:
            n = min(amount, on(g, p, c))
            amount -= n
            spend(g, p, c, n, reason)
        return
    g.pending = [PAY_TOKEN, seat, amount, reason]


def resolve_pay(g: GameState, pending: list, move: object) -> None:
    _, seat, amount, reason = pending
    p: Player = g.players[seat]
    if amount > 1:
        g.stack.append(["pay", seat, amount - 1, reason])
    spend(g, p, card_of(p, move.card), 1, reason)  # type: ignore[attr-defined]


def load_targets(g: GameState, p: Player, reason: str, size: int) -> list[int]:
    """Holders that can take a token now (room under 4): the character first (not for Red
    Ringo, who moves tokens off it), then his Dangerous cards."""
    out = [] if reason == "red_ringo" or p.tokens >= MAX_LOAD else [-1]
    out += [c for c in dangerous_cards(p) if g.loads[c] < MAX_LOAD]
    return out


def load(g: GameState, seat: int, count: int, size: int, reason: str) -> None:
    """Queue ``count`` single picks, each putting ``size`` tokens on one of ``seat``'s holders
    (from the supply; Red Ringo: from his character)."""
    if count > 0:
        g.stack.append(["load", seat, count, size, reason])


def reload(g: GameState, p: Player, reason: str) -> None:
    """Reloading: +1 token for ``p`` (a blue card played, a hand-limit discard). Without a
    Dangerous card in play it goes on the character at once (no pick to make), else queued as a
    ``load`` pick."""
    if has_dangerous(p):
        g.stack.append(["load", p.seat, 1, 1, reason])
    elif p.tokens < MAX_LOAD and g.supply:
        gain(g, p, -1, 1, reason)


def task_load(g: GameState, task: list) -> None:
    """``["load", seat, count, size, reason]``."""
    _, seat, count, size, reason = task
    p: Player = g.players[seat]
    if not p.alive:
        return
    # The common case (a reload of one token with no Dangerous card in play): the character.
    if (
        count == 1
        and reason != "red_ringo"
        and p.tokens < MAX_LOAD
        and g.supply
        and not has_dangerous(p)
    ):
        gain(g, p, -1, size, reason)
        return
    source_empty = p.tokens == 0 if reason == "red_ringo" else g.supply == 0
    targets = load_targets(g, p, reason, size)
    if source_empty or not targets:
        return
    optional = reason == "red_ringo" and count == 1  # "up to 2": the second is a choice
    if len(targets) == 1 and not optional:
        _put(g, p, targets[0], size, reason)
        if count > 1:
            g.stack.append(["load", seat, count - 1, size, reason])
        return
    g.pending = [LOAD_TOKEN, seat, count, size, reason]


def _put(g: GameState, p: Player, card: int, size: int, reason: str) -> None:
    if reason == "red_ringo":
        moved = min(size, p.tokens, MAX_LOAD - g.loads[card])
        if moved > 0:
            p.tokens -= moved
            g.supply += moved
            p.v += 1
            _log(g, p, -1, -moved, reason)
            gain(g, p, card, moved, reason)
        return
    gain(g, p, card, size, reason)


def resolve_load(g: GameState, pending: list, move: object) -> None:
    _, seat, count, size, reason = pending
    if move.kind == "pass":  # type: ignore[attr-defined]
        return
    p: Player = g.players[seat]
    if count > 1:
        g.stack.append(["load", seat, count - 1, size, reason])
    _put(g, p, card_of(p, move.card), size, reason)  # type: ignore[attr-defined]


def conserved(g: GameState) -> int:
    """Tokens on holders plus the supply (32 in every game with the expansion)."""
    n = g.supply
    for p in g.players:
        n += p.tokens
    return n + sum(g.loads)
