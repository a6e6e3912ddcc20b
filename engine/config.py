"""The configuration of a game: seats, mode, the declared round cap and the expansions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import EXPANSIONS
from .errors import ConfigError, shown
from .roles import MAX_SEATS, MIN_SEATS, MODES

DEFAULT_MAX_ROUNDS = 40


@dataclass(frozen=True, slots=True)
class GameConfig:
    """``max_rounds`` is the declared cap on game length: a game still running after the
    sheriff's ``max_rounds``-th turn ends as a draw (rules.md §11). ``expansions`` names the
    expansions in play (``("armed_dangerous",)``); a list is accepted and kept as a tuple in
    the canonical order of :data:`~bangarena.engine.cards.EXPANSIONS`."""

    seats: int = 5
    mode: str = "classic"
    max_rounds: int = DEFAULT_MAX_ROUNDS
    expansions: tuple[str, ...] = ()

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
        object.__setattr__(self, "expansions", check_expansions(self.expansions))

    def to_dict(self) -> dict[str, Any]:
        """The JSON form; ``expansions`` only when there are some (base-game records and
        hashes stay as they were)."""
        d: dict[str, Any] = {"seats": self.seats, "mode": self.mode, "max_rounds": self.max_rounds}
        if self.expansions:
            d["expansions"] = list(self.expansions)
        return d


def check_expansions(value: Any) -> tuple[str, ...]:
    """``value`` (a tuple or list of expansion names) in canonical order; raises
    :class:`ConfigError` for anything else, an unknown name or a repeated one."""
    if type(value) not in (tuple, list):
        raise ConfigError(
            f"expansions must be a list of expansion names, got {shown(value)};"
            f" valid: {', '.join(EXPANSIONS)}"
        )
    for name in value:
        if type(name) is not str or name not in EXPANSIONS:
            raise ConfigError(
                f"unknown expansion {shown(name)}; valid expansions: {', '.join(EXPANSIONS)}"
            )
    if len(set(value)) != len(value):
        raise ConfigError(f"expansion listed twice in {shown(list(value))}")
    return tuple(e for e in EXPANSIONS if e in value)
