"""The request and response bodies of API v1 (pydantic; every request model forbids unknown
fields). The decision a seat polls is the harness's
:class:`~bangarena.harness.decision_payload.DecisionPayload`; an answer is its
:class:`~bangarena.harness.decision_payload.MoveAnswer`."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from bangarena.engine import DEFAULT_MAX_ROUNDS, EXPANSIONS, ConfigError
from bangarena.engine.config import check_expansions
from bangarena.engine.roles import MAX_SEATS, MIN_SEATS, MODES
from bangarena.prompts.catalog import LANGS

NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9 ._@+-]{0,63}$"
MAX_SEED = 2**53 - 1
"""Seeds stay exact in every JSON reader (an engine seed may be up to 2**64 - 1)."""
MatchState = Literal["waiting", "running", "over", "aborted"]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class BotPlayer(_Request):
    """A bot of the server (``rule``, ``random``, ``rule:eps=0.3`` …)."""

    kind: Literal["bot"]
    spec: str = Field(min_length=1, max_length=100, examples=["rule"])


class ModelPlayer(_Request):
    """A model participant configured on the server, by id (clients never pass a spec)."""

    kind: Literal["model"]
    participant: str = Field(min_length=1, max_length=100)


class RemotePlayer(_Request):
    """An agent that connects with its seat token."""

    kind: Literal["remote"]
    name: str = Field(pattern=NAME_PATTERN, examples=["my-agent"])


class HumanPlayer(_Request):
    """A person at a web table (connects with the seat token, in a cookie)."""

    kind: Literal["human"]
    name: str = Field(pattern=NAME_PATTERN)


Player = Annotated[
    BotPlayer | ModelPlayer | RemotePlayer | HumanPlayer, Field(discriminator="kind")
]


class CreateMatch(_Request):
    """``POST /v1/matches``: the table and one player per seat."""

    seats: int = Field(ge=MIN_SEATS, le=MAX_SEATS)
    mode: str = Field(default="classic", description=f"one of {', '.join(MODES)}")
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED, description="default: random")
    time_per_move: float = Field(
        default=60.0, gt=0, le=3600, allow_inf_nan=False, description="seconds per decision"
    )
    players: list[Player] = Field(min_length=MIN_SEATS, max_length=MAX_SEATS)
    start: Literal["now", "connected"] = Field(
        default="connected",
        description="now, or once every remote and human seat has connected once",
    )
    lang: str = Field(default="en", description=f"prompt language: {', '.join(LANGS)}")
    max_rounds: int = Field(default=DEFAULT_MAX_ROUNDS, ge=1, le=1000)
    transcripts: bool = True
    expansions: list[str] = Field(
        default_factory=list,
        max_length=16,
        description=f"expansions in play: {', '.join(EXPANSIONS)} (default: the base game)",
    )

    @field_validator("expansions")
    @classmethod
    def _expansions(cls, value: list[str]) -> list[str]:
        try:  # the engine's own check: unknown or repeated names, canonical order
            return list(check_expansions(value))
        except ConfigError as exc:
            raise ValueError(str(exc)) from None

    @field_validator("mode")
    @classmethod
    def _mode(cls, value: str) -> str:
        if value not in MODES:
            raise ValueError(f"unknown mode {value[:40]!r}; valid modes: {', '.join(MODES)}")
        return value

    @field_validator("lang")
    @classmethod
    def _lang(cls, value: str) -> str:
        if value not in LANGS:
            raise ValueError(f"no prompts in {value[:20]!r}; valid: {', '.join(LANGS)}")
        return value

    @model_validator(mode="after")
    def _one_player_per_seat(self) -> CreateMatch:
        if len(self.players) != self.seats:
            raise ValueError(f"{len(self.players)} players for {self.seats} seats: give one each")
        return self


class SeatGrant(BaseModel):
    """One seat of a new match: remote and human seats get their token (shown once)."""

    seat: int
    kind: Literal["bot", "model", "remote", "human"]
    name: str
    token: str | None = None


class MatchCreated(BaseModel):
    match_id: str
    host_token: str
    spectator_token: str
    seats: list[SeatGrant]
    status: MatchState


class PublicSeat(BaseModel):
    """What everyone may know about a seat."""

    seat: int
    kind: Literal["bot", "model", "remote", "human"]
    name: str
    alive: bool
    connected: bool | None = Field(default=None, description="remote and human seats only")


class MatchStatus(BaseModel):
    """``GET /v1/matches/{id}``: public (no token needed)."""

    match_id: str
    status: MatchState
    seats: int
    mode: str
    time_per_move: float
    players: list[PublicSeat]
    decisions: int = Field(description="decisions played so far")
    to_move: int | None = Field(description="the seat whose decision is pending")
    round: int
    result: dict[str, Any] | None = None
    stored: bool = False
    cancelled: str | None = Field(
        default=None,
        description="why the match was cancelled (by the admin or its host, or not started in "
        "time); null otherwise",
    )


class MatchList(BaseModel):
    """``GET /v1/matches`` (admin): the matches the service holds, the newest first."""

    matches: list[MatchStatus]


class ErrorBody(BaseModel):
    """Every error: a code, a precise reason; some errors add what the caller needs next."""

    error: str
    reason: str
    legal: list[str] | None = Field(default=None, description="illegal_move: the legal ids")
    result: dict[str, Any] | None = Field(default=None, description="410: the result, if over")
    detail: list[dict[str, Any]] | None = Field(default=None, description="validation errors")


class MoveAccepted(BaseModel):
    """``POST /v1/matches/{id}/moves``: the move was played; the events it caused as the seat
    saw them (until the next decision of anyone), and the cursor after them."""

    decision_id: int
    move_id: str
    events: list[dict[str, Any]]
    cursor: int
    status: MatchState


class ViewBody(BaseModel):
    """``GET /v1/matches/{id}/view``: the token's view (``seat`` None: the public one)."""

    match_id: str
    seat: int | None
    status: MatchState
    view: dict[str, Any]


class SessionRequest(_Request):
    """``POST /v1/session``: a browser hands its token over once, in the body; the answer sets
    it as an HttpOnly SameSite cookie."""

    token: str = Field(min_length=1, max_length=200)


class SessionBody(BaseModel):
    match_id: str
    role: Literal["seat", "spectator", "host"]
    seat: int | None = None


class SuiteTotalsBody(BaseModel):
    cost_usd: float
    tokens: int
    input_tokens: int
    output_tokens: int
    wall_s: float
    matches_done: int
    matches_void: int


class SuiteBody(BaseModel):
    name: str
    hash: str
    updated_at: datetime
    runs: int
    totals: SuiteTotalsBody


class SuiteDetail(SuiteBody):
    participants: list[dict[str, str]] = Field(description="id, spec and kind of each")


class Health(BaseModel):
    status: Literal["ok"]
    engine_version: str
    rules_version: str
    live_matches: int


__all__ = [
    "BotPlayer",
    "CreateMatch",
    "ErrorBody",
    "Health",
    "HumanPlayer",
    "MatchCreated",
    "MatchList",
    "MatchState",
    "MatchStatus",
    "ModelPlayer",
    "MoveAccepted",
    "Player",
    "PublicSeat",
    "RemotePlayer",
    "SeatGrant",
    "SessionBody",
    "SessionRequest",
    "SuiteBody",
    "SuiteDetail",
    "SuiteTotalsBody",
    "ViewBody",
]
