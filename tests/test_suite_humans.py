"""People in suites: a ``human:NAME`` participant is played at the seat service
(``bangarena serve --suite``) by a person who joins with their own link; the matches are stored
under the suite, like ``bangarena eval``'s, and the leaderboard rates the person.

The person here is a plain httpx client: her join token gets her seat token as the service's
cookie, and she answers her decisions with it (the web table tests cover the pages)."""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from service_support import running_service, service_settings
from typer.testing import CliRunner

from bangarena.cli.app import app
from bangarena.evals import SuiteError, check_api_keys, parse_suite, plan_suite
from bangarena.evals.keys import key_payload
from bangarena.evals.store import open_store
from bangarena.harness.seats.factory import SeatSpecError, plan_seat
from bangarena.leaderboard.board import build_boards
from bangarena.leaderboard.data import load_store, participants_of
from bangarena.service.suite_host import SuiteHost

SUITE = """
[suite]
name = "people"
seed = 3
deals = 1

[[participants]]
id = "human:ann"
spec = "human:ann"

[[participants]]
id = "rule"
spec = "rule"

[[participants]]
id = "random"
spec = "random"

[[tables]]
seats = 4
time_per_move = 15
lineup = ["human:ann", "rule", "random", "rule"]
"""


def play_as(client: httpx.Client, match_id: str, rng: random.Random) -> int:
    """Answer every decision of the cookie's seat until the match is over; returns how many."""
    played = 0
    while True:
        r = client.get(f"/v1/matches/{match_id}/decision", params={"wait": 5})
        if r.status_code == 410:
            return played
        if r.status_code == 204:
            continue
        assert r.status_code == 200, r.text
        payload = r.json()
        move = rng.choice(payload["moves"])["id"]
        r = client.post(
            f"/v1/matches/{match_id}/moves",
            json={"decision_id": payload["decision_id"], "move_id": move},
        )
        if r.status_code == 410:
            return played
        assert r.status_code == 200, r.text
        played += 1


def test_a_person_plays_a_suite_at_the_service_and_is_rated(tmp_path: Path) -> None:
    suite = parse_suite(SUITE)
    host = SuiteHost(suite, max_matches=2, bot_pause_s=0.001)  # the paced bots, barely
    planned = [m.key for m in host.plan[:2]]
    settings = service_settings(tmp_path)
    with running_service(settings, extensions=[host.install]) as svc:
        with httpx.Client(base_url=svc.url, timeout=30) as admin:
            assert admin.get("/v1/suites/people/seats").status_code == 401
            seats = admin.get("/v1/suites/people/seats", headers=svc.admin_headers)
            assert seats.status_code == 200, seats.text
            (ann,) = seats.json()["people"]
            assert ann["name"] == "ann" and ann["participant"] == "human:ann"
            link = urlsplit(ann["link"])
            assert link.path == "/suites/people/join" and len(link.fragment) >= 40
            page = admin.get(link.path)
            assert page.status_code == 200 and "/v1/suites/people/join" in page.text
            assert link.fragment not in page.text  # the token stays in the fragment
            wrong = admin.post("/v1/suites/people/join", json={"token": "x" * 43})
            assert wrong.status_code == 401
        token = link.fragment
        rng = random.Random(5)
        joined: list[str] = []
        answered = 0
        end = time.monotonic() + 120
        with httpx.Client(base_url=svc.url, timeout=30) as ann_client:  # her browser
            while time.monotonic() < end:
                r = ann_client.post("/v1/suites/people/join", json={"token": token})
                assert r.status_code == 200, r.text
                body = r.json()
                if body["state"] == "done":
                    break
                if body["state"] == "waiting" or body["match_id"] in joined:
                    time.sleep(0.05)
                    continue
                assert body["table"] == f"/table/{body['match_id']}"
                assert "bangarena_token" in ann_client.cookies  # the seat token, as a cookie
                joined.append(body["match_id"])
                answered += play_as(ann_client, body["match_id"], rng)
            else:
                pytest.fail(f"the suite did not finish (joined {joined})")
        assert joined == planned and answered > 0
        status = svc.call(host.status)
        assert status["state"] == "done" and status["done"] == 2 and status["void"] == 0
    with open_store(tmp_path / "live.db") as store:
        rows = store.matches("people")
        assert [r["key"] for r in rows] == planned
        assert all(r["status"] == "done" for r in rows)
        assert all("human:ann" in r["lineup"] for r in rows)
        assert store.suite_id("live") is None  # nothing went to the live suite
        record = store.load_record(planned[0], "people")
        seat = next(s for s in record.seats if s.kind == "human")
        assert seat.spec == "human:ann" and seat.controller == "human"
        assert record.config.time_per_move_s == 15
        assert any(m.seat == seat.seat and m.chosen_by == "human" for m in record.moves)
        data = load_store(store, "people")
        rated = [m for ms in data.matches.values() for m in ms]
        assert len(rated) == 2 and "human:ann" in participants_of(rated)
        (board,) = build_boards(store, "people", resamples=20)
        entry = next(p for p in board.participants if p.id == "human:ann")
        assert entry.kind == "human" and entry.matches == 2
    # a second run resumes: the stored matches are not played again
    again = SuiteHost(suite, max_matches=0)
    with running_service(settings, extensions=[again.install]) as svc:
        end = time.monotonic() + 20
        while svc.call(again.status)["state"] != "done":
            assert time.monotonic() < end
            time.sleep(0.02)
        assert svc.call(again.status)["stored_before"] == 2


