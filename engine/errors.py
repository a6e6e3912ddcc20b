"""Typed errors of the engine. Every rejected call leaves the game state unchanged."""

from __future__ import annotations


class EngineError(Exception):
    """Base of the engine's errors."""


class GameOverError(EngineError):
    """A move was sent to a finished game."""


class NotYourDecision(EngineError):
    """A move came from a seat whose decision is not pending."""

    def __init__(self, seat: int | None, pending: int | None) -> None:
        super().__init__(f"seat {seat} cannot move: the pending decision is seat {pending}'s")
        self.seat = seat
        self.pending = pending


class IllegalMove(EngineError):
    """A move id that is not in the pending decision's legal list."""

    def __init__(self, move_id: str, legal: tuple[str, ...]) -> None:
        shown = ", ".join(legal[:20]) + (" …" if len(legal) > 20 else "")
        super().__init__(f"illegal move {move_id!r}; legal moves: {shown}")
        self.move_id = move_id
        self.legal = legal


class MoveSyntaxError(EngineError):
    """A string that is not a move id at all (cannot be parsed)."""


class ConfigError(EngineError):
    """A game configuration the rules do not allow."""


class ScenarioError(EngineError):
    """A scenario that names unknown things or describes an impossible position."""
