"""Hostile and broken input to the seat service: every bad request is a 4xx with a precise
reason, never a 5xx, and the match is unchanged. Also the settings, the published documents
(rules, schemas, the developers page), CORS and ``bangarena serve``'s own errors."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from service_support import (
    bearer,
    bot_players,
    create_match,
    running_service,
    service_settings,
    start_serve,
)
from typer.testing import CliRunner

from bangarena.cli.app import app as cli_app
from bangarena.service.settings import (
    ADMIN_TOKEN_ENV,
    TOKEN_PREFIX,
    ServiceSettings,
    SettingsError,
    new_token,
    parse_participants,
)
from bangarena.service.tokens import TokenBook


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("bad-input")
    docs = tmp / "dev.md"
    docs.write_text("# For AI developers\n\nPoll `GET /v1/matches/{id}/decision`.\n")
    settings = service_settings(tmp, max_body_bytes=2048, docs_path=docs, max_waits_per_token=1)
    with running_service(settings, extensions=[]) as svc, httpx.Client(timeout=30) as client:
        body = create_match(
            client, svc, seats=4, seed=2, time_per_move=600, start="now",
            players=[{"kind": "remote", "name": "a"}, *bot_players(3)],
        )  # fmt: skip
        other = create_match(
            client, svc, seats=4, seed=3, time_per_move=600, start="now",
            players=[{"kind": "remote", "name": "b"}, *bot_players(3)],
        )  # fmt: skip
        live = svc.state.registry.get(body["match_id"])
        end = time.monotonic() + 10
        while svc.call(lambda: live.remote[0].pending) is None and time.monotonic() < end:
            time.sleep(0.02)
        yield {"svc": svc, "client": client, "match": body, "other": other, "live": live}


def _snapshot(served: dict[str, Any]) -> tuple[Any, ...]:
    live = served["live"]
    return served["svc"].call(
        lambda: (
            len(live.game.state.history),
            live.log_length(),
            live.remote[0].pending.decision_id,
            len(live.remote[0].pending.telemetry.attempts),
        )
    )


ADMIN_BAD = [
    (b"{not json", "json"),
    (b'{"seats": "5", "players": []}', "seats"),
    (b'{"seats": 4, "players": [{"kind": "bot", "spec": "rule"}], "extra": 1}', "extra"),
    (b'{"seats": 4, "players": [{"kind": "alien"}]}', "players"),
    (b'{"seats": 4, "mode": "chess", "players": []}', "mode"),
    (b'{"seats": 99, "players": []}', "seats"),
    (b'{"seats": 4, "seed": -1, "players": []}', "seed"),
    (b'{"seats": 4, "time_per_move": 0, "players": []}', "time_per_move"),
    (b"[]", "body"),
    (b"", "body"),
]


@pytest.mark.parametrize(("raw", "where"), ADMIN_BAD)
def test_bad_match_requests_are_422_with_the_place(
    served: dict[str, Any], raw: bytes, where: str
) -> None:
    svc = served["svc"]
    r = served["client"].post(
        f"{svc.url}/v1/matches", content=raw,
        headers={**svc.admin_headers, "content-type": "application/json"},
    )  # fmt: skip
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "invalid_request" and where in body["reason"].lower(), body


@pytest.mark.parametrize(
    ("players", "reason"),
    [
        ([{"kind": "bot", "spec": "openai:gpt-4o@http://example.invalid/v1"}] * 4, "not a bot"),
        ([{"kind": "bot", "spec": "human"}] * 4, "not a bot"),
        ([{"kind": "bot", "spec": "rule:eps=7"}] * 4, "players[0]"),
        ([{"kind": "model", "participant": "gpt"}] * 4, "no model participant"),
        ([{"kind": "bot", "spec": "rule"}] * 3, "at least 4 items"),
        ([{"kind": "bot", "spec": "rule"}] * 5, "5 players for 4 seats"),
        ([{"kind": "remote", "name": "bad\nname"}] * 4, "name"),
    ],
)
def test_players_that_cannot_sit_are_refused(
    served: dict[str, Any], players: list[dict[str, Any]], reason: str
) -> None:
    svc = served["svc"]
    r = served["client"].post(
        f"{svc.url}/v1/matches", json={"seats": 4, "players": players}, headers=svc.admin_headers
    )
    assert r.status_code == 422, r.text
    assert reason in r.json()["reason"], r.json()


def test_bad_moves_leave_the_match_unchanged(served: dict[str, Any]) -> None:
    svc, client, match = served["svc"], served["client"], served["match"]
    url = f"{svc.url}/v1/matches/{match['match_id']}"
    seat = bearer(match["seats"][0]["token"])
    before = _snapshot(served)
    cases = [
        (b"{oops", 422, "invalid_request"),
        (b'{"decision_id": 0}', 422, "invalid_request"),
        (b'{"decision_id": 0, "move_id": "end_turn", "seat": 3}', 422, "invalid_request"),
        (b'{"decision_id": true, "move_id": "end_turn"}', 422, "invalid_request"),
        (b'{"decision_id": -1, "move_id": "end_turn"}', 422, "invalid_request"),
        (b'{"decision_id": 0, "move_id": ""}', 422, "invalid_request"),
        (json.dumps({"decision_id": 0, "move_id": "x" * 500}).encode(), 422, "invalid_request"),
        (b'{"decision_id": 99999, "move_id": "end_turn"}', 409, "stale_decision"),
        (b'"just a string"', 422, "invalid_request"),
    ]
    for raw, status, error in cases:
        r = client.post(
            f"{url}/moves", content=raw, headers={**seat, "content-type": "application/json"}
        )
        assert r.status_code == status, (raw, r.text)
        assert r.json()["error"] == error and r.json()["reason"], r.text
    # a decision id of the other match (its seat's pending one) is not this seat's
    other = served["other"]
    got = client.get(
        f"{svc.url}/v1/matches/{other['match_id']}/decision",
        params={"wait": 5},
        headers=bearer(other["seats"][0]["token"]),
    )
    if got.status_code == 200 and got.json()["decision_id"] != before[2]:
        r = client.post(
            f"{url}/moves",
            json={"decision_id": got.json()["decision_id"], "move_id": "end_turn"},
            headers=seat,
        )
        assert r.status_code == 409
    assert _snapshot(served) == before


def test_oversized_bodies_are_413(served: dict[str, Any]) -> None:
    svc, client = served["svc"], served["client"]
    big = json.dumps({"seats": 4, "players": bot_players(4), "pad": "x" * 5000})
    r = client.post(
        f"{svc.url}/v1/matches",
        content=big,
        headers={**svc.admin_headers, "content-type": "application/json"},
    )
    assert r.status_code == 413 and r.json()["error"] == "body_too_large"

    def chunks() -> Iterator[bytes]:
        for _ in range(10):
            yield b"x" * 1000

    r = client.post(f"{svc.url}/v1/matches", content=chunks(), headers=svc.admin_headers)
    assert r.status_code == 413


def test_wait_is_bounded(served: dict[str, Any]) -> None:
    svc, client, match = served["svc"], served["client"], served["match"]
    url = f"{svc.url}/v1/matches/{match['match_id']}/decision"
    seat = bearer(match["seats"][0]["token"])
    for wait in ("61", "-1", "soon", "nan"):
        r = client.get(url, params={"wait": wait}, headers=seat)
        assert r.status_code == 422 and r.json()["error"] == "invalid_request", (wait, r.text)
    r = client.get(
        f"{svc.url}/v1/matches/{match['match_id']}/view", params={"since": 10**9}, headers=seat
    )
    assert r.status_code == 422


def test_waits_per_token_are_bounded(served: dict[str, Any]) -> None:
    """One open long-poll per token here (max_waits_per_token=1): a second one is 429."""
    import threading

    svc, client = served["svc"], served["client"]
    # two remote seats, only one connects: the match waits, so the poll has nothing to get
    body = create_match(
        client, svc, seats=4, seed=5, time_per_move=600,
        players=[{"kind": "remote", "name": "x"}, {"kind": "remote", "name": "y"}, *bot_players(2)],
    )  # fmt: skip
    url = f"{svc.url}/v1/matches/{body['match_id']}/decision"
    token = bearer(body["seats"][0]["token"])
    first: list[int] = []
    t = threading.Thread(
        target=lambda: first.append(httpx.get(url, params={"wait": 2}, headers=token).status_code)
    )
    t.start()
    end = time.monotonic() + 5
    while not svc.call(lambda: svc.state.registry._slots) and time.monotonic() < end:
        time.sleep(0.01)
    r = client.get(url, params={"wait": 1}, headers=token)
    assert r.status_code == 429 and r.json()["error"] == "too_many_waits", r.text
    assert client.get(url, headers=token).status_code == 204  # no wait: no slot needed
    t.join()
    assert first == [204]
    assert client.get(url, params={"wait": 0.1}, headers=token).status_code == 204  # freed


def test_published_documents(served: dict[str, Any]) -> None:
    svc, client, match = served["svc"], served["client"], served["match"]
    health = client.get(f"{svc.url}/healthz").json()
    assert health["status"] == "ok" and health["live_matches"] >= 2
    rules = client.get(f"{svc.url}/v1/rules").json()
    assert rules["rules_version"] == health["rules_version"]
    schema = client.get(f"{svc.url}/v1/schemas/decision-payload").json()
    payload = client.get(
        f"{svc.url}/v1/matches/{match['match_id']}/decision",
        headers=bearer(match["seats"][0]["token"]),
    ).json()
    jsonschema.validate(payload, schema)
    view_schema = client.get(f"{svc.url}/v1/schemas/seat-view").json()
    assert view_schema["$schema"].endswith("2020-12/schema")
    for name in ("move-answer", "match-record", "decision", "event", "leaderboard"):
        assert client.get(f"{svc.url}/v1/schemas/{name}").status_code == 200, name
    r = client.get(f"{svc.url}/v1/schemas/nope")
    assert r.status_code == 404 and "decision-payload" in r.json()["reason"]
    page = client.get(f"{svc.url}/developers")
    assert page.status_code == 200 and "<h1>For AI developers</h1>" in page.text
    spec = client.get(f"{svc.url}/openapi.json").json()
    assert "/v1/matches/{match_id}/moves" in spec["paths"]
    assert client.get(f"{svc.url}/docs").status_code == 200


def test_developers_page_missing_is_404(tmp_path: Path) -> None:
    settings = service_settings(tmp_path, docs_path=tmp_path / "absent.md")
    with running_service(settings, extensions=[]) as svc:
        r = httpx.get(f"{svc.url}/developers")
        assert r.status_code == 404 and r.json()["error"] == "no_developers_page"


def test_cors_is_off_unless_configured(tmp_path: Path, served: dict[str, Any]) -> None:
    preflight = {"Origin": "https://agents.example", "Access-Control-Request-Method": "POST"}
    r = served["client"].options(f"{served['svc'].url}/v1/matches", headers=preflight)
    assert "access-control-allow-origin" not in r.headers
    settings = service_settings(tmp_path, cors_origins=("https://agents.example",))
    with running_service(settings, extensions=[]) as svc:
        r = httpx.options(f"{svc.url}/v1/matches", headers=preflight)
        assert r.headers["access-control-allow-origin"] == "https://agents.example"


def test_tokens_are_long_random_and_never_read_as_an_option() -> None:
    """A token may be passed on a command line (``--token T``): one that began with ``-`` (one
    in 64 of plain ``token_urlsafe``) was taken for an option by the example agents."""
    tokens = [new_token() for _ in range(2000)]
    assert len(set(tokens)) == len(tokens)
    for token in tokens:
        assert token.startswith(TOKEN_PREFIX) and not token.startswith("-")
        assert len(token) == len(TOKEN_PREFIX) + 43  # 256 bits of base64
        assert re.fullmatch(r"[A-Za-z0-9_-]+", token)
    book = TokenBook(new_token())
    assert book.issue("m", "seat", 0).startswith(TOKEN_PREFIX)


def test_settings(tmp_path: Path) -> None:
    s = ServiceSettings().resolved({})
    assert s.admin_token_generated and len(s.admin_token or "") >= 43
    given = "x" * 40
    assert ServiceSettings().resolved({ADMIN_TOKEN_ENV: given}).admin_token == given
    with pytest.raises(SettingsError, match="at least"):
        ServiceSettings().resolved({ADMIN_TOKEN_ENV: "short"})
    assert given not in repr(ServiceSettings(admin_token=given))
    ok = parse_participants('[[participants]]\nid = "m"\nspec = "scripted:random"\n')
    assert ok[0].id == "m"
    for text, msg in (
        ("[[participants]]\nid = 'm'\nspec = 'rule'\n", "bot"),
        (
            "[[participants]]\nid = 'm'\nspec = 'scripted'\n[[participants]]\nid = 'm'\nspec = 'scripted'\n",
            "repeated",
        ),
        ("[[participants]]\nid = 'm'\n", "spec"),
        ("[[participants]\n", "TOML"),
        ("[[participants]]\nid = 'm'\nspec = 'scripted'\nwho = 1\n", "who"),
    ):
        with pytest.raises(SettingsError, match=msg):
            parse_participants(text)


def test_serve_command_errors_are_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(cli_app, ["serve", "--port", "0"])
    assert r.exit_code == 2 and "--port" in r.stderr
    bad = tmp_path / "p.toml"
    bad.write_text("[[participants]]\nid = 'x'\nspec = 'rule'\n")
    r = runner.invoke(
        cli_app, ["serve", "--participants", str(bad), "--db", str(tmp_path / "x.db")]
    )
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "bot" in r.stderr
    r = runner.invoke(cli_app, ["serve", "--http", "gopher"])
    assert r.exit_code == 2 and "--http" in r.stderr


def test_serve_prints_a_generated_admin_token_once(tmp_path: Path) -> None:
    """``bangarena serve`` without BANGARENA_ADMIN_TOKEN makes one, prints it once (stderr),
    and it is the token that makes matches."""
    import os

    env = {k: v for k, v in os.environ.items() if k != ADMIN_TOKEN_ENV}
    proc, base = start_serve(tmp_path / "serve.db", env)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert line.startswith("admin token"), line
        token = line.rsplit(" ", 1)[1].strip()
        assert len(token) >= 43
        body = {"seats": 4, "players": bot_players(4)}
        r = httpx.post(f"{base}/v1/matches", json=body, headers=bearer(token))
        assert r.status_code == 201
    finally:
        proc.terminate()
        rest = proc.communicate(timeout=20)[1]
    assert token not in rest  # printed once, never again


def test_streams_per_token_are_bounded_and_released(served: dict[str, Any]) -> None:
    import contextlib

    svc, match = served["svc"], served["match"]
    url = f"{svc.url}/v1/matches/{match['match_id']}/events"
    token = bearer(match["spectator_token"])
    limit = svc.state.settings.max_streams_per_token
    with contextlib.ExitStack() as stack:
        clients = [stack.enter_context(httpx.Client(timeout=30)) for _ in range(limit)]
        for c in clients:
            r = stack.enter_context(c.stream("GET", url, headers=token))
            assert r.status_code == 200
        r = served["client"].get(url, headers=token)
        assert r.status_code == 429 and r.json()["error"] == "too_many_streams"
    end = time.monotonic() + 10
    while svc.call(lambda: [k for k in svc.state.registry._slots if k[0] == "stream"]):
        assert time.monotonic() < end, "stream slots were not released"
        time.sleep(0.05)
    with served["client"].stream("GET", url, headers=token) as r:
        assert r.status_code == 200
