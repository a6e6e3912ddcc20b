"""Playing a card on one's turn (rules.md §8): every card kind's effect, Two-Face's Ricochet
as a Shot, Bonesetter's heal, and the Snatch / Knock Off card pick."""

from __future__ import annotations

from . import armed
from .cards import BROWN, CARD_IDS, CARD_KIND_OF, KIND_BY_ID, WEAPON
from .combat import heal, task_duel, task_shot
from .deck_ops import (
    discard_card,
    discard_from_hand,
    draw,
    first_of_kind,
    hand_emptied,
    random_hand_card,
    remove_from_hand,
)
from .events import Discarded, Equipped, Played, Stole
from .loads import left_play
from .moves import PICK_CARD, Move
from .state import PUBLIC_BIT, GameState, Player
from .table import DISTANCE_CARDS, clockwise_others, living, table_changed


def resolve_play(g: GameState, pending: list, move: Move) -> None:
    seat = pending[1]
    move_kind = move.kind  # read once (a generic attribute read in the compiled build)
    if move_kind == "end_turn":
        return  # the end_turn task below the play step takes over
    # The play step again after this card: the decision [PLAY, seat] is that task, and no one
    # else holds it now that it is resolved.
    g.stack.append(pending)
    if move_kind == "heal":
        g.stack.append(["heal_discard", seat, 2])
        return
    p: Player = g.players[seat]
    if g.expansions:
        if move_kind == "use":
            armed.resolve_use(g, p, move)
        else:
            armed.play_card(g, p, first_of_kind(p, move.card), move)  # type: ignore[arg-type]
        return
    kind = move.card
    for c in p.hand:  # first_of_kind(p, kind), inlined: the copy a play uses
        if CARD_KIND_OF[c] == kind:
            break
    else:
        raise KeyError(kind)
    # remove_from_hand, inlined: the card leaves the hand here, and Empty Hands' draw waits
    # until after the card's event below, where remove_from_hand would have run it
    p.hand.remove(c)
    p.v += 1
    target = move.target
    if move_kind == "play_as" or kind == "shot":
        g.shots += 1
        g.discard.append(c)  # discard_card, inlined (as below)
        g.known[c] = PUBLIC_BIT
        g.log.append(Played.make(seat=seat, card=CARD_IDS[c], target=target, as_kind=move.option))
        if not p.hand:
            hand_emptied(g, p)
        # The shot task at once: pushed, it would be popped next
        task_shot(g, ["shot", seat, target, "shot"])
        return
    card = KIND_BY_ID[kind]
    if card.color == BROWN:
        g.discard.append(c)
        g.known[c] = PUBLIC_BIT
        g.log.append(Played.make(seat=seat, card=CARD_IDS[c], target=target, as_kind=None))
        if not p.hand:
            hand_emptied(g, p)
        _BROWN[kind](g, seat, target)
        return
    # Blue cards and weapons stay in play; Jail goes in front of its target.
    owner: Player = g.players[target] if kind == "jail" else p
    replaced = None
    if card.color == WEAPON:
        if p.weapon >= 0:
            replaced = CARD_IDS[p.weapon]
            discard_card(g, p.weapon)
        p.weapon = c
    else:
        owner.in_play.append(c)
        if c in DISTANCE_CARDS:
            table_changed(g)
    owner.v += 1
    g.known[c] = PUBLIC_BIT
    g.log.append(Equipped.make(seat=seat, owner=owner.seat, card=CARD_IDS[c], replaced=replaced))
    if not p.hand:
        hand_emptied(g, p)


def _buckshot(g: GameState, seat: int, target: int | None) -> None:
    for t in reversed(clockwise_others(g, seat)):
        g.stack.append(["shot", seat, t, "buckshot"])


def _raid(g: GameState, seat: int, target: int | None) -> None:
    for t in reversed(clockwise_others(g, seat)):
        g.stack.append(["raid", seat, t])


# The duel and pick tasks run at once: pushed last by resolve_play, they would be popped next.
def _duel(g: GameState, seat: int, target: int | None) -> None:
    task_duel(g, ["duel", target, seat])


