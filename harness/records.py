"""The match record: the engine's game record wrapped with the seats, every move with who chose
it and how, per-attempt telemetry (and, unless dropped, transcripts), and totals per seat and
match. :func:`match_record_schema` is its JSON Schema, published next to the engine's schemas.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .answers import FAILURE_KINDS

RECORD_FORMAT = "bangarena.match"
RECORD_VERSION = 1

Controller = Literal["human", "bot", "ai"]
SeatKind = Literal["rule", "random", "human", "scripted", "model"]
Outcome = Literal[
    "ok", "transport", "timeout", "truncated", "empty", "unparsable", "illegal", "refusal"
]
AutopilotReason = Literal["timeout", "failures", "transport", "budget", "no_answer", "seat_error"]
AUTOPILOT_REASONS: tuple[str, ...] = (
    "timeout",
    "failures",
    "transport",
    "budget",
    "no_answer",
    "seat_error",
)


class TokenUsage(BaseModel):
    """Tokens of one attempt or a total. ``input_tokens`` includes cached and cache-write
    tokens; ``output_tokens`` includes reasoning tokens."""

    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    cached_tokens: int = 0
    cache_write_tokens: int = 0

    def add(self, other: TokenUsage) -> None:
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.reasoning_tokens += other.reasoning_tokens
        self.cached_tokens += other.cached_tokens
        self.cache_write_tokens += other.cache_write_tokens

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens


class Transcript(BaseModel):
    """What one attempt sent and got back (dropped with ``--no-transcripts``). The system prompt
    is the same for every attempt of a seat and is stored once, in the seat's record."""

    messages: list[dict[str, str]] = Field(description="the messages after the system prompt")
    raw_reply: str | None = None
    refusal: str | None = None
    request_params: dict[str, Any] = Field(default_factory=dict)


class AttemptRecord(BaseModel):
    """One call to a model (or one transport failure), in order within its decision."""

    n: int = Field(description="1-based within the decision")
    outcome: Outcome = Field(description="ok, or the failure class")
    detail: str | None = None
    status: int | None = Field(default=None, description="HTTP status of a transport error")
    finish_reason: str | None = None
    model_id: str | None = Field(default=None, description="the model id the provider reported")
    sdk: str | None = None
    started_s: float = Field(description="seconds from the start of the decision")
    latency_s: float = 0.0
    waited_s: float = Field(default=0.0, description="backoff slept before this attempt")
    usage: TokenUsage = Field(default_factory=TokenUsage)
    cost_usd: float | None = None
    move: str | None = Field(default=None, description="the id the reply named, legal or not")
    transcript: Transcript | None = None


class DecisionTelemetry(BaseModel):
    """What a seat reports about one decision, besides its move."""

    attempts: list[AttemptRecord] = Field(default_factory=list)
    autopilot_reason: AutopilotReason | None = None
    reason: str | None = Field(default=None, description="the model's stated reason")
    notes: str | None = Field(default=None, description="the model's private notes after it")
    backoff_s: float = Field(default=0.0, description="time spent backing off (all causes)")
    credited_s: float = Field(
        default=0.0, description="rate-limit backoff not charged to the seat's clock"
    )


class MoveRecord(BaseModel):
    """One player decision (forced moves are applied by the engine and are not listed)."""

    index: int = Field(description="position in the game record's moves")
    seat: int
    decision: str = Field(description="the decision kind")
    legal: int = Field(description="how many legal moves there were")
    move: str
    how: Literal["chosen", "autopilot"]
    autopilot_reason: AutopilotReason | None = None
    chosen_by: Literal["human", "bot", "ai", "autopilot"] = Field(
        description="the controller kind that chose the move, or the server's autopilot"
    )
    retries: int = Field(default=0, description="attempts after the first")
    elapsed_s: float = 0.0
    time_limit_s: float
    backoff_s: float = 0.0
    credited_s: float = 0.0
    attempts: list[AttemptRecord] = Field(default_factory=list)
    reason: str | None = None
    notes: str | None = None


