"""The match record: the engine's game record wrapped with the seats, every move with who chose
it and how, per-attempt telemetry (and, unless dropped, transcripts), totals per seat, per seat
kind and for the match, the match's status and its provenance. :func:`match_record_schema` is
its JSON Schema, published next to the engine's schemas; :func:`load_match_record` reads any
version (version 1 records are upgraded).

Version 2 (this file's :data:`RECORD_VERSION`) added ``status`` (``complete`` / ``aborted``),
``status_detail``, ``provenance``, per-kind totals, the ``auth`` autopilot reason, and
rule-following statistics that cover only the seats answering through the text path.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import SkipJsonSchema

from .answers import FAILURE_KINDS

RECORD_FORMAT = "bangarena.match"
RECORD_VERSION = 2
READABLE_VERSIONS: Final = (1, 2)
"""Record versions :func:`load_match_record` reads (older ones are upgraded)."""

Controller = Literal["human", "bot", "ai"]
SeatKind = Literal[
    "rule", "random", "human", "scripted", "model", "remote", "http", "a2a", "search"
]
"""Every seat kind a record may name: one open union. Later issues add kinds here (``remote``,
``http`` and ``a2a`` agents, the ``search`` bot) without a new record version; a reader must
accept every kind listed."""
SEAT_KINDS: tuple[str, ...] = get_args(SeatKind)
RULE_FOLLOWING_KINDS: frozenset[str] = frozenset({"model", "scripted", "remote", "http", "a2a"})
"""Seats that answer by naming a move (the text path, or an agent's answer): the first-try
valid rate, retries and failure counts describe them. Bots (``rule``, ``random``, ``search``)
pick from the legal list and people from a numbered menu, so those statistics never cover
them."""
Outcome = Literal[
    "ok", "transport", "timeout", "truncated", "empty", "unparsable", "illegal", "refusal"
]
AutopilotReason = Literal[
    "timeout", "failures", "transport", "auth", "budget", "no_answer", "seat_error"
]
AUTOPILOT_REASONS: tuple[str, ...] = get_args(AutopilotReason)
INFRASTRUCTURE_REASONS: frozenset[str] = frozenset({"transport", "auth"})
"""Autopilot reasons that are the infrastructure's fault, not the seat's (issue 10's void rule)."""
INFRASTRUCTURE_THRESHOLD: Final = 0.10
"""A seat whose decisions were lost to its provider (:func:`lost_to_provider`) on more than this
share of them makes the match an infrastructure failure (``bangarena play`` exits 3; suites
store it as void)."""
MatchStatus = Literal["complete", "aborted"]


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
    retries: int = Field(
        default=0, description="answer attempts after the first (transport retries not counted)"
    )
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
        default=None,
        description="the seat's system prompt (with transcripts; a remote seat's when it was "
        "sent one)",
    )
    injected_faults: dict[str, int] | None = Field(
        default=None, description="scripted seats: faults injected by kind"
    )


class SeatTotals(BaseModel):
    """Totals for one seat, a seat kind or (``seat`` None) the whole match.

    The rule-following statistics (``answered``, ``first_try_valid`` and its rate, ``retries``,
    ``failures``) cover only seats of :data:`RULE_FOLLOWING_KINDS`; they are None (or 0) for
    bots and people, and the match's and kinds' sums leave those seats out. Transport failures
    are never the seat's fault: a decision whose first attempts failed in transport and whose
    next one was a legal answer is first-try valid, and a decision on which the provider never
    answered is not counted in ``answered``."""

    seat: int | None = None
    decisions: int = 0
    answered: int | None = Field(
        default=None,
        description="decisions on which the seat gave an answer (the rate's denominator)",
    )
    first_try_valid: int | None = None
    first_try_valid_rate: float | None = None
    attempts: int = 0
    retries: int = Field(default=0, description="answer attempts after the first")
    autopilot_moves: int = 0
    autopilot: dict[str, int] = Field(default_factory=dict)
    lost_to_provider: int = Field(
        default=0,
        description="autopilot moves the provider caused (transport or auth errors and no reply)",
    )
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
    # Left out of the JSON when None: base-game records stay byte-for-byte as they were.
    expansions: list[str] | SkipJsonSchema[None] = Field(
        default=None,
        exclude_if=lambda v: v is None,
        description="the expansions in play (absent: the base game)",
    )


class Totals(BaseModel):
    """Per seat (in seat order), per seat kind, and for the whole match."""

    seats: list[SeatTotals]
    kinds: dict[str, SeatTotals] = Field(default_factory=dict)
    match: SeatTotals


class Provenance(BaseModel):
    """Where a record came from. ``command`` has credentials in URLs redacted."""

    command: list[str] = Field(default_factory=list)
    python: str
    platform: str
    commit: str | None = Field(default=None, description="the git commit, from a checkout")


class MatchRecord(BaseModel):
    """A whole match. ``game`` is the engine's own record (versions, config, seed, moves, events,
    result): replaying ``game.moves`` reproduces the game; ``moves`` annotates each of them."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["bangarena.match"] = RECORD_FORMAT
    version: int = RECORD_VERSION
    status: MatchStatus = Field(
        default="complete", description="complete, or aborted (interrupted, or an auth failure)"
    )
    status_detail: str | None = Field(default=None, description="why the match was aborted")
    provenance: Provenance | None = Field(default=None, description="absent in version 1")
    match_id: str
    started_at: str = Field(description="UTC, ISO 8601")
    finished_at: str
    duration_s: float
    versions: dict[str, str] = Field(description="harness, prompts, engine, rules, SDKs")
    config: MatchConfigRecord
    seats: list[SeatRecord]
    moves: list[MoveRecord]
    totals: Totals
    result: dict[str, Any] | None = Field(description="the engine's result; null if aborted")
    game: dict[str, Any]


def lost_to_provider(m: MoveRecord) -> bool:
    """Whether the provider, not the seat, lost this decision: the provider failed in transport
    (429, 5xx, connection, 401/403, 400) and never replied — an attempt that also ran out of
    time while it was failing does not make it the seat's fault."""
    if any(a.outcome not in ("transport", "timeout") for a in m.attempts):
        return False  # the provider replied: what happened next is the seat's
    return m.autopilot_reason in INFRASTRUCTURE_REASONS or any(
        a.outcome == "transport" for a in m.attempts
    )


def _answer_counts(m: MoveRecord) -> tuple[bool, bool]:
    """(answered, first-try valid) for one decision of a rule-following seat. Leading transport
    failures are skipped: the first reply the provider gave is the seat's first try."""
    if m.attempts and lost_to_provider(m):  # the provider never answered
        return False, False
    for a in m.attempts:
        if a.outcome != "transport":
            return True, a.outcome == "ok"
    if m.how == "chosen":  # a seat that answers without attempts (no provider behind it)
        return True, True
    return m.autopilot_reason not in ("transport", "auth", "budget", "no_answer", None), False


def seat_totals(seat: int | None, moves: Iterable[MoveRecord], kind: str | None) -> SeatTotals:
    """Totals of one seat of ``kind`` over its ``moves``."""
    rule_following = kind in RULE_FOLLOWING_KINDS
    t = SeatTotals(seat=seat)
    # Sums are kept in locals and set once: a pydantic attribute write costs ~1 µs, a bot seat
    # has ~30 decisions per match, and a remote seat's every decision has an attempt.
    decisions = autopilot_moves = attempts = lost = answered = valid = retries = 0
    elapsed = backoff = credited = latency = 0.0
    tin = tout = reasoning = cached = cache_write = 0
    costs: list[float] = []
    for m in moves:
        decisions += 1
        elapsed += m.elapsed_s
        backoff += m.backoff_s
        credited += m.credited_s
        if m.how == "autopilot":
            autopilot_moves += 1
            key = m.autopilot_reason or "no_answer"
            t.autopilot[key] = t.autopilot.get(key, 0) + 1
            lost += lost_to_provider(m)
        for a in m.attempts:
            attempts += 1
            u = a.usage
            tin, tout = tin + u.input_tokens, tout + u.output_tokens
            reasoning, cached = reasoning + u.reasoning_tokens, cached + u.cached_tokens
            cache_write += u.cache_write_tokens
            latency += a.latency_s
            if a.cost_usd is not None:
                costs.append(a.cost_usd)
        if not rule_following:
            continue
        a_ok, v_ok = _answer_counts(m)
        answered += a_ok
        valid += v_ok
        if m.attempts:
            answers = sum(a.outcome != "transport" for a in m.attempts)
            retries += max(0, answers - 1)
            for a in m.attempts:
                if a.outcome != "ok":
                    t.failures[a.outcome] += 1
    t.decisions, t.autopilot_moves, t.attempts = decisions, autopilot_moves, attempts
    t.usage = TokenUsage(
        input_tokens=tin, output_tokens=tout, reasoning_tokens=reasoning,
        cached_tokens=cached, cache_write_tokens=cache_write,
    )  # fmt: skip
    t.elapsed_s, t.backoff_s, t.credited_s, t.latency_s = elapsed, backoff, credited, latency
    t.lost_to_provider, t.retries = lost, retries
    if rule_following:
        t.answered, t.first_try_valid = answered, valid
    t.cost_usd = sum(costs) if costs else None
    return _finish(t)


def _finish(t: SeatTotals) -> SeatTotals:
    t.first_try_valid_rate = (
        t.first_try_valid / t.answered if t.answered and t.first_try_valid is not None else None
    )
    t.mean_latency_s = t.latency_s / t.attempts if t.attempts else None
    return t


def merge_totals(parts: Iterable[SeatTotals], seat: int | None = None) -> SeatTotals:
    """The sum of several seats' totals (rates recomputed; rule-following statistics only from
    the parts that have them)."""
    t = SeatTotals(seat=seat)
    # Sums in locals, set once (a pydantic attribute write costs ~1 µs; a record merges its
    # seats twice: per kind and for the match).
    decisions = attempts = autopilot_moves = lost = retries = 0
    tin = tout = reasoning = cached = cache_write = 0
    latency = backoff = credited = elapsed = 0.0
    answered: int | None = None
    valid: int | None = None
    costs: list[float] = []
    autopilot, failures = t.autopilot, t.failures
    for p in parts:
        decisions += p.decisions
        attempts += p.attempts
        autopilot_moves += p.autopilot_moves
        lost += p.lost_to_provider
        for k, v in p.autopilot.items():
            autopilot[k] = autopilot.get(k, 0) + v
        u = p.usage
        tin += u.input_tokens
        tout += u.output_tokens
        reasoning += u.reasoning_tokens
        cached += u.cached_tokens
        cache_write += u.cache_write_tokens
        latency += p.latency_s
        backoff += p.backoff_s
        credited += p.credited_s
        elapsed += p.elapsed_s
        if p.cost_usd is not None:
            costs.append(p.cost_usd)
        if p.answered is None or p.first_try_valid is None:
            continue
        answered = (answered or 0) + p.answered
        valid = (valid or 0) + p.first_try_valid
        retries += p.retries
        for k, v in p.failures.items():
            failures[k] = failures.get(k, 0) + v
    t.decisions, t.attempts, t.autopilot_moves = decisions, attempts, autopilot_moves
    t.lost_to_provider, t.retries = lost, retries
    t.usage = TokenUsage(
        input_tokens=tin, output_tokens=tout, reasoning_tokens=reasoning, cached_tokens=cached,
        cache_write_tokens=cache_write,
    )  # fmt: skip
    t.latency_s, t.backoff_s, t.credited_s, t.elapsed_s = latency, backoff, credited, elapsed
    if answered is not None:
        t.answered, t.first_try_valid = answered, valid
    t.cost_usd = sum(costs) if costs else None
    return _finish(t)


def compute_totals(seats: list[SeatRecord], moves: list[MoveRecord]) -> Totals:
    """Totals per seat, per seat kind (in first-seen order) and for the match."""
    by_seat: list[list[MoveRecord]] = [[] for _ in seats]
    for m in moves:
        by_seat[m.seat].append(m)
    per_seat = [seat_totals(s.seat, by_seat[i], s.kind) for i, s in enumerate(seats)]
    kinds: dict[str, list[SeatTotals]] = {}
    for s, t in zip(seats, per_seat, strict=True):
        kinds.setdefault(s.kind, []).append(t)
    return Totals(
        seats=per_seat,
        kinds={k: merge_totals(v) for k, v in kinds.items()},
        match=merge_totals(per_seat),
    )


def infrastructure_failures(
    record: MatchRecord, threshold: float = INFRASTRUCTURE_THRESHOLD
) -> list[str]:
    """One line per seat whose decisions were autopiloted for provider errors (transport or auth,
    :func:`lost_to_provider`) on more than ``threshold`` of them (empty when the match measured
    what it meant to)."""
    out = []
    # One pass over the moves (a match has ~200; most matches have no autopilot move at all).
    lost_by_seat: dict[int, list[MoveRecord]] = {}
    for m in record.moves:
        if m.how == "autopilot" and lost_to_provider(m):
            lost_by_seat.setdefault(m.seat, []).append(m)
    for s, t in zip(record.seats, record.totals.seats, strict=True):
        lost = lost_by_seat.get(s.seat, [])
        if not t.decisions or len(lost) <= threshold * t.decisions:
            continue
        reasons: dict[str, int] = {}
        for m in lost:
            key = m.autopilot_reason or "no_answer"
            reasons[key] = reasons.get(key, 0) + 1
        why = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
        last = next(
            (a.detail for m in reversed(lost) for a in reversed(m.attempts)
             if a.outcome == "transport" and a.detail),
            None,
        )  # fmt: skip
        out.append(
            f"seat {s.seat} ({s.spec}): {len(lost)} of {t.decisions} decisions were played by the "
            f"autopilot for provider errors ({why}; more than {threshold:.0%})"
            + (f"; last: {last}" if last else "")
        )
    return out


def load_match_record(source: str | Path | Mapping[str, Any]) -> MatchRecord:
    """A match record of any readable version, from a file path or parsed JSON, upgraded to
    the current version (version 1: status ``complete`` — only finished matches were written —,
    no provenance, totals recomputed from the moves under version 2's rules)."""
    if isinstance(source, Mapping):
        data = dict(source)
    else:
        data = json.loads(Path(source).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise ValueError(f"not a match record (format {RECORD_FORMAT!r} expected)")
    version = data.get("version")
    if version not in READABLE_VERSIONS:
        raise ValueError(
            f"match record version {version!r}: this build reads {', '.join(map(str, READABLE_VERSIONS))}"
        )
    rec = MatchRecord.model_validate(data)
    if version == 1:
        rec.version = RECORD_VERSION
        rec.status = "complete"
        for m in rec.moves:  # version 1 counted transport retries too
            m.retries = max(0, sum(a.outcome != "transport" for a in m.attempts) - 1)
        rec.totals = compute_totals(rec.seats, rec.moves)
    return rec


def match_record_schema() -> dict[str, Any]:
    """The JSON Schema of a match record file."""
    body = MatchRecord.model_json_schema()
    body["title"] = "BangArena match record"
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **body}
