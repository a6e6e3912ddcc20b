"""The hidden-information resampler reaches every hidden card, including the three a seat is
looking at in a ``draw_keep`` decision (in limbo, outside the deck and the hands)."""

from __future__ import annotations

import random

from bangarena.engine import GameConfig, new_game, view_to_dict
from bangarena.engine.cards import DECK
from bangarena.engine.conformance import resample
from bangarena.engine.moves import DRAW_KEEP


def _draw_keep_games(count: int):
    found = 0
    for seed in range(400):
        game = new_game(GameConfig(seats=6), seed)
        rnd = random.Random(seed)
        while not game.over and found < count:
            d = game.decision
            if d.kind == DRAW_KEEP:
                found += 1
                yield game
                break
            legal = game.legal_moves
            game.apply(d.seat, legal[rnd.randrange(len(legal))].id)
        if found >= count:
            return


def test_looked_cards_are_redealt_for_other_seats_and_kept_for_the_looker() -> None:
    changed = 0
    games = list(_draw_keep_games(5))
    assert len(games) == 5
    for game in games:
        looker = game.decision.seat
        looked = list(game.state.pending[2])
        other = (looker + 1) % game.state.seats
        for trial in range(10):
            alt = resample(game, other, random.Random(trial))
            assert game.state.pending[2] == looked  # the original is untouched
            assert view_to_dict(alt.view(other)) == view_to_dict(game.view(other))
            assert sorted(alt.state.limbo) == sorted(alt.state.pending[2])
            assert [m.id for m in alt.legal_moves] == [
                f"return:{c}" for c in _ids(alt.state.pending[2])
            ]
            changed += alt.state.pending[2] != looked
        same = resample(game, looker, random.Random(1))
        assert same.state.pending[2] == looked  # the looker has seen them
    assert changed > 0


def _ids(cards: list[int]) -> list[str]:
    return [DECK[c].id for c in cards]
