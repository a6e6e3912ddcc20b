"""A "purple" A2A player agent for BangArena, built with a2a-sdk.

    python examples/agents/a2a_agent.py --port 8701 --random
    python examples/agents/a2a_agent.py --port 8701 --model gpt-4.1-mini           # OPENAI_API_KEY
    python examples/agents/a2a_agent.py --port 8701 --model qwen2.5:7b \\
        --base-url http://127.0.0.1:11434/v1                                      # any compatible

Enter it as ``spec = "a2a:http://127.0.0.1:8701"`` in a suite, or name it in an assessment
request to BangArena's evaluator. Each decision arrives as one message in this seat's context:
a text part (the prompt; the system prompt too in the context's first message) and a data part
(the decision payload: ``moves``, ``view``, ``deadline_s`` …). The agent answers with a
completed task whose artifact is a data part ``{"move_id": …, "decision_id": …}``. With a model
it keeps one conversation per context (its memory of the match).
"""

from __future__ import annotations

import argparse
import json
import os
import random
from collections.abc import Awaitable, Callable
from typing import Any

from a2a.helpers.proto_helpers import (
    get_data_parts,
    get_text_parts,
    new_data_part,
    new_task_from_user_message,
    new_text_message,
)
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill
from starlette.applications import Starlette

Policy = Callable[[dict[str, Any], str, str], Awaitable[dict[str, Any]]]
"""(decision payload, the message's text, context id) → the answer object."""


def random_policy(seed: int | None = None) -> Policy:
    """A uniformly random legal move."""
    rng = random.Random(seed)

    async def choose(payload: dict[str, Any], text: str, context_id: str) -> dict[str, Any]:
        return {"move_id": rng.choice(payload["moves"])["id"], "reason": "random"}

    return choose


def openai_policy(model: str, base_url: str | None, api_key: str | None) -> Policy:
    """An OpenAI-compatible chat model, one conversation per A2A context."""
    from openai import AsyncOpenAI

    client = AsyncOpenAI(base_url=base_url, api_key=api_key or "no-key")
    chats: dict[str, list[dict[str, str]]] = {}

    async def choose(payload: dict[str, Any], text: str, context_id: str) -> dict[str, Any]:
        chat = chats.setdefault(
            context_id, [{"role": "system", "content": payload["prompt"]["system"]}]
        )
        chat.append(
            {
                "role": "user",
                "content": payload["prompt"]["turn"] if not payload.get("feedback") else text,
            }
        )
        reply = await client.chat.completions.create(
            model=model,
            messages=chat[:1] + chat[-20:],  # the system prompt and the recent turns
            response_format={"type": "json_object"},
            timeout=max(1.0, float(payload["deadline_s"]) - 1.0),
        )
        said = reply.choices[0].message.content or ""
        chat.append({"role": "assistant", "content": said})
        try:
            obj = json.loads(said)
        except ValueError:
            return {"move_id": "", "reason": said[:200]}  # the harness gives feedback
        return {"move_id": obj.get("move", ""), "reason": obj.get("reason")}

    return choose


class PlayerExecutor(AgentExecutor):
    """Answers each decision message with a completed task carrying the move."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        msg = context.message
        assert msg is not None
        if context.current_task is None:
            await event_queue.enqueue_event(new_task_from_user_message(msg))
        updater = TaskUpdater(event_queue, context.task_id or "", context.context_id or "")
        payload = next((d for d in get_data_parts(msg.parts) if isinstance(d, dict)), None)
        if payload is None or not payload.get("moves"):
            await updater.reject(
                new_text_message("send a BangArena decision payload as a data part")
            )
            return
        await updater.start_work()
        answer = await self.policy(
            payload, "\n".join(get_text_parts(msg.parts)), context.context_id or ""
        )
        answer["decision_id"] = payload["decision_id"]
        await updater.add_artifact([new_data_part(answer)], name="move")
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        updater = TaskUpdater(event_queue, context.task_id or "", context.context_id or "")
        await updater.cancel()


def agent_card(url: str, name: str = "BangArena player", streaming: bool = True) -> AgentCard:
    """The card of a player agent served at ``url`` (JSON-RPC at the root)."""
    return AgentCard(
        name=name,
        description="Plays seats of BangArena matches: answers each decision with a legal move id.",
        version="1.0.0",
        capabilities=AgentCapabilities(streaming=streaming),
        default_input_modes=["text/plain", "application/json"],
        default_output_modes=["application/json"],
        skills=[
            AgentSkill(
                id="play-bangarena-seat",
                name="Play a BangArena seat",
                description="Given a decision payload, answer {move_id} with a legal move.",
                tags=["game", "bangarena"],
            )
        ],
        supported_interfaces=[
            AgentInterface(
                protocol_binding="JSONRPC", protocol_version="1.0", url=url.rstrip("/") + "/"
            )
        ],
    )


def create_app(
    url: str,
    policy: Policy,
    executor: AgentExecutor | None = None,
    name: str = "BangArena player",
    streaming: bool = True,
) -> Starlette:
    """The agent's ASGI app for the public ``url`` (the card names it); ``executor`` replaces
    the player built from ``policy``."""
    card = agent_card(url, name, streaming)
    handler = DefaultRequestHandler(
        agent_executor=executor or PlayerExecutor(policy),
        task_store=InMemoryTaskStore(),
        agent_card=card,
    )
    return Starlette(
        routes=[*create_agent_card_routes(card), *create_jsonrpc_routes(handler, rpc_url="/")]
    )


def main(argv: list[str] | None = None) -> None:
    """Run the agent with uvicorn."""
    import uvicorn

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8701)
    ap.add_argument("--public-url", help="the URL the card names (default http://HOST:PORT)")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--random", action="store_true", help="play random legal moves")
    mode.add_argument("--model", help="an OpenAI-compatible model")
    ap.add_argument("--base-url", help="the OpenAI-compatible API's base URL")
    ap.add_argument("--api-key-env", default="OPENAI_API_KEY", help="variable with the API key")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args(argv)
    policy = (
        random_policy(args.seed)
        if args.random
        else openai_policy(args.model, args.base_url, os.environ.get(args.api_key_env))
    )
    url = args.public_url or f"http://{args.host}:{args.port}"
    uvicorn.run(create_app(url, policy), host=args.host, port=args.port, log_level="info")


if __name__ == "__main__":
    main()
