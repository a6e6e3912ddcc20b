"""From a planned match and its record to the rows the store writes: the match row (with the
record compressed), one row per seat and one per move (per-decision telemetry).

:func:`prepare_match` is a pure function of its inputs and its result pickles, so a worker
process (or a Ray task) can do this CPU work and the driver, the single writer, only inserts.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from bangarena.harness.records import MatchRecord, MoveRecord

from ..schedule import PlannedMatch

RECORD_FORMAT: Final = "zlib+json"
ZLIB_LEVEL: Final = 3
"""Level 3 takes ~40 % of level 6's time for records ~25 % larger (a bots match: 0.66 vs 1.6 ms,
10.7 vs 8.7 KB)."""
MATCH_STATUSES: Final = ("done", "void")

DECISION_COLUMNS: Final = (
    "match_id",
    "idx",
    "move_index",
    "seat",
    "participant",
    "decision",
    "legal",
    "move",
    "how",
    "outcome",
    "attempts",
    "retries",
    "attempt_outcomes",
    "input_tokens",
    "output_tokens",
    "cached_tokens",
    "reasoning_tokens",
    "cost_usd",
    "latency_s",
    "elapsed_s",
    "autopilot_reason",
)
"""The ``decisions`` columns in the order of :func:`decision_tuples`' tuples."""


@dataclass(frozen=True, slots=True)
class PreparedMatch:
    """A match ready to insert: ``match`` lacks ``suite_id`` and ``stored_at``, ``seats`` and
    ``decisions`` lack the match id (the first element of each decision tuple is a
    placeholder)."""

    key: str
    suite: str
    status: str
    match: dict[str, Any]
    seats: list[dict[str, Any]]
    decisions: list[tuple[Any, ...]]


def compress_record(record: MatchRecord) -> tuple[bytes, int]:
    """(the record's JSON compressed with zlib, the JSON's size in bytes)."""
    # model_dump_json()'s bytes (the same serializer) before it decodes them to a str, which
    # would be encoded straight back: two copies of the whole record saved.
    raw = record.__pydantic_serializer__.to_json(record)
    return zlib.compress(raw, ZLIB_LEVEL), len(raw)


def decompress_record(blob: bytes, fmt: str = RECORD_FORMAT) -> dict[str, Any]:
    """The stored record as a JSON object."""
    if fmt != RECORD_FORMAT:
        raise ValueError(f"unknown record format {fmt!r}")
    return json.loads(zlib.decompress(blob))


def _status(record: MatchRecord) -> str:
    # Version 1 records had no status: only finished matches were written.
    return str(getattr(record, "status", "complete"))


