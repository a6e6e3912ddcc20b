"""The engine contract: typed errors that change nothing, determinism, clone, serialization,
autopilot, forced moves, move ids."""

from __future__ import annotations

import json
import random

import pytest

from bangarena.engine import (
    ConfigError,
    Game,
    GameConfig,
    IllegalMove,
    MoveSyntaxError,
    NotYourDecision,
    new_game,
    replay,
)
from bangarena.engine.moves import parse_move_id


def _play(game: Game, steps: int, seed: int = 0) -> None:
    rnd = random.Random(seed)
    for _ in range(steps):
        if game.over:
            return
        moves = game.legal_moves
        game.apply(game.to_move, moves[rnd.randrange(len(moves))].id)


def test_bad_config_is_a_typed_error() -> None:
    with pytest.raises(ConfigError, match="seats"):
        GameConfig(seats=9)
    with pytest.raises(ConfigError, match="valid modes"):
        GameConfig(mode="chaos")


def test_wrong_seat_and_illegal_move_leave_the_state_unchanged() -> None:
    game = new_game(GameConfig(seats=5), 11)
    _play(game, 10)
    before = game.state_hash()
    seat = game.to_move
    other = (seat + 1) % 5
    with pytest.raises(NotYourDecision):
        game.apply(other, game.legal_moves[0].id)
    with pytest.raises(IllegalMove) as err:
        game.apply(seat, "shot@99")
    assert "legal moves:" in str(err.value)
    assert err.value.legal == tuple(m.id for m in game.legal_moves)
    assert game.state_hash() == before


def test_same_seed_same_game_and_replay_reproduces_the_hash() -> None:
    a, b = new_game(GameConfig(seats=7), 42), new_game(GameConfig(seats=7), 42)
    assert a.state_hash() == b.state_hash()
    _play(a, 400, seed=3)
    again = replay(a.config, 42, a.history)
    assert again.state_hash() == a.state_hash()
    assert new_game(GameConfig(seats=7), 43).state_hash() != b.state_hash()


def test_clone_is_independent() -> None:
    game = new_game(GameConfig(seats=6), 5)
    _play(game, 30)
    copy = game.clone()
    h = game.state_hash()
    _play(copy, 50, seed=9)
    assert game.state_hash() == h
    assert copy.state_hash() != h


def test_state_round_trips_through_json() -> None:
    game = new_game(GameConfig(seats=8, mode="double_agent"), 8)
    _play(game, 120)
    blob = json.dumps(game.omniscient_state())
    back = Game.from_omniscient_state(json.loads(blob))
    assert back.state_hash() == game.state_hash()
    assert [m.id for m in back.legal_moves] == [m.id for m in game.legal_moves]
    # and play continues identically
    _play(game, 50, seed=4)
    _play(back, 50, seed=4)
    assert back.state_hash() == game.state_hash()


def test_autopilot_is_the_simplest_move() -> None:
    rnd = random.Random(2)
    seen = set()
    for seed in range(40):
        game = new_game(GameConfig(seats=5), seed)
        while not game.over:
            d = game.decision
            auto = game.autopilot()
            if d.kind == "play":
                assert auto.id == "end_turn"
            elif d.kind.startswith("answer") or d.kind == "brace":
                assert auto.id == "take_hit"
            elif d.kind == "discard_excess":
                view = game.view(d.seat)
                assert auto.id == "discard:" + view.hand[-1].rsplit("_", 1)[0]
            seen.add(d.kind)
            moves = game.legal_moves
            game.apply(d.seat, moves[rnd.randrange(len(moves))].id)
    assert {"play", "answer_shot", "discard_excess"} <= seen


def test_forced_moves_are_automatic_and_logged() -> None:
    game = new_game(GameConfig(seats=4), 1)
    _play(game, 200)
    autos = [e for e in game.state.log if type(e).KIND == "move" and e.auto]
    assert autos and len(autos) == game.state.forced
    # never a decision with fewer than two moves
    assert game.over or len(game.legal_moves) >= 2


