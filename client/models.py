"""The client's own models of what the seat service sends: a pending decision, a created match,
one event of the stream.

They mirror the service's payloads but ignore fields they do not know (``extra="ignore"``), so a
newer server that adds fields does not break an older client. Tokens never show in a ``repr``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

PromptPart = Literal["full", "turn", "none"]
"""Which of the service's prompts a poll asks for: both (``full``), the ``turn`` prompt alone
(the client keeps the match's system prompt from its first poll) or ``none``."""

_TOLERANT = ConfigDict(extra="ignore", populate_by_name=True)


class MoveOption(BaseModel):
    """One legal move: the ``id`` to answer and its ``text`` in the table's language."""

    model_config = _TOLERANT

    id: str
    text: str = ""


class PromptPair(BaseModel):
    """The prompts the harness would give a model: ``system`` (fixed for the match) and
    ``turn`` (this decision's, ending with the legal ids). Empty when the poll asked for none."""

    model_config = _TOLERANT

    system: str = ""
    turn: str = ""

    @field_validator("system", "turn", mode="before")
    @classmethod
    def _null_is_empty(cls, value: Any) -> Any:
        return "" if value is None else value


class Decision(BaseModel):
    """This seat's pending decision, as ``GET /v1/matches/{id}/decision`` returns it.

    ``decision_id`` is the decision's index in the match record: answer it with
    :meth:`SeatClient.move` ``(decision.decision_id, move_id)``. ``answer_schema`` is the JSON
    Schema of a model's answer (sent as ``schema``); ``deadline_s`` the seconds left on the clock
    when the service answered.
    """

    model_config = _TOLERANT

    match_id: str
    decision_id: int = Field(ge=0)
    seat: int = Field(ge=0)
    kind: str
    source: int | None = None
    needed: int | None = None
    card: str | None = None
    moves: list[MoveOption]
    view: dict[str, Any] = Field(default_factory=dict)
    answer_schema: dict[str, Any] = Field(default_factory=dict, alias="schema")
    prompt: PromptPair = Field(default_factory=PromptPair)
    deadline_s: float = 0.0
    lang: str = "en"

    @field_validator("prompt", mode="before")
    @classmethod
    def _no_prompt(cls, value: Any) -> Any:
        return {} if value is None else value

    @property
    def move_ids(self) -> list[str]:
        """The legal move ids, in the service's order."""
        return [m.id for m in self.moves]

    def is_legal(self, move_id: str) -> bool:
        """Whether ``move_id`` is one of this decision's legal ids."""
        return any(m.id == move_id for m in self.moves)


class SeatSlot(BaseModel):
    """One seat of a created match: its kind and, for remote and human seats, its token."""

    model_config = _TOLERANT

    seat: int
    kind: str
    name: str = ""
    token: str | None = Field(default=None, repr=False)


class MatchCreated(BaseModel):
    """The answer to ``POST /v1/matches``: the match id and its tokens (hidden from ``repr``)."""

    model_config = _TOLERANT

    match_id: str
    host_token: str = Field(repr=False)
    spectator_token: str = Field(repr=False)
    seats: list[SeatSlot]
    status: str = ""
    """``waiting`` (until every remote and human seat has connected once) or ``running``."""

    def token_for(self, seat: int) -> str:
        """The token of ``seat`` (a remote or human seat); ``KeyError`` for any other seat."""
        for slot in self.seats:
            if slot.seat == seat and slot.token:
                return slot.token
        raise KeyError(f"seat {seat} has no token (not a remote or human seat)")

    @property
    def remote_seats(self) -> list[int]:
        """The seats that have a token, in seat order."""
        return [s.seat for s in self.seats if s.token]


@dataclass(frozen=True, slots=True)
class StreamEvent:
    """One Server-Sent Event: ``id`` (what ``Last-Event-ID`` resumes from), ``event`` (its
    name; ``message`` when the server gave none) and ``data`` (parsed JSON, or the raw text when
    it is not JSON)."""

    id: str | None
    event: str
    data: Any
