"""The BangArena rules engine: a pure, deterministic state machine (no I/O, no clock).

Start with :func:`new_game`; a :class:`Game` has one pending :class:`Decision` whose legal
:class:`Move` list is the only source of legality; :meth:`Game.view` is the only window on
hidden information. The ``omniscient_*`` methods (events, record, state) hold the whole truth:
for records and referees, never for a seat. Every public entry point checks its input and
raises a typed :class:`EngineError` without changing the game.
"""

# ruff: noqa: E402 (the build switch runs before the modules it redirects are imported)
from .compiled import activate as _activate_build

# BANGARENA_ENGINE=compiled: the modules below load from the compiled build (docs/speed.md).
_activate_build(__name__, __path__[0])

from .cards import EXPANSIONS
from .config import DEFAULT_MAX_ROUNDS, GameConfig
from .errors import (
    ConfigError,
    EngineError,
    GameOverError,
    IllegalMove,
    InvalidCursor,
    InvalidSeat,
    MoveSyntaxError,
    NotYourDecision,
    ScenarioError,
    SeedError,
    StateError,
)
from .events import EVENT_TYPES, Event, event_dict
from .game import Game, new_game, replay
from .legal import autopilot_move
from .moves import DECISION_KINDS, MOVE_KINDS, Decision, Move
from .version import ENGINE_VERSION, RULES_VERSION, rules_version
from .views import DecisionInfo, PlayerView, SeatView, card_kind, view_to_dict

__all__ = [
    "DECISION_KINDS",
    "DEFAULT_MAX_ROUNDS",
    "ENGINE_VERSION",
    "EVENT_TYPES",
    "EXPANSIONS",
    "MOVE_KINDS",
    "RULES_VERSION",
    "ConfigError",
    "Decision",
    "DecisionInfo",
    "EngineError",
    "Event",
    "Game",
    "GameConfig",
    "GameOverError",
    "IllegalMove",
    "InvalidCursor",
    "InvalidSeat",
    "Move",
    "MoveSyntaxError",
    "NotYourDecision",
    "PlayerView",
    "ScenarioError",
    "SeatView",
    "SeedError",
    "StateError",
    "autopilot_move",
    "card_kind",
    "event_dict",
    "new_game",
    "replay",
    "rules_version",
    "view_to_dict",
]
