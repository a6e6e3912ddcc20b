"""The turn (rules.md §3, §6): start and rounds, Dynamite and Jail checks, the draw step with
every draw ability, the play step, and the end-of-turn discards."""

from __future__ import annotations

from . import armed
from .cards import CARD_IDS, CARD_KIND_OF, RED
from .deck_ops import (
    discard_card,
    discard_from_hand,
    draw,
    flip_check,
    ids,
    last_of_kind,
    random_hand_card,
    remove_from_hand,
    take_top,
)
from .events import (
    TURN_ENDED,
    TURN_STARTED,
    Drew,
    DynamiteExploded,
    DynamitePassed,
    HighNoon,
    JailResult,
    Looked,
    PutBack,
    Revealed,
    Stole,
    turn_started,
)
from .loads import reload
from .moves import DISCARD_EXCESS, DRAW_CHOICE, DRAW_KEEP, PLAY, Move
from .roles import HIGH_NOON_ROUND, OLD_CLASSIC
from .state import PUBLIC_BIT, GameState, Player
from .table import next_living
from .victory import end_as_draw


def task_turn(g: GameState, task: list) -> None:
    seat = task[1]
    if seat == g.sheriff:
        if g.round >= g.max_rounds:
            end_as_draw(g)
            return
        g.round += 1
        if g.mode != OLD_CLASSIC and g.round >= HIGH_NOON_ROUND and not g.high_noon:
            g.high_noon = True
            g.log.append(HighNoon.make(round=g.round))
    g.turn = seat
    g.shots = 0
    g.jailed = 0
    ev = TURN_STARTED.get((seat, g.round, g.high_noon))  # turn_started(...), inlined
    g.log.append(ev if ev is not None else turn_started(seat, g.round, g.high_noon))
    if g.expansions:
        if g.used:
            g.used = []
        g.bell = False
        # The Bomb is checked after Dynamite and Jail (nothing brings one in between).
        if armed.BOMB in g.players[seat].in_play:
            g.stack += [
                ["end_turn", seat],
                ["play", seat],
                ["draw", seat],
                ["bomb", seat],
                ["jail", seat],
                ["dynamite", seat],
            ]
            return
    in_play = g.players[seat].in_play
    if in_play and not _DYNAMITES.isdisjoint(in_play):
        g.stack += [
            ["end_turn", seat],
            ["play", seat],
            ["draw", seat],
            ["jail", seat],
            ["dynamite", seat],
        ]
    elif in_play and not _JAILS.isdisjoint(in_play):
        # No Dynamite: its check would do nothing, at once (no decision before the Jail's).
        g.stack += [["end_turn", seat], ["play", seat], ["draw", seat], ["jail", seat]]
    else:
        # Neither check has anything to do: the tasks would be popped at once, unchanged, so
        # every decision sees the same stack without them; and the draw, which would be popped
        # next, runs now (it reads the seat at [1], as here).
        g.stack += [["end_turn", seat], ["play", seat]]
        task_draw(g, task)


# The Dynamite's and the Jails' card numbers: a set test on ``in_play`` at every turn start.
_DYNAMITES = frozenset(i for i, k in enumerate(CARD_KIND_OF) if k == "dynamite")
_JAILS = frozenset(i for i, k in enumerate(CARD_KIND_OF) if k == "jail")


def _first_in(cards: list[int], among: frozenset[int]) -> int:
    """The first of ``cards`` in ``among``, or -1."""
    for c in cards:
        if c in among:
            return c
    return -1


def task_dynamite(g: GameState, task: list) -> None:
    p: Player = g.players[task[1]]
    if not p.alive or not p.in_play or _DYNAMITES.isdisjoint(p.in_play):
        return
    safe = flip_check(g, p, "dynamite")
    if g.expansions and safe is not None and armed.tumbleweed_window(g, p.seat, "dynamite", safe):
        return
    dynamite_result(g, p.seat, safe, [])


def dynamite_result(g: GameState, seat: int, safe: bool | None, ctx: list) -> None:
    """The Dynamite check's outcome: it explodes (3 damage) or passes on."""
    p: Player = g.players[seat]
    dyn = _first_in(p.in_play, _DYNAMITES)
    if dyn < 0:
        return
    if safe is False:
        # The exploding Dynamite is discarded before its damage (rules.md §11).
        p.in_play.remove(dyn)
        p.v += 1
        discard_card(g, dyn)
        g.log.append(DynamiteExploded.make(seat=p.seat))
        g.stack.append(["lose", p.seat, -1, 3, "dynamite"])
        return
    to = next_living(g, p.seat)
    if to != p.seat:
        p.in_play.remove(dyn)
        p.v += 1
        g.players[to].in_play.append(dyn)
        g.players[to].v += 1
        g.log.append(DynamitePassed.make(seat=p.seat, to=to))


def task_jail(g: GameState, task: list) -> None:
    p: Player = g.players[task[1]]
    if not p.alive or not p.in_play or _JAILS.isdisjoint(p.in_play):
        return
    # No card to flip at all: the Jail holds (rules.md §6).
    flipped = flip_check(g, p, "jail")
    escaped = bool(flipped)
    if g.expansions and flipped is not None and armed.tumbleweed_window(g, p.seat, "jail", escaped):
        return
    jail_result(g, p.seat, escaped, [])


def jail_result(g: GameState, seat: int, escaped: bool, ctx: list) -> None:
    """The Jail check's outcome: the Jail is discarded; a failed check keeps the turn's play."""
    p: Player = g.players[seat]
    jail = _first_in(p.in_play, _JAILS)
    if jail < 0:
        return
    p.in_play.remove(jail)
    p.v += 1
    discard_card(g, jail)
    g.log.append(JailResult.make(seat=p.seat, escaped=escaped))
    if not escaped:
        g.jailed = 2 if g.mode == OLD_CLASSIC else 1


