"""Legal-move generation: the single source of legality, one function per decision kind.

Copies of a card kind in hand are one move; plays list one move per (card kind, target).
Order is canonical (the simplest move first where there is one, then cards in deck-table
order, targets in seat order) and :func:`autopilot_move` relies on it.
"""

from __future__ import annotations

from collections.abc import Callable

from . import armed_legal
from .cards import BLUE, CARD_IDS, CARD_KIND_OF, CARD_KINDS, KIND_BY_ID, WEAPON
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
from .table import bonesetter_can_heal, can_heal, can_shoot, seat_distances, weapon_range

_KIND_ORDER = {k.id: i for i, k in enumerate(CARD_KINDS)}
_ALL_ORDER = {k: i for i, k in enumerate(KIND_BY_ID)}
IN_PLAY_PICKS = frozenset({"whip", "squaw", "squaw_take"})
_COLOR = {k.id: k.color for k in CARD_KINDS}


def _kinds_in_hand(p: Player) -> list[str]:
    """The kinds in ``p``'s hand, in deck-table order."""
    kinds = {CARD_KIND_OF[c] for c in p.hand}
    return sorted(kinds, key=_KIND_ORDER.__getitem__)


def _has_cards(p: Player) -> bool:
    return bool(p.hand or p.in_play or p.weapon >= 0)


# Play moves by card kind (and target seat), built once: legal-move generation runs at every
# decision and formatting/interning ids there was a visible share of the engine's time.
_AT = {
    k: tuple(play_move(k, s) for s in range(MAX_SEATS))
    for k in ("shot", "snatch", "knock_off", "duel", "jail")
}
_AS_SHOT_AT = tuple(play_as_move(s) for s in range(MAX_SEATS))
_UNTARGETED = {
    k.id: play_move(k.id)
    for k in CARD_KINDS
    if k.id not in ("ricochet", *_AT) and k.target == "none"
}


def _play(g: GameState, pending: list) -> list[Move]:
    if g.expansions:
        return armed_legal.play_moves(g, pending)
    seat = pending[1]
    players = g.players
    p = players[seat]
    moves = [END_TURN]
    if not p.hand:
        if bonesetter_can_heal(g, p):
            moves.append(HEAL)
        return moves
    kinds = _kinds_in_hand(p)
    dist = None
    others = [q for q in players if q.alive and q.seat != seat]
    for kind in kinds:
        if kind == "shot" or (kind == "ricochet" and p.character == "two_face"):
            if not can_shoot(g, p):
                continue
            if dist is None:
                dist = seat_distances(g, seat)
            rng = weapon_range(p)
            at = _AT["shot"] if kind == "shot" else _AS_SHOT_AT
            moves.extend([at[q.seat] for q in others if dist[q.seat] <= rng])
        elif kind == "ricochet":
            continue
        elif kind == "canteen":
            if can_heal(g, p) and not (g.mode == OLD_CLASSIC and _alive_count(g) < 3):
                moves.append(_UNTARGETED[kind])
        elif kind == "snatch":
            if dist is None:
                dist = seat_distances(g, seat)
            at = _AT[kind]
            moves.extend([at[q.seat] for q in others if dist[q.seat] == 1 and _has_cards(q)])
        elif kind == "knock_off":
            at = _AT[kind]
            moves.extend([at[q.seat] for q in others if _has_cards(q)])
        elif kind == "duel":
            at = _AT[kind]
            moves.extend([at[q.seat] for q in others])
        elif kind == "jail":
            at = _AT[kind]
            for q in others:
                if q.seat != g.sheriff and not any(CARD_KIND_OF[c] == "jail" for c in q.in_play):
                    moves.append(at[q.seat])
        else:
            color = _COLOR[kind]
            if color == BLUE:
                if not any(CARD_KIND_OF[c] == kind for c in p.in_play):
                    moves.append(_UNTARGETED[kind])
            elif color == WEAPON:
                if p.weapon < 0 or CARD_KIND_OF[p.weapon] != kind:
                    moves.append(_UNTARGETED[kind])
            else:
                moves.append(_UNTARGETED[kind])
    if bonesetter_can_heal(g, p):
        moves.append(HEAL)
    return moves


def _alive_count(g: GameState) -> int:
    return sum(1 for p in g.players if p.alive)


