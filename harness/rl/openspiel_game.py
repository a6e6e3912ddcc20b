"""BangArena as an OpenSpiel Python game (``python_bangarena``), registered with pyspiel on
import (needs the ``[openspiel]`` extra).

- **Players**: one per seat; actions are the fixed enumeration of :mod:`.actions` (the same
  indexes as the PettingZoo environment).
- **Chance**: the first node deals (outcome ``k`` of ``deals`` picks the game seed, so the
  roles, characters and deck order); afterwards, whenever a chosen move would draw on the
  engine's random streams (a reshuffle, a coin for Cover, a random card taken from a hand), a
  chance node comes first: its outcome ``r`` of ``reseeds`` re-seeds the streams the move then
  draws from. A move that draws nothing (found by applying it to a copy) is applied at once.
  So every random event of the game is a chance node, and a game is fully determined by its
  action list (OpenSpiel's default serialization replays it).
- **Information states** come only from views: the information-state string of a seat is its
  own events in order (the perfect-recall record of what it saw), the observation string the
  text of its current view, the observation tensor the encoding of :mod:`.encoding`.
- **Returns**: +1 for the winning team's seats, −1 for the others, 0 for all in a draw at the
  round cap (general-sum: teams, not two players).

Parameters: ``players`` (4–8, default 5), ``mode`` (default ``classic``), ``max_rounds`` (40),
``deals`` (number of deal outcomes, 1024), ``reseeds`` (outcomes of a mid-game chance node, 8),
``seed`` (the base the deal seeds derive from, 0), ``expansions`` (a string, since pyspiel
parameters are scalars: ``"armed_dangerous"``, or several names joined by ``+``; ``"none"``,
the default, deals the base game) — an expansion game's actions are the expansion's
enumeration and its observation tensor the expansion's encoding.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from bangarena.engine import Game, GameConfig, new_game
from bangarena.engine.roles import DRAW, MAX_SEATS, MIN_SEATS

from .actions import action_ids, action_index, expansions_key
from .encoding import Encoder, observation_size
from .render import render_view

GAME_NAME = "python_bangarena"
_MASK64 = (1 << 64) - 1
_DEFAULTS: dict[str, Any] = {
    "players": 5,
    "mode": "classic",
    "max_rounds": 40,
    "deals": 1024,
    "reseeds": 8,
    "seed": 0,
    "expansions": "none",
}
# A declared bound on a game's length in nodes: the round cap times the table times a generous
# bound on decisions (and chance nodes) per seat and round; the random-simulation test checks it.
_NODES_PER_SEAT_ROUND = 200

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="BangArena (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_SEATS,
    min_num_players=MIN_SEATS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS),
)


def _mix(z: int) -> int:
    """SplitMix64's finaliser: spreads a chance outcome over a 64-bit stream state."""
    z = (z + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


class BangArenaGame(pyspiel.Game):
    """The game description: table, mode, round cap and chance granularity."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        self.config = GameConfig(seats=int(p["players"]), mode=str(p["mode"]),
                                 max_rounds=int(p["max_rounds"]),
                                 expansions=parse_expansions(p["expansions"]))  # fmt: skip
        self.deals = int(p["deals"])
        self.reseeds = int(p["reseeds"])
        self.base_seed = int(p["seed"]) & _MASK64
        if self.deals < 1 or self.reseeds < 1:
            raise ValueError("deals and reseeds must be at least 1")
        info = pyspiel.GameInfo(
            num_distinct_actions=len(action_ids(self.config.expansions)),
            max_chance_outcomes=max(self.deals, self.reseeds),
            num_players=self.config.seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.config.max_rounds * self.config.seats * _NODES_PER_SEAT_ROUND,
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> BangArenaState:
        return BangArenaState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> BangArenaObserver:
        perfect = iig_obs_type is None or iig_obs_type.perfect_recall
        return BangArenaObserver(self, perfect_recall=perfect)

    def deal_seed(self, outcome: int) -> int:
        """The engine seed of deal outcome ``outcome``."""
        return _mix(self.base_seed ^ _mix(outcome))


def parse_expansions(value: object) -> tuple[str, ...]:
    """The ``expansions`` parameter (``"none"``, ``""``, ``"armed_dangerous"``, names joined by
    ``+`` or ``,``) as the canonical tuple; raises ``ConfigError`` for an unknown name."""
    if type(value) is not str:
        raise ValueError(f"the expansions parameter is a string, got {value!r}")
    names = [n.strip() for n in value.replace(",", "+").split("+")]
    return expansions_key([n for n in names if n and n != "none"])


class _Table:
    """What a state needs of its game; copied by reference when OpenSpiel clones a state."""

    __slots__ = ("config", "deals", "reseeds", "deal_seed", "ids", "index")

    def __init__(self, game: BangArenaGame) -> None:
        self.config = game.config
        self.deals = game.deals
        self.reseeds = game.reseeds
        self.deal_seed = game.deal_seed
        self.ids = action_ids(game.config.expansions)
        self.index = action_index(game.config.expansions)

    def __deepcopy__(self, memo: dict) -> _Table:
        return self


class _Engine:
    """The engine game inside a state. OpenSpiel clones a Python state with ``deepcopy``;
    this makes that one :meth:`Game.clone` (plain lists) instead of a generic deep copy."""

    __slots__ = ("game",)

    def __init__(self, game: Game | None) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict) -> _Engine:
        return _Engine(None if self.game is None else self.game.clone())


class BangArenaState(pyspiel.State):
    """One position: the engine game, plus a move waiting for its chance node."""

    def __init__(self, game: BangArenaGame) -> None:
        super().__init__(game)
        self._spec = _Table(game)
        self._box = _Engine(None)
        self._waiting: str | None = None  # a chosen move id the next chance node seeds

    @property
    def engine(self) -> Game | None:
        """The engine game (None before the deal)."""
        return self._box.game

    # -- whose turn -----------------------------------------------------------------------
    def current_player(self) -> int:
        g = self.engine
        if g is None or self._waiting is not None:
            return pyspiel.PlayerId.CHANCE
        if g.over:
            return pyspiel.PlayerId.TERMINAL
        return g.to_move

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.over

    def _legal_actions(self, player: int) -> list[int]:
        g = self.engine
        if g is None or g.over or player != g.to_move:
            return []
        index = self._spec.index
        return sorted(index[m.id] for m in g.legal_moves)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self._spec.deals if self.engine is None else self._spec.reseeds
        return [(k, 1.0 / n) for k in range(n)]

    # -- transitions ----------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        g = self.engine
        if g is None:
            self._box.game = new_game(self._spec.config, self._spec.deal_seed(action))
            return
        if self._waiting is not None:
            mid, self._waiting = self._waiting, None
            # The chance outcome re-seeds every stream the move is about to draw from.
            streams = g.state.rng
            for i, s in enumerate(streams):
                streams[i] = _mix(s ^ _mix(action + 1))
            g.apply_fast(next(m for m in g.legal_moves if m.id == mid))
            return
        mid = self._spec.ids[action]
        move = next(m for m in g.legal_moves if m.id == mid)
        trial = g.clone()
        trial.apply_fast(move)
        if trial.state.rng != g.state.rng:
            self._waiting = mid  # the move draws randomness: a chance node decides it
        else:
            self._box.game = trial

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal:{action}" if self.engine is None else f"chance:{action}"
        return self._spec.ids[action]

    def returns(self) -> list[float]:
        n = self._spec.config.seats
        g = self.engine
        if g is None or not g.over or g.state.winning_team == DRAW:
            return [0.0] * n
        winners = set(g.state.winners)
        return [1.0 if s in winners else -1.0 for s in range(n)]

    def __str__(self) -> str:
        if self.engine is None:
            return "(before the deal)"
        return render_view(self.engine.view(None, since=len(self.engine.state.log)))


class BangArenaObserver:
    """Observations of one seat, only from its views. Perfect recall: the seat's events in
    order as a string; otherwise the text of its current view and the numeric encoding."""

    def __init__(self, game: BangArenaGame, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.max_rounds = game.config.max_rounds
        self.expansions = game.config.expansions
        size = 0 if perfect_recall else observation_size(self.max_rounds, self.expansions)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BangArenaState, player: int) -> None:
        if self.perfect_recall:
            return
        g = state.engine
        if g is None:
            self.tensor.fill(0)
            return
        view = g.view(player, since=len(g.state.log))
        self.tensor[:] = Encoder(self.max_rounds, self.expansions).encode(view)

    def string_from(self, state: BangArenaState, player: int) -> str:
        g = state.engine
        if g is None:
            return f"seat {player}: before the deal"
        if self.perfect_recall:
            events = g.view(player).events
            return f"seat {player}\n" + "\n".join(
                json.dumps(e, sort_keys=True, separators=(",", ":")) for e in events
            )
        view = g.view(player, since=len(g.state.log))
        return f"seat {player}, role {view.role}, hand {view.hand}\n" + render_view(view)


pyspiel.register_game(_GAME_TYPE, BangArenaGame)


def load(players: int = 5, mode: str = "classic", **params: Any) -> pyspiel.Game:
    """The registered game with these parameters (``pyspiel.load_game`` by name), e.g.
    ``load(5, expansions="armed_dangerous")``."""
    return pyspiel.load_game(GAME_NAME, {"players": players, "mode": mode, **params})
