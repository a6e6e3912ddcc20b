"""``GameState.clone`` and ``Player.copy`` copy slot by slot (issue #17): every field is set,
the copy equals the original, shares no mutable list with it, and plays on to the same game."""

from __future__ import annotations

import random
from dataclasses import fields

from bangarena.engine import GameConfig, new_game, replay
from bangarena.engine.state import GameState, Player, new_player, new_state

AD = ("armed_dangerous",)


def _positions():
    rnd = random.Random(17)
    for seed in range(8):
        game = new_game(GameConfig(seats=4 + seed % 5, expansions=AD if seed % 2 else ()), seed)
        step = 0
        while not game.over:
            if step % 25 == 0:
                yield game, rnd.randrange(1 << 30)
            moves = game.legal_moves
            game.apply_fast(moves[rnd.randrange(len(moves))])
            step += 1
        yield game, 0


def _lists(obj: object) -> list[list]:
    """Every list the object holds directly or one level down (the stack's tasks, the
    pending decision), by identity."""
    out = []
    for f in fields(obj):  # type: ignore[arg-type]
        v = getattr(obj, f.name)
        if isinstance(v, list):
            out.append(v)
            out += [x for x in v if isinstance(x, list) and f.name in ("stack",)]
    return out


def test_clone_sets_every_field_and_shares_no_list() -> None:
    for game, _ in _positions():
        g = game.state
        c = g.clone()
        for f in fields(GameState):
            getattr(c, f.name)  # every slot is set (an unset one raises AttributeError)
        assert c == g
        assert c.memo is None
        mine = {id(x) for x in _lists(g) if x is not g.log and x is not g.history}
        assert not mine & {id(x) for x in _lists(c)}
        for p, q in zip(g.players, c.players, strict=True):
            for f in fields(Player):
                getattr(q, f.name)
            assert q == p and q.v == 0
            assert not {id(x) for x in _lists(p)} & {id(x) for x in _lists(q)}


def test_a_clone_plays_on_as_a_replay_of_the_game() -> None:
    for game, seed in _positions():
        if game.over:
            continue
        twin = game.clone()
        fresh = replay(game.config, game.state.seed, game.history)
        for g in (twin, fresh):
            rnd = random.Random(seed)
            while not g.over:
                moves = g.legal_moves
                g.apply_fast(moves[rnd.randrange(len(moves))])
        assert twin.state_hash() == fresh.state_hash()


def _every_field(obj: object) -> dict[str, object]:
    """Every field's value, ``compare=False`` ones included (an unset slot raises)."""
    return {f.name: getattr(obj, f.name) for f in fields(obj)}  # type: ignore[arg-type]


def test_the_deals_slot_by_slot_constructors_equal_the_dataclasses() -> None:
    # new_player and new_state stand for the dataclass constructor in new_game (its compiled
    # __init__ imports a module per default-factory field): same fields, same defaults, and no
    # default list shared between two objects.
    a, b = (
        new_player(2, "outlaw", "willy_the_kid", 4, 4),
        new_player(3, "deputy", "jourdonnais", 4, 4),
    )
    ref = Player(2, "outlaw", "willy_the_kid", 4, 4)
    assert _every_field(a) == _every_field(ref)
    assert not {id(x) for x in _lists(a)} & {id(x) for x in _lists(b)}
    players, deck, streams, known = [a, b], [5, 6, 7], [1, 2, 3, 4], [0] * 80
    s = new_state(4, "classic", 0, 9, players, deck, streams, 1, known)
    ref_state = GameState(4, "classic", 0, 9, players, deck, [], streams, 1, known=known)
    assert _every_field(s) == _every_field(ref_state)
    t = new_state(4, "classic", 0, 9, [], [], [], 1, [])
    shared = {id(x) for x in _lists(s)} & {id(x) for x in _lists(t)}
    assert not shared
