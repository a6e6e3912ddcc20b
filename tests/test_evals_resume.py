"""A run killed with SIGKILL at any moment and run again ends with every planned match exactly
once: a real ``bangarena eval`` process is killed three times (each time after at least one more
match finished), then run to the end; the store then holds exactly the planned matches, no key
twice, every match whole, and the same records as an uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from evals_runner_support import run, runner_suite, stored_records

from bangarena.evals import plan_suite

RESUME = """
[suite]
name = "resume"
seed = 99
deals = 5

[[participants]]
id = "rule"
spec = "rule"

[[participants]]
id = "random"
spec = "random"

[[participants]]
id = "faulty"
spec = "scripted:random"
options = { faults = { invalid_json = 0.1, empty = 0.05 } }

[[tables]]
seats = 4
time_per_move = 30
transcripts = false
lineup = ["rule", "faulty", "random", "rule"]

[concurrency]
matches = 4
"""
"""20 matches: 5 deals × 4 rotations."""


def done_count(db: Path) -> int:
    """Done matches in the store, read without creating or locking anything."""
    if not db.exists():
        return 0
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            return conn.execute("SELECT count(*) FROM matches WHERE status = 'done'").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:  # the schema is not there yet
        return 0


def start(suite_file: Path, db: Path) -> subprocess.Popen:
    cmd = [
        sys.executable,
        "-m",
        "bangarena.cli",
        "eval",
        str(suite_file),
        "--db",
        str(db),
        "--json",
    ]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def kill_after(proc: subprocess.Popen, db: Path, more: int, timeout_s: float = 60.0) -> int:
    """SIGKILL ``proc`` as soon as ``more`` matches beyond the current count are done."""
    target = done_count(db) + more
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        n = done_count(db)
        if n >= target:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(10)
            return n
        if proc.poll() is not None:
            raise AssertionError(f"the run ended before it could be killed: {proc.stderr.read()}")
        time.sleep(0.005)
    proc.kill()
    raise AssertionError("no match finished in time")


def test_sigkill_at_three_moments_then_resume_gives_every_match_once(tmp_path: Path) -> None:
    suite_file = tmp_path / "resume.toml"
    suite_file.write_text(RESUME, encoding="utf-8")
    suite = runner_suite(RESUME)
    plan = plan_suite(suite)
    assert len(plan) == 20

    db = tmp_path / "killed.db"
    seen = []
    for more in (1, 2, 4):  # three moments, each after at least one more match finished
        proc = start(suite_file, db)
        seen.append(kill_after(proc, db, more))
        assert proc.returncode == -signal.SIGKILL
    assert seen == sorted(seen) and seen[-1] < len(plan), seen

    proc = start(suite_file, db)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["matches_done"] == summary["matches_planned"] == 20
    assert summary["matches_reused"] == seen[-1]

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        keys = [k for (k,) in conn.execute("SELECT key FROM matches WHERE status = 'done'")]
        statuses = {s for (s,) in conn.execute("SELECT DISTINCT status FROM matches")}
        seats = conn.execute(
            "SELECT m.key, count(s.seat) FROM matches m JOIN match_seats s ON s.match_id = m.id "
            "GROUP BY m.id"
        ).fetchall()
        moves = dict(
            conn.execute(
                "SELECT m.key, count(d.idx) FROM matches m JOIN decisions d ON d.match_id = m.id "
                "GROUP BY m.id"
            ).fetchall()
        )
        runs = conn.execute("SELECT count(*), sum(stopped = 'lost') FROM runs").fetchone()
    finally:
        conn.close()
    assert sorted(keys) == sorted(m.key for m in plan)  # the planned count exactly, each once
    assert statuses == {"done"}
    assert all(n == 4 for _, n in seats) and len(seats) == 20  # every match whole
    assert runs[0] == 4 and runs[1] == 3  # the killed runs' locks were taken over

    reference = tmp_path / "reference.db"
    assert run(suite, f"sqlite:///{reference}").exit_code == 0
    killed, clean = (
        stored_records(f"sqlite:///{db}", "resume"),
        stored_records(f"sqlite:///{reference}", "resume"),
    )
    assert killed.keys() == clean.keys()
    for key in clean:
        assert killed[key] == clean[key], key
        assert moves[key] > 0
