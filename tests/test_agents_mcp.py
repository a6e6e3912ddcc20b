"""The MCP seat: the ``mcp`` package's own client plays seats of a live match through the real
service (streamable HTTP at /mcp) to the end; the record shows its moves; nothing it is sent
carries hidden information; another seat's or match's token, a spectator token, no token and an
illegal id are refused with the precise reason, and the match goes on."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from fakes.agent_a2a import example
from fakes.agent_leaks import leaks
from service_support import (
    bot_players,
    create_match,
    finished_record,
    running_service,
    service_settings,
)

if TYPE_CHECKING:
    from mcp import Client


def tool_result(result: Any) -> Any:
    """The service's own reading of a tool result (mcp loads when a test runs, not at
    collection)."""
    from bangarena.service.mcp_seat import tool_result as read

    return read(result)


def _client(url: str, token: str | None) -> Client:
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    http = create_mcp_http_client(headers=headers)
    return Client(streamable_http_client(url + "/mcp", http_client=http))


def test_the_mcp_client_plays_seats_through_a_full_match(tmp_path: Path) -> None:
    agent = example("mcp_agent")
    seen: list[tuple[int, int, Any]] = []
    with running_service(service_settings(tmp_path)) as svc, httpx.Client(timeout=30) as http:
        players = [{"kind": "remote", "name": "mcp-a"}, {"kind": "remote", "name": "mcp-b"}]
        body = create_match(http, svc, seats=4, seed=6, time_per_move=20,
                            players=players + bot_players(2))  # fmt: skip
        mid = body["match_id"]
        tokens = {s["seat"]: s["token"] for s in body["seats"] if s["token"]}

        def chooser(seed: int):
            inner = agent.random_chooser(seed)

            async def choose(decision: dict[str, Any]) -> str:
                seen.append((decision["seat"], decision["decision_id"], decision))
                if seed == 0 and len(seen) == 1:
                    return "no_such_move"  # refused with the legal ids; the seat answers again
                return await inner(decision)

            return choose

        async def both() -> list[dict[str, Any]]:
            return await asyncio.gather(
                *(agent.play(svc.url + "/mcp", tokens[s], chooser(s), wait_s=10) for s in (0, 1))
            )

        outs = asyncio.run(both())
        rec = finished_record(svc, mid)
    assert rec.status == "complete"
    for seat, out in zip((0, 1), outs, strict=True):
        assert out["end"]["status"] in ("over", "eliminated") and out["rules_chars"] > 1000
        chosen = [(m.index, m.move) for m in rec.moves if m.seat == seat and m.how == "chosen"]
        assert chosen == out["moves"] and chosen
    assert outs[0]["refused"] and "illegal_move" in outs[0]["refused"][0]
    assert "Legal move ids:" in outs[0]["refused"][0]
    first = next(m for m in rec.moves if m.seat == 0)
    assert [a.outcome for a in first.attempts] == ["illegal", "ok"]  # the same record as HTTP
    problems, checked = leaks(rec, seen)
    assert not problems and checked == len(seen) > 10


def test_tokens_and_bad_calls_get_precise_errors(tmp_path: Path) -> None:
    with running_service(service_settings(tmp_path)) as svc, httpx.Client(timeout=30) as http:
        players = [{"kind": "remote", "name": "a"}, {"kind": "remote", "name": "b"}]
        body = create_match(http, svc, seats=4, seed=2, time_per_move=20, start="now",
                            players=players + bot_players(2))  # fmt: skip
        other = create_match(http, svc, seats=4, seed=3, time_per_move=20,
                             players=players + bot_players(2))  # fmt: skip
        tok = {s["seat"]: s["token"] for s in body["seats"] if s["token"]}

        # the HTTP layer: no token, an unknown one, a spectator's
        rpc = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
        accept = {"Accept": "application/json, text/event-stream"}
        r = http.post(svc.url + "/mcp", json=rpc, headers=accept)
        assert r.status_code == 401 and "Authorization: Bearer" in r.json()["reason"]
        r = http.post(svc.url + "/mcp", json=rpc, headers={**accept, "Authorization": "Bearer x"})
        assert r.status_code == 401 and "not known" in r.json()["reason"]
        spect = {**accept, "Authorization": f"Bearer {body['spectator_token']}"}
        r = http.post(svc.url + "/mcp", json=rpc, headers=spect)
        assert r.status_code == 403 and "seat token" in r.json()["reason"]

        async def calls() -> dict[str, Any]:
            out: dict[str, Any] = {}
            async with _client(svc.url, tok[1]) as c1:
                out["tools"] = sorted(t.name for t in (await c1.list_tools()).tools)
                r = await c1.call_tool("get_decision", {"seat": 0})
                out["seat"] = (r.is_error, r.content[0].text)
                r = await c1.call_tool("get_decision", {"match_id": other["match_id"]})
                out["match"] = (r.is_error, r.content[0].text)
            async with _client(svc.url, tok[0]) as c0:
                got = None
                for _ in range(100):  # the bots may move first
                    got = tool_result(await c0.call_tool("get_decision", {"wait_s": 5}))
                    if got["status"] == "pending":
                        break
                assert got is not None and got["status"] == "pending"
                d = got["decision"]
                r = await c0.call_tool("make_move", {"decision_id": d["decision_id"] + 7,
                                                     "move_id": d["moves"][0]["id"]})  # fmt: skip
                out["stale"] = (r.is_error, r.content[0].text)
                r = await c0.call_tool(
                    "make_move", {"decision_id": d["decision_id"], "move_id": ""}
                )
                out["empty"] = (r.is_error, r.content[0].text)
                # the other seat's token cannot answer seat 0's decision
                async with _client(svc.url, tok[1]) as c1:
                    r = await c1.call_tool(
                        "make_move",
                        {"decision_id": d["decision_id"], "move_id": d["moves"][0]["id"]},
                    )
                    out["foreign"] = (r.is_error, r.content[0].text)
                ok = tool_result(await c0.call_tool(
                    "make_move", {"decision_id": d["decision_id"], "move_id": d["moves"][0]["id"]}))  # fmt: skip
                out["ok"] = ok
                res = await c0.read_resource("bangarena://rules/fr")
                out["fr"] = res.contents[0].text
            return out

        out = asyncio.run(calls())
    assert out["tools"] == ["get_decision", "make_move"]
    assert out["seat"][0] and out["seat"][1].endswith(
        "forbidden: this token plays seat 1, not seat 0"
    )
    assert out["match"][0] and out["match"][1].endswith(
        "forbidden: the token belongs to another match"
    )
    assert out["stale"][0] and "stale_decision" in out["stale"][1]
    assert out["empty"][0] and "invalid answer" in out["empty"][1]
    assert out["foreign"][0] and "stale_decision" in out["foreign"][1]
    assert out["ok"]["move_id"] and out["ok"]["decision_id"] >= 0
    assert len(out["fr"]) > 1000


@pytest.mark.parametrize("lang", ["de"])
def test_an_unknown_rules_language_is_an_error(lang: str, tmp_path: Path) -> None:
    with running_service(service_settings(tmp_path)) as svc, httpx.Client(timeout=30) as http:
        body = create_match(http, svc, seats=4, seed=2, time_per_move=20, start="now",
                            players=[{"kind": "remote", "name": "a"}] + bot_players(3))  # fmt: skip
        tok = next(s["token"] for s in body["seats"] if s["token"])

        async def read() -> str:
            async with _client(svc.url, tok) as c:
                try:
                    await c.read_resource(f"bangarena://rules/{lang}")
                except Exception as e:  # noqa: BLE001 — the SDK raises the server's error
                    return str(e)
            return ""

        assert "no rules in 'de'" in asyncio.run(read())
