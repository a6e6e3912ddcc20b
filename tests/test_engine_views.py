"""Views do not leak: re-dealing what a seat cannot know leaves its view (and its legal moves)
unchanged; every card named in the events a seat sees is one it may know."""

from __future__ import annotations

import random
import re

import pytest

from bangarena.engine import GameConfig, new_game, view_to_dict
from bangarena.engine.cards import CARD_BY_ID
from bangarena.engine.conformance import resample
from bangarena.engine.events import event_dict
from bangarena.engine.roles import MODES
from bangarena.engine.state import PUBLIC_BIT
from bangarena.harness.bots import make_bot

CARD_RE = re.compile(r"^[a-z_]+_\d\d$")


def _card_ids(obj) -> list[str]:
    if isinstance(obj, str):
        if CARD_RE.match(obj) and obj in CARD_BY_ID:
            return [obj]
        if obj.startswith("return:"):
            return [obj[7:]]
        return []
    if isinstance(obj, list):
        return [c for x in obj for c in _card_ids(x)]
    if isinstance(obj, dict):
        return [c for v in obj.values() for c in _card_ids(v)]
    return []


def test_resampled_hidden_information_never_changes_a_view() -> None:
    rnd = random.Random(1)
    checked = 0
    for i in range(160):
        config = GameConfig(seats=4 + i % 5, mode=MODES[i % 4])
        game = new_game(config, 500 + i)
        step = 0
        while not game.over:
            if step % 23 == 7:
                for seat in [None, *range(config.seats)]:
                    before = game.view(seat)
                    other = resample(game, seat, rnd)
                    after = other.view(seat)
                    if after != before:
                        assert view_to_dict(after) == view_to_dict(before), (
                            config,
                            500 + i,
                            step,
                            seat,
                        )
                    if seat == game.to_move:
                        assert [m.id for m in other.legal_moves] == [m.id for m in game.legal_moves]
                    checked += 1
            moves = game.legal_moves
            game.apply_fast(moves[rnd.randrange(len(moves))])
            step += 1
    assert checked > 2000


def test_resample_really_changes_hidden_things() -> None:
    game = new_game(GameConfig(seats=7), 3)
    other = resample(game, 0, random.Random(2))
    g, o = game.state, other.state
    assert g.players[0].hand == o.players[0].hand
    assert any(g.players[s].hand != o.players[s].hand for s in range(1, 7)) or g.deck != o.deck


def test_events_only_name_cards_the_viewer_may_know() -> None:
    rnd = random.Random(7)
    for i in range(120):
        config = GameConfig(seats=4 + i % 5, mode=MODES[i % 4])
        game = new_game(config, 900 + i)
        while not game.over:
            start = len(game.state.log)
            moves = game.legal_moves
            game.apply_fast(moves[rnd.randrange(len(moves))])
            new = game.state.log[start:]
            # A reshuffle resets what anyone knows about the cards it returns to the deck;
            # judge only the events after the last reshuffle of this step.
            kinds = [type(e).KIND for e in new]
            if "reshuffled" in kinds:
                new = new[len(kinds) - kinds[::-1].index("reshuffled") :]
            known = game.state.known
            for seat in [None, *range(config.seats)]:
                mask = PUBLIC_BIT | (0 if seat is None else 1 << seat)
                for ev in new:
                    for cid in _card_ids(event_dict(ev, seat)):
                        c = CARD_BY_ID[cid].index
                        assert known[c] & mask, (
                            config,
                            900 + i,
                            seat,
                            event_dict(ev, None, full=True),
                        )


@pytest.mark.parametrize("chunk", range(4))  # 120 games in 4 parts, spread by pytest-xdist
def test_cached_views_equal_fresh_ones_after_every_move(chunk: int) -> None:
    """``Game.view`` reuses what it can (the distance table, unchanged PlayerViews, rendered
    events); after every move, every seat's view must equal one built from scratch."""
    from bangarena.engine.views import build_view

    checked = 0
    for i in range(chunk, 120, 4):
        rnd = random.Random(3 + i)
        game = new_game(GameConfig(seats=4 + i % 5, mode=MODES[i % 4]), 900 + i)
        bots = [make_bot("rule", 7 * i + s, s) for s in range(game.state.seats)] if i % 2 else []
        cursors = [0] * game.state.seats
        while not game.over:
            g = game.state
            since = max(0, len(g.log) - 8)
            for seat in [*range(g.seats), None]:
                fresh = build_view(g.clone(), seat, since)
                assert game.view(seat, since) == fresh
                checked += 1
            d = game.decision
            if bots:
                view = game.view(d.seat, cursors[d.seat])
                cursors[d.seat] = view.cursor
                move = bots[d.seat].choose(view, d)
            else:
                move = rnd.choice(d.moves).id
            game.apply(d.seat, move)
    assert checked > 30_000
