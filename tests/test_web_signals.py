"""Table signals (rules.md §10) over a real seat service on loopback: the server's limits (one
per 1.2 s, 60 per game per player; declarations and marks only while in the game), who may
send and read them (people at a web table; not spectators, not remote agents), and that no
signal reaches the game — every seat's view and the match record are the same with and without
them, so no bot, model or remote agent can see one."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from service_support import (
    bearer,
    create_match,
    running_service,
    service_settings,
    sse_events,
)

from bangarena.engine.views import view_to_dict
from bangarena.service.rooms import RoomSettings
from bangarena.service.signals import PER_GAME, SignalBook, SignalRefused

QUIET = RoomSettings(pause_s={"slow": 0.0, "normal": 0.0, "fast": 0.0}, max_rounds=6)


@pytest.fixture(scope="module")
def svc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with running_service(service_settings(tmp_path_factory.mktemp("signals"))) as s:
        s.call(lambda: setattr(s.app.state.rooms, "settings", QUIET))
        yield s


def _play(svc: Any) -> tuple[httpx.Client, str, Any]:
    """A person's client at a new table with bots, once it waits for the person's decision. A
    deal can eliminate the person before a first choice (forced hits; the poll answers 410):
    then a fresh table is dealt, as a player would."""
    client = httpx.Client(base_url=svc.url, timeout=20)
    for _ in range(3):
        r = client.post("/web/v1/play", json={"name": "Ana", "seats": 4, "time_per_move": 60})
        assert r.status_code == 201, r.text
        mid = r.json()["match_id"]
        assert r.json()["seat"] == 0
        r = client.get(f"/v1/matches/{mid}/decision", params={"wait": 10})
        if r.status_code == 410:
            continue
        assert r.status_code == 200, r.text
        room = svc.call(lambda m=mid: svc.app.state.rooms.by_match[m])
        return client, mid, room
    pytest.fail("three deals in a row ended Ana's game before a first choice")


def _snapshot(svc: Any, mid: str) -> list[Any]:
    live = svc.call(lambda: svc.state.registry.get(mid))

    def take() -> list[Any]:
        views = [view_to_dict(live.game.view(i, since=0)) for i in range(live.settings.seats)]
        record = live.match.record().model_dump(
            mode="json", exclude={"finished_at", "duration_s", "provenance"}
        )
        return [views, record]

    return svc.call(take)


def _fake_clock(svc: Any, room: Any, step: float = 2.0) -> None:
    start = svc.call(lambda: room.signals.clock()) + 10.0
    ticks = itertools.count(start=start, step=step)
    svc.call(lambda: setattr(room.signals, "clock", lambda: next(ticks)))


def test_the_limits_are_the_servers(svc: Any) -> None:
    client, mid, room = _play(svc)
    url = f"/web/v1/tables/{mid}/signals"
    first = client.post(url, json={"kind": "react", "value": "👍"})
    assert first.status_code == 200, first.text
    assert first.json()["left"] == PER_GAME - 1
    again = client.post(url, json={"kind": "react", "value": "😂"})
    assert again.status_code == 429 and again.json()["error"] == "too_fast", again.text
    _fake_clock(svc, room)
    for _ in range(PER_GAME - 1):
        r = client.post(url, json={"kind": "declare", "value": "deputy"})
        assert r.status_code == 200, r.text
    over = client.post(url, json={"kind": "react", "value": "GG"})
    assert over.status_code == 429 and over.json()["error"] == "limit", over.text
    # a malformed signal is refused as such, not counted
    bad = client.post(url, json={"kind": "mark", "value": "outlaw", "target": 0})
    assert bad.status_code == 422
    client.close()


def test_signals_reach_the_people_and_never_the_game(svc: Any) -> None:
    client, mid, room = _play(svc)
    before = _snapshot(svc, mid)
    _fake_clock(svc, room)
    url = f"/web/v1/tables/{mid}/signals"
    for body in (
        {"kind": "declare", "value": "renegade"},
        {"kind": "mark", "value": "outlaw", "target": 2},
        {"kind": "react", "value": "🤔"},
    ):
        r = client.post(url, json=body)
        assert r.status_code == 200, r.text
    # the person's table stream carries them
    got: list[dict[str, Any]] = []
    with client.stream("GET", f"/web/v1/tables/{mid}/stream") as resp:
        for ev in sse_events(resp):
            if ev["event"] == "signal":
                got.append(json.loads(ev["data"]))
            if len(got) == 3:
                break
    assert [g["kind"] for g in got] == ["declare", "mark", "react"]
    # the game does not know: every seat's view (the bots' included) and the record unchanged
    after = _snapshot(svc, mid)
    assert after == before
    text = json.dumps(after, ensure_ascii=False)
    assert "🤔" not in text and '"declare"' not in text
    client.close()


def test_agents_and_spectators_get_no_signals(svc: Any) -> None:
    with httpx.Client(base_url=svc.url, timeout=20) as http:
        body = create_match(
            http, svc, seats=4, start="now",
            players=[{"kind": "human", "name": "Ana"}, {"kind": "remote", "name": "agent"},
                     {"kind": "bot", "spec": "rule"}, {"kind": "bot", "spec": "rule"}],
        )  # fmt: skip
        mid = body["match_id"]
        human, remote = body["seats"][0]["token"], body["seats"][1]["token"]
        for path in (f"/web/v1/tables/{mid}/stream", f"/web/v1/tables/{mid}/summary"):
            r = http.get(path, headers=bearer(remote))
            assert r.status_code == 403, r.text
        r = http.post(
            f"/web/v1/tables/{mid}/signals", json={"kind": "react", "value": "GG"},
            headers=bearer(remote),
        )  # fmt: skip
        assert r.status_code == 403
        # a human seat of a match made outside a room has no signals at all
        r = http.post(
            f"/web/v1/tables/{mid}/signals", json={"kind": "react", "value": "GG"},
            headers=bearer(human),
        )  # fmt: skip
        assert r.status_code == 409 and r.json()["error"] == "no_signals"
        r = http.post(
            f"/web/v1/tables/{mid}/signals", json={"kind": "react", "value": "GG"},
            headers=bearer(body["spectator_token"]),
        )  # fmt: skip
        assert r.status_code == 403


def test_the_signal_book_rules() -> None:
    ticks = iter([0.0, 0.5, 1.3, 2.6, 4.0])
    book = SignalBook(seats=5, clock=lambda: next(ticks))
    book.send(1, "declare", "outlaw", None, alive=True)
    with pytest.raises(SignalRefused) as fast:
        book.send(1, "react", "👍", None, alive=True)
    assert fast.value.code == "too_fast"
    with pytest.raises(SignalRefused) as out:
        book.send(1, "mark", "sheriff", 2, alive=False)
    assert out.value.code == "not_in_game"
    assert book.send(1, "react", "GG", None, alive=False).value == "GG"
    with pytest.raises(SignalRefused):
        book.send(1, "declare", "sheriff", None, alive=True)  # the sheriff is public
    with pytest.raises(SignalRefused):
        book.send(1, "mark", "outlaw", 1, alive=True)  # not on one's own portrait
    assert book.left(1) == PER_GAME - 2
    assert [s.n for s in book.since(0)] == [0, 1]
