"""An MCP client that plays one seat of a live BangArena match through the service's MCP seat.

    bangarena serve ...                                   # the service (it mounts /mcp)
    # POST /v1/matches as admin gives each remote seat a token; then:
    python examples/agents/mcp_agent.py --url http://127.0.0.1:8000/mcp --token SEAT_TOKEN
    python examples/agents/mcp_agent.py --url ... --token ... --model gpt-4.1-mini   # a model

It reads the rules resource, then loops: ``get_decision`` (long-poll) → choose one of the
decision's ``moves[].id`` (random, or an OpenAI-compatible model given the decision's prompts) →
``make_move``, until the match is over for the seat. Any MCP-capable assistant can do the same
with these two tools.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
from collections.abc import Awaitable, Callable
from typing import Any

from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

Chooser = Callable[[dict[str, Any]], Awaitable[str]]


def _json(result: Any) -> Any:
    if result.is_error:
        text = " ".join(getattr(c, "text", "") for c in result.content)
        raise RuntimeError(text or "the tool call failed")
    if result.structured_content:
        return result.structured_content
    return json.loads(result.content[0].text)


def random_chooser(seed: int | None = None) -> Chooser:
    rng = random.Random(seed)

    async def choose(decision: dict[str, Any]) -> str:
        return rng.choice(decision["moves"])["id"]

    return choose


def openai_chooser(model: str, base_url: str | None, api_key: str | None) -> Chooser:
    """An OpenAI-compatible model answering the decision's own prompts."""
    from openai import AsyncOpenAI

    client = AsyncOpenAI(base_url=base_url, api_key=api_key or "no-key")

    async def choose(decision: dict[str, Any]) -> str:
        reply = await client.chat.completions.create(
            model=model,
            messages=[
                {"role": "system", "content": decision["prompt"]["system"]},
                {"role": "user", "content": decision["prompt"]["turn"]},
            ],
            response_format={"type": "json_object"},
        )
        try:
            return str(json.loads(reply.choices[0].message.content or "{}").get("move", ""))
        except ValueError:
            return ""

    return choose


async def play(
    url: str, token: str, choose: Chooser | None = None, *, wait_s: float = 30.0
) -> dict[str, Any]:
    """Play the token's seat to the end; returns what happened (moves made, refusals, end)."""
    choose = choose or random_chooser()
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    made: list[tuple[int, str]] = []
    refused: list[str] = []
    async with http, Client(streamable_http_client(url, http_client=http)) as client:
        rules = await client.read_resource("bangarena://rules")
        while True:
            got = _json(await client.call_tool("get_decision", {"wait_s": wait_s}))
            if got["status"] in ("over", "eliminated"):
                return {"moves": made, "refused": refused, "end": got, "rules_chars":
                        sum(len(getattr(c, "text", "")) for c in rules.contents)}  # fmt: skip
            if got["status"] != "pending":
                continue
            decision = got["decision"]
            move = await choose(decision)
            result = await client.call_tool(
                "make_move", {"decision_id": decision["decision_id"], "move_id": move}
            )
            if result.is_error:  # illegal or stale: the next get_decision says what is pending
                refused.append(" ".join(getattr(c, "text", "") for c in result.content))
                continue
            made.append((decision["decision_id"], move))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--url", required=True, help="the service's MCP endpoint (…/mcp)")
    ap.add_argument("--token", default=os.environ.get("BANGARENA_SEAT_TOKEN"), help="seat token")
    ap.add_argument("--model", help="an OpenAI-compatible model (default: random moves)")
    ap.add_argument("--base-url", help="the OpenAI-compatible API's base URL")
    ap.add_argument("--api-key-env", default="OPENAI_API_KEY")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args(argv)
    if not args.token:
        ap.error("--token (or BANGARENA_SEAT_TOKEN) is required")
    choose = (
        openai_chooser(args.model, args.base_url, os.environ.get(args.api_key_env))
        if args.model
        else random_chooser(args.seed)
    )
    out = asyncio.run(play(args.url, args.token, choose))
    print(json.dumps({"moves": len(out["moves"]), "refused": len(out["refused"]),
                      "end": out["end"]["status"]}))  # fmt: skip


if __name__ == "__main__":
    main()
