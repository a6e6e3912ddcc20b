"""The isolation matrix: for every match route and every kind of token, who gets what. Seat A's
token reads only A's view and decision and acts only for A; a spectator or host token reads the
public view and cannot act; a missing or unknown token is 401, another match's or another
role's 403 — and no error body carries hidden information (checked against the omniscient
state: other hands' card ids, hidden roles, the deck)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
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
)

from bangarena.engine.cards import CARD_IDS
from bangarena.engine.views import view_to_dict

ROLE_WORDS = ("outlaw", "renegade", "deputy", "sheriff", "double_agent")


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A running match (remote seats 0 and 1, bots 2-4, long clock) waiting on a remote seat's
    decision, and a second match for foreign tokens."""
    tmp = tmp_path_factory.mktemp("isolation")
    with (
        running_service(service_settings(tmp), extensions=[]) as svc,
        httpx.Client(timeout=30) as client,
    ):
        players = [{"kind": "remote", "name": "a"}, {"kind": "remote", "name": "b"}]
        body = create_match(
            client, svc, seats=5, seed=2, time_per_move=600, start="now",
            players=players + bot_players(3),
        )  # fmt: skip
        other = create_match(
            client, svc, seats=4, seed=1, time_per_move=600,
            players=[{"kind": "remote", "name": "z"}, *bot_players(3)],
        )  # fmt: skip
        live = svc.state.registry.get(body["match_id"])
        end = time.monotonic() + 10
        while time.monotonic() < end:
            waiting = svc.call(lambda: [s for s, r in live.remote.items() if r.pending])
            if waiting:
                break
            time.sleep(0.02)
        assert waiting, "the match never reached a remote seat's decision"
        a = waiting[0]
        tokens = {s["seat"]: s["token"] for s in body["seats"]}
        yield {
            "svc": svc,
            "client": client,
            "id": body["match_id"],
            "live": live,
            "a": a,  # the seat whose decision is pending
            "b": 1 - a,  # the other remote seat
            "tok": {
                "A": tokens[a],
                "B": tokens[1 - a],
                "spectator": body["spectator_token"],
                "host": body["host_token"],
                "admin": svc.admin_token,
                "other": other["seats"][0]["token"],
                "other_host": other["host_token"],
                "bogus": "not-a-token-" + "x" * 32,
            },
        }


def _secrets(svc: RunningService, live: Any, viewer: int | None) -> set[str]:
    """What ``viewer`` may not know: other seats' hand card ids, the deck's card ids, hidden
    roles (all of it, for None: an error body may carry none)."""

    def collect() -> set[str]:
        state = live.game.state
        out = {CARD_IDS[c] for c in state.deck}
        for p in state.players:
            if p.seat != viewer:
                out |= {CARD_IDS[c] for c in p.hand}
        public = json.dumps(view_to_dict(live.game.view(viewer)))
        # a card or role the viewer may see (on the table, revealed) is no secret
        return {s for s in out if s not in public}

    return svc.call(collect)


def _no_secret(body: str, secrets: set[str], roles: bool = True) -> None:
    leaked = [s for s in secrets if s in body]
    assert not leaked, (leaked, body[:300])
    if roles:
        assert not any(w in body for w in ROLE_WORDS), body[:300]


def _call(t: dict[str, Any], method: str, path: str, who: str | None, **kw: Any) -> httpx.Response:
    headers = dict(kw.pop("headers", {}))
    if who is not None:
        headers.update(bearer(t["tok"][who]))
    url = f"{t['svc'].url}/v1/matches/{t['id']}{path}"
    return t["client"].request(method, url, headers=headers, **kw)


ERRORS = [
    (None, 401, "missing_token"),
    ("bogus", 401, "unknown_token"),
    ("admin", 403, "forbidden"),
    ("other", 403, "forbidden"),
    ("other_host", 403, "forbidden"),
]


ROUTES = [("GET", "/view"), ("GET", "/decision"), ("POST", "/moves"), ("GET", "/events"),
          ("POST", "/start"), ("DELETE", "")]  # fmt: skip