def test_suite_files_check_their_people() -> None:
    def refused(text: str) -> str:
        with pytest.raises(SuiteError) as info:
            parse_suite(text)
        return str(info.value)

    assert "time_per_move" in refused(SUITE.replace("time_per_move = 15", "time_per_move = 7"))
    twice = SUITE.replace('"rule", "random", "rule"]', '"human:ann", "random", "rule"]')
    assert "seated twice" in refused(twice)
    assert "human:NAME" in refused(SUITE.replace('spec = "human:ann"', 'spec = "human"'))
    assert "takes no options" in refused(
        SUITE.replace('spec = "human:ann"', 'spec = "human:ann"\noptions = { retry_budget = 1 }')
    )
    suite = parse_suite(SUITE)
    with pytest.raises(SuiteError, match="bangarena serve --suite"):
        check_api_keys(suite)  # `bangarena eval` refuses it: nobody would sit there
    check_api_keys(suite, people=True)
    with pytest.raises(SeatSpecError, match="bangarena serve --suite"):
        plan_suite(suite)[0].build_seats()
    with pytest.raises(SeatSpecError, match="human:NAME"):
        plan_seat("human:a b")


def test_a_persons_key_covers_the_name_and_the_clock() -> None:
    m = plan_suite(parse_suite(SUITE))[0]
    plans = [s.plan for s in m.seats]
    payload = key_payload(m.table, m.lang, m.deal_seed, m.rotation, plans)  # type: ignore[arg-type]
    assert payload["seats"][0] == {"kind": "human", "name": "ann"}
    assert payload["table"]["time_per_move_s"] == 15 and "lang" not in payload["table"]
    assert payload["prompts"] is None
    keys = {x.key for x in plan_suite(parse_suite(SUITE))}
    slower = {x.key for x in plan_suite(parse_suite(SUITE.replace("= 15", "= 30")))}
    renamed = SUITE.replace('spec = "human:ann"', 'spec = "human:bob"')
    assert not keys & slower and not keys & {x.key for x in plan_suite(parse_suite(renamed))}
    other_id = SUITE.replace('"human:ann"', '"ann"').replace('spec = "ann"', 'spec = "human:ann"')
    assert keys == {x.key for x in plan_suite(parse_suite(other_id))}  # the id is not play


def test_serve_checks_its_suite_before_serving(tmp_path: Path) -> None:
    bots = tmp_path / "bots.toml"
    bots.write_text(
        SUITE.replace('id = "human:ann"\nspec = "human:ann"', 'id = "r2"\nspec = "rule"').replace(
            '"human:ann"', '"r2"'
        ),
        "utf-8",
    )
    runner = CliRunner()
    db = str(tmp_path / "s.db")
    r = runner.invoke(app, ["serve", "--db", db, "--suite", str(bots), "--port", "1"])
    assert r.exit_code == 2 and "no participant is a person" in " ".join(r.output.split())
    r = runner.invoke(app, ["serve", "--db", db, "--max-matches", "2"])
    assert r.exit_code == 2 and "only with --suite" in r.output


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_suite_prints_each_link_once_and_serves_it(tmp_path: Path) -> None:
    suite_file = tmp_path / "people.toml"
    suite_file.write_text(SUITE, "utf-8")
    admin = "serve-admin-token-0123456789abcdef"
    env = {**os.environ, "BANGARENA_ADMIN_TOKEN": admin}
    port = _free_port()
    cmd = [sys.executable, "-m", "bangarena.cli.app", "serve", "--db", str(tmp_path / "s.db"),
           "--suite", str(suite_file), "--port", str(port), "--max-matches", "1",
           "--http", "h11", "--loop", "asyncio"]  # fmt: skip
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    try:
        assert proc.stderr is not None
        while not any(line.startswith("  ann: ") for line in lines):
            line = proc.stderr.readline()
            assert line, f"serve ended early: {lines}"
            lines.append(line)
        link = next(line for line in lines if line.startswith("  ann: ")).split(": ", 1)[1]
        token = urlsplit(link.strip()).fragment
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as c:
            end = time.monotonic() + 20
            while True:
                try:
                    seats = c.get(
                        "/v1/suites/people/seats", headers={"Authorization": f"Bearer {admin}"}
                    )
                    break
                except httpx.TransportError:
                    assert time.monotonic() < end, "serve did not start"
                    time.sleep(0.1)
            assert seats.status_code == 200
            assert urlsplit(seats.json()["people"][0]["link"]).fragment == token
            assert c.get("/suites/people/join").status_code == 200
            assert c.post("/v1/suites/people/join", json={"token": token}).status_code == 200
    finally:
        proc.terminate()
        _, rest = proc.communicate(timeout=20)
    printed = "".join(lines) + rest
    assert printed.count(token) == 1  # the start's print only: never in a log line
