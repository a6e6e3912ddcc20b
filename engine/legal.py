"""Legal-move generation: the single source of legality, one function per decision kind.

Copies of a card kind in hand are one move; plays list one move per (card kind, target).
Order is canonical (the simplest move first where there is one, then cards in deck-table
order, targets in seat order) and :func:`autopilot_move` relies on it.
"""

from __future__ import annotations

from collections.abc import Callable

from . import armed_legal
from .cards import BLUE, CARD_IDS, CARD_KIND_OF, KIND_BY_ID, WEAPON
from .characters import ALL_CHARACTERS
from .elimination import bounty_options, upgrade_options
from .moves import (
    ANSWER_DUEL,
    ANSWER_RAID,
    ANSWER_SHOT,
    BOUNTY_PICK,
    BRACE,
    DISCARD_CARD,
    DISCARD_EXCESS,
    DRAW_CHOICE,
    DRAW_DECK,
    DRAW_DISCARD,
    DRAW_KEEP,
    END_TURN,
    GLORY_UPGRADE,
    HEAL,
    HEAL_DISCARD,
    LOAD_TOKEN,
    OPTION,
    PASS_BOMB,
    PAY_TOKEN,
    PICK_CARD,
    PICK_HAND,
    PLAY,
    TAKE_HIT,
    TAKE_TOKEN,
    Decision,
    Move,
    answer_move,
    bounty_move,
    discard_move,
    grip_move,
    pick_move,
    play_as_move,
    play_move,
    return_move,
    upgrade_move,
)
from .roles import MAX_SEATS, OLD_CLASSIC
from .state import GameState, Player
from .table import RANGE_OF, bonesetter_can_heal, in_range, living_others

_ALL_ORDER = {k: i for i, k in enumerate(KIND_BY_ID)}
IN_PLAY_PICKS = frozenset({"whip", "squaw", "squaw_take"})
_COLOR = {k: v.color for k, v in KIND_BY_ID.items()}

# The hot paths below work on card numbers and kinds' table order (ints): a set test on a hand
# replaces a loop over it, and the hand's kinds sort as ints with no key function.
_KIND_AT = tuple(KIND_BY_ID)  # per table order: the kind
_ORDER_OF = tuple(_ALL_ORDER[k] for k in CARD_KIND_OF)  # per card number: its kind's order
_BIT_OF = tuple(1 << o for o in _ORDER_OF)  # per card number: its kind's bit (44 kinds: < 64)
_CARDS_OF = {k: frozenset(i for i, x in enumerate(CARD_KIND_OF) if x == k) for k in KIND_BY_ID}
_SHOTS = _CARDS_OF["shot"]
_RICOCHETS = _CARDS_OF["ricochet"]
_CANTEENS = _CARDS_OF["canteen"]
_JAILS = _CARDS_OF["jail"]
_WHIPS = _CARDS_OF["whip"]
_VULCANS = _CARDS_OF["vulcan"]
_UNLIMITED = frozenset(c.id for c in ALL_CHARACTERS if c.unlimited_shots)


def _has_cards(p: Player) -> bool:
    return bool(p.hand or p.in_play or p.weapon >= 0)


# Play moves by card kind (and target seat), built once: legal-move generation runs at every
# decision and formatting/interning ids there was a visible share of the engine's time.
_AT = {
    k: tuple(play_move(k, s) for s in range(MAX_SEATS))
    for k in ("shot", "snatch", "knock_off", "duel", "jail")
}
_AS_SHOT_AT = tuple(play_as_move(s) for s in range(MAX_SEATS))
_UNTARGETED = {k: play_move(k) for k in KIND_BY_ID}

# What the base game's play step checks for a card kind, per kind's table order.
# (_play tests "_SHOT or _RICOCHET" as "<= _RICOCHET" once _PLAIN is ruled out: keep the order)
_PLAIN, _SHOT, _RICOCHET, _CANTEEN, _SNATCH, _KNOCK_OFF, _DUEL, _JAIL, _BLUE, _WEAPON = range(10)
_SPECIAL = {
    "shot": _SHOT,
    "ricochet": _RICOCHET,
    "canteen": _CANTEEN,
    "snatch": _SNATCH,
    "knock_off": _KNOCK_OFF,
    "duel": _DUEL,
    "jail": _JAIL,
}
_CAT_AT = tuple(
    _SPECIAL.get(k, _BLUE if _COLOR[k] == BLUE else _WEAPON if _COLOR[k] == WEAPON else _PLAIN)
    for k in _KIND_AT
)
_UNTARGETED_AT = tuple(_UNTARGETED[k] for k in _KIND_AT)
_CARDS_AT = tuple(_CARDS_OF[k] for k in _KIND_AT)


