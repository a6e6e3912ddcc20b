"""The task loop: runs queued work until a decision with a real choice is pending, applying
forced (single-move) decisions by itself (rules.md §11)."""

from __future__ import annotations

from collections.abc import Callable

from . import armed, combat, elimination, loads, plays, turn
from .events import MOVE_EVENTS, move_event
from .legal import AD_GENERATORS, AD_SINGLE_CHECKS, GENERATORS, SINGLE_CHECKS
from .moves import (
    ANSWER_DUEL,
    ANSWER_RAID,
    ANSWER_SHOT,
    BOUNTY_PICK,
    BRACE,
    DISCARD_CARD,
    DISCARD_EXCESS,
    DRAW_CHOICE,
    DRAW_KEEP,
    GLORY_UPGRADE,
    HEAL_DISCARD,
    LOAD_TOKEN,
    OPTION,
    PASS_BOMB,
    PAY_TOKEN,
    PICK_CARD,
    PLAY,
    TAKE_TOKEN,
    Move,
)
from .state import GameState, Player

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
    # Armed & Dangerous
    "checked": lambda g, task: CHECK_RESULTS[task[1]](g, task[2], task[3], task[4]),
    "pay": loads.task_pay,
    "load": loads.task_load,
    "shoot": armed.task_shoot,
    "abigail": armed.task_abigail,
    "mule_train": armed.task_mule_train,
    "little_nip": armed.task_little_nip,
    "quick_shot": armed.task_quick_shot,
    "arrow": armed.task_arrow,
    "squaw": armed.task_squaw,
    "take_back": armed.task_take_back,
    "discard_card": armed.task_discard_card,
    "draw_n": armed.task_draw_n,
    "heal_n": armed.task_heal_n,
    "to_hand": armed.task_to_hand,
    "preacher": armed.task_preacher,
    "lockpick": armed.task_lockpick,
    "bomb": armed.task_bomb,
    "tumbleweed": armed.task_tumbleweed,
    "julie": armed.task_julie,
}

# What a check's result does, by check (after Tumbleweed's window: ``["checked", …]``).
CHECK_RESULTS: dict[str, Callable[[GameState, int, bool, list], None]] = {
    "dynamite": turn.dynamite_result,
    "jail": turn.jail_result,
    "bomb": armed.bomb_result,
    "julie_cutter": armed.julie_result,
    "cover": combat.cover_result,
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
    OPTION: armed.resolve_option,
    PAY_TOKEN: loads.resolve_pay,
    LOAD_TOKEN: loads.resolve_load,
    DISCARD_CARD: armed.resolve_discard_card,
    TAKE_TOKEN: armed.resolve_take_token,
    PASS_BOMB: armed.resolve_pass_bomb,
}


def resolve(g: GameState, move: Move, auto: bool) -> None:
    """Apply ``move`` to the pending decision (which must list it)."""
    pending = g.pending
    g.log.append(move_event(pending[1], move, auto))
    g.pending = None
    RESOLVERS[pending[0]](g, pending, move)


def advance(g: GameState) -> list[Move]:
    """Run tasks until a decision with two or more legal moves is pending or the game is over;
    returns that decision's legal moves.

    A forced decision (one legal move) is applied here, logged with ``auto``: told by the
    kind's single check where it has one (no list built), else by its generator's list."""
    tasks = TASKS
    if g.expansions:
        generators, checks = AD_GENERATORS, AD_SINGLE_CHECKS
    else:
        generators, checks = GENERATORS, SINGLE_CHECKS
    play_moves = generators[PLAY]  # the play step has no single check (legal.SINGLE_CHECKS)
    stack = g.stack
    players = g.players
    p: Player  # a C type in the compiled build: its fields are struct reads
    while not g.over:
        pending = g.pending
        if pending is None:
            task = stack.pop()
            kind = task[0]
            if kind != PLAY:
                tasks[kind](g, task)
                continue
            # turn.task_play, inlined: the most frequent task (after every card played). The
            # task ["play", seat] is the decision [PLAY, seat] itself (no new list), its moves
            # listed at once.
            p = players[task[1]]
            if not p.alive or g.jailed:
                continue
            g.pending = pending = task
            moves = play_moves(g, pending)
            if len(moves) != 1:
                return moves
            move = moves[0]
        else:
            kind = pending[0]
            check = checks.get(kind)
            if check is not None:
                move = check(g, pending)
                if move is None:
                    return generators[kind](g, pending)
            else:
                moves = generators[kind](g, pending)
                if len(moves) != 1:
                    return moves
                move = moves[0]
        g.forced += 1
        # resolve(g, move, auto=True), inlined (a fifth of the decisions are forced)
        seat = pending[1]
        ev = MOVE_EVENTS[seat + seat + 1].get(move.id)
        if ev is None or ev.move_kind != move.kind:
            ev = move_event(seat, move, True)
        g.log.append(ev)
        g.pending = None
        RESOLVERS[kind](g, pending, move)
    return []
