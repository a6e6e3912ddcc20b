"""A fake OpenAI Chat Completions server (FastAPI) speaking the real wire format.

`POST /v1/chat/completions` answers as the real API does: `chat.completion` objects with
`choices[].message` (content, refusal, tool_calls), `finish_reason`, and `usage` with
`prompt_tokens_details.cached_tokens` and `completion_tokens_details.reasoning_tokens`; errors
as `{"error": {...}}` with the real status codes and a `retry-after` header on 429.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
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

REFUSAL = "I'm sorry, but I can't assist with that request."
_ERRORS = {
    400: ("invalid_request_error", "invalid_request", "Invalid request."),
    401: ("invalid_request_error", "invalid_api_key", "Incorrect API key provided."),
    429: ("requests", "rate_limit_exceeded", "Rate limit reached for requests."),
    500: ("server_error", None, "The server had an error while processing your request."),
    503: ("server_error", None, "The engine is currently overloaded, please try again later."),
}


def _error(status: int, retry_after: float | None = None) -> Response:
    kind, code, message = _ERRORS.get(status, ("server_error", None, "Error."))
    headers = {"x-request-id": f"req_{secrets.token_hex(16)}"}
    if retry_after is not None:
        headers["retry-after"] = f"{retry_after:g}"
    body = {"error": {"message": message, "type": kind, "param": None, "code": code}}
    return JSONResponse(body, status_code=status, headers=headers)


def _tool_mode(body: dict[str, Any]) -> str | None:
    """The function name when the request forces (or offers) a tool."""
    tools = body.get("tools") or []
    if not tools:
        return None
    choice = body.get("tool_choice")
    if isinstance(choice, dict):
        return (choice.get("function") or {}).get("name")
    return tools[0].get("function", {}).get("name")


def completion(body: dict[str, Any], behaviour: FakeBehaviour, action: Action) -> dict[str, Any]:
    """The chat.completion object for a non-error action."""
    messages = body.get("messages") or []
    system = "".join(text_of(m.get("content")) for m in messages if m.get("role") == "system")
    prompt_tokens = sum(count_tokens(text_of(m.get("content"))) + 3 for m in messages) + 3
    cached, _ = behaviour.cache_hit(system)
    schema = schema_of_request(body)
    tool = _tool_mode(body)
    text: str | None
    refusal = None
    finish = "stop"
    if action.kind == "refusal":
        text, refusal = None, REFUSAL
    elif action.kind == "empty":
        text = ""
    elif action.kind == "invalid_json":
        move = behaviour.choose(body)
        text = f'{{"reason": "fake", "move": {move}}}'
    elif action.kind == "reply_text":
        text = action.text or ""
        if action.status:
            finish = "length"
    else:
        move = ILLEGAL_ID if action.kind == "illegal_id" else behaviour.choose(body, action.move)
        text = answer_text(schema, move)
        if action.kind == "truncated":
            text, finish = text[: len(text) // 2], "length"
    message: dict[str, Any] = {
        "role": "assistant",
        "content": text,
        "refusal": refusal,
        "annotations": [],
    }
    if tool is not None and refusal is None:
        message["content"] = None
        message["tool_calls"] = [
            {
                "id": f"call_{secrets.token_urlsafe(18)}",
                "type": "function",
                "function": {"name": tool, "arguments": text or ""},
            }
        ]
        if finish == "stop" and not isinstance(body.get("tool_choice"), dict):
            finish = "tool_calls"
    completion_tokens = count_tokens(text or refusal or "") + behaviour.reasoning_tokens
    return {
        "id": f"chatcmpl-{secrets.token_urlsafe(22)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": f"{body.get('model', '')}{behaviour.model_suffix}",
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
            "prompt_tokens_details": {"cached_tokens": cached, "audio_tokens": 0},
            "completion_tokens_details": {
                "reasoning_tokens": behaviour.reasoning_tokens,
                "audio_tokens": 0,
                "accepted_prediction_tokens": 0,
                "rejected_prediction_tokens": 0,
            },
        },
        "service_tier": "default",
        "system_fingerprint": "fp_fake0001",
    }


def create_app(behaviour: FakeBehaviour | None = None) -> FastAPI:
    """The app; `app.state.behaviour` may be replaced between tests."""
    app = FastAPI(title="fake-openai", openapi_url=None, docs_url=None, redoc_url=None)
    app.state.behaviour = behaviour or FakeBehaviour()
    app.state.base_path = "/v1"

    @app.post("/v1/chat/completions")
    async def chat_completions(request: Request) -> Response:
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
            status = 503 if action.kind == "overloaded" else action.status or 500
            return _error(status)
        if action.kind == "not_json":
            return Response(action.text or "", status_code=200, media_type=action.content_type)
        return JSONResponse(completion(body, behaviour, action))

    @app.get("/v1/models")
    async def models() -> dict[str, Any]:
        return {"object": "list", "data": [{"id": "fake", "object": "model", "owned_by": "fake"}]}

    return app
