"""``bangarena play`` failures a user must not miss: a provider that never answered or refused the
key (exit 3), a bad ``--out`` found before the match (exit 2), Ctrl-C keeping the record so far
(exit 130), times that are not numbers, the double_agent note, and the help text."""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from fakes import FakeBehaviour, FakeServer, actions
from test_match import check_record
from typer.testing import CliRunner

from bangarena.cli.app import app
from bangarena.harness.match import Match, MatchSettings
from bangarena.harness.records import (
    AttemptRecord,
    MoveRecord,
    compute_totals,
    infrastructure_failures,
    load_match_record,
)
from bangarena.harness.seats import BotSeat

runner = CliRunner()
NO_KEYS = {"OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": "", "ANTHROPIC_AUTH_TOKEN": "",
           "OPENAI_BASE_URL": "", "ANTHROPIC_BASE_URL": ""}  # fmt: skip


def play(*args: str, input: str | None = None):
    return runner.invoke(app, ["play", *args], env=NO_KEYS, input=input)


def words(text: str) -> str:
    return " ".join(text.split())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_model_seat_that_never_answered_exits_3(tmp_path: Path) -> None:
    out = tmp_path / "match.json"
    dead = f"openai:m@http://127.0.0.1:{free_port()}/v1"
    r = play("--seats", "4", "--seed", "5", "--seat", f"0={dead}", "--model-time-per-move", "0.3",
             "--quiet", "--out", str(out))  # fmt: skip
    assert r.exit_code == 3, r.output
    text = words(r.output)
    assert "infrastructure failure: seat 0 (openai:m@http://127.0.0.1" in text
    assert "decisions were played by the autopilot for provider errors" in text
    assert "more than 10%" in text and "last: connection" in text
    rec = load_match_record(out)  # the record is still written, complete
    assert rec.status == "complete" and rec.totals.seats[0].autopilot.get("transport", 0) > 0
    t = rec.totals.seats[0]
    assert t.answered <= 1 and t.first_try_valid == 0
    # (the first decision may time out while the SDK starts up: that one is not the provider's)
    assert t.lost_to_provider >= t.decisions - 1


def test_a_refused_key_stops_the_match_at_the_first_decision(tmp_path: Path) -> None:
    out = tmp_path / "match.json"
    with FakeServer("openai", FakeBehaviour(default=actions.unauthorized())) as fake:
        r = play("--seats", "4", "--seed", "5", "--seat", f"2={fake.spec('m')}", "--quiet",
                 "--out", str(out))  # fmt: skip
        requests = len(fake.requests)
    assert r.exit_code == 3, r.output
    assert "the match was stopped: seat 2" in words(r.output)
    assert "refused the credentials (HTTP 401)" in words(r.output)
    assert requests == 1  # not retried, and no second decision asked
    data = json.loads(out.read_text("utf-8"))
    assert data["status"] == "aborted" and data["result"] is None
    last = data["moves"][-1]
    assert last["seat"] == 2 and last["autopilot_reason"] == "auth"
    assert [m for m in data["moves"] if m["seat"] == 2] == [last]


def test_the_infrastructure_rule_is_more_than_ten_percent() -> None:
    seats = [BotSeat("rule", i, i) for i in range(4)]
    rec = Match(MatchSettings(seats=4, seed=1), seats).record()
    rec.seats[0].kind = "model"

    def moves(lost: int, total: int) -> list[MoveRecord]:
        out = []
        for k in range(total):
            bad = k < lost
            att = AttemptRecord(n=1, outcome="transport" if bad else "ok", started_s=0.0,
                                detail="connection: refused" if bad else None)  # fmt: skip
            out.append(MoveRecord(
                index=k, seat=0, decision="play", legal=2, move="end_turn",
                how="autopilot" if bad else "chosen", autopilot_reason="transport" if bad else None,
                chosen_by="autopilot" if bad else "ai", time_limit_s=60, attempts=[att],
            ))  # fmt: skip
        return out

    for lost, failed in ((0, False), (2, False), (3, True), (20, True)):
        rec.moves = moves(lost, 20)
        rec.totals = compute_totals(rec.seats, rec.moves)
        lines = infrastructure_failures(rec)
        assert bool(lines) == failed, lost
        if failed:
            assert f"{lost} of 20 decisions" in lines[0] and "connection: refused" in lines[0]


