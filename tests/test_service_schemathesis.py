"""schemathesis over the seat service's OpenAPI spec, against a real server on loopback: for
every operation, generated requests (a bounded number) never get a 5xx, and every response
matches its documented status codes, content type and schema.

Requests carry real tokens and, half the time, a real match id, so the generated bodies and
parameters reach the routes' own checks instead of stopping at 401/404. Long-polls are cut to a
fraction of a second; the event stream is read from a finished match (a running match's stream
does not end)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from service_support import (
    bot_players,
    create_match,
    running_service,
    service_settings,
    wait_status,
)

from bangarena.service import ServiceSettings, create_app

# API v1 alone: the extensions (web tables, A2A, MCP) are tested by their own modules.
_SPEC_APP = create_app(
    ServiceSettings(admin_token="spec-only-" + "0" * 30, db_url="unused.db"), extensions=[]
)
schema = schemathesis.openapi.from_dict(_SPEC_APP.openapi())
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    tmp: Path = tmp_path_factory.mktemp("schemathesis")
    settings = service_settings(tmp)
    with running_service(settings, extensions=[]) as svc, httpx.Client(timeout=30) as client:
        running = create_match(
            client, svc, seats=4, seed=1, time_per_move=600, start="now",
            players=[{"kind": "remote", "name": "a"}, *bot_players(3)],
        )  # fmt: skip
        done = create_match(client, svc, seats=4, seed=2, time_per_move=5, players=bot_players(4))
        wait_status(client, svc, done["match_id"], ("over",))
        yield {"svc": svc, "running": running, "done": done, "n": 0}


def _token(target: dict[str, Any], path: str, method: str) -> str:
    svc, running = target["svc"], target["running"]
    if path == "/v1/matches":  # making and listing matches
        return svc.admin_token
    if method == "DELETE":  # cancelling: the finished match's host (410, or 404 elsewhere)
        return target["done"]["host_token"]
    if path.endswith("/start"):
        return running["host_token"]
    if path.endswith("/events"):
        return target["done"]["spectator_token"]
    return running["seats"][0]["token"]


@schema.parametrize()
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_api_conforms_and_never_fails(case: Any, target: dict[str, Any]) -> None:
    path, method = case.operation.path, case.operation.method.upper()
    target["n"] += 1
    if "match_id" in (case.path_parameters or {}) and target["n"] % 2 == 0:
        which = "done" if path.endswith("/events") or method == "DELETE" else "running"
        case.path_parameters["match_id"] = target[which]["match_id"]
    if path.endswith("/decision") and case.query and "wait" in case.query:
        wait = case.query["wait"]
        if isinstance(wait, int | float) and not isinstance(wait, bool):
            case.query["wait"] = min(float(wait), 0.2)
    headers = {"Authorization": f"Bearer {_token(target, path, method)}"}
    if case.headers:
        case.headers.pop("Last-Event-ID", None)
    started = time.monotonic()
    case.call_and_validate(base_url=target["svc"].url, headers=headers, checks=CHECKS, timeout=20)
    assert time.monotonic() - started < 20
