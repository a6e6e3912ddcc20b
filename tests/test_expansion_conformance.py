"""Armed & Dangerous: the shipped conformance suite over expansion games in every seat count ×
mode (every invariant at every step, Load tokens on holders + supply = 32 included), and the
hidden-information resampler over them (Lockpick steals, Ace Up the Sleeve and Al Preacher
draws are private)."""

from __future__ import annotations

import random

import pytest

from bangarena.engine import GameConfig, new_game, view_to_dict
from bangarena.engine.conformance import play_random_game, resample, run_games
from bangarena.engine.invariants import token_violations
from bangarena.engine.loads import conserved
from bangarena.engine.roles import MODES

AD = ("armed_dangerous",)
CELLS = [GameConfig(seats=n, mode=m, expansions=AD) for n in range(4, 9) for m in MODES]
GAMES = 1000
CHUNKS = 8
"""1,000 games in CI (seeds 50,000…50,999, the 20 cells round-robin) as CHUNKS tests for
pytest-xdist; ``-m slow`` plays 4,000 more."""


def _chunk(first: int, size: int, seed: int) -> None:
    offset = first % len(CELLS)
    cells = CELLS[offset:] + CELLS[:offset]
    reports = list(run_games(cells, seed=seed + first, games=size, check=True, sample_every=75))
    bad = [(r.config, r.seed, r.violations[:3]) for r in reports if r.violations]
    assert not bad, bad[:5]
    assert len(reports) == size
    assert {"law", "outlaws", "renegade"} <= {r.winning_team for r in reports}


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_a_thousand_expansion_games_keep_every_invariant(chunk: int) -> None:
    size = GAMES // CHUNKS
    _chunk(chunk * size, size, 50_000)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_four_thousand_more_expansion_games(chunk: int) -> None:
    size = 4000 // CHUNKS
    _chunk(chunk * size, size, 60_000)


def test_tokens_are_conserved_at_every_step() -> None:
    """The invariant itself, step by step, on a few games (the conformance suite checks it
    through ``step_violations``)."""
    for seed in range(12):
        game = new_game(CELLS[seed % len(CELLS)], seed)
        rnd = random.Random(seed)
        while not game.over:
            assert conserved(game.state) == 32
            assert token_violations(game.state) == []
            moves = game.legal_moves
            game.apply_fast(moves[rnd.randrange(len(moves))])
        assert conserved(game.state) == 32


def test_a_broken_token_count_is_a_violation() -> None:
    game = new_game(CELLS[0], 1)
    game.state.supply -= 1
    assert any("token conservation" in v for v in token_violations(game.state))
    game.state.supply += 1
    game.state.players[0].tokens = 5
    game.state.supply -= 5
    assert any("5 tokens" in v for v in token_violations(game.state))


@pytest.mark.parametrize("mode", MODES)
def test_round_cap_ends_expansion_games_as_draws(mode: str) -> None:
    cfg = GameConfig(seats=8, mode=mode, max_rounds=2, expansions=AD)
    reports = list(run_games([cfg], seed=5, games=20))
    assert all(not r.violations for r in reports)
    assert any(r.winning_team == "draw" for r in reports)


def test_expansion_games_replay_and_round_trip() -> None:
    from bangarena.engine import Game, replay

    game, report = play_random_game(CELLS[7], 99)
    assert not report.violations
    again = replay(game.config, 99, game.history)
    assert again.state_hash() == game.state_hash()
    loaded = Game.from_omniscient_state(game.omniscient_state())
    assert loaded.state_hash() == game.state_hash()
    assert game.omniscient_record()["config"]["expansions"] == ["armed_dangerous"]


# -- the resampler: nothing a seat cannot know shows in its view ---------------------------------
PRIVATE = {"lockpick", "ace_up_the_sleeve", "al_preacher", "bloody_mary", "mule_train"}


def test_resampled_games_give_every_seat_the_same_view() -> None:
    """At sampled steps of expansion games, re-dealing what a seat cannot know leaves its view
    (and its legal moves when it decides) unchanged; the private draws and steals of the
    expansion happen in these games."""
    seen: set[str] = set()
    checked = 0
    for seed in range(10):
        game = new_game(CELLS[(seed * 7) % len(CELLS)], 7_000 + seed)
        rnd = random.Random(seed)
        step = 0
        while not game.over:
            if step % 7 == 0:
                # The recent events (the whole log every 70 steps: rendering it is slow).
                since = 0 if step % 70 == 0 else max(0, len(game.state.log) - 40)
                for seat in range(game.state.seats):
                    alt = resample(game, seat, random.Random(step * 8 + seat))
                    assert view_to_dict(alt.view(seat, since)) == view_to_dict(
                        game.view(seat, since)
                    )
                    if game.to_move == seat:
                        assert [m.id for m in alt.legal_moves] == [m.id for m in game.legal_moves]
                    checked += 1
            moves = game.legal_moves
            game.apply_fast(moves[rnd.randrange(len(moves))])
            step += 1
        for e in game.state.log:
            reason = getattr(e, "reason", None)
            if e.private_to is not None and reason in PRIVATE:
                seen.add(reason)
    assert checked > 300
    assert {"lockpick", "ace_up_the_sleeve"} <= seen


def test_a_lockpicked_card_is_known_to_thief_and_victim_only() -> None:
    from bangarena.engine.scenario import load_scenario

    game = load_scenario(
        {
            "expansions": list(AD),
            "seed": 3,
            "seats": [
                {"role": "sheriff", "character": "red_suit", "hand": ["wagon"],
                 "in_play": ["lockpick"], "loads": {"lockpick": 3}},
                {"role": "renegade", "character": "lucky"},
                {"role": "outlaw", "character": "two_face", "hand": ["duel_03"]},
                {"role": "outlaw", "character": "grip"},
            ],
        }
    )  # fmt: skip
    game.apply(0, "use:lockpick@2")
    stole = [e for e in game.events(None) if e["kind"] == "stole"]
    assert stole and stole[-1]["card"] is None  # spectators do not see which card
    assert [e for e in game.events(1) if e["kind"] == "stole"][-1]["card"] is None
    assert [e for e in game.events(0) if e["kind"] == "stole"][-1]["card"] == "duel_03"
    assert [e for e in game.events(2) if e["kind"] == "stole"][-1]["card"] == "duel_03"
    for seat in (1, 3):
        alt = resample(game, seat, random.Random(seat))
        assert view_to_dict(alt.view(seat)) == view_to_dict(game.view(seat))