def _when(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def check_record(planned: PlannedMatch, record: MatchRecord, status: str) -> None:
    """The record is the planned match's and fits ``status`` (raises ValueError otherwise)."""
    if status not in MATCH_STATUSES:
        raise ValueError(f"status {status!r}: a stored match is one of {', '.join(MATCH_STATUSES)}")
    if record.match_id != planned.key:
        raise ValueError(f"record {record.match_id!r} is not planned match {planned.key!r}")
    if record.config.seed != planned.deal_seed or record.config.seats != len(planned.seats):
        raise ValueError(f"record {record.match_id!r} was not played on the planned deal")
    if status == "done" and (record.result is None or _status(record) != "complete"):
        raise ValueError(f"record {record.match_id!r} is not complete: it cannot be done")


def match_values(
    planned: PlannedMatch, record: MatchRecord, status: str, void_reason: str | None
) -> dict[str, Any]:
    """The ``matches`` row (without ``suite_id`` and ``stored_at``)."""
    blob, size = compress_record(record)
    result = record.result or {}
    totals = record.totals.match
    return {
        "key": planned.key,
        "status": status,
        "void_reason": void_reason,
        "table_index": planned.table_index,
        "table_config": dict(planned.table),
        "seats": len(planned.seats),
        "mode": planned.table["mode"],
        "lang": planned.lang,
        "deal": planned.deal,
        "deal_seed": planned.deal_seed,
        "rotation": planned.rotation,
        "lineup": list(planned.participants),
        "specs": list(planned.specs),
        "roles": list(result.get("roles") or []),
        "rules_version": record.versions.get("rules", ""),
        "engine_version": record.versions.get("engine", ""),
        "prompt_version": planned.versions["prompts"],
        "versions": dict(record.versions),
        "winner": result.get("winning_team"),
        "winning_seats": list(result.get("winners") or []),
        "end_reason": result.get("reason"),
        "rounds": int(result.get("rounds") or 0),
        "decisions": len(record.moves),
        "started_at": _when(record.started_at),
        "finished_at": _when(record.finished_at),
        "duration_s": record.duration_s,
        "cost_usd": float(totals.cost_usd or 0.0),
        "input_tokens": totals.usage.input_tokens,
        "output_tokens": totals.usage.output_tokens,
        "record_format": RECORD_FORMAT,
        "record_bytes": size,
        "record": blob,
    }


def seat_values(planned: PlannedMatch, record: MatchRecord) -> list[dict[str, Any]]:
    """The ``match_seats`` rows (without ``match_id``)."""
    result = record.result or {}
    roles = result.get("roles") or []
    winners = set(result.get("winners") or [])
    out = []
    for s, t in zip(planned.seats, record.totals.seats, strict=True):
        out.append(
            {
                "seat": s.seat,
                "participant": s.participant,
                "spec": s.spec,
                "kind": s.kind,
                "role": roles[s.seat] if s.seat < len(roles) else None,
                "won": s.seat in winners,
                "decisions": t.decisions,
                "answered": getattr(t, "answered", None),
                "first_try_valid": t.first_try_valid,
                "autopilot_moves": t.autopilot_moves,
                "input_tokens": t.usage.input_tokens,
                "output_tokens": t.usage.output_tokens,
                "cost_usd": t.cost_usd,
            }
        )
    return out


def moves_in_order(record: MatchRecord) -> Iterator[tuple[MoveRecord | None, dict[str, Any]]]:
    """Every move of the match in order: (the seat's MoveRecord, its event) for a decision a
    seat made, (None, event) for a forced move the engine applied."""
    events = [e for e in record.game.get("events", ()) if e.get("kind") == "move"]
    chosen = sum(1 for e in events if not e.get("auto"))
    if chosen != len(record.moves):
        # A record without the engine's events (or cut short): the seats' decisions only.
        for m in record.moves:
            yield m, {"seat": m.seat, "move": m.move, "auto": False}
        return
    moves = iter(record.moves)
    for e in events:
        yield (None, e) if e.get("auto") else (next(moves), e)


def decision_tuples(planned: PlannedMatch, record: MatchRecord) -> list[tuple[Any, ...]]:
    """The ``decisions`` rows as tuples in :data:`DECISION_COLUMNS` order (match id 0): one per
    move, forced moves included (``how`` ``auto``)."""
    who = planned.participants
    out: list[tuple[Any, ...]] = []
    append = out.append
    for idx, (m, e) in enumerate(moves_in_order(record)):
        if m is None:
            seat = int(e["seat"])
            append(
                (
                    0,
                    idx,
                    None,
                    seat,
                    who[seat],
                    None,
                    1,
                    str(e["move"]),
                    "auto",
                    None,
                    0,
                    0,
                    "",
                    0,
                    0,
                    0,
                    0,
                    None,
                    0.0,
                    0.0,
                    None,
                )
            )
            continue
        atts = m.attempts
        if not atts:  # a bot's decision, or a give-up before any call: nothing to add up
            append(
                (0, idx, m.index, m.seat, who[m.seat], m.decision, m.legal, m.move, m.how,
                 "ok" if m.how == "chosen" else None, 0, m.retries, "", 0, 0, 0, 0, None, 0.0,
                 m.elapsed_s, m.autopilot_reason)
            )  # fmt: skip
            continue
        # One pass over the attempts (most decisions have one) instead of one per sum: the
        # same totals, added in the same order.
        tin = tout = tcached = treason = 0
        cost: float | None = None
        latency = 0.0
        for a in atts:
            u = a.usage
            tin += u.input_tokens
            tout += u.output_tokens
            tcached += u.cached_tokens
            treason += u.reasoning_tokens
            latency += a.latency_s
            if a.cost_usd is not None:
                cost = a.cost_usd if cost is None else cost + a.cost_usd
        append(
            (
                0,
                idx,
                m.index,
                m.seat,
                who[m.seat],
                m.decision,
                m.legal,
                m.move,
                m.how,
                atts[-1].outcome,
                len(atts),
                m.retries,
                atts[0].outcome if len(atts) == 1 else ",".join([a.outcome for a in atts]),
                tin,
                tout,
                tcached,
                treason,
                cost,
                round(latency, 6),
                m.elapsed_s,
                m.autopilot_reason,
            )
        )
    return out


def decision_values(planned: PlannedMatch, record: MatchRecord) -> list[dict[str, Any]]:
    """The ``decisions`` rows as dicts (match id 0), for reading and tests."""
    return [dict(zip(DECISION_COLUMNS, t, strict=True)) for t in decision_tuples(planned, record)]


def prepare_match(
    planned: PlannedMatch,
    record: MatchRecord,
    status: str = "done",
    void_reason: str | None = None,
) -> PreparedMatch:
    """Check the record against the plan and build every row (the CPU part of a write)."""
    check_record(planned, record, status)
    if status == "void" and not void_reason:
        raise ValueError("a void match needs its reason")
    return PreparedMatch(
        key=planned.key,
        suite=planned.suite,
        status=status,
        match=match_values(planned, record, status, void_reason),
        seats=seat_values(planned, record),
        decisions=decision_tuples(planned, record),
    )


__all__ = [
    "DECISION_COLUMNS",
    "RECORD_FORMAT",
    "PreparedMatch",
    "check_record",
    "compress_record",
    "decision_tuples",
    "decision_values",
    "decompress_record",
    "match_values",
    "moves_in_order",
    "prepare_match",
    "seat_values",
]
