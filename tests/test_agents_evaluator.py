"""BangArena as an A2A evaluator: an a2a-sdk client sends the service's evaluator an
assessment request with two A2A purple agents and bots, gets the card, streamed progress and
the leaderboard and summary artifacts; the players are sent nothing hidden; bad requests are
rejected with a precise reason; the endpoint wants the admin token."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from a2a.client import ClientConfig, ClientFactory
from a2a.helpers.proto_helpers import get_data_parts, get_text_parts, new_data_part
from a2a.types import Message, Role, SendMessageRequest, TaskState
from fakes.agent_a2a import FaultPlan, example, faulty_agent_app, serve_at
from google.protobuf.json_format import MessageToDict
from service_support import running_service, service_settings

from bangarena.evals.suite import SuiteError
from bangarena.service.a2a_evaluator import assessment_suite, suite_text


def _request(a: str, b: str, name: str = "assess") -> dict[str, Any]:
    return {
        "participants": [{"id": "purple-a", "url": a}, {"id": "purple-b", "url": b}],
        "bots": ["rule", {"id": "explorer", "spec": "rule:eps=0.3"}],
        "suite": {"name": name, "seed": 4, "deals": 1},
        "tables": [
            {
                "seats": 4,
                "time_per_move": 10,
                "lineup": ["purple-a", "rule", "purple-b", "explorer"],
            }
        ],  # fmt: skip
        "concurrency": {"matches": 4},
    }


async def _assess(url: str, token: str, body: Any) -> tuple[list[Any], Any]:
    """Send one assessment; every stream event and the final task."""
    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120) as hc:
        client = await ClientFactory(ClientConfig(httpx_client=hc)).create_from_url(
            url + "/a2a/evaluator"
        )
        msg = Message(role=Role.ROLE_USER, message_id="m1", parts=[new_data_part(body)])
        events = [ev async for ev in client.send_message(SendMessageRequest(message=msg))]
        await client.close()
    return events, events[-1]


def test_an_assessment_streams_progress_and_returns_the_leaderboard(tmp_path: Path) -> None:
    agent = example("a2a_agent")
    plan = FaultPlan(set())  # no faults: it logs what the agent is sent
    with (
        serve_at(lambda url: faulty_agent_app(url, plan, seed=3)) as a,
        serve_at(lambda url: agent.create_app(url, agent.random_policy(2), streaming=False)) as b,
        running_service(service_settings(tmp_path)) as svc,
    ):
        card = httpx.get(svc.url + "/a2a/evaluator/.well-known/agent-card.json").json()
        assert card["name"] == "BangArena evaluator" and card["capabilities"]["streaming"]
        assert card["supportedInterfaces"][0]["url"] == svc.url + "/a2a/evaluator/"
        events, last = asyncio.run(_assess(svc.url, svc.admin_token, _request(a, b)))
    states = [ev.status_update.status.state for ev in events if ev.HasField("status_update")]
    assert states[-1] == TaskState.TASK_STATE_COMPLETED
    progress = [
        get_data_parts(ev.status_update.status.message.parts)
        for ev in events
        if ev.HasField("status_update") and MessageToDict(ev.status_update.metadata).get("progress")
    ]
    assert len(progress) == 4  # one per stored match
    assert [p[0]["done"] for p in progress] == [1.0, 2.0, 3.0, 4.0]
    artifacts = {
        ev.artifact_update.artifact.name: ev.artifact_update.artifact
        for ev in events
        if ev.HasField("artifact_update")
    }
    board = get_data_parts(artifacts["leaderboard"].parts)[0]
    assert board["format"] == "bangarena.leaderboard" and board["suite"] == "assess"
    ids = {p["id"]: p for p in board["participants"]}
    assert set(ids) == {"purple-a", "purple-b", "rule", "explorer"}
    assert ids["purple-a"]["kind"] == "a2a" and ids["purple-a"]["matches"] == 4
    summary = get_data_parts(artifacts["summary"].parts)[0]
    assert summary["matches_done"] == summary["matches_planned"] == 4
    assert "purple-a" in get_text_parts(artifacts["summary"].parts)[0]
    assert "db" not in summary
    # the players got their decisions, and nothing hidden in them (checked against the
    # stored records: the omniscient game of every match)
    from fakes.agent_leaks import leaks

    from bangarena.evals.store import open_store

    store = open_store(str(tmp_path / "live.db"))
    try:
        records = [rec for _, rec in store.iter_records("assess", status="done")]
    finally:
        store.close()
    assert len(records) == 4
    by_match: dict[str, list] = {}
    for seat, did, body in plan.received:
        by_match.setdefault(body["match_id"], []).append((seat, did, body))
    checked = 0
    for rec in records:
        from bangarena.harness.records import MatchRecord

        rec = MatchRecord.model_validate(rec)
        problems, n = leaks(rec, by_match.get(rec.match_id, []))
        assert not problems
        checked += n
    assert checked == len(plan.received) > 0


@pytest.mark.parametrize(
    ("mutate", "reason"),
    [
        (lambda r: r.pop("tables"), "tables"),
        (lambda r: r["participants"][0].update(url="ftp://example.org"), "http:// or https://"),
        (lambda r: r["tables"][0].update(lineup=["nobody", "rule", "rule", "rule"]),
         "participant 'nobody' is not declared"),
        (lambda r: r["suite"].update(deals=100_000), "over the limit"),
        (lambda r: r["bots"].append({"id": "m", "spec": "openai:gpt-4.1"}), "only A2A agents"),
        (lambda r: r["participants"][0].update(options={"temperature": 1}), "takes only"),
    ],
)  # fmt: skip
def test_a_bad_request_is_rejected_with_its_reason(mutate, reason: str, tmp_path: Path) -> None:  # noqa: ANN001
    body = _request("http://127.0.0.1:9", "http://127.0.0.1:10")
    mutate(body)
    with running_service(service_settings(tmp_path)) as svc:
        events, last = asyncio.run(_assess(svc.url, svc.admin_token, body))
    final = next(
        ev for ev in reversed(events) if ev.HasField("status_update") or ev.HasField("task")
    )
    status = final.status_update.status if final.HasField("status_update") else final.task.status
    assert status.state == TaskState.TASK_STATE_REJECTED
    text = " ".join(get_text_parts(status.message.parts))
    assert reason in text, text


def test_the_evaluator_wants_the_admin_token(tmp_path: Path) -> None:
    with running_service(service_settings(tmp_path)) as svc:
        rpc = {"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {}}
        r = httpx.post(svc.url + "/a2a/evaluator/", json=rpc, headers={"A2A-Version": "1.0"})
        assert r.status_code == 401 and "admin token" in r.json()["detail"]
        r = httpx.post(svc.url + "/a2a/evaluator/", json=rpc,
                       headers={"Authorization": "Bearer nope", "A2A-Version": "1.0"})  # fmt: skip
        assert r.status_code == 401 and "not the admin token" in r.json()["detail"]


def test_the_request_becomes_a_suite_file_that_reads_back() -> None:
    body = _request("http://127.0.0.1:9", "http://u:pw@127.0.0.1:10")
    suite = assessment_suite(body)
    assert [p.plan.kind for p in suite.file.participants] == ["a2a", "a2a", "rule", "rule"]
    assert suite.file.participant("explorer").plan.bot is not None
    from bangarena.evals import parse_suite
    from bangarena.service.a2a_evaluator import AssessmentRequest

    again = parse_suite(suite_text(AssessmentRequest.model_validate(body)))
    assert again.file == suite.file
    with pytest.raises(SuiteError, match=r"assessment request: suite\.deals"):
        assessment_suite({**body, "suite": {"name": "x", "deals": 0}})
    assert json.dumps(body)
