"""Attacks and their answers (rules.md §5, §11): Shot and Buckshot with Cover, Ricochets,
Twin Barrels and Canteen; Raid; Duel; life loss with Stone Leopard, Collector and Bonesetter."""

from __future__ import annotations

from typing import Any

from .cards import CARD_IDS
from .deck_ops import (
    cover_check,
    discard_card,
    discard_from_hand,
    draw,
    first_of_kind,
    flip_check,
    last_of_kind,
    random_hand_card,
    remove_from_hand,
)
from .events import Answered, Cancelled, Healed, Hit, Stole
from .moves import ANSWER_DUEL, ANSWER_RAID, ANSWER_SHOT, BRACE, HEAL_DISCARD, Move
from .state import GameState, Player
from .table import bonesetter_can_heal, distance, has_cover

# The Armed & Dangerous module (engine/armed.py), set by it when it loads: it imports this one.
ARMED: Any = None


def task_shot(g: GameState, task: list) -> None:
    """``["shot", shooter, target, card]``: a Shot or Buckshot hit on ``target`` (and in
    Armed & Dangerous games every Shot-symbol effect; a fifth item is the weapon effect on it:
    ``big_fifty``, ``buntline`` or ``sure``)."""
    if len(task) > 4 or g.expansions:
        _shot_ad(g, task)
        return
    _, shooter, target, card = task
    p: Player = g.players[target]
    if not p.alive:
        return
    needed = 1
    if (
        card == "shot"
        and g.players[shooter].character == "twin_barrels"
        and distance(g, shooter, target) == 1
    ):
        needed = 2
    if has_cover(g, p) and cover_check(g, p):
        needed -= 1
        if needed == 0:
            g.log.append(Cancelled.make(seat=target, source=shooter, by="cover"))
            return
    g.pending = [ANSWER_SHOT, target, shooter, needed, card]


def _shot_ad(g: GameState, task: list) -> None:
    shooter, target, card = task[1], task[2], task[3]
    flag = task[4] if len(task) > 4 else ""
    p: Player = g.players[target]
    if not p.alive:
        return
    needed = 1
    if (
        card == "shot"
        and g.players[shooter].character == "twin_barrels"
        and distance(g, shooter, target) == 1
    ):
        # With Buntline Special's effect a Twin Barrels Shot needs 3 (seed 004).
        needed = 3 if flag == "buntline" else 2
    if flag not in ("big_fifty", "sure") and has_cover(g, p):
        if g.mode == "old_classic":
            covered = flip_check(g, p, "cover")
            ctx = (shooter, card, needed, flag)
            if covered is not None and ARMED.tumbleweed_window(g, target, "cover", covered, *ctx):
                return
            cover_result(g, target, bool(covered), [shooter, card, needed, flag])
            return
        cover_result(g, target, cover_check(g, p), [shooter, card, needed, flag])
        return
    _open_shot_window(g, target, shooter, needed, card, flag)


def cover_result(g: GameState, target: int, covered: bool, ctx: list) -> None:
    """After the Cover check of an Armed & Dangerous Shot: cancelled, or the answer window."""
    shooter, card, needed, flag = ctx
    if not g.players[target].alive:
        return
    if covered:
        needed -= 1
        if needed == 0:
            g.log.append(Cancelled.make(seat=target, source=shooter, by="cover"))
            ARMED.on_shot_cancelled(g, target, shooter, card, flag)
            return
    _open_shot_window(g, target, shooter, needed, card, flag)


def _open_shot_window(g: GameState, target: int, shooter: int, needed: int, card: str,
                      flag: str) -> None:  # fmt: skip
    g.pending = [ANSWER_SHOT, target, shooter, needed, card]
    if flag:
        g.pending.append(flag)


def _answer_card(g: GameState, p: Player, move: Move, against: int) -> None:
    c = first_of_kind(p, move.card)
    discard_card(g, c)
    g.log.append(Answered.make(seat=p.seat, card=CARD_IDS[c], as_kind=move.option, against=against))
    remove_from_hand(g, p, c)


def _heal_first(g: GameState, pending: list) -> None:
    """Bonesetter heals, then the same window opens again."""
    g.stack.append(["window", *pending])
    g.stack.append(["heal_discard", pending[1], 2])


def resolve_answer_shot(g: GameState, pending: list, move: Move) -> None:
    if g.expansions:
        _resolve_answer_shot_ad(g, pending, move)
        return
    _, seat, shooter, needed, card = pending
    p: Player = g.players[seat]
    if move.kind == "take_hit":
        lose_now(g, p, shooter, 1, card)
    elif move.kind == "heal":
        _heal_first(g, pending)
    elif move.card == "canteen":
        _answer_card(g, p, move, shooter)
        g.log.append(Cancelled.make(seat=seat, source=shooter, by="canteen"))
    else:
        _answer_card(g, p, move, shooter)
        if needed > 1:
            g.stack.append(["window", ANSWER_SHOT, seat, shooter, needed - 1, card])
        else:
            g.log.append(Cancelled.make(seat=seat, source=shooter, by="ricochet"))