def _discard_hand(g: GameState, pending: list) -> list[Move]:
    """One discard per kind, the kind of the most recently acquired card first."""
    p = g.players[pending[1]]
    out: list[Move] = []
    seen: set[str] = set()
    for c in reversed(p.hand):
        k = CARD_KIND_OF[c]
        if k not in seen:
            seen.add(k)
            out.append(discard_move(k))
    return out


def _answer_shot(g: GameState, pending: list) -> list[Move]:
    if g.expansions:
        return armed_legal.answer_shot_moves(g, pending)
    p = g.players[pending[1]]
    moves = [TAKE_HIT]
    kinds = {CARD_KIND_OF[c] for c in p.hand}
    if "ricochet" in kinds:
        moves.append(answer_move("ricochet"))
    if "shot" in kinds and p.character == "two_face":
        moves.append(answer_move("shot_as_ricochet"))
    if "canteen" in kinds and p.life == 1 and not g.high_noon and _alive_count(g) >= 3:
        moves.append(answer_move("canteen"))
    if bonesetter_can_heal(g, p):
        moves.append(HEAL)
    return moves


def _answer_shot_card(g: GameState, pending: list) -> list[Move]:
    """Raid and Duel: discard a Shot (Two-Face: or a Ricochet as a Shot)."""
    p = g.players[pending[1]]
    moves = [TAKE_HIT]
    kinds = {CARD_KIND_OF[c] for c in p.hand}
    if "shot" in kinds:
        moves.append(answer_move("shot"))
    if "ricochet" in kinds and p.character == "two_face":
        moves.append(answer_move("ricochet_as_shot"))
    if bonesetter_can_heal(g, p):
        moves.append(HEAL)
    return moves


def _brace(g: GameState, pending: list) -> list[Move]:
    return [TAKE_HIT, HEAL]


def _draw_choice(g: GameState, pending: list) -> list[Move]:
    seat = pending[1]
    p = g.players[seat]
    moves = [DRAW_DECK]
    if p.character == "vulture_junior" and g.discard:
        moves.append(DRAW_DISCARD)
    if p.character == "grip":
        for q in g.players:
            if q.alive and q.seat != seat and q.hand:
                moves.append(grip_move(q.seat))
    return moves


def _draw_keep(g: GameState, pending: list) -> list[Move]:
    return [return_move(CARD_IDS[c]) for c in pending[2]]


def _pick_card(g: GameState, pending: list) -> list[Move]:
    t = g.players[pending[2]]
    how = pending[3]
    in_play_only = how in IN_PLAY_PICKS  # Whip and Squaw: cards in play only
    moves = [PICK_HAND] if t.hand and not in_play_only else []
    kinds = [CARD_KIND_OF[c] for c in t.in_play]
    if how == "whip" and pending[1] == pending[2] and "whip" in kinds:
        kinds.remove("whip")
    if t.weapon >= 0:
        kinds.append(CARD_KIND_OF[t.weapon])
    for k in sorted(kinds, key=_ALL_ORDER.__getitem__):
        moves.append(pick_move(k))
    return moves


def _glory_upgrade(g: GameState, pending: list) -> list[Move]:
    return [upgrade_move(u) for u in upgrade_options(g, g.players[pending[1]])]


def _bounty_pick(g: GameState, pending: list) -> list[Move]:
    killer, victim = g.players[pending[1]], g.players[pending[2]]
    return [bounty_move(u) for u in bounty_options(g, killer, victim)]


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


def legal_moves(g: GameState) -> list[Move]:
    """The legal moves of the pending decision (empty when the game is over)."""
    pending = g.pending
    if pending is None:
        return []
    if g.expansions:
        return AD_GENERATORS[pending[0]](g, pending)
    return GENERATORS[pending[0]](g, pending)


def autopilot_move(decision: Decision | list[Move] | tuple[Move, ...]) -> Move:
    """The simplest legal move of a decision (rules.md §3): take the hit / pass, end the turn,
    discard the most recently acquired card; for decisions with no "simplest" move (an upgrade,
    a draw choice, a bounty pick) the first legal move in canonical order. Legal lists are
    generated with that move first, so this is always the head of the list."""
    moves = decision.moves if isinstance(decision, Decision) else decision
    return moves[0]
