"""Typed errors of the engine. Every rejected call leaves the game state unchanged.

Messages echo the offending input only through :func:`shown`, so a hostile 10 MB move id or
a 5,000-digit seed gives a message of a few hundred characters; the full input stays available
on the error's attributes.
"""

from __future__ import annotations

from typing import Any

SHOWN_CHARS = 80  # how much of an offending input an error message repeats


def shown(value: Any, limit: int = SHOWN_CHARS) -> str:
    """``repr(value)`` cut to about ``limit`` characters, saying how long the input was.

    Huge ints are described, not printed: ``repr`` of an int over 4,300 digits raises
    ValueError in Python ≥ 3.11, and one of 10⁶ digits would take seconds."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        return f"<an int of {value.bit_length()} bits>"
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return repr(value[:limit]) + f"…({len(value)} chars)"
    if isinstance(value, (list, tuple, dict, set, frozenset)) and len(value) > limit:
        # repr of a long container costs as much as the container; its length is enough.
        return f"<a {type(value).__name__} of {len(value)} items>"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 — a hostile __repr__ must not replace the real error
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + f"…({len(text)} chars)"


class EngineError(Exception):
    """Base of the engine's errors."""


class GameOverError(EngineError):
    """A move was sent to a finished game."""


class InvalidSeat(EngineError):
    """A seat that is not an ``int`` in ``0..seats-1`` (bools and floats included), or None
    where a seat is required. ``seat`` holds the value as given."""

    def __init__(self, seat: Any, seats: int, spectator: bool = False) -> None:
        allowed = " or None (a spectator)" if spectator else ""
        super().__init__(
            f"invalid seat {shown(seat)}: a seat is an int from 0 to {seats - 1}{allowed}"
        )
        self.seat = seat
        self.seats = seats


class InvalidCursor(EngineError):
    """An event cursor (``since``) that is not an ``int`` ≥ 0."""

    def __init__(self, since: Any) -> None:
        super().__init__(
            f"invalid since {shown(since)}: an event cursor is an int ≥ 0 (a view's cursor)"
        )
        self.since = since


class NotYourDecision(EngineError):
    """A move came from a seat whose decision is not pending."""

    def __init__(self, seat: int | None, pending: int | None) -> None:
        super().__init__(f"seat {seat} cannot move: the pending decision is seat {pending}'s")
        self.seat = seat
        self.pending = pending


class IllegalMove(EngineError):
    """A move id that is not in the pending decision's legal list. The message repeats at most
    :data:`SHOWN_CHARS` characters of the id and 20 legal ids; ``move_id`` and ``legal`` hold
    them all."""

    def __init__(self, move_id: str, legal: tuple[str, ...]) -> None:
        listed = ", ".join(legal[:20]) + (" …" if len(legal) > 20 else "")
        super().__init__(f"illegal move {shown(move_id)}; legal moves: {listed}")
        self.move_id = move_id
        self.legal = legal


class MoveSyntaxError(EngineError):
    """A value that is not a move id at all (not a string, or a string that cannot be parsed).
    ``text`` holds the value as given."""

    def __init__(self, text: Any, why: str = "") -> None:
        super().__init__(f"not a move id: {shown(text)}" + (f" ({why})" if why else ""))
        self.text = text


class ConfigError(EngineError):
    """A game configuration the rules do not allow."""


class SeedError(ConfigError):
    """A game seed that is not an ``int`` in ``0 ≤ seed < 2**64`` (bools excluded)."""

    def __init__(self, seed: Any) -> None:
        super().__init__(f"invalid seed {shown(seed)}: a seed is an int with 0 ≤ seed < 2**64")
        self.seed = seed


class ScenarioError(EngineError):
    """A scenario that names unknown things or describes an impossible position.

    ``location`` says where (``seats``, ``seat 2 hand``, ``round``, ``<root>`` for the file as
    a whole); the message starts with it."""

    def __init__(self, location: str, message: str) -> None:
        super().__init__(f"{location}: {message}")
        self.location = location
        self.detail = message


class StateError(EngineError):
    """A serialized game state (:meth:`Game.from_omniscient_state`) that is malformed or breaks
    an invariant of the conformance suite. ``violations`` lists every problem found."""

    def __init__(self, violations: list[str]) -> None:
        listed = "; ".join(v if len(v) <= 200 else v[:200] + "…" for v in violations[:5])
        more = f" (and {len(violations) - 5} more)" if len(violations) > 5 else ""
        super().__init__(f"impossible game state: {listed}{more}")
        self.violations = violations