def _play(g: GameState, pending: list) -> list[Move]:
    """The play step of a base game: End turn, then per kind in hand (in table order) its plays
    and targets, then Bonesetter's heal."""
    if g.expansions:
        return armed_legal.play_moves(g, pending)
    seat = pending[1]
    players = g.players
    p: Player = players[seat]
    hand = p.hand
    if not hand:
        return [END_TURN]  # and no heal: Bonesetter's needs two cards
    moves = [END_TURN]
    others: list[int] | None = None  # the other living seats, when a card needs them
    shoot = -1  # whether a Shot may be played (-1: not asked yet)
    # Loops, not comprehensions, on these short lists: in Python 3.11 a comprehension is a
    # call of its own.
    orders = set()
    for c in hand:
        orders.add(_ORDER_OF[c])
    for o in sorted(orders) if len(orders) > 1 else orders:
        cat = _CAT_AT[o]
        if cat == _PLAIN:
            moves.append(_UNTARGETED_AT[o])
        elif cat <= _RICOCHET:  # _SHOT or _RICOCHET (the numbers after _PLAIN's)
            if cat == _RICOCHET and p.character != "two_face":
                continue
            if shoot < 0:
                # can_shoot (with unlimited_shots) inlined
                shoot = (
                    g.shots == 0 or g.high_noon or p.character in _UNLIMITED or p.weapon in _VULCANS
                )
            if not shoot:
                continue
            at = _AT["shot"] if cat == _SHOT else _AS_SHOT_AT
            # in_range(g, seat, weapon_range(p)), with the memo read inlined
            rng = RANGE_OF[p.weapon]
            if p.stars:
                rng += p.stars.count("marksman")
            memo = g.memo
            targets = memo.get(-1 - (seat << 8 | rng)) if memo is not None and rng < 255 else None
            if targets is None:
                targets = in_range(g, seat, rng)
            for s in targets:
                moves.append(at[s])
        elif cat == _CANTEEN:
            if (
                not g.high_noon
                and 0 < p.life < p.max_life
                and not (g.mode == OLD_CLASSIC and _alive_count(g) < 3)
            ):
                moves.append(_UNTARGETED_AT[o])
        elif cat == _SNATCH:
            at = _AT["snatch"]
            for s in in_range(g, seat, 1):
                q: Player = players[s]
                if q.hand or q.in_play or q.weapon >= 0:
                    moves.append(at[s])
        elif cat == _JAIL:
            at = _AT["jail"]
            sheriff = g.sheriff
            if others is None:
                others = living_others(g, seat)
            for s in others:
                if s != sheriff and _JAILS.isdisjoint(players[s].in_play):
                    moves.append(at[s])
        elif cat == _KNOCK_OFF:
            at = _AT["knock_off"]
            if others is None:
                others = living_others(g, seat)
            for s in others:
                q: Player = players[s]
                if q.hand or q.in_play or q.weapon >= 0:
                    moves.append(at[s])
        elif cat == _DUEL:
            at = _AT["duel"]
            if others is None:
                others = living_others(g, seat)
            for s in others:
                moves.append(at[s])
        elif cat == _BLUE:
            if _CARDS_AT[o].isdisjoint(p.in_play):
                moves.append(_UNTARGETED_AT[o])
        elif p.weapon < 0 or CARD_KIND_OF[p.weapon] != _KIND_AT[o]:  # a weapon
            moves.append(_UNTARGETED_AT[o])
    if p.character == "bonesetter" and bonesetter_can_heal(g, p):
        moves.append(HEAL)
    return moves


def _alive_count(g: GameState) -> int:
    n = 0
    p: Player
    for p in g.players:
        if p.alive:
            n += 1
    return n


# One discard move per card number (the move names the card's kind).
_DISCARD_OF = tuple(discard_move(k) for k in CARD_KIND_OF)


def _discard_hand(g: GameState, pending: list) -> list[Move]:
    """One discard per kind, the kind of the most recently acquired card first."""
    hand = g.players[pending[1]].hand
    if len(hand) == 1:
        return [_DISCARD_OF[hand[0]]]
    out: list[Move] = []
    seen = 0  # a bit per kind's table order
    for c in reversed(hand):
        bit = _BIT_OF[c]
        if not seen & bit:
            seen |= bit
            out.append(_DISCARD_OF[c])
    return out


_ANSWER_RICOCHET = answer_move("ricochet")
_ANSWER_SHOT_AS_RICOCHET = answer_move("shot_as_ricochet")
_ANSWER_CANTEEN = answer_move("canteen")
_ANSWER_SHOT_CARD = answer_move("shot")
_ANSWER_RICOCHET_AS_SHOT = answer_move("ricochet_as_shot")


