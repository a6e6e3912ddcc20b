"""Forced decisions told without listing the moves (issue #17): at every decision of random
games — forced ones included, which the engine applies by itself — each decision kind's single
check (``legal.SINGLE_CHECKS``, ``legal.AD_SINGLE_CHECKS``) and :func:`legal.forced_move` agree
with the kind's generator: the move when it lists exactly one, None otherwise."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bangarena.engine import GameConfig, new_game
from bangarena.engine.flow import TASKS, advance, resolve
from bangarena.engine.legal import AD_SINGLE_CHECKS, SINGLE_CHECKS, forced_move, legal_moves
from bangarena.engine.moves import PLAY
from bangarena.engine.roles import MAX_SEATS, MIN_SEATS, MODES
from bangarena.engine.state import GameState

AD = ("armed_dangerous",)
GAMES_PER_TABLE = 3


def _check_every_decision(g: GameState, rnd: random.Random, seen: Counter) -> None:
    """Play ``g`` to its end the way ``flow.advance`` does, but stopping at every pending
    decision (forced or not) to compare the single checks with the generated list."""
    checks = AD_SINGLE_CHECKS if g.expansions else SINGLE_CHECKS
    while not g.over:
        if g.pending is None:
            task = g.stack.pop()
            TASKS[task[0]](g, task)
            continue
        kind = g.pending[0]
        moves = legal_moves(g)
        assert moves, f"{kind}: a decision with no legal move"
        single = forced_move(g)
        if len(moves) == 1:
            assert single is moves[0], (kind, moves, single)
        else:
            assert single is None, (kind, moves, single)
        check = checks.get(kind)
        if check is not None:
            assert check(g, g.pending) is single, (kind, moves)
            seen[kind, len(moves) == 1] += 1
        resolve(g, moves[rnd.randrange(len(moves))], auto=len(moves) == 1)


@pytest.mark.parametrize("expansions", [(), AD], ids=["base", "armed_dangerous"])
@pytest.mark.parametrize("mode", MODES)
def test_single_checks_agree_with_the_generators(mode: str, expansions: tuple[str, ...]) -> None:
    seen: Counter = Counter()
    for seats in range(MIN_SEATS, MAX_SEATS + 1):
        for k in range(GAMES_PER_TABLE):
            seed = 1000 * seats + k
            game = new_game(GameConfig(seats=seats, mode=mode, expansions=expansions), seed)
            _check_every_decision(game.state, random.Random(seed), seen)
    # Both answers of the common checks were met (the games are long enough to be a test).
    for kind in ("answer_shot", "answer_raid", "pick_card"):
        assert seen[kind, True] and seen[kind, False], (kind, seen)


def test_the_play_step_has_no_single_check() -> None:
    # flow.advance lists the play step's moves at once, with no look at the checks.
    assert PLAY not in SINGLE_CHECKS and PLAY not in AD_SINGLE_CHECKS


def test_advance_applies_exactly_the_forced_decisions() -> None:
    """``advance`` stops at a decision iff it has two or more moves, and counts and logs the
    forced ones it applied (``auto``), for base and expansion games."""
    for expansions in ((), AD):
        for seed in range(6):
            game = new_game(GameConfig(seats=4 + seed % 5, expansions=expansions), seed)
            rnd = random.Random(seed)
            while not game.over:
                g = game.state
                assert len(game.legal_moves) >= 2
                assert forced_move(g) is None
                forced, start = g.forced, len(g.log)
                moves = game.legal_moves
                game.apply_fast(moves[rnd.randrange(len(moves))])
                autos = [e for e in g.log[start:] if getattr(e, "KIND", "") == "move" and e.auto]
                assert len(autos) == g.forced - forced


def test_advance_on_a_state_with_a_forced_decision_pending() -> None:
    """A state whose pending decision is forced (as a loaded scenario may be) is resolved by
    ``advance`` itself, the same as the generator's only move."""
    for seed in range(40):
        game = new_game(GameConfig(seats=5, expansions=AD if seed % 2 else ()), seed)
        rnd = random.Random(seed)
        g = game.state
        while not g.over:
            if g.pending is None:
                task = g.stack.pop()
                TASKS[task[0]](g, task)
                continue
            moves = legal_moves(g)
            if len(moves) == 1:
                copy = g.clone()
                before = copy.forced
                rest = advance(copy)
                assert copy.forced > before
                log = copy.log[len(g.log)]
                assert (log.move, log.auto) == (moves[0].id, True)
                assert copy.over or len(rest) >= 2
                break
            resolve(g, moves[rnd.randrange(len(moves))], auto=False)
