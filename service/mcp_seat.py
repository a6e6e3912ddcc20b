"""The seat as an MCP server: any MCP-capable assistant can take a seat of a live match.

Mounted by :func:`install` (listed in :mod:`.extensions`) at ``/mcp`` with the ``mcp`` package's
streamable HTTP transport (stateless, JSON responses). Every request carries the seat token
(``Authorization: Bearer …``, the token ``POST /v1/matches`` issued for the seat); a request
without a seat token is refused with 401/403 and the reason before MCP sees it. What it serves:

- tool ``get_decision(wait_s=0, match_id=None, seat=None)``: the seat's pending decision — the
  same decision payload as ``GET /v1/matches/{id}/decision``, prompts included — waiting up to
  ``wait_s`` seconds for one; ``{"status": "none"}`` when none came, ``{"status": "over" |
  "eliminated", "result": …}`` at the end;
- tool ``make_move(decision_id, move_id, match_id=None, seat=None)``: answer it; the events the
  move caused as the seat saw them, or an error naming the problem (an illegal id with the legal
  ids, a stale decision id, the match over);
- resources ``bangarena://rules`` and ``bangarena://rules/{lang}``: the rules for AI (Markdown).

The tools call the seat routes' own functions (:mod:`.routes.decisions`) with the MCP request,
so the token checks, the clock, the attempts recorded and what a seat may see are those of the
HTTP API. ``match_id`` and ``seat`` are optional: the token names both, and a different value is
an error ("the token belongs to another match", "this token plays seat 1, not seat 0").
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any, Final

from fastapi import FastAPI
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from mcp.server.transport_security import TransportSecuritySettings
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from .errors import ApiError
from .registry import MatchRegistry
from .tokens import request_token

MCP_PATH: Final = "/mcp"
RULES_URI: Final = "bangarena://rules"
INSTRUCTIONS: Final = (
    "You play one seat of a BangArena match (a BANG!-like hidden-role card game). Read the "
    "rules resource once. Then loop: call get_decision (wait_s up to 60) until it returns a "
    "decision; pick one of its moves[].id (the prompt.turn text describes the table); call "
    "make_move with the decision_id and that id. Stop when get_decision says the match is over."
)


def _request(ctx: Context) -> Request:
    request = getattr(ctx.request_context, "request", None)
    if not isinstance(request, Request):  # pragma: no cover - only over HTTP
        raise ToolError("this seat is served over streamable HTTP only")
    return request


def _grant(request: Request, match_id: str | None, seat: int | None) -> tuple[str, Any]:
    """The match and grant of the request's seat token, checked against the arguments."""
    state = request.app.state.service
    token = request_token(request) or ""
    grant = state.tokens.lookup(token)
    if grant is None or grant.role != "seat":
        raise ToolError("unauthorized: this needs a seat token (Authorization: Bearer …)")
    if match_id is not None and match_id != grant.match_id:
        raise ToolError("forbidden: the token belongs to another match")
    if seat is not None and seat != grant.seat:
        raise ToolError(f"forbidden: this token plays seat {grant.seat}, not seat {seat}")
    return grant.match_id, grant


def _tool_error(e: ApiError) -> ToolError:
    extra = ""
    if e.extra.get("legal"):
        extra = f" Legal move ids: {', '.join(e.extra['legal'])}"
    return ToolError(f"{e.error}: {e.reason}.{extra}")