@pytest.mark.parametrize(
    ("method", "path", "who", "status", "error"),
    [
        (method, path, *error)
        for method, path in ROUTES
        for error in ERRORS
        if not (method == "DELETE" and error[0] == "admin")  # the admin may cancel any match
    ],
)
def test_bad_tokens_are_refused_without_hidden_information(
    table: dict[str, Any], method: str, path: str, who: str | None, status: int, error: str
) -> None:
    kw = {"json": {"decision_id": 0, "move_id": "end_turn"}} if path == "/moves" else {}
    r = _call(table, method, path, who, **kw)
    assert r.status_code == status, r.text
    assert r.json()["error"] == error and r.json()["reason"]
    if status == 401:
        assert r.headers["www-authenticate"] == "Bearer"
    _no_secret(r.text, _secrets(table["svc"], table["live"], None))


FORBIDDEN_ROLES = [
    (who, method, path)
    for method, path, may in (
        ("GET", "/decision", {"A", "B"}), ("POST", "/moves", {"A", "B"}), ("POST", "/start", {"host"}),
        ("DELETE", "", {"host"}),
    )
    for who in ("spectator", "host", "A", "B")
    if who not in may
]  # fmt: skip


@pytest.mark.parametrize(("who", "method", "path"), FORBIDDEN_ROLES)
def test_roles_that_may_not_do_it_get_403(
    table: dict[str, Any], method: str, path: str, who: str
) -> None:
    kw = {"json": {"decision_id": 0, "move_id": "end_turn"}} if path == "/moves" else {}
    r = _call(table, method, path, who, **kw)
    assert r.status_code == 403 and r.json()["error"] == "forbidden", r.text
    _no_secret(r.text, _secrets(table["svc"], table["live"], None))


def test_a_seat_reads_only_its_own_view(table: dict[str, Any]) -> None:
    svc, live = table["svc"], table["live"]
    for who, seat in (("A", table["a"]), ("B", table["b"]), ("spectator", None), ("host", None)):
        r = _call(table, "GET", "/view", who)
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["seat"] == seat
        expected = svc.call(lambda s=seat: view_to_dict(live.game.view(s, since=live.log_length())))
        assert body["view"] == expected  # exactly the engine's projection for this token
        _no_secret(r.text, _secrets(svc, live, seat), roles=False)
        full = _call(table, "GET", "/view", who, params={"since": 0})
        _no_secret(full.text, _secrets(svc, live, seat), roles=False)


def test_a_seat_gets_only_its_own_decision_and_cannot_answer_for_another(
    table: dict[str, Any],
) -> None:
    svc, live, a = table["svc"], table["live"], table["a"]
    r = _call(table, "GET", "/decision", "A")
    assert r.status_code == 200
    payload = r.json()
    assert payload["seat"] == a and payload["match_id"] == table["id"]
    # the system prompt is the rules text for the seat (its examples name cards, e.g. shot_07)
    payload_rest = {**payload, "prompt": {"turn": payload["prompt"]["turn"]}}
    _no_secret(json.dumps(payload_rest), _secrets(svc, live, a), roles=False)
    want = svc.call(lambda: view_to_dict(live.game.view(a, since=live.remote[a].pending.cursor)))
    assert payload["view"]["hand"] == want["hand"] and payload["view"]["players"] == want["players"]
    # B sees no decision (it has none), and cannot answer A's
    assert _call(table, "GET", "/decision", "B").status_code == 204
    attempts = svc.call(lambda: len(live.remote[a].pending.telemetry.attempts))
    move = payload["moves"][0]["id"]
    r = _call(
        table, "POST", "/moves", "B", json={"decision_id": payload["decision_id"], "move_id": move}
    )
    assert r.status_code == 409 and r.json()["error"] == "stale_decision", r.text
    _no_secret(r.text, _secrets(svc, live, None))
    # A's decision is untouched: still pending, no attempt recorded
    assert svc.call(lambda: live.remote[a].pending.decision_id) == payload["decision_id"]
    assert svc.call(lambda: len(live.remote[a].pending.telemetry.attempts)) == attempts
    # an illegal id is told apart from a validation error, with the legal ids
    r = _call(
        table,
        "POST",
        "/moves",
        "A",
        json={"decision_id": payload["decision_id"], "move_id": "nope"},
    )
    assert r.status_code == 422 and r.json()["error"] == "illegal_move"
    assert r.json()["legal"] == [m["id"] for m in payload["moves"]]
    r = _call(table, "POST", "/moves", "A", json={"decision_id": "x", "move_id": "nope"})
    assert r.status_code == 422 and r.json()["error"] == "invalid_request"
    # a stale decision id
    r = _call(
        table,
        "POST",
        "/moves",
        "A",
        json={"decision_id": payload["decision_id"] + 7, "move_id": move},
    )
    assert r.status_code == 409
    assert svc.call(lambda: live.remote[a].pending.decision_id) == payload["decision_id"]


