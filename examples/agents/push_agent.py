"""A push agent for BangArena: a small HTTP server the harness POSTs each decision to.

    python examples/agents/push_agent.py --port 8700                       # random legal moves
    python examples/agents/push_agent.py --port 8700 --model qwen2.5:7b \\
        --base-url http://127.0.0.1:11434/v1                               # any OpenAI-compatible

Then enter it in a suite (``spec = "http:http://127.0.0.1:8700/decide"``) or at a table:
``bangarena play --seats http:http://127.0.0.1:8700/decide,rule,rule,rule,rule``.

The request body is the decision payload (docs/agent-protocols.md): ``moves`` [{id, text}],
``prompt`` {system, turn}, ``deadline_s`` …, and on a retry a ``feedback`` object whose ``text``
says what was wrong. The answer is ``{"move_id": "…", "reason": "…"}``. With ``--token`` (or
``BANGARENA_HTTP_AGENT_TOKEN``) the agent refuses requests without that bearer token.
"""

from __future__ import annotations

import argparse
import json
import os
import random
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

Policy = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


def random_policy(seed: int | None = None) -> Policy:
    """Answer a uniformly random legal move."""
    rng = random.Random(seed)

    async def choose(payload: dict[str, Any]) -> dict[str, Any]:
        move = rng.choice(payload["moves"])["id"]
        return {"move_id": move, "decision_id": payload["decision_id"], "reason": "random"}

    return choose


def openai_policy(model: str, base_url: str | None, api_key: str | None) -> Policy:
    """Ask an OpenAI-compatible chat model with the harness's own prompts."""
    from openai import AsyncOpenAI

    client = AsyncOpenAI(base_url=base_url, api_key=api_key or "no-key")

    async def choose(payload: dict[str, Any]) -> dict[str, Any]:
        messages = [
            {"role": "system", "content": payload["prompt"]["system"]},
            {"role": "user", "content": payload["prompt"]["turn"]},
        ]
        fb = payload.get("feedback")
        if fb:
            messages += [
                {"role": "assistant", "content": fb.get("previous_reply") or ""},
                {"role": "user", "content": fb["text"]},
            ]
        reply = await client.chat.completions.create(
            model=model,
            messages=messages,
            response_format={"type": "json_object"},
            timeout=max(1.0, float(payload["deadline_s"]) - 1.0),
        )
        text = reply.choices[0].message.content or ""
        try:
            obj = json.loads(text)
        except ValueError:
            return {"move_id": "", "reason": text[:200]}  # the harness classifies and retries
        return {"move_id": obj.get("move", ""), "reason": obj.get("reason")}

    return choose


def create_app(policy: Policy, token: str | None = None, path: str = "/decide") -> Starlette:
    """The agent's ASGI app: POST ``path`` takes a decision payload, answers a move."""

    async def decide(request: Request) -> JSONResponse:
        if token and request.headers.get("authorization") != f"Bearer {token}":
            return JSONResponse({"error": "missing or wrong bearer token"}, status_code=401)
        try:
            payload = await request.json()
        except ValueError:
            return JSONResponse({"error": "the body is not JSON"}, status_code=400)
        if not isinstance(payload, dict) or not payload.get("moves"):
            return JSONResponse({"error": "not a decision payload"}, status_code=422)
        return JSONResponse(await policy(payload))

    async def health(request: Request) -> JSONResponse:
        return JSONResponse({"ok": True})

    return Starlette(routes=[Route(path, decide, methods=["POST"]), Route("/health", health)])


def main(argv: list[str] | None = None) -> None:
    """Run the agent with uvicorn."""
    import uvicorn

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8700)
    ap.add_argument("--model", help="an OpenAI-compatible model (default: random moves)")
    ap.add_argument("--base-url", help="the OpenAI-compatible API's base URL")
    ap.add_argument("--api-key-env", default="OPENAI_API_KEY", help="variable with the API key")
    ap.add_argument("--token", default=os.environ.get("BANGARENA_HTTP_AGENT_TOKEN"))
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args(argv)
    policy = (
        openai_policy(args.model, args.base_url, os.environ.get(args.api_key_env))
        if args.model
        else random_policy(args.seed)
    )
    uvicorn.run(create_app(policy, args.token), host=args.host, port=args.port, log_level="info")


if __name__ == "__main__":
    main()
