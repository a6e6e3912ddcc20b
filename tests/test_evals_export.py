"""Exports: every kind in both formats with exactly the documented columns, the suite and
participant filters, and values that agree with the stored records."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from evals_support import played, small_suite, store_url  # noqa: F401

from bangarena.evals.export import (
    DECISION_EXPORT_COLUMNS,
    MATCH_COLUMNS,
    TRAJECTORY_COLUMNS,
    ExportError,
    export,
)
from bangarena.evals.store import Store, StoreError, open_store

COLUMNS = {
    "matches": MATCH_COLUMNS,
    "decisions": DECISION_EXPORT_COLUMNS,
    "trajectories": TRAJECTORY_COLUMNS,
}
# The columns issue 10 asks for, at least.
REQUIRED = {
    "matches": {"key", "suite", "deal", "deal_seed", "rotation", "seats", "mode", "table",
                "lineup", "specs", "roles", "winner", "winning_seats", "status",
                "rules_version", "engine_version", "prompt_version"},
    "decisions": {"key", "index", "seat", "participant", "decision", "legal", "move", "how",
                  "outcome", "attempts", "input_tokens", "output_tokens", "cost_usd",
                  "latency_s", "autopilot_reason"},
    "trajectories": {"key", "participant", "seat", "steps", "winner", "won"},
}  # fmt: skip


def filled(url: str) -> Store:
    store = open_store(url)
    suite = small_suite()
    pairs = played()
    store.register_suite(suite, [m for m, _ in pairs])
    for i, (m, rec) in enumerate(pairs):
        store.write_match(m, rec)
        if i == 0:
            store.write_match(m, rec, status="void", void_reason="transport: seat 1")
    other = small_suite(suite.text.replace('name = "small"', 'name = "other"'))
    store.register_suite(other)
    return store


def read(path: Path, fmt: str) -> list[dict]:
    if fmt == "jsonl":
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return pq.read_table(path).to_pylist()


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_every_export_has_the_documented_columns(
    store_url: str,  # noqa: F811
    tmp_path: Path,
    fmt: str,
) -> None:
    pairs = played()
    moves = sum(len(rec.moves) + rec.result["forced"] for _, rec in pairs)
    first_moves = len(pairs[0][1].moves) + pairs[0][1].result["forced"]
    text_seats = sum(
        1 for _, rec in pairs for s in rec.seats if s.kind in ("model", "scripted")
    ) + sum(1 for s in pairs[0][1].seats if s.kind in ("model", "scripted"))
    with filled(store_url) as store:
        for what, columns in COLUMNS.items():
            out = tmp_path / f"{what}.{fmt}"
            n = export(store, fmt, what, out=out, suite="small")  # type: ignore[arg-type]
            rows = read(out, fmt)
            assert len(rows) == n
            assert REQUIRED[what] <= set(columns)
            assert all(list(r) == list(columns) for r in rows), what
            if fmt == "parquet":
                assert pq.read_schema(out).names == list(columns)
        assert len(read(tmp_path / f"matches.{fmt}", fmt)) == len(pairs) + 1
        decisions = read(tmp_path / f"decisions.{fmt}", fmt)
        assert len(decisions) == moves + first_moves
        hows = {d["how"] for d in decisions}
        assert {"chosen", "auto"} <= hows <= {"chosen", "auto", "autopilot"}
        assert len(read(tmp_path / f"trajectories.{fmt}", fmt)) == text_seats


def test_match_rows_agree_with_the_records(store_url: str, tmp_path: Path) -> None:  # noqa: F811
    pairs = {m.key: (m, rec) for m, rec in played()}
    with filled(store_url) as store:
        export(store, "jsonl", "matches", out=tmp_path / "m.jsonl")
    rows = read(tmp_path / "m.jsonl", "jsonl")
    for r in rows:
        m, rec = pairs[r["key"]]
        assert r["suite"] == "small" and r["deal_seed"] == m.deal_seed
        assert r["lineup"] == list(m.participants) and r["specs"] == list(m.specs)
        assert r["roles"] == rec.result["roles"] and r["winner"] == rec.result["winning_team"]
        assert r["winning_seats"] == rec.result["winners"]
        assert r["table"]["seats"] == 4 and r["table"]["time_per_move"] == 30
        assert r["versions"]["rules"] == r["rules_version"] == rec.versions["rules"]
        assert r["prompt_version"] == rec.versions["prompts"]
    assert sorted(r["status"] for r in rows).count("void") == 1


def test_participant_filter(store_url: str, tmp_path: Path) -> None:  # noqa: F811
    with filled(store_url) as store:
        export(store, "jsonl", "decisions", out=tmp_path / "d.jsonl", participant="faulty")
        export(store, "parquet", "trajectories", out=tmp_path / "t.parquet", participant="faulty")
        n = export(store, "jsonl", "matches", out=tmp_path / "m.jsonl", participant="nobody")
    decisions = read(tmp_path / "d.jsonl", "jsonl")
    assert decisions and {d["participant"] for d in decisions} == {"faulty"}
    assert any(len(d["attempt_outcomes"]) > 1 for d in decisions)  # injected faults retried
    trajectories = read(tmp_path / "t.parquet", "parquet")
    assert trajectories and {t["participant"] for t in trajectories} == {"faulty"}
    for t in trajectories:
        assert t["system_prompt"] and t["steps"]
        step = t["steps"][0]
        assert step["prompt"] and step["answer"] is not None and step["move"]
        assert step["messages"][0]["role"] == "user"
    assert n == 0 and read(tmp_path / "m.jsonl", "jsonl") == []


def test_empty_parquet_keeps_its_schema(store_url: str, tmp_path: Path) -> None:  # noqa: F811
    with filled(store_url) as store:
        n = export(store, "parquet", "decisions", out=tmp_path / "e.parquet", suite="other")
    assert n == 0
    assert pq.read_schema(tmp_path / "e.parquet").names == list(DECISION_EXPORT_COLUMNS)


def test_bad_export_requests(tmp_path: Path) -> None:
    with open_store(tmp_path / "s.db") as store:
        with pytest.raises(ExportError, match="valid formats"):
            export(store, "csv", "matches", out=tmp_path / "x")  # type: ignore[arg-type]
        with pytest.raises(ExportError, match="valid are"):
            export(store, "jsonl", "games", out=tmp_path / "x")  # type: ignore[arg-type]
        with pytest.raises(ExportError, match="is a folder"):
            export(store, "jsonl", "matches", out=tmp_path)
        with pytest.raises(ExportError, match="does not exist"):
            export(store, "jsonl", "matches", out=tmp_path / "no" / "x.jsonl")
        with pytest.raises(StoreError, match="not in"):
            export(store, "jsonl", "matches", out=tmp_path / "x.jsonl", suite="nope")
        assert not (tmp_path / "x.jsonl").exists()
