"""The runner: a suite runs to the end, a re-run plays nothing, the same suite gives the same
records, ``--max-matches`` stops it and the next run goes on, written decisions read back the
same, and the ``bangarena eval`` / ``suites`` / ``export`` commands say what they did with
the exit codes the issue sets."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from evals_runner_support import (
    RUNNER_SUITE,
    comparable,
    run,
    runner_suite,
    stored_records,
)
from evals_support import store_url  # noqa: F401
from typer.testing import CliRunner

from bangarena.cli.app import app
from bangarena.evals import plan_suite
from bangarena.evals.breakers import CircuitBreakers
from bangarena.evals.execute import PlayContext, Tally, play_planned
from bangarena.evals.runner import JSON_KEYS, RunObserver
from bangarena.evals.store import open_store
from bangarena.harness.providers.limits import ProviderLimits

cli = CliRunner()


def write_suite(tmp_path: Path, text: str = RUNNER_SUITE, name: str = "runner.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_suite_runs_to_the_end_and_a_rerun_plays_nothing(store_url: str) -> None:  # noqa: F811
    suite = runner_suite()
    ticks: list[int] = []
    stored: list[tuple[int, str]] = []

    class Watch(RunObserver):
        def tick(self, view) -> None:  # noqa: ANN001
            ticks.append(view.done_now)

        def stored(self, view, outcome) -> None:  # noqa: ANN001
            stored.append((view.finished_now, outcome.key))

    first = run(suite, store_url, Watch())
    assert first.exit_code == 0 and first.complete
    assert tuple(first.to_json()) == JSON_KEYS
    assert (first.matches_planned, first.matches_done, first.matches_run_now) == (16, 16, 16)
    assert first.stopped is None and first.breakers == []
    assert ticks and ticks[-1] == 16
    # One call per match, and the counts move one match at a time even when several matches
    # were written in one transaction.
    assert [n for n, _ in stored] == list(range(1, 17))
    assert len({key for _, key in stored}) == 16
    # The summary counts every seat of every done match, and scripted seats' answer rates.
    seats = sum(p.seats for p in first.participants)
    assert seats == 16 * 4
    faulty = next(p for p in first.participants if p.participant == "faulty")
    assert faulty.first_try_valid_rate is not None and faulty.first_try_valid_rate < 1.0
    rule = next(p for p in first.participants if p.participant == "rule")
    assert rule.first_try_valid_rate is None  # bots pick from the legal list: no rate

    again = run(suite, store_url)
    assert again.exit_code == 0
    assert (again.matches_run_now, again.matches_reused, again.matches_done) == (0, 16, 16)
    store = open_store(store_url)
    try:
        keys = [m["key"] for m in store.matches("runner")]
    finally:
        store.close()
    assert sorted(keys) == sorted(m.key for m in plan_suite(suite))


def test_the_same_suite_twice_gives_the_same_records(tmp_path: Path) -> None:
    suite = runner_suite()
    a, b = f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}"
    assert run(suite, a).exit_code == 0
    assert run(suite, b).exit_code == 0
    ra, rb = stored_records(a, "runner"), stored_records(b, "runner")
    assert len(ra) == 16 and ra.keys() == rb.keys()
    for key in ra:
        assert ra[key] == rb[key], key
    # And a suite match is the match `bangarena play` plays: its key and its deal.
    planned = plan_suite(suite)[0]
    assert ra[planned.key]["config"]["seed"] == planned.deal_seed


def test_max_matches_stops_the_run_and_the_next_one_goes_on(tmp_path: Path) -> None:
    suite = runner_suite()
    url = f"sqlite:///{tmp_path / 'm.db'}"
    first = run(suite, url, max_matches=5)
    assert first.exit_code == 4 and first.stopped == "max_matches"
    assert first.matches_run_now == 5 and first.matches_done == 5
    second = run(suite, url)
    assert second.exit_code == 0 and second.matches_reused == 5
    assert second.matches_run_now == 11 and second.matches_done == 16


async def test_written_out_decisions_read_back_as_the_same_record() -> None:
    suite = runner_suite()
    planned = next(m for m in plan_suite(suite) if m.table["transcripts"])

    async def play(spool: bool) -> dict:
        ctx = PlayContext(
            limits=ProviderLimits(), breakers=CircuitBreakers(), spool=spool, keep_records=True
        )
        outcome = await play_planned(planned, ctx)
        assert outcome.status == "done" and outcome.record is not None
        assert ctx.tally.decisions == len(outcome.record.moves)
        return comparable(outcome.record.model_dump(mode="json"))

    spooled, kept = await play(True), await play(False)
    assert spooled == kept and len(spooled["moves"]) > 16  # more than one chunk written out


async def test_tally_counts_failures_and_autopilot() -> None:
    ctx = PlayContext(limits=ProviderLimits(), breakers=CircuitBreakers(), keep_records=True)
    outcomes = [await play_planned(m, ctx) for m in plan_suite(runner_suite())[:2]]
    t: Tally = ctx.tally
    assert t.decisions == sum(len(o.record.moves) for o in outcomes if o.record)
    assert t.model_decisions > 0
    assert t.failures["unparsable"] + t.failures["illegal"] > 0  # the faulty seat's faults


# -- the command line -----------------------------------------------------------------------
def test_eval_json_prints_exactly_the_documented_keys(tmp_path: Path) -> None:
    path = write_suite(tmp_path)
    db = tmp_path / "cli.db"
    r = cli.invoke(app, ["eval", str(path), "--db", str(db), "--json", "--max-matches", "3"])
    assert r.exit_code == 4, r.output
    data = json.loads(r.stdout.strip().splitlines()[-1])
    assert tuple(data) == JSON_KEYS
    assert data["stopped"] == "max_matches" and data["matches_run_now"] == 3
    r = cli.invoke(app, ["eval", str(path), "--db", str(db), "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout.strip().splitlines()[-1])
    assert (data["matches_done"], data["matches_reused"], data["stopped"]) == (16, 3, None)


def test_eval_defaults_to_a_sqlite_file_beside_the_suite(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.delenv("BANGARENA_DB", raising=False)
    path = write_suite(tmp_path)
    r = cli.invoke(app, ["eval", str(path), "--json", "--max-matches", "1"])
    assert r.exit_code == 4, r.output
    assert (tmp_path / "runner.db").is_file()
    assert json.loads(r.stdout)["db"].endswith("runner.db")


def test_eval_prints_a_summary_table_without_json(tmp_path: Path) -> None:
    path = write_suite(tmp_path)
    r = cli.invoke(app, ["eval", str(path), "--db", str(tmp_path / "t.db"), "--max-matches", "2"])
    assert r.exit_code == 4
    assert "participant" in r.stdout and "faulty" in r.stdout
    assert "stopped: max_matches" in r.stderr


def test_dry_run_prints_the_plan_and_spends_nothing(tmp_path: Path) -> None:
    path = write_suite(tmp_path)
    db = tmp_path / "dry.db"
    r = cli.invoke(app, ["eval", str(path), "--db", str(db), "--dry-run", "--json"])
    assert r.exit_code == 0, r.output
    plan = json.loads(r.stdout)
    assert not db.exists()  # nothing was created, let alone played
    assert plan["matches_planned"] == 16 and plan["matches_to_run"] == 16
    by = {p["participant"]: p for p in plan["participants"]}
    assert by["scripted"]["expected_model_decisions"] > 0
    assert by["scripted"]["expected_input_tokens"] > 1000
    assert by["rule"]["expected_model_decisions"] == 0 and by["rule"]["expected_decisions"] > 0
    # decisions per seat come from bot play: the same for everyone at a table
    assert by["scripted"]["expected_decisions"] == by["rule"]["expected_decisions"]
    r = cli.invoke(app, ["eval", str(path), "--db", str(db), "--dry-run"])
    assert r.exit_code == 0 and "16 matches planned" in r.stdout


BAD_INPUT = [
    ("malformed", "[suite\nname = 1", "not valid TOML"),
    ("unknown key", RUNNER_SUITE.replace("deals = 2", "deals = 2\ncolour = 1"), "unknown key"),
    ("undeclared", RUNNER_SUITE.replace('"faulty", "random", "scripted"]', '"ghost", "random", "scripted"]'), "not declared"),
    ("lineup length", RUNNER_SUITE.replace('lineup = ["rule", "faulty", "random", "scripted"]', 'lineup = ["rule", "faulty"]'), "2 participants for a 4-seat table"),
    ("bad spec", RUNNER_SUITE.replace('spec = "random"', 'spec = "nosuch:model"'), "unknown provider"),
    ("missing key", RUNNER_SUITE.replace('spec = "random"', 'spec = "openai:gpt-4.1-mini"'), "OPENAI_API_KEY"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "text", "message"), BAD_INPUT, ids=[b[0] for b in BAD_INPUT])
def test_bad_input_is_one_line_and_exit_2_before_any_match(
    tmp_path: Path,
    monkeypatch,
    name: str,
    text: str,
    message: str,  # noqa: ANN001
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    path = write_suite(tmp_path, text)
    db = tmp_path / "bad.db"
    r = cli.invoke(app, ["eval", str(path), "--db", str(db), "--json"])
    assert r.exit_code == 2, (name, r.output)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines
    assert r.stdout == ""
    assert not db.exists()


def test_a_database_that_cannot_connect_is_bad_input(tmp_path: Path) -> None:
    path = write_suite(tmp_path)
    url = "postgresql+psycopg://nobody:secret@127.0.0.1:1/none?connect_timeout=2"
    r = cli.invoke(app, ["eval", str(path), "--db", url])
    assert r.exit_code == 2
    line = r.stderr.strip()
    assert line.startswith("error: cannot connect") and "secret" not in line and "\n" not in line


def test_a_database_of_a_newer_schema_is_bad_input(tmp_path: Path) -> None:
    from sqlalchemy import create_engine, text

    db = tmp_path / "new.db"
    open_store(db).close()
    engine = create_engine(f"sqlite:///{db}")
    with engine.begin() as conn:
        conn.execute(text("UPDATE bangarena_schema SET version_num = '9999'"))
    engine.dispose()
    r = cli.invoke(app, ["eval", str(write_suite(tmp_path)), "--db", str(db)])
    assert r.exit_code == 2 and "newer BangArena" in r.stderr


def test_a_second_runner_is_refused_or_waits(tmp_path: Path) -> None:
    path = write_suite(tmp_path)
    db = tmp_path / "lock.db"
    store = open_store(db)
    lock = store.lock("runner")
    try:
        r = cli.invoke(app, ["eval", str(path), "--db", str(db), "--json"])
        assert r.exit_code == 2 and "is being run by" in r.stderr and "--wait" in r.stderr
        threading.Timer(0.5, lock.release).start()
        t0 = time.monotonic()
        r = cli.invoke(
            app, ["eval", str(path), "--db", str(db), "--json", "--wait", "--max-matches", "1"]
        )
        assert r.exit_code == 4, r.output
        assert time.monotonic() - t0 >= 0.4
    finally:
        lock.release()
        store.close()


def test_suites_list_status_and_export(tmp_path: Path) -> None:
    path = write_suite(tmp_path)
    db = tmp_path / "s.db"
    assert (
        cli.invoke(app, ["eval", str(path), "--db", str(db), "--max-matches", "6"]).exit_code == 4
    )
    r = cli.invoke(app, ["suites", "list", "--db", str(db), "--json"])
    assert r.exit_code == 0, r.output
    (row,) = json.loads(r.stdout)
    assert (row["suite"], row["matches_done"], row["matches_planned"]) == ("runner", 6, 16)
    assert row["matches_missing"] == 10 and row["complete"] is False and row["runs"] == 1
    r = cli.invoke(app, ["suites", "status", str(path), "--db", str(db)])
    assert r.exit_code == 0 and "runner" in r.stdout
    r = cli.invoke(app, ["suites", "status", "nosuch", "--db", str(db)])
    assert r.exit_code == 2 and "not in" in r.stderr
    out = tmp_path / "m.jsonl"
    args = ["export", "--db", str(db), "--format", "jsonl", "--what", "matches", "--out", str(out)]
    r = cli.invoke(app, [*args, "--suite", "runner"])
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(rows) == 6 and {r["status"] for r in rows} == {"done"}
    pq = tmp_path / "d.parquet"
    r = cli.invoke(
        app,
        ["export", "--db", str(db), "--format", "parquet", "--what", "decisions",
         "--participant", "faulty", "--out", str(pq)],
    )  # fmt: skip
    assert r.exit_code == 0 and pq.stat().st_size > 0
    r = cli.invoke(app, [*args, "--suite", "nosuch"])
    assert r.exit_code == 2 and "not in" in r.stderr
    r = cli.invoke(app, ["export", "--db", str(tmp_path / "none.db"), "--out", str(out)])
    assert r.exit_code == 2 and "no such file" in r.stderr
    assert not (tmp_path / "none.db").exists()
    r = cli.invoke(app, ["export", "--db", str(db), "--format", "csv", "--out", str(out)])
    assert r.exit_code == 2 and "--format" in r.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--backend", "nosuch"], "valid backends are local, processes, ray"),
        (["--workers", "0"], "--workers 0: at least 1"),
        (["--max-matches", "-1"], "--max-matches -1"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    db = tmp_path / "o.db"
    r = cli.invoke(app, ["eval", str(write_suite(tmp_path)), "--db", str(db), *args])
    assert r.exit_code == 2 and message in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not db.exists()
