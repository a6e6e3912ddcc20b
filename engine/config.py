"""The configuration of a game: seats, mode and the declared round cap."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .errors import ConfigError, shown
from .roles import MAX_SEATS, MIN_SEATS, MODES

DEFAULT_MAX_ROUNDS = 40


@dataclass(frozen=True, slots=True)
class GameConfig:
    """``max_rounds`` is the declared cap on game length: a game still running after the
    sheriff's ``max_rounds``-th turn ends as a draw (rules.md §11)."""

    seats: int = 5
    mode: str = "classic"
    max_rounds: int = DEFAULT_MAX_ROUNDS

    def __post_init__(self) -> None:
        # ``type(...) is int``: a bool is an int to isinstance, and True seats would deal a
        # one-seat game that records itself as ``"seats": true``.
        if type(self.seats) is not int or not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise ConfigError(
                f"seats must be an integer from {MIN_SEATS} to {MAX_SEATS}, got {shown(self.seats)}"
            )
        if type(self.mode) is not str or self.mode not in MODES:
            raise ConfigError(f"unknown mode {shown(self.mode)}; valid modes: {', '.join(MODES)}")
        if type(self.max_rounds) is not int or self.max_rounds < 1:
            raise ConfigError(
                f"max_rounds must be a positive integer, got {shown(self.max_rounds)}"
            )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
