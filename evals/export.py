"""Export a store's matches, per-decision telemetry or model trajectories as JSON Lines or
Parquet (pyarrow), optionally for one suite and one participant.

- ``matches``: one line per stored match (done and void; ``status`` tells them apart).
- ``decisions``: one line per move of every match, forced moves included (``how`` ``auto``).
- ``trajectories``: one line per seat that answers through the text path (models, scripted
  seats) and match: each decision's prompt, answer, chosen move and outcome, and the result.

The columns are listed in docs/evals.md and fixed by the pyarrow schemas below, so a Parquet file
has the same columns and types whatever it holds (an empty export included).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal

from sqlalchemy import exists, select

from bangarena.harness.records import RULE_FOLLOWING_KINDS

from .store import Store, StoreError
from .store.rows import DECISION_COLUMNS
from .store.tables import DecisionRow, MatchRow, MatchSeatRow, SuiteRow

ExportFormat = Literal["jsonl", "parquet"]
ExportWhat = Literal["matches", "decisions", "trajectories"]
FORMATS: Final = ("jsonl", "parquet")
WHATS: Final = ("matches", "decisions", "trajectories")
BATCH_ROWS: Final = {"matches": 2000, "decisions": 20000, "trajectories": 50}

MATCH_COLUMNS: Final = (
    "key",
    "suite",
    "table_index",
    "deal",
    "deal_seed",
    "rotation",
    "seats",
    "mode",
    "lang",
    "table",
    "lineup",
    "specs",
    "roles",
    "winner",
    "winning_seats",
    "end_reason",
    "rounds",
    "decisions",
    "status",
    "void_reason",
    "rules_version",
    "engine_version",
    "prompt_version",
    "versions",
    "cost_usd",
    "input_tokens",
    "output_tokens",
    "started_at",
    "finished_at",
    "duration_s",
)
DECISION_EXPORT_COLUMNS: Final = ("key", "suite", "status", "index", *DECISION_COLUMNS[2:])
"""A ``decisions`` line: the match's key, suite and status, then the stored telemetry columns
(``idx`` is exported as ``index``)."""
TRAJECTORY_COLUMNS: Final = (
    "key",
    "suite",
    "status",
    "deal",
    "deal_seed",
    "rotation",
    "seat",
    "participant",
    "spec",
    "kind",
    "role",
    "won",
    "winner",
    "winning_seats",
    "end_reason",
    "system_prompt",
    "steps",
)
STEP_FIELDS: Final = (
    "index",
    "decision",
    "legal",
    "prompt",
    "messages",
    "answer",
    "move",
    "how",
    "outcome",
    "attempts",
    "autopilot_reason",
    "reason",
)


class ExportError(ValueError):
    """A bad export request (format, kind, output path); one line."""


def _schema(what: str) -> Any:
    import pyarrow as pa

    s, i64, i32, f64 = pa.string(), pa.int64(), pa.int32(), pa.float64()
    when = pa.timestamp("us", tz="UTC")
    if what == "matches":
        table = pa.struct(
            [
                ("seats", i32),
                ("mode", s),
                ("max_rounds", i32),
                ("time_per_move", f64),
                ("model_time_per_move", f64),
                ("transcripts", pa.bool_()),
            ]
        )
        return pa.schema(
            [
                ("key", s),
                ("suite", s),
                ("table_index", i32),
                ("deal", i32),
                ("deal_seed", i64),
                ("rotation", i32),
                ("seats", i32),
                ("mode", s),
                ("lang", s),
                ("table", table),
                ("lineup", pa.list_(s)),
                ("specs", pa.list_(s)),
                ("roles", pa.list_(s)),
                ("winner", s),
                ("winning_seats", pa.list_(i32)),
                ("end_reason", s),
                ("rounds", i32),
                ("decisions", i32),
                ("status", s),
                ("void_reason", s),
                ("rules_version", s),
                ("engine_version", s),
                ("prompt_version", s),
                ("versions", pa.map_(s, s)),
                ("cost_usd", f64),
                ("input_tokens", i64),
                ("output_tokens", i64),
                ("started_at", when),
                ("finished_at", when),
                ("duration_s", f64),
            ]
        )
    if what == "decisions":
        return pa.schema(
            [
                ("key", s),
                ("suite", s),
                ("status", s),
                ("index", i32),
                ("move_index", i32),
                ("seat", i32),
                ("participant", s),
                ("decision", s),
                ("legal", i32),
                ("move", s),
                ("how", s),
                ("outcome", s),
                ("attempts", i32),
                ("retries", i32),
                ("attempt_outcomes", pa.list_(s)),
                ("input_tokens", i64),
                ("output_tokens", i64),
                ("cached_tokens", i64),
                ("reasoning_tokens", i64),
                ("cost_usd", f64),
                ("latency_s", f64),
                ("elapsed_s", f64),
                ("autopilot_reason", s),
            ]
        )
    message = pa.struct([("role", s), ("content", s)])
    step = pa.struct(
        [
            ("index", i32),
            ("decision", s),
            ("legal", i32),
            ("prompt", s),
            ("messages", pa.list_(message)),
            ("answer", s),
            ("move", s),
            ("how", s),
            ("outcome", s),
            ("attempts", i32),
            ("autopilot_reason", s),
            ("reason", s),
        ]
    )
    return pa.schema(
        [
            ("key", s),
            ("suite", s),
            ("status", s),
            ("deal", i32),
            ("deal_seed", i64),
            ("rotation", i32),
            ("seat", i32),
            ("participant", s),
            ("spec", s),
            ("kind", s),
            ("role", s),
            ("won", pa.bool_()),
            ("winner", s),
            ("winning_seats", pa.list_(i32)),
            ("end_reason", s),
            ("system_prompt", s),
            ("steps", pa.list_(step)),
        ]
    )


def _utc(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    # SQLite hands back naive datetimes; the store writes UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _scope(store: Store, q: Any, suite: str | None, participant: str | None) -> Any:
    if suite is not None:
        sid = store.suite_id(suite)
        if sid is None:
            raise StoreError(f"suite {suite!r} is not in {store.shown_url}")
        q = q.where(MatchRow.suite_id == sid)
    if participant is not None:
        q = q.where(
            exists().where(
                MatchSeatRow.match_id == MatchRow.id, MatchSeatRow.participant == participant
            )
        )
    return q


def match_rows(
    store: Store, suite: str | None = None, participant: str | None = None
) -> Iterator[dict[str, Any]]:
    """The ``matches`` export rows (matches where ``participant`` sat, when given)."""
    cols = [c for c in MatchRow.__table__.columns if c.name != "record"]
    q = _scope(
        store, select(*cols, SuiteRow.name.label("suite_name")).join(SuiteRow), suite, participant
    )
    with store.engine.connect() as conn:
        result = conn.execution_options(yield_per=500).execute(q.order_by(MatchRow.id))
        for r in result.mappings():
            table = dict(r["table_config"])
            yield {
                "key": r["key"],
                "suite": r["suite_name"],
                "table_index": r["table_index"],
                "deal": r["deal"],
                "deal_seed": r["deal_seed"],
                "rotation": r["rotation"],
                "seats": r["seats"],
                "mode": r["mode"],
                "lang": r["lang"],
                "table": {
                    k: table.get(k)
                    for k in (
                        "seats",
                        "mode",
                        "max_rounds",
                        "time_per_move",
                        "model_time_per_move",
                        "transcripts",
                    )
                },
                "lineup": list(r["lineup"]),
                "specs": list(r["specs"]),
                "roles": list(r["roles"]),
                "winner": r["winner"],
                "winning_seats": list(r["winning_seats"]),
                "end_reason": r["end_reason"],
                "rounds": r["rounds"],
                "decisions": r["decisions"],
                "status": r["status"],
                "void_reason": r["void_reason"],
                "rules_version": r["rules_version"],
                "engine_version": r["engine_version"],
                "prompt_version": r["prompt_version"],
                "versions": {str(k): str(v) for k, v in dict(r["versions"]).items()},
                "cost_usd": r["cost_usd"],
                "input_tokens": r["input_tokens"],
                "output_tokens": r["output_tokens"],
                "started_at": _utc(r["started_at"]),
                "finished_at": _utc(r["finished_at"]),
                "duration_s": r["duration_s"],
            }


def decision_rows(
    store: Store, suite: str | None = None, participant: str | None = None
) -> Iterator[dict[str, Any]]:
    """The ``decisions`` export rows (``participant``'s decisions only, when given)."""
    d = DecisionRow.__table__.c
    q = (
        select(MatchRow.key, SuiteRow.name, MatchRow.status, *DecisionRow.__table__.columns)
        .join(SuiteRow, SuiteRow.id == MatchRow.suite_id)
        .join(DecisionRow.__table__, d.match_id == MatchRow.id)
    )
    q = _scope(store, q, suite, None)
    if participant is not None:
        q = q.where(d.participant == participant)
    with store.engine.connect() as conn:
        result = conn.execution_options(yield_per=5000).execute(q.order_by(MatchRow.id, d.idx))
        for r in result:
            m = r._mapping
            outcomes = m["attempt_outcomes"]
            yield {
                "key": m["key"],
                "suite": m["name"],
                "status": m["status"],
                "index": m["idx"],
                "move_index": m["move_index"],
                "seat": m["seat"],
                "participant": m["participant"],
                "decision": m["decision"],
                "legal": m["legal"],
                "move": m["move"],
                "how": m["how"],
                "outcome": m["outcome"],
                "attempts": m["attempts"],
                "retries": m["retries"],
                "attempt_outcomes": outcomes.split(",") if outcomes else [],
                "input_tokens": m["input_tokens"],
                "output_tokens": m["output_tokens"],
                "cached_tokens": m["cached_tokens"],
                "reasoning_tokens": m["reasoning_tokens"],
                "cost_usd": m["cost_usd"],
                "latency_s": m["latency_s"],
                "elapsed_s": m["elapsed_s"],
                "autopilot_reason": m["autopilot_reason"],
            }


def _step(move: dict[str, Any]) -> dict[str, Any]:
    attempts = move.get("attempts") or []
    first = (attempts[0].get("transcript") or {}) if attempts else {}
    last = (attempts[-1].get("transcript") or {}) if attempts else {}
    messages = [
        {"role": str(m.get("role")), "content": str(m.get("content"))}
        for m in (last.get("messages") or [])
    ]
    first_messages = first.get("messages") or []
    return {
        "index": move["index"],
        "decision": move["decision"],
        "legal": move["legal"],
        "prompt": first_messages[0].get("content") if first_messages else None,
        "messages": messages,
        "answer": last.get("raw_reply")
        if last.get("raw_reply") is not None
        else last.get("refusal"),
        "move": move["move"],
        "how": move["how"],
        "outcome": attempts[-1].get("outcome") if attempts else None,
        "attempts": len(attempts),
        "autopilot_reason": move.get("autopilot_reason"),
        "reason": move.get("reason"),
    }


def trajectory_rows(
    store: Store, suite: str | None = None, participant: str | None = None
) -> Iterator[dict[str, Any]]:
    """The ``trajectories`` export rows: per match and text-path seat (``participant``'s only,
    when given)."""
    for row, record in store.iter_records(suite=suite):
        lineup = list(row["lineup"])
        result = record.get("result") or {}
        roles = result.get("roles") or []
        winners = set(result.get("winners") or [])
        by_seat: dict[int, list[dict[str, Any]]] = {}
        for m in record.get("moves") or []:
            by_seat.setdefault(m["seat"], []).append(m)
        for seat in record.get("seats") or []:
            i = seat["seat"]
            if seat.get("kind") not in RULE_FOLLOWING_KINDS:
                continue
            if participant is not None and lineup[i] != participant:
                continue
            yield {
                "key": row["key"],
                "suite": row["suite"],
                "status": row["status"],
                "deal": row["deal"],
                "deal_seed": row["deal_seed"],
                "rotation": row["rotation"],
                "seat": i,
                "participant": lineup[i],
                "spec": row["specs"][i],
                "kind": seat.get("kind"),
                "role": roles[i] if i < len(roles) else None,
                "won": i in winners,
                "winner": result.get("winning_team"),
                "winning_seats": sorted(winners),
                "end_reason": result.get("reason"),
                "system_prompt": seat.get("system_prompt"),
                "steps": [_step(m) for m in by_seat.get(i, [])],
            }


ROWS: Final[dict[str, Callable[..., Iterator[dict[str, Any]]]]] = {
    "matches": match_rows,
    "decisions": decision_rows,
    "trajectories": trajectory_rows,
}


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def _write_jsonl(rows: Iterable[dict[str, Any]], out: Path) -> int:
    n = 0
    with out.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False, default=_json_default))
            fh.write("\n")
            n += 1
    return n


