"""Cancelling and listing matches, and the waiting timeout, on a real service: ``DELETE
/v1/matches/{id}`` (the admin or the match's host) stops a running match at once — the seats'
open long-polls answer 410 — or a waiting one before it plays; either ends ``aborted`` and is
stored as a void match of the suite ``live``. ``GET /v1/matches`` (admin) lists what the
service holds. A match that no seat connects to is cancelled after ``waiting_timeout_s``."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from service_support import (
    RunningService,
    bearer,
    bot_players,
    create_match,
    running_service,
    service_settings,
    sse_events,
    start_serve,
    wait_status,
)

from bangarena.client import AdminClient, MatchOver, remote
from bangarena.evals.live import LIVE_SUITE
from bangarena.evals.store import open_store


def _stored_void(svc: RunningService, tmp_path: Path, client: httpx.Client, mid: str) -> Any:
    """The stored record of a stopped match (waits for the store)."""
    end = time.monotonic() + 20
    while not client.get(f"{svc.url}/v1/matches/{mid}").json()["stored"]:
        assert time.monotonic() < end, "the cancelled match was not stored"
        time.sleep(0.05)
    with open_store(tmp_path / "live.db") as store:
        return store.load_record(mid, LIVE_SUITE, status="void")


def test_a_running_match_cancelled_by_its_host_ends_and_wakes_its_polls(tmp_path: Path) -> None:
    with (
        running_service(service_settings(tmp_path), extensions=[]) as svc,
        httpx.Client(timeout=30) as client,
    ):
        body = create_match(
            client, svc, seats=4, seed=3, time_per_move=60, start="now",
            players=[{"kind": "remote", "name": "a"}, {"kind": "remote", "name": "b"},
                     *bot_players(2)],
        )  # fmt: skip
        mid = body["match_id"]
        tokens = [body["seats"][0]["token"], body["seats"][1]["token"]]
        url = f"{svc.url}/v1/matches/{mid}"
        # find the remote seat whose decision is pending; the other waits in a long-poll
        end = time.monotonic() + 20
        pending: dict[int, Any] = {}
        while not pending:
            assert time.monotonic() < end, "no remote decision came"
            for i, token in enumerate(tokens):
                r = client.get(f"{url}/decision", params={"wait": 0.2}, headers=bearer(token))
                if r.status_code == 200:
                    pending[i] = r.json()
        (deciding, decision), = pending.items()  # fmt: skip
        waiting = 1 - deciding
        answer: dict[str, Any] = {}

        def long_poll() -> None:
            t0 = time.monotonic()
            r = httpx.get(
                f"{url}/decision", params={"wait": 30}, headers=bearer(tokens[waiting]),
                timeout=40,
            )  # fmt: skip
            answer.update(status=r.status_code, body=r.json(), seconds=time.monotonic() - t0)

        streamed: list[dict[str, str]] = []

        def watch() -> None:  # the spectator's stream ends with the aborted status
            with httpx.stream(
                "GET", f"{url}/events", headers=bearer(body["spectator_token"]), timeout=40
            ) as resp:
                streamed.extend(sse_events(resp))

        poller = threading.Thread(target=long_poll)
        watcher = threading.Thread(target=watch)
        poller.start()
        watcher.start()
        time.sleep(0.3)  # the poll is open
        played_before = client.get(url).json()["decisions"]
        # a seat or the spectator may not cancel; the host may
        for token in (tokens[deciding], body["spectator_token"]):
            r = client.delete(url, headers=bearer(token))
            assert r.status_code == 403 and r.json()["error"] == "forbidden", r.text
        assert client.delete(url).status_code == 401
        r = client.delete(url, headers=bearer(body["host_token"]))
        assert r.status_code == 200, r.text
        status = r.json()
        assert status["status"] == "aborted" and status["result"] is None
        assert status["cancelled"] == "cancelled by the host"
        assert status["decisions"] == played_before
        poller.join(10)
        watcher.join(10)
        assert answer["status"] == 410 and answer["body"]["error"] == "match_over"
        assert answer["body"]["reason"] == "the match is aborted: cancelled by the host"
        assert streamed[-1]["event"] == "end"
        assert json.loads(streamed[-1]["data"])["status"] == "aborted"
        assert answer["seconds"] < 10  # woken by the cancel, not by the wait's end
        # the decision that was pending is withdrawn
        r = client.post(
            f"{url}/moves", headers=bearer(tokens[deciding]),
            json={"decision_id": decision["decision_id"], "move_id": decision["moves"][0]["id"]},
        )  # fmt: skip
        assert r.status_code == 410, r.text
        # once over, it cannot be cancelled again
        again = client.delete(url, headers=svc.admin_headers)
        assert again.status_code == 410 and again.json()["error"] == "match_over"
        record = _stored_void(svc, tmp_path, client, mid)
    assert record.status == "aborted" and record.status_detail == "cancelled by the host"
    assert len(record.moves) == played_before


def test_a_waiting_match_cancelled_by_the_admin_never_plays(tmp_path: Path) -> None:
    with (
        running_service(service_settings(tmp_path), extensions=[]) as svc,
        httpx.Client(timeout=30) as client,
    ):
        with AdminClient(svc.url, svc.admin_token) as admin:
            made = admin.create_match([remote("late"), *bot_players(3)], seed=4)
            mid = made.match_id
            assert admin.status(mid)["status"] == "waiting"
            assert (
                client.delete(
                    f"{svc.url}/v1/matches/nosuchmatch", headers=svc.admin_headers
                ).status_code
                == 404
            )
            status = admin.cancel(mid)
            assert status["status"] == "aborted" and status["decisions"] == 0
            with pytest.raises(MatchOver):
                admin.cancel(mid)
        # the seat that never came is told the match is over
        r = client.get(f"{svc.url}/v1/matches/{mid}/decision", headers=bearer(made.token_for(0)))
        assert r.status_code == 410 and r.json()["error"] == "match_over"
        record = _stored_void(svc, tmp_path, client, mid)
    assert record.status == "aborted" and record.status_detail == "cancelled by the admin"
    assert record.moves == []


def test_a_match_no_seat_connects_to_is_cancelled_after_the_waiting_timeout(
    tmp_path: Path,
) -> None:
    settings = service_settings(tmp_path, waiting_timeout_s=0.3)
    with running_service(settings, extensions=[]) as svc, httpx.Client(timeout=30) as client:
        ghost = create_match(
            client, svc, seats=4, players=[{"kind": "remote", "name": "ghost"}, *bot_players(3)]
        )
        # a match that starts in time is not touched by its (cancelled) timer
        prompt = create_match(
            client, svc, seats=4, players=[{"kind": "remote", "name": "on time"}, *bot_players(3)]
        )
        r = client.get(
            f"{svc.url}/v1/matches/{prompt['match_id']}/decision",
            headers=bearer(prompt["seats"][0]["token"]),
        )
        assert r.status_code in (200, 204), r.text
        final = wait_status(client, svc, ghost["match_id"], ("aborted",), timeout=10)
        assert final["decisions"] == 0 and final["cancelled"].startswith("not started within")
        time.sleep(0.5)
        assert client.get(f"{svc.url}/v1/matches/{prompt['match_id']}").json()["status"] in (
            "running",
            "over",
        )
        record = _stored_void(svc, tmp_path, client, ghost["match_id"])
    assert record.status == "aborted"
    assert record.status_detail == (
        "not started within 0.3 s: a remote or human seat never connected"
    )


def test_the_admin_lists_the_matches_newest_first(tmp_path: Path) -> None:
    with (
        running_service(service_settings(tmp_path), extensions=[]) as svc,
        httpx.Client(timeout=30) as client,
    ):
        over = create_match(client, svc, seats=4, seed=1, players=bot_players(4, "random"))
        wait_status(client, svc, over["match_id"], ("over",))
        waiting = create_match(
            client, svc, seats=4, players=[{"kind": "remote", "name": "w"}, *bot_players(3)]
        )
        url = f"{svc.url}/v1/matches"
        r = client.get(url, headers=svc.admin_headers)
        assert r.status_code == 200, r.text
        listed = r.json()["matches"]
        assert [m["match_id"] for m in listed] == [waiting["match_id"], over["match_id"]]
        assert [m["status"] for m in listed] == ["waiting", "over"]
        assert listed[1]["result"] is not None and listed[1]["cancelled"] is None
        with AdminClient(svc.url, svc.admin_token) as admin:
            assert [m["match_id"] for m in admin.matches(status="over")] == [over["match_id"]]
            assert [m["match_id"] for m in admin.matches(limit=1)] == [waiting["match_id"]]
            assert admin.matches(status="running") == []
        # only the admin lists; a bad filter is a 422 that says why
        r = client.get(url, headers=bearer(waiting["seats"][0]["token"]))
        assert r.status_code == 403 and r.json()["error"] == "forbidden"
        assert client.get(url).status_code == 401
        r = client.get(url, params={"status": "lost"}, headers=svc.admin_headers)
        assert r.status_code == 422 and "status" in r.text
        r = client.get(url, params={"limit": 0}, headers=svc.admin_headers)
        assert r.status_code == 422


def test_a_stopping_service_stores_the_matches_it_cuts_as_void(tmp_path: Path) -> None:
    """A restart loses no match: a running match is stopped and stored (what was played and
    what it cost), a waiting one, never started, just goes."""
    with (
        running_service(service_settings(tmp_path), extensions=[]) as svc,
        httpx.Client(timeout=30) as client,
    ):
        body = create_match(
            client, svc, seats=4, seed=5, time_per_move=60, start="now",
            players=[{"kind": "remote", "name": "a"}, *bot_players(3)],
        )  # fmt: skip
        waiting = create_match(
            client, svc, seats=4, players=[{"kind": "remote", "name": "w"}, *bot_players(3)]
        )
        mid, auth = body["match_id"], bearer(body["seats"][0]["token"])
        url = f"{svc.url}/v1/matches/{mid}"
        answered = 0
        while answered < 3:  # a few decisions of its own, then the service stops
            r = client.get(f"{url}/decision", params={"wait": 5}, headers=auth)
            assert r.status_code == 200, r.text
            d = r.json()
            move = {"decision_id": d["decision_id"], "move_id": d["moves"][0]["id"]}
            assert client.post(f"{url}/moves", headers=auth, json=move).status_code == 200
            answered += 1
        played = client.get(url).json()["decisions"]
    with open_store(tmp_path / "live.db") as store:
        record = store.load_record(mid, LIVE_SUITE, status="void")
        keys = {row["key"] for row in store.matches(LIVE_SUITE)}
    assert record.status == "aborted" and record.status_detail == "the service stopped"
    assert len(record.moves) >= played
    assert sum(m.seat == 0 and m.how == "chosen" for m in record.moves) == answered
    assert waiting["match_id"] not in keys


def test_ctrl_c_stops_the_matches_first_and_the_server_exits_at_once(tmp_path: Path) -> None:
    """``bangarena serve`` on SIGINT with a seat's long-poll open (wait=60): the poll answers
    410 "the service stopped" and the server exits within seconds, where uvicorn alone waited
    for the poll's whole wait; the match is stored as void."""
    import os
    import signal

    admin = "stop-test-admin-token-0123456789abcdef"
    env = os.environ | {"BANGARENA_ADMIN_TOKEN": admin}
    proc, base = start_serve(tmp_path / "live.db", env)
    try:
        players = [{"kind": "remote", "name": n} for n in ("a", "b")] + bot_players(2)
        body = {"seats": 4, "seed": 5, "time_per_move": 90, "start": "now", "players": players}
        r = httpx.post(f"{base}/v1/matches", json=body, headers=bearer(admin))
        assert r.status_code == 201, r.text
        made = r.json()
        url = f"{base}/v1/matches/{made['match_id']}"
        tokens = [made["seats"][i]["token"] for i in (0, 1)]
        while True:  # the seat whose turn it is not keeps a long-poll open
            pending = [
                i for i, t in enumerate(tokens)
                if httpx.get(f"{url}/decision", headers=bearer(t), timeout=10).status_code == 200
            ]  # fmt: skip
            if pending:
                break
        waiter = tokens[1 - pending[0]]
        answer: dict[str, Any] = {}

        def long_poll() -> None:
            r = httpx.get(
                f"{url}/decision", params={"wait": 60}, headers=bearer(waiter), timeout=70
            )
            answer.update(status=r.status_code, body=r.json())

        poller = threading.Thread(target=long_poll)
        poller.start()
        time.sleep(0.5)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
        stopped_in = time.monotonic() - t0
        poller.join(10)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=10)
    assert stopped_in < 8, stopped_in  # uvicorn re-raises the signal once stopped: rc -2 or 1
    assert answer["status"] == 410
    assert answer["body"]["reason"] == "the match is aborted: the service stopped"
    with open_store(tmp_path / "live.db") as store:
        record = store.load_record(made["match_id"], LIVE_SUITE, status="void")
    assert record.status == "aborted" and record.status_detail == "the service stopped"