def draw_options(g: GameState, seat: int) -> bool:
    """Whether the draw step starts with a choice (Grip or Vulture Junior)."""
    p: Player = g.players[seat]
    if p.character == "vulture_junior":
        return bool(g.discard)
    if p.character == "grip":
        q: Player
        for q in g.players:
            if q.alive and q.seat != seat and q.hand:
                return True
    return False


def task_draw(g: GameState, task: list) -> None:
    seat = task[1]
    p: Player = g.players[seat]
    if not p.alive or g.jailed == 2:
        return
    ch = p.character
    if ch in _DRAW_CHOICES and draw_options(g, seat):
        g.pending = [DRAW_CHOICE, seat]
        return
    if ch == "three_eyes" or ch == "red_suit" or (p.stars and "instinct" in p.stars):
        draw_from_deck(g, seat)
        return
    draw(g, p, 2, "draw")  # draw_from_deck's plain case: two cards


_DRAW_CHOICES = frozenset({"vulture_junior", "grip"})  # the characters of draw_options


def draw_from_deck(g: GameState, seat: int) -> None:
    """The whole draw comes from the deck: Three Eyes and instinct look at 3 first."""
    p: Player = g.players[seat]
    if p.character == "three_eyes" or "instinct" in p.stars:
        looked = []
        for _ in range(3):
            c = take_top(g)
            if c < 0:
                break
            looked.append(c)
            g.known[c] |= 1 << seat
        if len(looked) == 3:
            g.limbo.extend(looked)
            g.log.append(Looked.make(seat=seat, count=3, cards=ids(looked), private_to=[seat]))
            g.pending = [DRAW_KEEP, seat, looked]
            return
        # Fewer than 3 cards left anywhere: nothing to choose, keep them all.
        _keep(g, seat, looked)
        return
    got = draw(g, p, 2, "draw")
    if p.character == "red_suit" and len(got) == 2:
        _red_suit(g, seat, got[1])


def _keep(g: GameState, seat: int, cards: list[int]) -> None:
    p: Player = g.players[seat]
    if not cards:
        return
    p.hand.extend(cards)
    p.v += 1
    g.log.append(
        Drew.make(
            seat=seat,
            count=len(cards),
            source="deck",
            reason="draw",
            cards=ids(cards),
            private_to=[seat],
        )
    )
    if p.character == "red_suit" and len(cards) == 2:
        _red_suit(g, seat, cards[1])


def _red_suit(g: GameState, seat: int, second: int) -> None:
    red = RED[second]
    g.known[second] = PUBLIC_BIT | g.known[second]
    g.log.append(Revealed.make(seat=seat, card=CARD_IDS[second], extra=red))
    if red:
        draw(g, g.players[seat], 1, "red_suit")


def resolve_draw_choice(g: GameState, pending: list, move: Move) -> None:
    seat = pending[1]
    p: Player = g.players[seat]
    if move.option == "deck":
        draw_from_deck(g, seat)
        return
    if move.option == "discard":
        c = g.discard.pop()
        p.hand.append(c)
        p.v += 1
        g.log.append(
            Drew.make(
                seat=seat, count=1, source="discard", reason="vulture_junior", cards=[CARD_IDS[c]]
            )
        )
    else:
        victim: Player = g.players[move.target]
        c = random_hand_card(g, victim)
        p.hand.append(c)
        p.v += 1
        g.known[c] |= 1 << seat
        g.log.append(
            Stole.make(
                seat=seat,
                victim=victim.seat,
                from_hand=True,
                reason="grip",
                card=CARD_IDS[c],
                private_to=[seat, victim.seat],
            )
        )
        remove_from_hand(g, victim, c)
    draw(g, p, 1, "draw")


def resolve_draw_keep(g: GameState, pending: list, move: Move) -> None:
    seat, looked = pending[1], pending[2]
    back = next(c for c in looked if CARD_IDS[c] == move.card)
    kept = [c for c in looked if c != back]
    for c in looked:
        g.limbo.remove(c)
    g.deck.append(back)
    g.log.append(PutBack.make(seat=seat, card=CARD_IDS[back], private_to=[seat]))
    _keep(g, seat, kept)


def task_play(g: GameState, task: list) -> None:
    seat = task[1]
    if not g.players[seat].alive or g.jailed:
        return
    g.pending = [PLAY, seat]  # (flow.advance runs this task inline, reusing the task list)


def task_end_turn(g: GameState, task: list) -> None:
    seat = task[1]
    p: Player = g.players[seat]
    # A player who died on his own turn skips the discard step; old_classic Jail skips it too.
    if p.alive and g.jailed != 2 and len(p.hand) > p.life:
        g.pending = [DISCARD_EXCESS, seat]
        return
    g.log.append(TURN_ENDED[seat])  # turn_ended(seat), inlined
    # The next turn's task at once: pushed, it would be popped next
    task_turn(g, ["turn", next_living(g, seat)])


def resolve_discard_excess(g: GameState, pending: list, move: Move) -> None:
    seat = pending[1]
    p: Player = g.players[seat]
    discard_from_hand(g, p, last_of_kind(p, move.card), "hand_limit")
    if g.expansions:
        g.stack.append(["end_turn", seat])
        # After the end_turn task above: the token comes before the turn ends.
        reload(g, p, "hand_limit")  # reloading: +1 token per card discarded
        return
    # The end_turn task at once, not pushed and popped: nothing comes between them here (a
    # fifth of random-legal decisions are these discards). It reads the seat at [1], as here.
    task_end_turn(g, pending)
