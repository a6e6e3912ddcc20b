"""The routes of a suite served to people (:mod:`bangarena.service.suite_host`):

- ``GET /suites/{suite}/join`` — the join page. The person's token is in the link's fragment
  (``#TOKEN``), which the browser never sends; the page posts it and goes on to the table, or
  waits for the person's next match;
- ``POST /v1/suites/{suite}/join`` — ``{"token": …}`` (the join token): the person's current
  match, with a fresh seat token of their seat set as the service's HttpOnly cookie
  (``state`` ``playing``); ``waiting`` between their matches, ``done`` after the last;
- ``GET /v1/suites/{suite}/seats`` — admin token: the run and every person's join link, current
  match and seat.
"""

from __future__ import annotations

import html
import json
from typing import Annotated, Literal

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from .access import require_admin
from .errors import ERROR_RESPONSES, ApiError
from .state import service_state
from .suite_host import SuiteHost
from .tokens import COOKIE_NAME

SuiteName = Annotated[str, PathParam(min_length=1, max_length=100)]


class JoinRequest(BaseModel):
    """``POST /v1/suites/{suite}/join``: the join token, in the body (never in a URL)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    token: str = Field(min_length=1, max_length=200)


class JoinAnswer(BaseModel):
    """Where the person goes now."""

    state: Literal["playing", "waiting", "done"]
    name: str
    reason: str
    match_id: str | None = None
    seat: int | None = None
    table: str | None = Field(default=None, description="the table page of the seat")


class PersonSeat(BaseModel):
    """One person of the suite as the admin sees it."""

    name: str
    participant: str
    link: str = Field(description="the person's join link (give it to that person only)")
    match_id: str | None = None
    seat: int | None = None
    connected: bool | None = None


class SuiteSeats(BaseModel):
    """``GET /v1/suites/{suite}/seats``: the run and its people."""

    suite: str
    state: str
    detail: str | None = None
    planned: int
    stored_before: int
    to_play: int
    played: int
    done: int
    void: int
    current_match: str | None = None
    people: list[PersonSeat]


def host_router(host: SuiteHost) -> APIRouter:
    """The routes of ``host`` (404 for any other suite name)."""
    router = APIRouter(tags=["suites"], responses=ERROR_RESPONSES)

    def check(suite: str) -> None:
        if suite != host.name:
            raise ApiError(404, "unknown_suite", "this service hosts no such suite for people")

    @router.get("/suites/{suite}/join", response_class=HTMLResponse, include_in_schema=False)
    async def join_page(suite: SuiteName) -> HTMLResponse:
        check(suite)
        return HTMLResponse(_page(host.name), headers={"Cache-Control": "no-store"})

    @router.post(
        "/v1/suites/{suite}/join",
        response_model=JoinAnswer,
        responses={401: {"description": "not a join token of this suite"}},
    )
    async def join(request: Request, suite: SuiteName, body: JoinRequest) -> JSONResponse:
        """A person's join token → their seat of the current match (as the cookie)."""
        check(suite)
        person = host.person_for(body.token)
        if person is None:
            raise ApiError(401, "unknown_token", "this is not a join link of this suite")
        live = host.live_for(person)
        if live is not None and person.seat is not None:
            state = service_state(request)
            token = state.tokens.issue(live.match_id, "seat", person.seat)
            answer = JoinAnswer(
                state="playing", name=person.name, reason="your seat is ready",
                match_id=live.match_id, seat=person.seat, table=f"/table/{live.match_id}",
            )  # fmt: skip
            resp = JSONResponse(answer.model_dump(mode="json"))
            resp.set_cookie(
                COOKIE_NAME, token, httponly=True, samesite="strict", path="/",
                secure=state.settings.cookie_secure,
            )  # fmt: skip
            return resp
        if host.state in ("done", "failed", "stopped"):
            reason = {
                "done": "the suite is over: thank you for playing",
                "failed": "the suite stopped; ask whoever runs it",
                "stopped": "the suite was stopped",
            }[host.state]
            return JSONResponse(
                JoinAnswer(state="done", name=person.name, reason=reason).model_dump()
            )
        answer = JoinAnswer(state="waiting", name=person.name, reason="your next match starts soon")
        return JSONResponse(answer.model_dump(mode="json"))

    @router.get("/v1/suites/{suite}/seats", response_model=SuiteSeats)
    async def seats(request: Request, suite: SuiteName) -> SuiteSeats:
        """The run of the suite and each person's join link and seat (admin token)."""
        require_admin(request)
        check(suite)
        base = str(request.base_url)
        links = host.links(base)
        people = []
        for p in host.people.values():
            live = host.live_for(p)
            remote = live.remote.get(p.seat) if live is not None and p.seat is not None else None
            people.append(
                PersonSeat(
                    name=p.name,
                    participant=p.participant,
                    link=links[p.name],
                    match_id=live.match_id if live is not None else None,
                    seat=p.seat if live is not None else None,
                    connected=remote.connected() if remote is not None else None,
                )  # fmt: skip
            )
        return SuiteSeats(**host.status(), people=people)

    return router


def _page(suite: str) -> str:
    """The join page: posts the fragment's token, then goes to the table or waits."""
    api = json.dumps(f"/v1/suites/{suite}/join")
    title = html.escape(f"BangArena · {suite}")
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{title}</title>
</head>
<body>
<main>
<h1>{title}</h1>
<p id="msg" role="status" aria-live="polite">Finding your seat…</p>
</main>
<script>
const api = {api};
const token = decodeURIComponent(location.hash.slice(1));
const say = (text) => {{ document.getElementById("msg").textContent = text; }};
async function go() {{
  if (!token) {{ say("This link has no token: open the link you were given."); return; }}
  let r, body;
  try {{
    r = await fetch(api, {{method: "POST", credentials: "same-origin",
      headers: {{"Content-Type": "application/json"}}, body: JSON.stringify({{token}})}});
    body = await r.json();
  }} catch (e) {{
    say("The server cannot be reached; trying again…");
    setTimeout(go, 3000);
    return;
  }}
  if (!r.ok) {{ say(body.reason || "This link does not work."); return; }}
  if (body.state === "playing") {{ location.assign(body.table); return; }}
  say(body.name + ": " + body.reason + (body.state === "waiting" ? " (this page waits)" : ""));
  if (body.state === "waiting") setTimeout(go, 2000);
}}
go();
</script>
</body>
</html>
"""


__all__ = ["JoinAnswer", "JoinRequest", "PersonSeat", "SuiteSeats", "host_router"]
