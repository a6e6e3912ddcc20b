"""Lazily built views (``Game.view``: events rendered on first read, PlayerViews shared between
viewers and between successive views) equal views built from scratch, field by field, at every
step of many games — also when a view's events are first read after the game has moved on."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import fields

import pytest

from bangarena.engine import GameConfig, SeatView, new_game, view_to_dict
from bangarena.engine.roles import MODES
from bangarena.engine.views import LazySeatView, PlayerView, build_view
from bangarena.harness.bots import make_bot

AD = ("armed_dangerous",)


def _assert_same(lazy: SeatView, fresh: SeatView, where: object) -> None:
    for f in fields(SeatView):
        a, b = getattr(lazy, f.name), getattr(fresh, f.name)
        if f.name == "players":
            assert len(a) == len(b), where
            for pa, pb in zip(a, b, strict=True):
                for pf in fields(PlayerView):
                    assert getattr(pa, pf.name) == getattr(pb, pf.name), (where, pf.name)
        else:
            assert a == b, (where, f.name)
    assert lazy == fresh and fresh == lazy, where


@pytest.mark.parametrize("chunk", range(4))  # 24 games in 4 parts, spread by pytest-xdist
def test_lazy_views_equal_fresh_ones_field_by_field_at_every_step(chunk: int) -> None:
    checked = 0
    for i in range(chunk, 24, 4):
        rnd = random.Random(11 + i)
        config = GameConfig(
            seats=4 + i % 5, mode=MODES[i % len(MODES)], expansions=AD if i % 3 == 2 else ()
        )
        game = new_game(config, 300 + i)
        n = config.seats
        bots = [make_bot("rule", 5 * i + s, s) for s in range(n)] if i % 2 else []
        cursors = [0] * n
        held: list[tuple[SeatView, dict]] = []  # views read only after later moves
        step = 0
        while not game.over:
            g = game.state
            for seat in [*range(n), None]:
                since = cursors[seat] if seat is not None and step % 3 else max(0, len(g.log) - 9)
                lazy = game.view(seat, since)
                assert type(lazy) is LazySeatView
                fresh = build_view(g.clone(), seat, since)
                if (step + (seat or 0)) % 5 == 0:
                    # Read nothing now: its events are rendered after the game moved on.
                    held.append((lazy, view_to_dict(fresh)))
                else:
                    _assert_same(lazy, fresh, (config, 300 + i, step, seat))
                checked += 1
            d = game.decision
            if bots:
                view = game.view(d.seat, cursors[d.seat])
                cursors[d.seat] = view.cursor
                move = bots[d.seat].choose(view, d)
            else:
                move = rnd.choice(d.moves).id
            game.apply(d.seat, move)
            step += 1
        for lazy, want in held:
            assert view_to_dict(lazy) == want
    assert checked > 1_200


def test_a_lazy_view_copies_pickles_and_reads_like_a_plain_one() -> None:
    game = new_game(GameConfig(seats=5), 4)
    rnd = random.Random(4)
    for _ in range(40):
        game.apply_fast(rnd.choice(game.legal_moves))
    seat = game.to_move
    fresh = build_view(game.state.clone(), seat, 3)
    for make in (copy.copy, copy.deepcopy, lambda v: pickle.loads(pickle.dumps(v))):
        out = make(game.view(seat, 3))
        assert type(out) is SeatView
        assert out == fresh
    lazy = game.view(seat, 3)
    assert lazy.events == fresh.events
    assert lazy.events is lazy.events  # rendered once, then an ordinary slot
    assert game.view(seat, 10**6).events == []


KIND_SETS: tuple[frozenset[str] | set[str], ...] = (
    frozenset({"played", "discarded", "equipped", "stole", "eliminated", "role_dealt"}),
    frozenset({"drew", "looked", "put_back"}),  # private forms: each seat its own
    frozenset(),
    {"played", "drew"},  # not a frozenset: scanned per view (frozensets are indexed per game)
)


@pytest.mark.parametrize("expansions", [(), AD])
def test_events_of_is_the_view_s_events_of_those_kinds_rendered_alone(
    expansions: tuple[str, ...],
) -> None:
    """``events_of`` gives what filtering ``events`` gives — the same dicts, private forms only
    to their seats — from an unread lazy view (rendering nothing else), a read one, one read
    after the game moved on, and a plain view; ``since`` before, inside and past the view."""
    checked = 0
    for i in range(6):
        config = GameConfig(seats=4 + i % 5, expansions=expansions)
        game = new_game(config, 70 + i)
        rnd = random.Random(i)
        held: list[tuple[SeatView, SeatView, int]] = []
        step = 0
        while not game.over:
            g = game.state
            for seat in [*range(config.seats), None]:
                since = max(0, len(g.log) - 12)
                fresh = build_view(g.clone(), seat, since)
                for kinds in KIND_SETS:
                    want = [e for e in fresh.events if e["kind"] in kinds]
                    for start, cut in ((None, 0), (since - 3, 0), (since + 4, 4), (10**6, 99)):
                        lazy = game.view(seat, since)
                        got = lazy.events_of(kinds, start)
                        assert lazy._ev is None  # the other events were not rendered
                        expect = [e for e in fresh.events[cut:] if e["kind"] in kinds]
                        assert got == expect, (seat, sorted(kinds), start)
                        assert lazy.events_of(kinds, start) == expect  # after a first read
                        lazy.events  # noqa: B018 - now read: the rendered list is filtered
                        assert lazy.events_of(kinds, start) == expect
                        assert fresh.events_of(kinds, start) == expect
                    checked += len(want)
                if step % 7 == 0:
                    held.append((game.view(seat, since), fresh, seat or 0))
            game.apply_fast(rnd.choice(game.legal_moves))
            step += 1
        for lazy, fresh, _ in held:  # read after the game moved on (and ended)
            for kinds in KIND_SETS:
                assert lazy.events_of(kinds) == [e for e in fresh.events if e["kind"] in kinds]
    assert checked > 2_000
