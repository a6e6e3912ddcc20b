"""Request and response bodies of the web table's routes (``/web/v1``; pydantic, unknown fields
refused like the rest of the API)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from bangarena.engine.roles import MAX_SEATS, MIN_SEATS, MODES

from ..models import NAME_PATTERN


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _check_mode(value: str) -> str:
    if value not in MODES:
        raise ValueError(f"unknown mode {value[:40]!r}; valid modes: {', '.join(MODES)}")
    return value


class ChairChoice(_Body):
    """Who sits in a chair that is not the person's: a bot (by spec) or a model participant of
    the server (by id)."""

    kind: Literal["bot", "model"] = "bot"
    spec: str = Field(default="rule", pattern=r"^(rule|random)(:[a-z0-9=.;]{1,40})?$")
    participant: str | None = Field(default=None, max_length=100)


class TableSettings(_Body):
    """The home screen's settings: a name, the table, the speed."""

    name: str = Field(pattern=NAME_PATTERN, examples=["Ana"])
    seats: int = Field(default=5, ge=MIN_SEATS, le=MAX_SEATS)
    mode: str = "classic"
    time_per_move: float = Field(
        default=30, gt=0, le=3600, allow_inf_nan=False,
        description="seconds per decision: 15, 30, 60 or 90 for people",
    )  # fmt: skip
    speed: Literal["slow", "normal", "fast"] = "normal"
    chairs: list[ChairChoice] | None = Field(
        default=None, description="Play: who sits in chairs 1…n-1 (default: rule bots)"
    )

    @field_validator("mode")
    @classmethod
    def _mode(cls, value: str) -> str:
        return _check_mode(value)


class WatchSettings(_Body):
    """Watch a bot match: the table and the speed."""

    seats: int = Field(default=5, ge=MIN_SEATS, le=MAX_SEATS)
    mode: str = "classic"
    speed: Literal["slow", "normal", "fast"] = "normal"

    @field_validator("mode")
    @classmethod
    def _mode(cls, value: str) -> str:
        return _check_mode(value)


class JoinBody(_Body):
    name: str = Field(pattern=NAME_PATTERN)


class ChairBody(_Body):
    """A host's change of one chair (between games)."""

    kind: Literal["bot", "model", "empty"]
    spec: str = Field(default="rule", pattern=r"^(rule|random)(:[a-z0-9=.;]{1,40})?$")
    participant: str | None = Field(default=None, max_length=100)


class SpeedBody(_Body):
    speed: Literal["slow", "normal", "fast"]


class EnterBody(_Body):
    watch: bool = Field(default=False, description="sit as a spectator when not a member")


class SignalBody(_Body):
    """One signal: ``declare`` (value: deputy, outlaw, renegade), ``mark`` (value: a role,
    ``target``: another seat) or ``react`` (value: one of 👍 😂 😠 😱 🤝 🤔 GG)."""

    kind: Literal["declare", "mark", "react"]
    value: str = Field(min_length=1, max_length=20)
    target: int | None = Field(default=None, ge=0, le=MAX_SEATS - 1)


class RoomEntry(BaseModel):
    """A room the caller is in: its code and its link (the member cookie is set)."""

    code: str
    link: str
    chair: int | None
    match_id: str | None = None
    table: str | None = Field(default=None, description="the table page, once a game is on")


class TableEntry(BaseModel):
    """A table the caller sits at (the seat or spectator cookie is set)."""

    match_id: str
    seat: int | None
    role: Literal["seat", "spectator", "host"]
    code: str | None = None
    table: str


class SignalOut(BaseModel):
    n: int
    seat: int
    kind: str
    value: str
    target: int | None
    left: int = Field(description="signals the sender may still send in this game")


class Options(BaseModel):
    """What the home screen offers on this server."""

    seats: list[int]
    modes: list[str]
    times: list[int]
    speeds: list[str]
    languages: list[str]
    card_languages: list[str]
    models: list[str] = Field(description="model participants a chair may seat, by id")
    reactions: list[str]
    declarations: list[str]
    marks: list[str]


class RulesText(BaseModel):
    lang: str
    html: str


class Summary(BaseModel):
    """After the game: who won, everyone's role, match badges, the viewer's achievements and a
    stats table per player (all of it public once the game is over)."""

    match_id: str
    winning_team: str | None
    winners: list[int]
    reason: str | None
    rounds: int
    players: list[dict[str, Any]]
    badges: list[dict[str, Any]]
    achievements: list[str]
    you: int | None
    code: str | None = None
    next_match: str | None = None


__all__ = [
    "ChairBody",
    "ChairChoice",
    "EnterBody",
    "JoinBody",
    "Options",
    "RoomEntry",
    "RulesText",
    "SignalBody",
    "SignalOut",
    "SpeedBody",
    "Summary",
    "TableEntry",
    "TableSettings",
    "WatchSettings",
]
