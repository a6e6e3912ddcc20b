"""A fake Anthropic Messages server (FastAPI) speaking the real wire format.

`POST /v1/messages` answers with `message` objects: `content` blocks (`text`, `tool_use`),
`stop_reason` (end_turn, tool_use, max_tokens, refusal) and `usage` with `input_tokens`,
`cache_creation_input_tokens`, `cache_read_input_tokens`, `output_tokens`. Prompt caching is
honoured only for a system prompt marked with `cache_control`, as on the real API. Errors are
`{"type": "error", "error": {...}}` with the real status codes (429 with retry-after, 529).
"""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from .behaviour import (
    ILLEGAL_ID,
    Action,
    FakeBehaviour,
    answer_text,
    count_tokens,
    schema_of_request,
    text_of,
)

REFUSAL = "I can't help with that."
_ERRORS = {
    400: ("invalid_request_error", "Invalid request."),
    401: ("authentication_error", "invalid x-api-key"),
    429: ("rate_limit_error", "Number of requests has exceeded your rate limit."),
    500: ("api_error", "Internal server error"),
    529: ("overloaded_error", "Overloaded"),
}


def _error(status: int, retry_after: float | None = None) -> Response:
    kind, message = _ERRORS.get(status, ("api_error", "Error"))
    request_id = f"req_{secrets.token_urlsafe(18)}"
    headers = {"request-id": request_id}
    if retry_after is not None:
        headers["retry-after"] = f"{retry_after:g}"
    body = {"type": "error", "error": {"type": kind, "message": message}, "request_id": request_id}
    return JSONResponse(body, status_code=status, headers=headers)


def system_of(body: dict[str, Any]) -> tuple[str, bool]:
    """The system prompt text and whether any of its blocks carries cache_control."""
    system = body.get("system")
    if isinstance(system, list):
        marked = any(isinstance(b, dict) and b.get("cache_control") for b in system)
        return text_of(system), marked
    return (system or ""), False


def message(body: dict[str, Any], behaviour: FakeBehaviour, action: Action) -> dict[str, Any]:
    """The Messages response for a non-error action."""
    system, marked = system_of(body)
    turns = body.get("messages") or []
    total_in = count_tokens(system) + sum(
        count_tokens(text_of(m.get("content"))) + 3 for m in turns
    )
    cached, written = behaviour.cache_hit(system, cacheable=marked)
    schema = schema_of_request(body)
    choice = body.get("tool_choice") or {}
    tool = choice.get("name") if choice.get("type") == "tool" else None
    if tool is None and body.get("tools") and choice.get("type") in ("any", None):
        tool = body["tools"][0].get("name")
    content: list[dict[str, Any]] = []
    stop = "tool_use" if tool else "end_turn"
    if action.kind == "refusal":
        content, stop = [{"type": "text", "text": REFUSAL}], "refusal"
    elif action.kind == "empty":
        stop = "end_turn"
    elif action.kind == "reply_text":
        content = [{"type": "text", "text": action.text or ""}]
        stop = "max_tokens" if action.status else "end_turn"
    elif action.kind == "invalid_json":
        # A tool's input is always an object on the wire, so a broken answer arrives as text.
        move = behaviour.choose(body)
        content, stop = (
            [{"type": "text", "text": f'{{"reason": "fake", "move": {move}}}'}],
            "end_turn",
        )
    else:
        move = ILLEGAL_ID if action.kind == "illegal_id" else behaviour.choose(body, action.move)
        text = answer_text(schema, move)
        if action.kind == "truncated":
            stop = "max_tokens"
            if tool:
                # The real API cuts a tool call short with whatever input it had parsed so far.
                content = [{"type": "tool_use", "id": _tool_id(), "name": tool, "input": {}}]
            else:
                content = [{"type": "text", "text": text[: len(text) // 2]}]
        elif tool:
            content = [
                {"type": "tool_use", "id": _tool_id(), "name": tool, "input": json.loads(text)}
            ]
        else:
            content = [{"type": "text", "text": text}]
    out_text = "".join(b.get("text", "") or json.dumps(b.get("input", "")) for b in content)
    return {
        "id": f"msg_{secrets.token_urlsafe(18)}",
        "type": "message",
        "role": "assistant",
        "model": f"{body.get('model', '')}{behaviour.model_suffix}",
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {
            "input_tokens": total_in - cached - written,
            "cache_creation_input_tokens": written,
            "cache_read_input_tokens": cached,
            "output_tokens": count_tokens(out_text) + behaviour.reasoning_tokens,
            "service_tier": "standard",
        },
    }


def _tool_id() -> str:
    return f"toolu_{secrets.token_urlsafe(18)}"


def create_app(behaviour: FakeBehaviour | None = None) -> FastAPI:
    """The app; `app.state.behaviour` may be replaced between tests."""
    app = FastAPI(title="fake-anthropic", openapi_url=None, docs_url=None, redoc_url=None)
    app.state.behaviour = behaviour or FakeBehaviour()
    app.state.base_path = ""

    @app.post("/v1/messages")
    async def messages(request: Request) -> Response:
        behaviour: FakeBehaviour = app.state.behaviour
        raw = await request.body()
        try:
            body = json.loads(raw)
        except ValueError:
            return _error(400)
        action = behaviour.next_action(body)
        headers = {k.lower(): v for k, v in request.headers.items()}
        behaviour.record(request.url.path, headers, body, raw, action.kind)
        while action.kind == "slow":
            await asyncio.sleep(action.seconds)
            action = action.then or Action("answer")
        if action.kind == "rate_limit":
            return _error(429, action.retry_after)
        if action.kind in ("server_error", "overloaded", "unauthorized", "bad_request"):
            return _error(action.status or 500)
        if action.kind == "not_json":
            return Response(action.text or "", status_code=200, media_type=action.content_type)
        return JSONResponse(message(body, behaviour, action))

    return app