def _pick(g: GameState, seat: int, target: int | None, kind: str) -> None:
    task_pick_card(g, ["pick_card", seat, target, kind])


def _snatch(g: GameState, seat: int, target: int | None) -> None:
    _pick(g, seat, target, "snatch")


def _knock_off(g: GameState, seat: int, target: int | None) -> None:
    _pick(g, seat, target, "knock_off")


def _wagon(g: GameState, seat: int, target: int | None) -> None:
    draw(g, g.players[seat], 2, "wagon")


def _caravan(g: GameState, seat: int, target: int | None) -> None:
    draw(g, g.players[seat], 3, "caravan")


def _bazaar(g: GameState, seat: int, target: int | None) -> None:
    for s in [seat] + clockwise_others(g, seat):
        draw(g, g.players[s], 1, "bazaar")


def _saloon(g: GameState, seat: int, target: int | None) -> None:

    for s in living(g):
        heal(g, g.players[s], 1, "saloon")


def _canteen(g: GameState, seat: int, target: int | None) -> None:

    heal(g, g.players[seat], 1, "canteen")


_BROWN = {
    "buckshot": _buckshot,
    "raid": _raid,
    "duel": _duel,
    "snatch": _snatch,
    "knock_off": _knock_off,
    "wagon": _wagon,
    "caravan": _caravan,
    "bazaar": _bazaar,
    "saloon": _saloon,
    "canteen": _canteen,
}


def task_pick_card(g: GameState, task: list) -> None:
    """``["pick_card", seat, target, snatch|knock_off]``: choose which of the target's cards."""
    t: Player = g.players[task[2]]
    if not (g.players[task[1]].alive and t.alive):
        return
    if task[3] in ("whip", "squaw", "squaw_take"):
        # Cards in play only (and not the Whip that is being used).
        own_whip = task[3] == "whip" and task[1] == task[2]
        cards = [c for c in t.in_play if not (own_whip and CARD_KIND_OF[c] == "whip")]
        if cards or t.weapon >= 0:
            g.pending = [PICK_CARD, task[1], task[2], task[3]]
        return
    if t.hand or t.in_play or t.weapon >= 0:
        g.pending = [PICK_CARD, task[1], task[2], task[3]]


def resolve_pick_card(g: GameState, pending: list, move: Move) -> None:
    _, seat, target, how = pending
    p: Player = g.players[seat]
    t: Player = g.players[target]
    if how in ("whip", "squaw", "squaw_take"):
        armed.pick_in_play(g, p, t, move.card, how)  # type: ignore[arg-type]
        return
    if move.option == "hand":
        c = random_hand_card(g, t)
        if how == "snatch":
            p.hand.append(c)
            p.v += 1
            g.known[c] |= 1 << seat
            g.log.append(
                Stole.make(
                    seat=seat,
                    victim=target,
                    from_hand=True,
                    reason="snatch",
                    card=CARD_IDS[c],
                    private_to=[seat, target],
                )
            )
            remove_from_hand(g, t, c)
        else:
            discard_from_hand(g, t, c, "knock_off")
        return
    if t.weapon >= 0 and CARD_KIND_OF[t.weapon] == move.card:
        c = t.weapon
        if g.expansions:
            left_play(g, t, c, how)
        t.weapon = -1
    else:
        c = next(x for x in t.in_play if CARD_KIND_OF[x] == move.card)
        if g.expansions:
            left_play(g, t, c, how)
        t.in_play.remove(c)
        if c in DISTANCE_CARDS:
            table_changed(g)
    t.v += 1
    if how == "snatch":
        p.hand.append(c)
        p.v += 1
        g.log.append(
            Stole.make(seat=seat, victim=target, from_hand=False, reason="snatch", card=CARD_IDS[c])
        )
    else:
        discard_card(g, c)
        g.log.append(Discarded.make(seat=target, cards=[CARD_IDS[c]], reason="knock_off"))


armed.BASE_BROWN.update(_BROWN)