def test_out_is_checked_before_the_match(tmp_path: Path) -> None:
    r = play("--seats", "4", "--fill", "random", "--out", str(tmp_path))
    assert r.exit_code == 2 and "is a directory" in words(r.output)
    assert "BangArena ·" not in r.output and "Traceback" not in r.output
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = play("--seats", "4", "--fill", "random", "--out", str(blocker / "sub" / "m.json"))
    assert r.exit_code == 2 and "cannot create" in words(r.output)
    assert "BangArena ·" not in r.output
    fine = tmp_path / "new" / "deeper" / "m.json"
    r = play("--seats", "4", "--fill", "random", "--quiet", "--out", str(fine))
    assert r.exit_code == 0, r.output
    assert load_match_record(fine).status == "complete"
    assert [p.name for p in fine.parent.iterdir()] == ["m.json"]  # no temporary file left


@pytest.mark.parametrize(
    "args",
    [
        ["--time-per-move", "nan"],
        ["--time-per-move", "inf"],
        ["--time-per-move", "-5"],
        ["--model-time-per-move", "nan"],
        ["--model-time-per-move", "-1"],
        ["--backoff-cap", "nan"],
        ["--backoff-cap", "-1"],
    ],
)
def test_times_that_are_not_positive_numbers_are_refused(args: list[str]) -> None:
    r = play("--fill", "random", *args)
    assert r.exit_code == 2, r.output
    assert "BangArena ·" not in r.output and args[0] in r.output


def test_double_agent_at_four_seats_says_it_plays_classic() -> None:
    r = play("--seats", "4", "--mode", "double_agent", "--fill", "random", "--quiet")
    assert r.exit_code == 0, r.output
    assert "this 4-seat table plays classic" in words(r.stderr)
    r = play("--seats", "5", "--mode", "double_agent", "--fill", "random", "--quiet")
    assert r.exit_code == 0 and "plays classic" not in r.stderr


def test_play_help_shows_the_optional_base_url() -> None:
    r = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200", "TERM": "dumb"})
    assert r.exit_code == 0
    assert "PROVIDER:MODEL[@BASE_URL]" in r.output
    assert "scripted[:rule|random]" in r.output


_DEFAULT_SIGINT = (
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "runpy.run_module('bangarena.cli', run_name='__main__', alter_sys=True)"
)


def _lines(stream, into: queue.Queue) -> None:
    for line in iter(stream.readline, ""):
        into.put(line)
    into.put(None)


def test_ctrl_c_writes_the_record_so_far_and_exits_130(tmp_path: Path) -> None:
    """A person at the table presses Ctrl-C while thinking: SIGINT to a real process."""
    out = tmp_path / "match.json"
    # The child starts with Ctrl-C's default handling, as at a terminal: a run of this suite
    # started in the background of a script ignores SIGINT, and children inherit that.
    cmd = [sys.executable, "-c", _DEFAULT_SIGINT, "play", "--seats", "4", "--seed", "2",
           "--seat", "1=human", "--fill", "rule", "--time-per-move", "90", "--out", str(out)]  # fmt: skip
    env = {**os.environ, **NO_KEYS, "PYTHONUNBUFFERED": "1", "COLUMNS": "120"}
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)  # fmt: skip
    lines: queue.Queue = queue.Queue()
    errors: queue.Queue = queue.Queue()
    threading.Thread(target=_lines, args=(proc.stdout, lines), daemon=True).start()
    # stderr is drained as it comes: a full pipe would block the process on its way out
    threading.Thread(target=_lines, args=(proc.stderr, errors), daemon=True).start()
    try:
        deadline = time.monotonic() + 60
        seen = ""
        while "Type a number" not in seen:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None, seen
            seen += line
        proc.send_signal(signal.SIGINT)
        # generous: writing the record loads its modules, slow on a loaded machine
        code = proc.wait(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
    err = "".join(iter(lambda: errors.get(timeout=10) or "", ""))
    assert code == 130, err
    assert "interrupted" in err
    rec = load_match_record(out)
    assert rec.status == "aborted" and rec.status_detail == "interrupted (Ctrl-C)"
    assert rec.moves and rec.result is None
    settings = MatchSettings(seats=4, seed=2)
    check_record(rec, settings)
