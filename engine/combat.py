"""Attacks and their answers (rules.md §5, §11): Shot and Buckshot with Cover, Ricochets,
Twin Barrels and Canteen; Raid; Duel; life loss with Stone Leopard, Collector and Bonesetter."""

from __future__ import annotations

from . import deck_ops as ops
from .cards import DECK
from .events import Answered, Cancelled, Healed, Hit, Stole
from .moves import ANSWER_DUEL, ANSWER_RAID, ANSWER_SHOT, BRACE, HEAL_DISCARD, Move
from .state import GameState, Player
from .table import bonesetter_can_heal, distance, has_cover


def task_shot(g: GameState, task: list) -> None:
    """``["shot", shooter, target, card]``: a Shot or Buckshot hit on ``target``."""
    _, shooter, target, card = task
    p = g.players[target]
    if not p.alive:
        return
    needed = 1
    if (
        card == "shot"
        and g.players[shooter].character == "twin_barrels"
        and distance(g, shooter, target) == 1
    ):
        needed = 2
    if has_cover(g, p) and ops.cover_check(g, p):
        needed -= 1
        if needed == 0:
            g.log.append(Cancelled(seat=target, source=shooter, by="cover"))
            return
    g.pending = [ANSWER_SHOT, target, shooter, needed, card]


def _answer_card(g: GameState, p: Player, move: Move, against: int) -> None:
    c = ops.first_of_kind(p, move.card)
    ops.discard_card(g, c)
    g.log.append(Answered(seat=p.seat, card=DECK[c].id, as_kind=move.option, against=against))
    ops.remove_from_hand(g, p, c)


def _heal_first(g: GameState, pending: list) -> None:
    """Bonesetter heals, then the same window opens again."""
    g.stack.append(["window", *pending])
    g.stack.append(["heal_discard", pending[1], 2])


def resolve_answer_shot(g: GameState, pending: list, move: Move) -> None:
    _, seat, shooter, needed, card = pending
    p = g.players[seat]
    if move.kind == "take_hit":
        g.stack.append(["lose_now", seat, shooter, 1, card])
    elif move.kind == "heal":
        _heal_first(g, pending)
    elif move.card == "canteen":
        _answer_card(g, p, move, shooter)
        g.log.append(Cancelled(seat=seat, source=shooter, by="canteen"))
    else:
        _answer_card(g, p, move, shooter)
        if needed > 1:
            g.stack.append(["window", ANSWER_SHOT, seat, shooter, needed - 1, card])
        else:
            g.log.append(Cancelled(seat=seat, source=shooter, by="ricochet"))


def task_window(g: GameState, task: list) -> None:
    """Re-open an answer window (after a heal or a first Ricochet) if its seat still lives."""
    if g.players[task[2]].alive:
        g.pending = task[1:]


def task_raid(g: GameState, task: list) -> None:
    """``["raid", attacker, target]``."""
    if g.players[task[2]].alive:
        g.pending = [ANSWER_RAID, task[2], task[1]]


def resolve_answer_raid(g: GameState, pending: list, move: Move) -> None:
    _, seat, attacker = pending
    if move.kind == "take_hit":
        g.stack.append(["lose_now", seat, attacker, 1, "raid"])
    elif move.kind == "heal":
        _heal_first(g, pending)
    else:
        _answer_card(g, g.players[seat], move, attacker)


def task_duel(g: GameState, task: list) -> None:
    """``["duel", responder, other]``: ``responder`` must discard a Shot or lose."""
    if g.players[task[1]].alive and g.players[task[2]].alive:
        g.pending = [ANSWER_DUEL, task[1], task[2]]


def resolve_answer_duel(g: GameState, pending: list, move: Move) -> None:
    _, seat, other = pending
    if move.kind == "take_hit":
        g.stack.append(["lose_now", seat, other, 1, "duel"])
    elif move.kind == "heal":
        _heal_first(g, pending)
    else:
        _answer_card(g, g.players[seat], move, other)
        g.stack.append(["duel", other, seat])


def task_lose(g: GameState, task: list) -> None:
    """``["lose", seat, source, amount, cause]``: a loss with no answer window (Dynamite) —
    Bonesetter still gets his window before it resolves."""
    _, seat, source, amount, cause = task
    p = g.players[seat]
    if not p.alive:
        return
    if bonesetter_can_heal(g, p):
        g.pending = [BRACE, seat, source, amount, cause]
        return
    lose_life(g, p, source, amount, cause)


def resolve_brace(g: GameState, pending: list, move: Move) -> None:
    _, seat, source, amount, cause = pending
    if move.kind == "heal":
        g.stack.append(["lose", seat, source, amount, cause])
        g.stack.append(["heal_discard", seat, 2])
    else:
        lose_life(g, g.players[seat], source, amount, cause)


def task_lose_now(g: GameState, task: list) -> None:
    _, seat, source, amount, cause = task
    p = g.players[seat]
    if p.alive:
        lose_life(g, p, source, amount, cause)


def lose_life(g: GameState, p: Player, source: int, amount: int, cause: str) -> None:
    """Apply a hit: life loss, then Stone Leopard / Collector, then elimination at 0."""
    p.life = max(0, p.life - amount)
    p.v += 1
    src = source if source >= 0 else None
    g.log.append(Hit(seat=p.seat, source=src, amount=amount, cause=cause, life=p.life))
    if p.life == 0:
        g.stack.append(["eliminate", p.seat, source])
        return
    if p.character == "stone_leopard":
        ops.draw(g, p, 2 if p.life <= 2 else 1, "stone_leopard")
    elif p.character == "collector" and src is not None:
        q = g.players[src]
        if q.hand:
            c = ops.random_hand_card(g, q)
            p.hand.append(c)
            p.v += 1
            g.known[c] |= 1 << p.seat
            g.log.append(
                Stole(
                    seat=p.seat,
                    victim=src,
                    from_hand=True,
                    reason="collector",
                    card=DECK[c].id,
                    private_to=[p.seat, src],
                )
            )
            ops.remove_from_hand(g, q, c)


def heal(g: GameState, p: Player, amount: int, cause: str) -> None:
    """Heal up to ``amount`` (never above max; nothing during High Noon)."""
    if g.high_noon or not p.alive:
        return
    gained = min(amount, p.max_life - p.life)
    if gained > 0:
        p.life += gained
        p.v += 1
        g.log.append(Healed(seat=p.seat, amount=gained, life=p.life, cause=cause))


def task_heal_discard(g: GameState, task: list) -> None:
    g.pending = [HEAL_DISCARD, task[1], task[2]]


def resolve_heal_discard(g: GameState, pending: list, move: Move) -> None:
    _, seat, remaining = pending
    p = g.players[seat]
    ops.discard_from_hand(g, p, ops.last_of_kind(p, move.card), "bonesetter")
    if remaining > 1:
        g.stack.append(["heal_discard", seat, remaining - 1])
    else:
        heal(g, p, 1, "bonesetter")
