"""Table signals (rules.md §10): the only talk at a web table — no free chat.

Three kinds: ``declare`` ("Who I am": I am the Deputy / an Outlaw / the Renegade; bluffing is
allowed), ``mark`` ("I think it's…": a role guess on another seat's portrait) and ``react`` (👍
😂 😠 😱 🤝 🤔 GG). The server enforces the limits: at most one signal per
:data:`MIN_GAP_S` seconds and :data:`PER_GAME` per game, per player; declarations and marks only
while the player is in the game, reactions also after elimination.

Signals live here only, next to the match and never in it: the engine, the match driver, the
record, the views, the decision payloads and the prompts never see them, so no bot, model or
remote agent can read or send one. Only people at the web table (and spectators) get them, over
the web table's own stream.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Literal

SignalKind = Literal["declare", "mark", "react"]
MIN_GAP_S: Final = 1.2
PER_GAME: Final = 60
DECLARABLE: Final = ("deputy", "outlaw", "renegade")
"""What a "Who I am" declaration may claim (the sheriff is public from the deal)."""
MARKABLE: Final = ("sheriff", "deputy", "outlaw", "renegade", "double_agent")
REACTIONS: Final = ("👍", "😂", "😠", "😱", "🤝", "🤔", "GG")


class SignalRefused(ValueError):
    """A signal the server does not pass on: ``code`` (``too_fast``, ``limit``,
    ``not_in_game``, ``bad_signal``) and the reason (``str()``)."""

    def __init__(self, code: str, reason: str, status: int = 429) -> None:
        super().__init__(reason)
        self.code = code
        self.status = status


@dataclass(frozen=True, slots=True)
class Signal:
    """One signal as every person at the table sees it."""

    n: int
    seat: int
    kind: SignalKind
    value: str
    target: int | None
    at: float

    def public(self) -> dict[str, object]:
        return {
            "n": self.n, "seat": self.seat, "kind": self.kind, "value": self.value,
            "target": self.target,
        }  # fmt: skip


@dataclass(slots=True)
class _Sender:
    count: int = 0
    last: float | None = None


@dataclass
class SignalBook:
    """The signals of one match and each seat's limits. ``clock``: monotonic seconds (tests
    pass their own)."""

    seats: int
    min_gap_s: float = MIN_GAP_S
    per_game: int = PER_GAME
    clock: Callable[[], float] = time.monotonic
    signals: list[Signal] = field(default_factory=list)
    _senders: dict[int, _Sender] = field(default_factory=dict)

    def send(self, seat: int, kind: str, value: str, target: int | None, *, alive: bool) -> Signal:
        """Record a signal of ``seat`` (``alive``: still in the game) or raise
        :class:`SignalRefused` with the rule it breaks."""
        _check_shape(kind, value, target, seat, self.seats)
        if kind != "react" and not alive:
            raise SignalRefused(
                "not_in_game", "after elimination only reactions can be sent", status=409
            )
        sender = self._senders.setdefault(seat, _Sender())
        now = self.clock()
        if sender.count >= self.per_game:
            raise SignalRefused("limit", f"at most {self.per_game} signals per game")
        if sender.last is not None and now - sender.last < self.min_gap_s:
            raise SignalRefused("too_fast", f"one signal per {self.min_gap_s:g} s: wait a moment")
        sender.count += 1
        sender.last = now
        sig = Signal(len(self.signals), seat, kind, value, target, now)  # type: ignore[arg-type]
        self.signals.append(sig)
        return sig

    def left(self, seat: int) -> int:
        """Signals ``seat`` may still send in this game."""
        s = self._senders.get(seat)
        return self.per_game - (s.count if s else 0)

    def since(self, n: int) -> list[Signal]:
        return self.signals[n:]


def _check_shape(kind: str, value: str, target: int | None, seat: int, seats: int) -> None:
    if kind == "declare":
        if value not in DECLARABLE or target is not None:
            raise SignalRefused(
                "bad_signal", f"a declaration names one of {', '.join(DECLARABLE)}", status=422
            )
    elif kind == "mark":
        if value not in MARKABLE:
            raise SignalRefused(
                "bad_signal", f"a mark names one of {', '.join(MARKABLE)}", status=422
            )
        if target is None or not 0 <= target < seats or target == seat:
            raise SignalRefused("bad_signal", "a mark goes on another seat's portrait", status=422)
    elif kind == "react":
        if value not in REACTIONS or target is not None:
            raise SignalRefused(
                "bad_signal", f"a reaction is one of {' '.join(REACTIONS)}", status=422
            )
    else:
        raise SignalRefused("bad_signal", "a signal is declare, mark or react", status=422)


__all__ = [
    "DECLARABLE",
    "MARKABLE",
    "MIN_GAP_S",
    "PER_GAME",
    "REACTIONS",
    "Signal",
    "SignalBook",
    "SignalKind",
    "SignalRefused",
]
