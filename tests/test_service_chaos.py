"""Many agents at once doing everything the API allows, in a random order, against a real
service with the production server settings (uvloop, httptools): polls with and without a
wait, legal, illegal and stale moves, event streams dropped mid-way, views, listings, matches
made, started and cancelled by their hosts. Every answer is below 500, the service logs no
error, and once everything is cancelled every match has ended and is stored."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from service_support import RunningService, running_service, service_settings

LOAD_S = 8.0
AGENTS = 32


async def _chaos(svc: RunningService) -> tuple[dict[Any, int], list[dict[str, Any]]]:
    rng = random.Random(1)
    statuses: dict[Any, int] = {}
    bad: list[str] = []
    matches: list[dict[str, Any]] = []

    def note(r: httpx.Response) -> None:
        statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
        if r.status_code >= 500:
            bad.append(f"{r.request.method} {r.request.url.path}: {r.status_code} {r.text[:200]}")

    async with httpx.AsyncClient(base_url=svc.url, timeout=30) as c:

        async def make() -> None:
            remote = rng.randint(1, 4)
            seats = rng.randint(4, 6)
            players = [{"kind": "remote", "name": f"r{i}"} for i in range(remote)]
            players += [{"kind": "bot", "spec": rng.choice(["rule", "random"])}] * (seats - remote)
            body = {
                "seats": seats, "players": players, "time_per_move": rng.choice([2, 5, 30]),
                "start": rng.choice(["now", "connected"]),
            }  # fmt: skip
            if rng.random() < 0.3:
                body["expansions"] = ["armed_dangerous"]
            r = await c.post("/v1/matches", headers=svc.admin_headers, json=body)
            note(r)
            assert r.status_code == 201, r.text
            matches.append(r.json())

        for _ in range(10):
            await make()
        stop = time.monotonic() + LOAD_S

        async def agent(k: int) -> None:
            arng = random.Random(k)
            while time.monotonic() < stop:
                m = arng.choice(matches)
                url = f"/v1/matches/{m['match_id']}"
                seat = arng.choice([s for s in m["seats"] if s["token"]])
                auth = {"Authorization": f"Bearer {seat['token']}"}
                host = {"Authorization": f"Bearer {m['host_token']}"}
                act = arng.random()
                if act < 0.6:
                    wait = arng.choice([0, 0.3, 1])
                    r = await c.get(f"{url}/decision", params={"wait": wait}, headers=auth)
                    note(r)
                    if r.status_code == 200:
                        d, how = r.json(), arng.random()
                        move = arng.choice(d["moves"])["id"] if how < 0.8 else "nonsense"
                        did = d["decision_id"] + (how >= 0.9)  # a stale id now and then
                        answer = {"decision_id": did, "move_id": move}
                        note(await c.post(f"{url}/moves", headers=auth, json=answer))
                elif act < 0.7:  # a stream read for a while, then dropped
                    async with c.stream("GET", f"{url}/events", headers=auth, timeout=5) as r:
                        note(r)
                        n, keep = 0, arng.randint(1, 40)
                        async for _line in r.aiter_lines():
                            n += 1
                            if n > keep:
                                break
                elif act < 0.73:
                    note(await c.delete(url, headers=host))
                elif act < 0.76:
                    note(await c.post(f"{url}/start", headers=host))
                elif act < 0.85:
                    note(await c.get(f"{url}/view", headers=auth))
                elif act < 0.88:
                    note(await c.get("/v1/matches", headers=svc.admin_headers))
                elif act < 0.9:
                    await make()
                else:
                    note(await c.get(url))

        await asyncio.gather(*(agent(k) for k in range(AGENTS)))
        for m in matches:  # whatever is still on stops now
            note(await c.delete(f"/v1/matches/{m['match_id']}", headers=svc.admin_headers))
        end = time.monotonic() + 30
        while True:
            final = [(await c.get(f"/v1/matches/{m['match_id']}")).json() for m in matches]
            if all(s["status"] in ("over", "aborted") and s["stored"] for s in final):
                break
            assert time.monotonic() < end, [s for s in final if not s["stored"]]
            await asyncio.sleep(0.1)
    assert not bad, bad
    return statuses, final


def test_everything_at_once_never_fails_and_every_match_ends_stored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = service_settings(tmp_path, disconnect_grace_s=1.0, waiting_timeout_s=4.0)
    caplog.set_level(logging.WARNING)
    with running_service(settings, extensions=[], http="httptools", loop="uvloop") as svc:
        statuses, final = asyncio.run(_chaos(svc))
    # every kind of answer came up, the failures included
    for code in (200, 201, 204, 409, 410, 422):
        assert statuses.get(code, 0) > 0, statuses
    assert {s["status"] for s in final} <= {"over", "aborted"}
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [f"{r.name}: {r.getMessage()}" for r in errors]
