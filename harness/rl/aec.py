"""The PettingZoo AEC environment: one agent per seat (``seat_0`` …), one decision at a time.

- **Observation** (``observe(agent)``): ``{"observation": float32 vector, "action_mask": int8
  vector}`` — the vector is :mod:`.encoding` of the agent's own view, the mask marks the legal
  moves of the agent's pending decision in the fixed enumeration of :mod:`.actions` (all zeros
  when the decision is someone else's).
- **infos[agent]** ``{"view": SeatView, "legal_ids": tuple[str, ...], "legal_actions":
  tuple[int, ...]}``: the view the agent was given at its latest decision (its ``events`` are
  those since its previous decision, so the views an agent receives add up to its whole log),
  its legal move ids and the same moves as action indexes (the mask's ones, in engine order).
- **Rewards** by faction outcome, when the game ends: +1 to every seat of the winning team
  (eliminated deputies and outlaws included), −1 to every other seat. The round cap is a draw:
  reward 0 and ``truncations`` True for everyone; any other end sets ``terminations``.
- ``expansions=("armed_dangerous",)`` deals expansion games: the action space is the
  expansion's enumeration (the base one, then the expansion's ids) and the observation its
  encoding (the base layout, then the expansion's block).
- ``reset(seed=)`` deals ``new_game(config, game_seed)`` where ``game_seed`` is drawn from a
  ``random.Random(seed)`` kept by the environment (``reset()`` without a seed deals the next
  one), so a seed fixes the sequence of deals.
- An action outside the mask raises :class:`IllegalAction`: what to do about it is a
  wrapper's policy (PettingZoo's ``TerminateIllegalWrapper``), not a rule.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from bangarena.engine import Game, GameConfig, Move, SeatView, new_game
from bangarena.engine.roles import DRAW

from .actions import action_ids, action_index
from .encoding import Encoder, observation_high, observation_size
from .render import render_view

ENV_NAME = "bangarena_v0"


_INT8 = np.dtype(np.int8)  # a dtype object: np.int8 would be converted at every call


class _AgentIter:
    """What :meth:`BangArenaEnv.agent_iter` returns: iterable again, as PettingZoo's is."""

    __slots__ = ("env", "max_iter")

    def __init__(self, env: BangArenaEnv, max_iter: int) -> None:
        self.env, self.max_iter = env, max_iter

    def __iter__(self) -> Iterator[str]:
        env = self.env
        for _ in range(self.max_iter):
            if not env.agents:
                return
            yield env.agent_selection


class IllegalAction(ValueError):
    """An action that is not legal for the agent to move."""