def _answer_shot(g: GameState, pending: list) -> list[Move]:
    if g.expansions:
        return armed_legal.answer_shot_moves(g, pending)
    p: Player = g.players[pending[1]]
    hand = p.hand
    moves = [TAKE_HIT]
    if not hand:
        return moves  # every answer needs a card (and Bonesetter's heal two)
    if not _RICOCHETS.isdisjoint(hand):
        moves.append(_ANSWER_RICOCHET)
    if p.character == "two_face" and not _SHOTS.isdisjoint(hand):
        moves.append(_ANSWER_SHOT_AS_RICOCHET)
    if p.life == 1 and not g.high_noon and not _CANTEENS.isdisjoint(hand) and _alive_count(g) >= 3:
        moves.append(_ANSWER_CANTEEN)
    if p.character == "bonesetter" and bonesetter_can_heal(g, p):
        moves.append(HEAL)
    return moves


def _single_answer_shot(g: GameState, pending: list) -> Move | None:
    """:func:`_answer_shot`'s move when it is the only one (Take the hit: nothing in hand
    answers and Bonesetter cannot heal), else None."""
    p: Player = g.players[pending[1]]
    hand = p.hand
    if not hand:
        return TAKE_HIT
    if not _RICOCHETS.isdisjoint(hand):
        return None
    if p.character == "two_face" and not _SHOTS.isdisjoint(hand):
        return None
    if p.life == 1 and not g.high_noon and not _CANTEENS.isdisjoint(hand) and _alive_count(g) >= 3:
        return None
    if p.character == "bonesetter" and bonesetter_can_heal(g, p):
        return None
    return TAKE_HIT


def _answer_shot_card(g: GameState, pending: list) -> list[Move]:
    """Raid and Duel: discard a Shot (Two-Face: or a Ricochet as a Shot)."""
    p: Player = g.players[pending[1]]
    hand = p.hand
    moves = [TAKE_HIT]
    if not hand:
        return moves
    if not _SHOTS.isdisjoint(hand):
        moves.append(_ANSWER_SHOT_CARD)
    if p.character == "two_face" and not _RICOCHETS.isdisjoint(hand):
        moves.append(_ANSWER_RICOCHET_AS_SHOT)
    if p.character == "bonesetter" and bonesetter_can_heal(g, p):
        moves.append(HEAL)
    return moves


def _single_answer_shot_card(g: GameState, pending: list) -> Move | None:
    """:func:`_answer_shot_card`'s move when it is the only one (Take the hit), else None."""
    p: Player = g.players[pending[1]]
    hand = p.hand
    if not hand:
        return TAKE_HIT
    if not _SHOTS.isdisjoint(hand):
        return None
    if p.character == "two_face" and not _RICOCHETS.isdisjoint(hand):
        return None
    if p.character == "bonesetter" and bonesetter_can_heal(g, p):
        return None
    return TAKE_HIT


def _brace(g: GameState, pending: list) -> list[Move]:
    return [TAKE_HIT, HEAL]


def _draw_choice(g: GameState, pending: list) -> list[Move]:
    seat = pending[1]
    p: Player = g.players[seat]
    moves = [DRAW_DECK]
    if p.character == "vulture_junior" and g.discard:
        moves.append(DRAW_DISCARD)
    if p.character == "grip":
        q: Player
        for q in g.players:
            if q.alive and q.seat != seat and q.hand:
                moves.append(grip_move(q.seat))
    return moves


_RETURN_OF = tuple(return_move(c) for c in CARD_IDS)  # per card number


def _draw_keep(g: GameState, pending: list) -> list[Move]:
    return [_RETURN_OF[c] for c in pending[2]]


def _pick_card(g: GameState, pending: list) -> list[Move]:
    t: Player = g.players[pending[2]]
    how = pending[3]
    in_play_only = how in IN_PLAY_PICKS  # Whip and Squaw: cards in play only
    moves = [PICK_HAND] if t.hand and not in_play_only else []
    kinds = [CARD_KIND_OF[c] for c in t.in_play]
    if how == "whip" and pending[1] == pending[2] and "whip" in kinds:
        kinds.remove("whip")
    if t.weapon >= 0:
        kinds.append(CARD_KIND_OF[t.weapon])
    if len(kinds) > 1:
        kinds.sort(key=_ALL_ORDER.__getitem__)
    for k in kinds:
        moves.append(pick_move(k))
    return moves


def _single_pick_card(g: GameState, pending: list) -> Move | None:
    """:func:`_pick_card`'s move when the target has one card to pick (counted, not listed),
    else None."""
    t: Player = g.players[pending[2]]
    how = pending[3]
    in_play = t.in_play
    n = len(in_play)
    if t.weapon >= 0:
        n += 1
    own_whip = how == "whip" and pending[1] == pending[2] and not _WHIPS.isdisjoint(in_play)
    if own_whip:
        n -= 1  # the Whip being used is not a pick
    if t.hand and how not in IN_PLAY_PICKS:
        return PICK_HAND if n == 0 else None
    if n != 1:
        return None
    for c in in_play:
        if not (own_whip and c in _WHIPS):
            return pick_move(CARD_KIND_OF[c])
    return pick_move(CARD_KIND_OF[t.weapon])