def test_all_play_until_the_end_with_autopilot_only() -> None:
    for seed in range(10):
        game = new_game(GameConfig(seats=6, mode="old_classic", max_rounds=15), seed)
        while not game.over:
            game.apply(game.to_move, game.autopilot().id)
        assert game.result()["winning_team"] in {"law", "outlaws", "renegade", "draw"}


def test_move_ids_parse_back_and_garbage_does_not() -> None:
    for seed in range(20):
        game = new_game(GameConfig(seats=7), seed)
        rnd = random.Random(seed)
        while not game.over:
            for m in game.legal_moves:
                assert parse_move_id(m.id).id == m.id
            moves = game.legal_moves
            game.apply_fast(moves[rnd.randrange(len(moves))])
    for bad in ["", "shoot@2", "shot@", "discard:", "upgrade:speed", "end turn"]:
        with pytest.raises(MoveSyntaxError):
            parse_move_id(bad)


def test_views_are_json_serializable_and_cursor_based() -> None:
    game = new_game(GameConfig(seats=5), 3)
    _play(game, 40)
    v = game.view(2)
    json.dumps(__import__("dataclasses").asdict(v))
    later = game.view(2, since=v.cursor)
    assert later.events == []
    spectator = game.view(None)
    assert spectator.hand == [] and spectator.role is None
    assert all(p.role is None or p.revealed for p in spectator.players)


def test_shuffle_is_fisher_yates_over_the_stream_draws() -> None:
    """``rng.shuffle`` inlines the SplitMix64 draws: it must equal Fisher–Yates over
    ``rng.below`` and leave the stream in the same state."""
    import random

    from bangarena.engine import rng

    for seed in range(300):
        n = random.Random(seed).randint(0, 90)
        states, ref_states = [seed, seed * 7919 + 1], [seed, seed * 7919 + 1]
        items, ref = list(range(n)), list(range(n))
        rng.shuffle(states, 1, items)
        for i in range(n - 1, 0, -1):
            j = rng.below(ref_states, 1, i + 1)
            ref[i], ref[j] = ref[j], ref[i]
        assert items == ref and states == ref_states


def test_shuffle_side_by_side_draws_equal_the_one_by_one_loop() -> None:
    """The pure build draws a shuffle's numbers side by side in one big int: the same items and
    stream state as the draw-by-draw loop, for seeds over the whole 64-bit range."""
    import random

    from bangarena.engine import rng

    rnd = random.Random(17)
    for _ in range(300):
        n = rnd.randint(0, 130)
        states = [rnd.getrandbits(64) for _ in range(4)]
        a, b = list(range(n)), list(range(n))
        sa, sb = list(states), list(states)
        rng.shuffle(sa, 2, a)
        rng._shuffle_one_by_one(sb, 2, b)
        assert a == b and sa == sb


def test_shuffle_side_by_side_falls_back_on_a_rejected_lane(monkeypatch) -> None:
    """A lane that would be rejected sends the shuffle back to the draw-by-draw loop (here
    every lane, by a bound of -1: a real rejection has a chance of ~n/2**64)."""
    from bangarena.engine import rng

    if not rng._PACKED:
        pytest.skip("the compiled build draws one by one (C arithmetic)")
    tables = rng._packed_tables(12)
    monkeypatch.setitem(rng._PACKED_TABLES, 12, (*tables[:3], -1, tables[4]))
    calls = []
    one_by_one = rng._shuffle_one_by_one
    monkeypatch.setattr(rng, "_shuffle_one_by_one", lambda *a: calls.append(1) or one_by_one(*a))
    a, b, sa, sb = list(range(12)), list(range(12)), [5, 6], [5, 6]
    rng._shuffle_packed(sa, 1, a)
    one_by_one(sb, 1, b)
    assert calls == [1] and a == b and sa == sb