def _resolve_answer_shot_ad(g: GameState, pending: list, move: Move) -> None:
    seat, shooter, needed, card = pending[1], pending[2], pending[3], pending[4]
    flag = pending[5] if len(pending) > 5 else ""
    p: Player = g.players[seat]
    armed = ARMED
    if move.kind == "take_hit":
        task = ["lose_now", seat, shooter, 1, card]
        if flag == "big_fifty":
            task.append(flag)  # the target's ability is ignored for this Shot
        g.stack.append(task)
        return
    if move.kind == "heal":
        _heal_first(g, pending)
        return
    if move.card == "canteen":
        _answer_card(g, p, move, shooter)
        g.log.append(Cancelled.make(seat=seat, source=shooter, by="canteen"))
        armed.on_shot_cancelled(g, seat, shooter, card, flag)
        return
    if move.kind == "use":  # Crate: a Ricochet paid with 2 of its tokens
        from .events import Used
        from .loads import card_of, spend

        crate = card_of(p, "crate")
        g.log.append(Used.make(seat=seat, what=CARD_IDS[crate], target=shooter))
        spend(g, p, crate, 2, "crate")
        by = "crate"
    else:
        by = "duck" if move.card == "duck" else "ricochet"
        _answer_card(g, p, move, shooter)
    if needed > 1:
        g.stack.append(["window", *pending[:3], needed - 1, *pending[4:]])
    else:
        g.log.append(Cancelled.make(seat=seat, source=shooter, by=by))
        armed.on_shot_cancelled(g, seat, shooter, card, flag)
    if by == "duck":
        # Duck!'s upgrade: 2 tokens to take it back into the hand (asked right away).
        g.stack.append(["take_back", seat, "duck"])


def task_window(g: GameState, task: list) -> None:
    """Re-open an answer window (after a heal or a first Ricochet) if its seat still lives."""
    if g.players[task[2]].alive:
        g.pending = task[1:]


def task_raid(g: GameState, task: list) -> None:
    """``["raid", attacker, target]`` (Armed & Dangerous: ``["raid", attacker, target, "arrow"]``
    for an Arrow, answered the same way)."""
    if g.players[task[2]].alive:
        g.pending = [ANSWER_RAID, task[2], task[1], *task[3:]]


def resolve_answer_raid(g: GameState, pending: list, move: Move) -> None:
    seat, attacker = pending[1], pending[2]
    if move.kind == "take_hit":
        lose_now(g, g.players[seat], attacker, 1, pending[3] if len(pending) > 3 else "raid")
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
        lose_now(g, g.players[seat], other, 1, "duel")
    elif move.kind == "heal":
        _heal_first(g, pending)
    else:
        _answer_card(g, g.players[seat], move, other)
        task_duel(g, ["duel", other, seat])  # the duel's next round: pushed, popped next


def task_lose(g: GameState, task: list) -> None:
    """``["lose", seat, source, amount, cause]``: a loss with no answer window (Dynamite) —
    Bonesetter still gets his window before it resolves."""
    _, seat, source, amount, cause = task
    p: Player = g.players[seat]
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


def lose_now(
    g: GameState, p: Player, source: int, amount: int, cause: str, ignore: bool = False
) -> None:
    """The ``lose_now`` task's hit, unless ``p`` is already out: run at once where a resolver
    would push the task on top of the stack to be popped next (a taken hit: a tenth of
    random-legal decisions)."""
    if p.alive:
        lose_life(g, p, source, amount, cause, ignore)


def task_lose_now(g: GameState, task: list) -> None:
    """``["lose_now", seat, source, amount, cause]`` (a sixth item ``big_fifty``: the
    victim's ability is ignored)."""
    lose_now(g, g.players[task[1]], task[2], task[3], task[4], len(task) > 5)


def lose_life(
    g: GameState, p: Player, source: int, amount: int, cause: str, ignore: bool = False
) -> None:
    """Apply a hit: life loss, then Stone Leopard / Collector (Julie Cutter's flip), then
    elimination at 0. ``ignore``: Big Fifty ignores the victim's ability."""
    life = p.life - amount
    p.life = life if life > 0 else 0  # (not max(): a builtin call)
    p.v += 1
    src = source if source >= 0 else None
    g.log.append(Hit.make(seat=p.seat, source=src, amount=amount, cause=cause, life=p.life))
    if p.life == 0:
        g.stack.append(["eliminate", p.seat, source])
        return
    if ignore:
        return
    if p.character == "julie_cutter" and src is not None and src != p.seat:
        ARMED.julie_trigger(g, p, src)
        return
    if p.character == "stone_leopard":
        draw(g, p, 2 if p.life <= 2 else 1, "stone_leopard")
    elif p.character == "collector" and src is not None:
        q: Player = g.players[src]
        if q.hand:
            c = random_hand_card(g, q)
            p.hand.append(c)
            p.v += 1
            g.known[c] |= 1 << p.seat
            g.log.append(
                Stole.make(
                    seat=p.seat,
                    victim=src,
                    from_hand=True,
                    reason="collector",
                    card=CARD_IDS[c],
                    private_to=[p.seat, src],
                )
            )
            remove_from_hand(g, q, c)


def heal(g: GameState, p: Player, amount: int, cause: str) -> None:
    """Heal up to ``amount`` (never above max; nothing during High Noon)."""
    if g.high_noon or not p.alive:
        return
    gained = min(amount, p.max_life - p.life)
    if gained > 0:
        p.life += gained
        p.v += 1
        g.log.append(Healed.make(seat=p.seat, amount=gained, life=p.life, cause=cause))


def task_heal_discard(g: GameState, task: list) -> None:
    g.pending = [HEAL_DISCARD, task[1], task[2]]


def resolve_heal_discard(g: GameState, pending: list, move: Move) -> None:
    _, seat, remaining = pending
    p: Player = g.players[seat]
    discard_from_hand(g, p, last_of_kind(p, move.card), "bonesetter")
    if remaining > 1:
        g.stack.append(["heal_discard", seat, remaining - 1])
    else:
        heal(g, p, 1, "bonesetter")
