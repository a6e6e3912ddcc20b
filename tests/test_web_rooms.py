"""Rooms over HTTP against a real seat service on loopback (no browser): a model participant of
the server in a chair (its "AI N" badge and model badge), who may use the host's controls,
the speed changed during a game, a stand-in bot answering a handed seat through the seat's own
clock and record, the host role handed on after the host's absence, and the errors a page
shows (unknown code, full room, a started game)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from service_support import played_moves, running_service, service_settings, sse_events

from bangarena.service.rooms import HANDED_NOTE, RoomSettings
from bangarena.service.settings import parse_participants

GRACE_S = 1.0
QUICK = RoomSettings(
    pause_s={"slow": 0.05, "normal": 0.0, "fast": 0.0}, host_absent_s=0.5, max_rounds=6
)


@pytest.fixture(scope="module")
def svc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    participants = parse_participants('[[participants]]\nid = "house"\nspec = "scripted:rule"\n')
    settings = service_settings(
        tmp_path_factory.mktemp("rooms"), participants=participants, disconnect_grace_s=GRACE_S
    )
    with running_service(settings) as s:
        s.call(lambda: setattr(s.app.state.rooms, "settings", QUICK))
        yield s


def _client(svc: Any) -> httpx.Client:
    return httpx.Client(base_url=svc.url, timeout=20)


def _table(client: httpx.Client, mid: str) -> dict[str, Any]:
    with client.stream("GET", f"/web/v1/tables/{mid}/stream") as resp:
        for ev in sse_events(resp):
            if ev["event"] == "table":
                return json.loads(ev["data"])
    raise AssertionError("no table event")


def test_a_model_participant_sits_in_a_chair_with_its_badge(svc: Any) -> None:
    with _client(svc) as ana:
        assert ana.get("/web/v1/options").json()["models"] == ["house"]
        chairs = [{"kind": "model", "participant": "house"}, {"kind": "bot"}, {"kind": "bot"}]
        r = ana.post("/web/v1/play", json={"name": "Ana", "seats": 4, "chairs": chairs})
        assert r.status_code == 201, r.text
        mid = r.json()["match_id"]
        table = _table(ana, mid)
        assert [c["kind"] for c in table["chairs"]] == ["human", "model", "bot", "bot"]
        assert table["chairs"][1]["badge"] == "AI 1" and table["chairs"][1]["model"] == "house"
        assert table["chairs"][2]["badge"] == "Bot 3"
        live = svc.call(lambda: svc.state.registry.get(mid))
        assert svc.call(lambda: live.info[1].kind) == "model"
        bad = ana.post(
            "/web/v1/play",
            json={"name": "Ana", "seats": 4, "chairs": [{"kind": "model", "participant": "x"}]},
        )
        assert bad.status_code == 422 and "no such model" in bad.json()["reason"]


def test_host_controls_and_who_may_use_them(svc: Any) -> None:
    with _client(svc) as ana, _client(svc) as bea, _client(svc) as cid:
        r = ana.post("/web/v1/rooms", json={"name": "Ana", "seats": 4, "speed": "fast"})
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        assert ana.post("/web/v1/rooms/NOSUCH/join", json={"name": "X"}).status_code == 404
        assert bea.post(f"/web/v1/rooms/{code}/join", json={"name": "Bea"}).json()["chair"] == 1
        # only the host changes chairs; a guest is told so
        r = bea.post(f"/web/v1/rooms/{code}/fill")
        assert r.status_code == 403 and r.json()["error"] == "not_host"
        assert ana.post(f"/web/v1/rooms/{code}/chairs/3", json={"kind": "bot"}).status_code == 200
        r = ana.post(f"/web/v1/rooms/{code}/start")
        assert r.status_code == 409 and r.json()["error"] == "empty_chairs"
        assert cid.post(f"/web/v1/rooms/{code}/join", json={"name": "Cid"}).json()["chair"] == 2
        r = _client(svc).post(f"/web/v1/rooms/{code}/join", json={"name": "Dee"})
        assert r.status_code == 409 and r.json()["error"] == "room_full"
        # the host replaces Cid with a bot: Cid is out of the room
        assert ana.post(f"/web/v1/rooms/{code}/chairs/2", json={"kind": "bot"}).status_code == 200
        assert cid.get(f"/web/v1/rooms/{code}").json()["you"]["chair"] is None
        r = ana.post(f"/web/v1/rooms/{code}/start")
        assert r.status_code == 200, r.text
        mid = r.json()["match_id"]
        late = _client(svc).post(f"/web/v1/rooms/{code}/join", json={"name": "Eve"})
        assert late.status_code == 409 and late.json()["error"] == "room_playing"
        for c in (ana, bea):  # both sit down: the game begins
            assert c.post(f"/web/v1/tables/{mid}/enter", json={}).status_code == 200
            c.get(f"/v1/matches/{mid}/view")
        room = svc.call(lambda: svc.app.state.rooms.by_match[mid])
        # speed during the game (host only)
        assert bea.post(f"/web/v1/rooms/{code}/speed", json={"speed": "slow"}).status_code == 403
        assert ana.post(f"/web/v1/rooms/{code}/speed", json={"speed": "slow"}).status_code == 200
        assert svc.call(lambda: room.pause()) == QUICK.pause_s["slow"]
        # hand Bea's seat to a bot, once she is away: its moves come through her seat,
        # marked in the record
        r = ana.post(f"/web/v1/rooms/{code}/chairs/1/hand")
        assert r.status_code == 409 and r.json()["error"] == "player_present", r.text
        time.sleep(GRACE_S + 0.3)
        assert ana.post(f"/web/v1/rooms/{code}/chairs/1/hand").status_code == 200
        live = room.live
        end = time.monotonic() + 30
        while time.monotonic() < end:
            handed = [m for m in played_moves(svc, live) if m.seat == 1 and m.reason == HANDED_NOTE]
            if handed or svc.call(lambda: live.ended):
                break
            _answer_any(ana, mid)
        assert handed, "the stand-in bot never played Bea's seat"
        assert all(m.how == "chosen" and m.attempts[-1].outcome == "ok" for m in handed)
        assert ana.delete(f"/web/v1/rooms/{code}/chairs/1/hand").status_code == 200
        assert svc.call(lambda: 1 not in room.handed)
        # the host goes away (no stream, no call): after host_absent_s Bea, present, hosts
        with bea.stream("GET", f"/web/v1/rooms/{code}/stream") as resp:
            for ev in sse_events(resp):
                status = json.loads(ev["data"])
                if status["you"]["host"]:
                    break
        assert bea.post(f"/web/v1/rooms/{code}/speed", json={"speed": "fast"}).status_code == 200
        assert ana.post(f"/web/v1/rooms/{code}/speed", json={"speed": "slow"}).status_code == 403


def _answer_any(client: httpx.Client, mid: str) -> None:
    r = client.get(f"/v1/matches/{mid}/decision", params={"wait": 0.5})
    if r.status_code == 200:
        p = r.json()
        client.post(
            f"/v1/matches/{mid}/moves",
            json={"decision_id": p["decision_id"], "move_id": p["moves"][0]["id"]},
        )
