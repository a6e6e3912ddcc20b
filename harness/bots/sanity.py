"""Sanity metrics of bot play, counted per bot kind from a finished game's event log.

Definitions (each counter is split by the kind of bot in the acting seat):

- ``deputy_shots`` / ``deputy_shots_at_sheriff``: Shots (a Ricochet played as a Shot included)
  fired by a deputy, and those aimed at the sheriff.
- ``outlaw_saloons`` / ``outlaw_saloons_healing_sheriff``: Saloons played by an outlaw or the
  double agent, and those that healed the sheriff. "An outlaw helping the sheriff" is defined as
  this: the one card an outlaw can play that gives the sheriff life.
- ``outlaw_shots`` / ``outlaw_shots_at_outlaws``: Shots fired by an outlaw-side seat, and those at
  another outlaw-side seat (friendly fire; outlaws do not know each other).
- ``canteens`` / ``canteens_at_full_life``: Canteens played on one's own turn, and those that
  healed nothing (must be 0: Canteen at full life is not a legal move).
- ``outlaw_turns`` / ``outlaw_turns_ended_with_shot_at_sheriff``: turns an outlaw-side seat ended
  by choosing ``end_turn``, and those where a Shot at the sheriff was among its legal moves (the
  driver notes this at the decision, see :meth:`Sanity.note_end_turn`).
"""

from __future__ import annotations

from typing import Any

from bangarena.engine.events import Drew, Event, GameOver, GameStarted, Healed, Played, Reshuffled
from bangarena.engine.roles import DEPUTY, DOUBLE_AGENT, OUTLAW

OUTLAW_SIDE = (OUTLAW, DOUBLE_AGENT)
COUNTERS = (
    "deputy_shots",
    "deputy_shots_at_sheriff",
    "outlaw_saloons",
    "outlaw_saloons_healing_sheriff",
    "outlaw_shots",
    "outlaw_shots_at_outlaws",
    "canteens",
    "canteens_at_full_life",
    "outlaw_turns",
    "outlaw_turns_ended_with_shot_at_sheriff",
)


class Sanity:
    """Counters per bot kind, accumulated over games."""

    def __init__(self) -> None:
        self.counts: dict[str, dict[str, int]] = {}

    def _c(self, kind: str) -> dict[str, int]:
        c = self.counts.get(kind)
        if c is None:
            c = self.counts[kind] = dict.fromkeys(COUNTERS, 0)
        return c

    def note_end_turn(self, kind: str, shot_at_sheriff: bool) -> None:
        """An outlaw-side seat of ``kind`` chose end_turn (with or without a legal Shot at
        the sheriff)."""
        c = self._c(kind)
        c["outlaw_turns"] += 1
        if shot_at_sheriff:
            c["outlaw_turns_ended_with_shot_at_sheriff"] += 1

    def add_game(self, log: list[Event], kinds: list[str]) -> None:
        """Count one finished game's log; ``kinds[seat]`` is the bot kind of each seat."""
        start = log[0]
        end = log[-1]
        if not isinstance(start, GameStarted) or not isinstance(end, GameOver):
            return
        sheriff = start.sheriff
        roles = end.roles
        n = len(log)
        for i, e in enumerate(log):
            if type(e) is not Played:
                continue
            seat = e.seat
            role = roles[seat]
            card = e.card.rsplit("_", 1)[0]
            c = self._c(kinds[seat])
            if card == "shot" or e.as_kind == "shot":
                if role == DEPUTY:
                    c["deputy_shots"] += 1
                    if e.target == sheriff:
                        c["deputy_shots_at_sheriff"] += 1
                elif role in OUTLAW_SIDE:
                    c["outlaw_shots"] += 1
                    if e.target is not None and roles[e.target] in OUTLAW_SIDE:
                        c["outlaw_shots_at_outlaws"] += 1
            elif card == "saloon" and role in OUTLAW_SIDE:
                c["outlaw_saloons"] += 1
                if _healed_after(log, i + 1, n, sheriff, "saloon"):
                    c["outlaw_saloons_healing_sheriff"] += 1
            elif card == "canteen":
                c["canteens"] += 1
                if not _healed_after(log, i + 1, n, seat, "canteen"):
                    c["canteens_at_full_life"] += 1

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for kind, c in sorted(self.counts.items()):
            d: dict[str, Any] = dict(c)
            d["rate_deputy_shot_sheriff"] = _rate(c["deputy_shots_at_sheriff"], c["deputy_shots"])
            d["rate_outlaw_saloon_healed_sheriff"] = _rate(
                c["outlaw_saloons_healing_sheriff"], c["outlaw_saloons"]
            )
            d["rate_outlaw_friendly_fire"] = _rate(c["outlaw_shots_at_outlaws"], c["outlaw_shots"])
            d["rate_canteen_at_full_life"] = _rate(c["canteens_at_full_life"], c["canteens"])
            d["rate_outlaw_turn_ended_with_shot_at_sheriff"] = _rate(
                c["outlaw_turns_ended_with_shot_at_sheriff"], c["outlaw_turns"]
            )
            out[kind] = d
        return out


def _healed_after(log: list[Event], i: int, n: int, seat: int, cause: str) -> bool:
    """Whether the effect of the card played just before ``log[i]`` healed ``seat``: the heals
    of a Saloon or a Canteen follow its ``played`` event (after Empty Hands' draw, if any)."""
    while i < n:
        e = log[i]
        if type(e) is Drew or type(e) is Reshuffled:  # Empty Hands' draw may reshuffle first
            i += 1
            continue
        if type(e) is not Healed or e.cause != cause:
            return False
        if e.seat == seat:
            return True
        i += 1
    return False


def _rate(num: int, den: int) -> float | None:
    return round(num / den, 5) if den else None