def _glory_upgrade(g: GameState, pending: list) -> list[Move]:
    return [upgrade_move(u) for u in upgrade_options(g, g.players[pending[1]])]


def _bounty_pick(g: GameState, pending: list) -> list[Move]:
    killer, victim = g.players[pending[1]], g.players[pending[2]]
    return [bounty_move(u) for u in bounty_options(g, killer, victim)]


def _single_bounty_pick(g: GameState, pending: list) -> Move | None:
    """The bounty when the victim's stars leave one choice (most often: one star), else None."""
    opts = bounty_options(g, g.players[pending[1]], g.players[pending[2]])
    return bounty_move(opts[0]) if len(opts) == 1 else None


GENERATORS: dict[str, Callable[[GameState, list], list[Move]]] = {
    PLAY: _play,
    DISCARD_EXCESS: _discard_hand,
    HEAL_DISCARD: _discard_hand,
    ANSWER_SHOT: _answer_shot,
    ANSWER_RAID: _answer_shot_card,
    ANSWER_DUEL: _answer_shot_card,
    BRACE: _brace,
    DRAW_CHOICE: _draw_choice,
    DRAW_KEEP: _draw_keep,
    PICK_CARD: _pick_card,
    GLORY_UPGRADE: _glory_upgrade,
    BOUNTY_PICK: _bounty_pick,
    OPTION: armed_legal.option_moves,
    PAY_TOKEN: armed_legal.pay_moves,
    LOAD_TOKEN: armed_legal.load_moves,
    DISCARD_CARD: armed_legal.discard_card_moves,
    TAKE_TOKEN: armed_legal.take_moves,
    PASS_BOMB: armed_legal.give_moves,
}


# Armed & Dangerous games: the play step and the Shot answer window have their own generators
# (looked up here once, instead of a test in the base game's generators at every call).
AD_GENERATORS: dict[str, Callable[[GameState, list], list[Move]]] = {
    **GENERATORS,
    PLAY: armed_legal.play_moves,
    ANSWER_SHOT: armed_legal.answer_shot_moves,
}

# Forced decisions (one legal move, applied by the engine) told without listing the moves: per
# decision kind whose single move is common and cheap to recognise, a check that returns that
# move, or None when the generator would list two or more (tests/test_engine_forced.py checks
# both agree at every step). The other kinds are told by their generator's list: the play step
# and the discards, whose check would have to look at every card the generator looks at (a
# forced play is a hand where no card is playable), and kinds that are never or seldom forced.
SINGLE_CHECKS: dict[str, Callable[[GameState, list], Move | None]] = {
    ANSWER_SHOT: _single_answer_shot,
    ANSWER_RAID: _single_answer_shot_card,
    ANSWER_DUEL: _single_answer_shot_card,
    PICK_CARD: _single_pick_card,
    BOUNTY_PICK: _single_bounty_pick,
}
AD_SINGLE_CHECKS: dict[str, Callable[[GameState, list], Move | None]] = {
    **SINGLE_CHECKS,
    ANSWER_SHOT: armed_legal.answer_shot_single,
}


def legal_moves(g: GameState) -> list[Move]:
    """The legal moves of the pending decision (empty when the game is over)."""
    pending = g.pending
    if pending is None:
        return []
    if g.expansions:
        return AD_GENERATORS[pending[0]](g, pending)
    return GENERATORS[pending[0]](g, pending)


def forced_move(g: GameState) -> Move | None:
    """The pending decision's move when it is its only legal move (a forced decision), else
    None (no decision, or two or more moves): a kind's single check where it has one, else the
    length of its legal list."""
    pending = g.pending
    if pending is None:
        return None
    check = (AD_SINGLE_CHECKS if g.expansions else SINGLE_CHECKS).get(pending[0])
    if check is not None:
        return check(g, pending)
    moves = legal_moves(g)
    return moves[0] if len(moves) == 1 else None


def autopilot_move(decision: Decision | list[Move] | tuple[Move, ...]) -> Move:
    """The simplest legal move of a decision (rules.md §3): take the hit / pass, end the turn,
    discard the most recently acquired card; for decisions with no "simplest" move (an upgrade,
    a draw choice, a bounty pick) the first legal move in canonical order. Legal lists are
    generated with that move first, so this is always the head of the list."""
    moves = decision.moves if isinstance(decision, Decision) else decision
    return moves[0]
