"""The task loop: runs queued work until a decision with a real choice is pending, applying
forced (single-move) decisions by itself (rules.md §11)."""

from __future__ import annotations

from collections.abc import Callable

from . import combat, elimination, plays, turn
from .events import move_made
from .legal import legal_moves
from .moves import (
    ANSWER_DUEL,
    ANSWER_RAID,
    ANSWER_SHOT,
    BOUNTY_PICK,
    BRACE,
    DISCARD_EXCESS,
    DRAW_CHOICE,
    DRAW_KEEP,
    GLORY_UPGRADE,
    HEAL_DISCARD,
    PICK_CARD,
    PLAY,
    SECRET_MOVE_KINDS,
    Move,
)
from .state import GameState

TASKS: dict[str, Callable[[GameState, list], None]] = {
    "turn": turn.task_turn,
    "dynamite": turn.task_dynamite,
    "jail": turn.task_jail,
    "draw": turn.task_draw,
    "play": turn.task_play,
    "end_turn": turn.task_end_turn,
    "shot": combat.task_shot,
    "window": combat.task_window,
    "raid": combat.task_raid,
    "duel": combat.task_duel,
    "lose": combat.task_lose,
    "lose_now": combat.task_lose_now,
    "heal_discard": combat.task_heal_discard,
    "eliminate": elimination.task_eliminate,
    "new_star": elimination.task_new_star,
    "bounty_pick": elimination.task_bounty_pick,
    "pick_card": plays.task_pick_card,
}

RESOLVERS: dict[str, Callable[[GameState, list, Move], None]] = {
    PLAY: plays.resolve_play,
    DISCARD_EXCESS: turn.resolve_discard_excess,
    ANSWER_SHOT: combat.resolve_answer_shot,
    ANSWER_RAID: combat.resolve_answer_raid,
    ANSWER_DUEL: combat.resolve_answer_duel,
    BRACE: combat.resolve_brace,
    HEAL_DISCARD: combat.resolve_heal_discard,
    DRAW_CHOICE: turn.resolve_draw_choice,
    DRAW_KEEP: turn.resolve_draw_keep,
    PICK_CARD: plays.resolve_pick_card,
    GLORY_UPGRADE: elimination.resolve_glory_upgrade,
    BOUNTY_PICK: elimination.resolve_bounty_pick,
}


def resolve(g: GameState, move: Move, auto: bool) -> None:
    """Apply ``move`` to the pending decision (which must list it)."""
    pending = g.pending
    seat = pending[1]
    g.log.append(move_made(seat, move.kind, auto, move.id, move.kind in SECRET_MOVE_KINDS))
    g.pending = None
    RESOLVERS[pending[0]](g, pending, move)


def advance(g: GameState) -> list[Move]:
    """Run tasks until a decision with two or more legal moves is pending or the game is over;
    returns that decision's legal moves."""
    tasks = TASKS
    stack = g.stack
    while not g.over:
        if g.pending is None:
            task = stack.pop()
            tasks[task[0]](g, task)
            stack = g.stack
            continue
        moves = legal_moves(g)
        if len(moves) == 1:
            g.forced += 1
            resolve(g, moves[0], auto=True)
            continue
        return moves
    return []