def build_server() -> MCPServer:
    """The MCP server of the seat (tools and resources; the transport is added by install)."""
    from bangarena.harness.decision_payload import MoveAnswer

    from .routes import decisions

    # MCPServer() calls logging.basicConfig (a RichHandler at INFO on the root logger): every
    # process that makes the app would then log each HTTP request. The root logger is ours.
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    try:
        mcp: MCPServer = MCPServer(
            name="bangarena-seat", title="BangArena seat", instructions=INSTRUCTIONS,
            version="1", log_level="WARNING",
        )  # fmt: skip
    finally:
        root.setLevel(level)
        root.handlers[:] = handlers

    @mcp.tool(
        description="The seat's pending decision (view, legal moves with their text, answer "
        "schema, prompts, seconds left), waiting up to wait_s seconds (at most 60) for one."
    )
    async def get_decision(
        ctx: Context, wait_s: float = 0.0, match_id: str | None = None, seat: int | None = None
    ) -> dict[str, Any]:
        request = _request(ctx)
        mid, _ = _grant(request, match_id, seat)
        try:
            got = await decisions.wait_for_decision(
                request, mid, max(0.0, min(float(wait_s), 60.0))
            )
        except ApiError as e:
            if e.status == 410:
                return {"status": "over" if e.error == "match_over" else "eliminated",
                        "reason": e.reason, "result": e.extra.get("result")}  # fmt: skip
            raise _tool_error(e) from None
        if got is None:  # nothing pending within the wait
            return {"status": "none"}
        seat_, pending = got
        decision = seat_.payload_now(pending).model_dump(mode="json", by_alias=True)
        return {"status": "pending", "decision": decision}

    @mcp.tool(
        description="Answer the pending decision with one of its moves[].id. Returns the events "
        "the move caused as this seat saw them; an illegal id is refused with the legal ids."
    )
    async def make_move(
        ctx: Context,
        decision_id: int,
        move_id: str,
        match_id: str | None = None,
        seat: int | None = None,
    ) -> dict[str, Any]:
        request = _request(ctx)
        mid, _ = _grant(request, match_id, seat)
        try:
            answer = MoveAnswer(decision_id=decision_id, move_id=move_id)
        except ValueError as e:
            raise ToolError(f"invalid answer: {e}") from None
        try:
            accepted = await decisions.post_move(request, mid, answer)
        except ApiError as e:
            raise _tool_error(e) from None
        return accepted.model_dump(mode="json")

    @mcp.resource(RULES_URI, name="rules", mime_type="text/markdown",
                  description="The rules for AI (English, compact)")  # fmt: skip
    def rules() -> str:
        from bangarena.rules_machine import rules_text

        return rules_text("en", compact=True)

    @mcp.resource(RULES_URI + "/{lang}", name="rules-by-language", mime_type="text/markdown",
                  description="The rules for AI in en, pt, es or fr")  # fmt: skip
    def rules_in(lang: str) -> str:
        from bangarena.prompts.catalog import LANGS
        from bangarena.rules_machine import rules_text

        if lang not in LANGS:
            raise ResourceNotFoundError(f"no rules in {lang!r}; languages: {', '.join(LANGS)}")
        return rules_text(lang, compact=True)

    return mcp


def install(app: FastAPI, registry: MatchRegistry) -> None:
    """Mount the MCP seat at ``/mcp`` and run its session manager with the app's lifespan."""
    mcp = build_server()
    # Bearer tokens, not cookies, authorise it: a rebound DNS name gains nothing, and a check
    # of the Host header would refuse every name the service is reached by but one.
    mcp.streamable_http_app(
        streamable_http_path="/",
        stateless_http=True,
        json_response=True,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    manager = mcp.session_manager

    class Endpoint:
        """The MCP transport behind the seat-token check."""

        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            request = Request(scope, receive)
            token = request_token(request)
            state = request.app.state.service
            grant = None if not token else state.tokens.lookup(token)
            if grant is None or grant.role != "seat":
                if token is None:
                    status, reason = 401, "send the seat token in an 'Authorization: Bearer' header"
                elif grant is None:
                    status, reason = 401, "the token is not known to this service"
                else:
                    status, reason = (
                        403,
                        f"the MCP seat needs a seat token, not a {grant.role} token",
                    )
                body = {"error": "unauthorized" if status == 401 else "forbidden", "reason": reason}
                response = JSONResponse(body, status, headers={"WWW-Authenticate": "Bearer"})
                return await response(scope, receive, send)
            await manager.handle_request(scope, receive, send)

    app.router.routes.append(Route(MCP_PATH, Endpoint(), methods=["GET", "POST", "DELETE"]))
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[Any]:
        async with inner(a) as value, manager.run():
            yield value

    app.router.lifespan_context = lifespan
    del registry  # the tools reach the registry through the seat routes, as HTTP agents do


def tool_result(result: Any) -> Any:
    """The JSON a tool call returned (clients: ``await session.call_tool(...)``)."""
    if getattr(result, "structured_content", None):
        return result.structured_content
    texts = [c.text for c in getattr(result, "content", []) if getattr(c, "text", None)]
    return json.loads(texts[0]) if texts else None


__all__ = ["MCP_PATH", "RULES_URI", "build_server", "install", "tool_result"]