class SeatRecord(BaseModel):
    """Who sits in a chair. ``controller`` is public (the badge under the name)."""

    seat: int
    spec: str
    display_name: str
    controller: Controller
    kind: SeatKind
    provider: str | None = None
    model: str | None = None
    base_url: str | None = None
    answer_mode: str | None = None
    lang: str | None = None
    prompt_version: str | None = None
    sdk: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    time_per_move_s: float
    system_prompt: str | None = Field(
        default=None, description="the seat's system prompt (with transcripts)"
    )
    injected_faults: dict[str, int] | None = Field(
        default=None, description="scripted seats: faults injected by kind"
    )


class SeatTotals(BaseModel):
    """Totals for one seat, or (``seat`` None) the whole match."""

    seat: int | None = None
    decisions: int = 0
    first_try_valid: int = 0
    first_try_valid_rate: float | None = None
    attempts: int = 0
    retries: int = 0
    autopilot_moves: int = 0
    autopilot: dict[str, int] = Field(default_factory=dict)
    failures: dict[str, int] = Field(default_factory=lambda: dict.fromkeys(FAILURE_KINDS, 0))
    usage: TokenUsage = Field(default_factory=TokenUsage)
    cost_usd: float | None = None
    latency_s: float = 0.0
    mean_latency_s: float | None = None
    backoff_s: float = 0.0
    credited_s: float = 0.0
    elapsed_s: float = 0.0


class MatchConfigRecord(BaseModel):
    seats: int
    mode: str
    seed: int
    max_rounds: int
    lang: str
    time_per_move_s: float = Field(description="the table's time per move for people")
    model_time_per_move_s: float
    backoff_cap_s: float
    transcripts: bool


class Totals(BaseModel):
    seats: list[SeatTotals]
    match: SeatTotals


class MatchRecord(BaseModel):
    """A whole match. ``game`` is the engine's own record (versions, config, seed, moves, events,
    result): replaying ``game.moves`` reproduces the game; ``moves`` annotates each of them."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["bangarena.match"] = RECORD_FORMAT
    version: int = RECORD_VERSION
    match_id: str
    started_at: str = Field(description="UTC, ISO 8601")
    finished_at: str
    duration_s: float
    versions: dict[str, str] = Field(description="harness, prompts, engine, rules, SDKs")
    config: MatchConfigRecord
    seats: list[SeatRecord]
    moves: list[MoveRecord]
    totals: Totals
    result: dict[str, Any] | None
    game: dict[str, Any]


def seat_totals(
    seat: int | None, moves: list[MoveRecord], controller: Controller | None
) -> SeatTotals:
    """Totals over ``moves`` (already filtered to one seat, or all of them)."""
    t = SeatTotals(seat=seat)
    costs: list[float] = []
    for m in moves:
        t.decisions += 1
        t.elapsed_s += m.elapsed_s
        t.backoff_s += m.backoff_s
        t.credited_s += m.credited_s
        if m.how == "autopilot":
            t.autopilot_moves += 1
            key = m.autopilot_reason or "no_answer"
            t.autopilot[key] = t.autopilot.get(key, 0) + 1
        if m.attempts:
            t.attempts += len(m.attempts)
            t.retries += len(m.attempts) - 1
            if m.attempts[0].outcome == "ok":
                t.first_try_valid += 1
        elif m.how == "chosen":
            t.first_try_valid += 1
        for a in m.attempts:
            if a.outcome != "ok":
                t.failures[a.outcome] += 1
            t.usage.add(a.usage)
            t.latency_s += a.latency_s
            if a.cost_usd is not None:
                costs.append(a.cost_usd)
    if t.decisions:
        t.first_try_valid_rate = t.first_try_valid / t.decisions
    if t.attempts:
        t.mean_latency_s = t.latency_s / t.attempts
    t.cost_usd = sum(costs) if costs else None
    if controller is not None and controller != "ai" and not t.attempts:
        t.first_try_valid_rate = None
    return t


def match_record_schema() -> dict[str, Any]:
    """The JSON Schema of a match record file."""
    body = MatchRecord.model_json_schema()
    body["title"] = "BangArena match record"
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **body}
