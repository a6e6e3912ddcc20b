"""The OpenSpiel game: OpenSpiel's own random-simulation test at 4 and 7 seats, chance nodes
for the deal and for every random draw after it, information states from the views only."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

from bangarena.engine.conformance import resample
from bangarena.harness.rl import action_ids
from bangarena.harness.rl.openspiel_game import GAME_NAME, load


@pytest.mark.parametrize(("players", "mode"), [(4, "classic"), (7, "classic"), (6, "double_agent")])
def test_openspiel_random_sim_test(players: int, mode: str) -> None:
    game = load(players, mode)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_registered_by_name_with_its_metadata() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 5})
    assert game.num_players() == 5
    assert game.num_distinct_actions() == len(action_ids())
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.min_utility() == -1 and game.max_utility() == 1


def _play(game: pyspiel.Game, seed: int) -> tuple[pyspiel.State, int]:
    """A random game and its count of chance nodes after the deal."""
    rnd = random.Random(seed)
    state = game.new_initial_state()
    chance = -1  # the deal is not counted
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            state.apply_action(rnd.choice(outcomes)[0])
            chance += 1
        else:
            state.apply_action(rnd.choice(state.legal_actions()))
    return state, chance


def test_chance_nodes_for_the_deal_and_the_draws_after_it_and_replay() -> None:
    game = load(5, "classic")
    mid_game = 0
    for seed in range(6):
        state, chance = _play(game, seed)
        history = state.history()
        mid_game += chance
        returns = state.returns()
        g = state.engine.state
        if g.winning_team == "draw":
            assert returns == [0.0] * 5
        else:
            assert returns == [1.0 if s in g.winners else -1.0 for s in range(5)]
        # The action list determines the game.
        again = game.new_initial_state()
        for a in history:
            again.apply_action(a)
        assert again.engine.state_hash() == state.engine.state_hash()
    assert mid_game > 0  # reshuffles, Cover coins or random hand picks happened


def test_information_states_come_from_the_views_only() -> None:
    """Re-dealing what a seat cannot know leaves its information-state string, observation
    string and observation tensor unchanged."""
    game = load(6, "double_agent")
    compared = 0
    for seed in range(8):
        rnd = random.Random(seed)
        state = game.new_initial_state()
        for _ in range(rnd.randrange(20, 120)):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(rnd.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rnd.choice(state.legal_actions()))
        if state.is_terminal() or state.is_chance_node():
            continue
        for seat in range(6):
            alt = state.clone()
            alt._box.game = resample(state.engine, seat, random.Random(seed))
            assert alt.information_state_string(seat) == state.information_state_string(seat)
            assert alt.observation_string(seat) == state.observation_string(seat)
            assert np.array_equal(alt.observation_tensor(seat), state.observation_tensor(seat))
            compared += 1
    assert compared >= 24