def test_the_event_streams_show_each_token_its_own_events(table: dict[str, Any]) -> None:
    svc, live, a = table["svc"], table["live"], table["a"]
    n = svc.call(live.log_length)
    for who, seat in (("A", a), ("spectator", None), ("host", None)):
        got = []
        with table["client"].stream(
            "GET", f"{svc.url}/v1/matches/{table['id']}/events", headers=bearer(table["tok"][who])
        ) as r:
            assert r.status_code == 200
            for ev in sse_events(r):
                if ev["event"] == "game":
                    got.append(json.loads(ev["data"]))
                if ev["event"] == "decision":
                    assert who == "A" and json.loads(ev["data"])["seat"] == a
                if len(got) >= n and (who != "A" or ev["event"] == "decision"):
                    break
        assert got == svc.call(lambda s=seat: live.game.events(s))
        _no_secret(json.dumps(got), _secrets(svc, live, seat), roles=False)


def test_public_status_and_unknown_matches(table: dict[str, Any]) -> None:
    svc, live = table["svc"], table["live"]
    for who in (None, "A", "spectator", "bogus"):
        r = _call(table, "GET", "", who)
        assert r.status_code == 200
        _no_secret(r.text, _secrets(svc, live, None), roles=False)
        sheriff = svc.call(
            lambda: next(p.seat for p in live.game.state.players if p.role == "sheriff")
        )
        hidden = svc.call(
            lambda: {p.role for p in live.game.state.players if p.role != "sheriff" and p.alive}
        )
        assert not any(role in r.text for role in hidden), (sheriff, r.text)
    url = f"{svc.url}/v1/matches/doesnotexist"
    for path in ("", "/view", "/decision", "/events"):
        r = table["client"].get(url + path, headers=bearer(table["tok"]["A"]))
        assert r.status_code == 404 and r.json()["error"] == "unknown_match", path
    r = table["client"].get(url + "/view")
    assert r.status_code == 401


def test_creating_matches_needs_the_admin_token(table: dict[str, Any]) -> None:
    svc = table["svc"]
    body = {"seats": 4, "players": bot_players(4)}
    for who, status in ((None, 401), ("bogus", 401), ("A", 403), ("spectator", 403), ("host", 403)):
        headers = bearer(table["tok"][who]) if who else {}
        r = table["client"].post(f"{svc.url}/v1/matches", json=body, headers=headers)
        assert r.status_code == status, (who, r.text)
    assert (
        table["client"]
        .post(f"{svc.url}/v1/matches", json=body, headers=svc.admin_headers)
        .status_code
        == 201
    )


def test_the_host_starts_a_waiting_match(table: dict[str, Any]) -> None:
    svc, client = table["svc"], table["client"]
    body = create_match(
        client, svc, seats=4, seed=4, time_per_move=600,
        players=[{"kind": "remote", "name": "r"}, *bot_players(3)],
    )  # fmt: skip
    url = f"{svc.url}/v1/matches/{body['match_id']}"
    assert client.get(url).json()["status"] == "waiting"
    r = client.post(f"{url}/start", headers=bearer(body["host_token"]))
    assert r.status_code == 200 and r.json()["status"] in ("running", "over")


def test_a_browser_session_cookie_carries_the_token(table: dict[str, Any]) -> None:
    svc = table["svc"]
    with httpx.Client(base_url=svc.url, timeout=30) as browser:
        r = browser.post("/v1/session", json={"token": table["tok"]["A"]})
        assert r.status_code == 200 and r.json()["seat"] == table["a"]
        cookie = r.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        r = browser.get(f"/v1/matches/{table['id']}/view")
        assert r.status_code == 200 and r.json()["seat"] == table["a"]
        assert browser.delete("/v1/session").status_code == 204
        browser.cookies.clear()
        assert browser.get(f"/v1/matches/{table['id']}/view").status_code == 401
        r = browser.post("/v1/session", json={"token": "nope-" * 8})
        assert r.status_code == 401