class BangArenaEnv(AECEnv):
    """BangArena as a PettingZoo AEC environment (build one with :func:`bangarena.harness.rl.env`)."""

    metadata = {"name": ENV_NAME, "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        seats: int = 5,
        mode: str = "classic",
        seed: int | None = None,
        max_rounds: int = 40,
        render_mode: str | None = None,
        expansions: Sequence[str] = (),
    ) -> None:
        super().__init__()
        # GameConfig checks the names (a bare string is refused, not split into letters).
        self.config = GameConfig(seats, mode, max_rounds, expansions)  # type: ignore[arg-type]
        key = self.config.expansions
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{s}" for s in range(seats)]
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        self._ids = action_ids(key)
        self._index = action_index(key)
        self._n_actions = len(self._ids)
        n_obs = observation_size(max_rounds, key)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=np.zeros(n_obs, dtype=np.float32),
                    high=observation_high(max_rounds, key),
                    dtype=np.float32,
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(len(self._ids),), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(len(self._ids)) for a in self.possible_agents}
        self._deals = random.Random(seed)
        self._no_moves = np.frombuffer(bytes(len(self._ids)), dtype=np.int8)  # read-only
        self.game: Game | None = None
        self._encoders: list[Encoder] = []

    # -- spaces ---------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- the loop -------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game (``seed``: restart the sequence of deals from it)."""
        if seed is not None:
            self._deals = random.Random(seed)
        self.game_seed = self._deals.getrandbits(64)
        self.game = new_game(self.config, self.game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if self._encoders:  # the same table: its encoders start over (their tables are built)
            for encoder in self._encoders:
                encoder.reset()
        else:
            self._encoders = [
                Encoder(self.config.max_rounds, self.config.expansions) for _ in self.agents
            ]
        self._cursors = [0] * len(self.agents)
        self._final: list[SeatView | None] = [None] * len(self.agents)
        self._current: tuple[int, SeatView, np.ndarray] | None = None
        self._moves: tuple[Move, ...] = ()
        self._actions: tuple[int, ...] = ()
        self._next_decision()

    def _next_decision(self) -> None:
        """Point ``agent_selection`` at the seat to move and hand it its view."""
        game = self.game
        assert game is not None
        d = game.decision
        seat = d.seat
        view = game.view(seat, since=self._cursors[seat])
        self._cursors[seat] = view.cursor
        moves = d.moves
        ids = tuple([m.id for m in moves])
        self._actions = actions = tuple(map(self._index.__getitem__, ids))
        # A fresh mask per decision (a cache of masks per legal set missed 40 % of the time:
        # hands and targets make too many sets)
        buf = bytearray(self._n_actions)
        for i in actions:
            buf[i] = 1
        self._moves = moves
        self._current = (seat, view, np.frombuffer(buf, _INT8))
        agent = self.possible_agents[seat]
        self.agent_selection = agent
        self.infos[agent] = {"view": view, "legal_ids": ids, "legal_actions": actions}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat_of[agent]
        game = self.game
        assert game is not None
        cur = self._current
        if cur is not None and cur[0] == seat:
            view, mask = cur[1], cur[2]
        else:
            # Not this agent's decision: its view now, nothing legal. Once the game is over
            # that is the final view _finish gave it (the encoding reads no events).
            final = self._final[seat]
            view = game.view(seat, since=len(game.state.log)) if final is None else final
            mask = self._no_moves
        return {"observation": self._encoders[seat].encode(view), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``: the current agent's observation, cumulative reward,
        termination, truncation and info (the agent to move is read without a second lookup)."""
        agent = self.agent_selection
        cur = self._current
        if not observe:
            obs = None
        elif cur is not None:  # the agent to move: the view and mask _next_decision made
            obs = {"observation": self._encoders[cur[0]].encode(cur[1]), "action_mask": cur[2]}
        else:
            obs = self.observe(agent)
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> Iterable[str]:
        """PettingZoo's ``agent_iter``: the agent to move, until every agent is done or
        ``max_iter`` agents were yielded (a generator: PettingZoo's iterator is a Python
        method call per step)."""
        return _AgentIter(self, max_iter)

    def step(self, action: int | np.integer | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} must act: None is only for finished agents")
        try:
            # the legal actions are the moves' indexes in engine order: one C-level scan
            move = self._moves[self._actions.index(action if type(action) is int else int(action))]
        except ValueError:
            raise IllegalAction(
                f"action {action!r} is not legal for {agent}: legal {list(self._actions)}"
            ) from None
        game = self.game
        assert game is not None
        self._cumulative_rewards[agent] = 0
        game.apply_fast(move)  # legal: it came from the decision's own moves
        if game.over:
            self._finish()
        else:
            self._next_decision()
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        g = self.game.state  # type: ignore[union-attr]
        self._current = None
        self._moves, self._actions = (), ()
        draw = g.winning_team == DRAW
        for s, a in enumerate(self.possible_agents):
            self.rewards[a] = 0 if draw else (1 if s in g.winners else -1)
            self.truncations[a] = draw
            self.terminations[a] = not draw
            view = self.game.view(s, since=self._cursors[s])  # type: ignore[union-attr]
            self._cursors[s] = view.cursor
            self._final[s] = view
            self.infos[a] = {"view": view, "legal_ids": (), "legal_actions": ()}
        self._accumulate_rewards()

    # -- the rest of the API --------------------------------------------------------------
    def render(self) -> str | None:
        """The table as the spectator sees it (text); printed in ``human`` mode."""
        if self.game is None:
            return None
        text = render_view(self.game.view(None, since=len(self.game.state.log)))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.game = None