def _write_parquet(rows: Iterable[dict[str, Any]], out: Path, what: str) -> int:
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = _schema(what)
    size = BATCH_ROWS[what]
    n = 0
    with pq.ParquetWriter(str(out), schema, compression="zstd") as writer:
        batch: list[dict[str, Any]] = []
        for row in rows:
            if what == "matches":
                row = {**row, "versions": list(row["versions"].items())}
            batch.append(row)
            if len(batch) >= size:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                n += len(batch)
                batch = []
        if batch or n == 0:
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
            n += len(batch)
    return n


def export(
    store: Store,
    format: ExportFormat,
    what: ExportWhat,
    *,
    out: str | Path,
    suite: str | None = None,
    participant: str | None = None,
) -> int:
    """Write the rows of ``what`` to ``out`` as ``format``; returns how many rows were written.
    Raises ExportError for a bad request and StoreError for an unknown suite."""
    if format not in FORMATS:
        raise ExportError(f"format {format!r}: valid formats are {', '.join(FORMATS)}")
    if what not in WHATS:
        raise ExportError(f"--what {what!r}: valid are {', '.join(WHATS)}")
    path = Path(out)
    if path.is_dir():
        raise ExportError(f"output {str(path)!r} is a folder: give a file name")
    if not path.parent.is_dir():
        raise ExportError(f"output folder {str(path.parent)!r} does not exist")
    rows = ROWS[what](store, suite=suite, participant=participant)
    tmp = path.with_name(path.name + ".part")
    try:
        n = _write_jsonl(rows, tmp) if format == "jsonl" else _write_parquet(rows, tmp, what)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    return n


__all__ = [
    "DECISION_EXPORT_COLUMNS",
    "MATCH_COLUMNS",
    "TRAJECTORY_COLUMNS",
    "ExportError",
    "decision_rows",
    "export",
    "match_rows",
    "trajectory_rows",
]
