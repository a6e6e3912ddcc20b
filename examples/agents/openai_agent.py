"""An agent that plays one seat with any OpenAI-compatible model (OpenAI, vLLM, Ollama,
llama.cpp, OpenRouter, …) through the official ``openai`` SDK.

    export OPENAI_API_KEY=...
    python examples/agents/openai_agent.py --url http://127.0.0.1:8000 --match M --token T \
        --model gpt-4.1-mini [--base-url http://127.0.0.1:11434/v1]

Each decision is asked with the service's own prompts (``prompt.system`` and ``prompt.turn``)
and its answer schema (``schema``, as a JSON-Schema response format); the reply must be one JSON
object whose ``move`` is a legal id. A bad reply (not JSON, not an object, an illegal id, a
failed or late call) is fed back and asked once more; after that the agent plays the first
legal move, so the seat never forfeits its turn to the clock. The key comes from
``OPENAI_API_KEY`` (or the variable ``--api-key-env`` names; a local ``--base-url`` needs none)
and is sent to the model's API only; the seat token from ``--token`` or ``BANGARENA_SEAT_TOKEN``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

import openai

from bangarena.client import Decision, SeatClient, ServiceError

SAFETY_S = 1.0
"""Seconds kept in hand on the clock for sending the move."""
MIN_CALL_S = 0.5
"""Below this much time left, no model call is made: the fallback move is played."""
ANSWER_MODES = ("json_schema", "json_object", "text")


def parse_answer(text: str | None, legal: Sequence[str]) -> tuple[str | None, str]:
    """``(move, "")`` for a reply that is one JSON object with a legal ``move``; otherwise
    ``(None, what is wrong)``. A move is never guessed from prose."""
    body = (text or "").strip()
    if body.startswith("```"):
        body = body.strip("`").removeprefix("json").strip()
    if not body:
        return None, "the reply was empty"
    try:
        obj = json.loads(body)
    except ValueError:
        return None, "the reply was not one JSON object"
    if not isinstance(obj, dict):
        return None, "the reply was JSON but not an object"
    move = obj.get("move")
    if not isinstance(move, str):
        return None, 'the object has no string "move"'
    if move not in legal:
        return None, f"{move[:80]!r} is not a legal move id"
    return move, ""


def feedback(problem: str, decision: Decision) -> str:
    """What the model is told after a bad reply."""
    return (
        f"Your answer could not be used: {problem}. Answer with exactly one JSON object "
        '{"reason": "...", "move": "<id>"} whose move is one of these legal ids: '
        + ", ".join(decision.move_ids)
    )


class ModelPolicy:
    """Decision → move id with one model; counts answers, re-asks and fallbacks."""

    def __init__(
        self,
        llm: openai.OpenAI,
        model: str,
        *,
        answer_mode: str = "json_schema",
        temperature: float | None = None,
        max_tokens: int = 400,
    ) -> None:
        self.llm = llm
        self.model = model
        self.answer_mode = answer_mode
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.counts: Counter[str] = Counter()

    def _format(self, decision: Decision) -> dict[str, Any] | None:
        if self.answer_mode == "json_schema" and decision.answer_schema:
            return {
                "type": "json_schema",
                "json_schema": {"name": "answer", "schema": decision.answer_schema, "strict": True},
            }
        if self.answer_mode in ("json_schema", "json_object"):
            return {"type": "json_object"}
        return None

    def _ask(self, messages: list[dict[str, str]], decision: Decision, timeout: float) -> str:
        """One model call; the reply's text (raises ``openai.OpenAIError`` on failure)."""
        extra: dict[str, Any] = {}
        fmt = self._format(decision)
        if fmt is not None:
            extra["response_format"] = fmt
        if self.temperature is not None:
            extra["temperature"] = self.temperature
        reply = self.llm.chat.completions.create(
            model=self.model,
            messages=messages,  # type: ignore[arg-type]
            max_tokens=self.max_tokens,
            timeout=timeout,
            **extra,
        )
        self.counts["calls"] += 1
        return (reply.choices[0].message.content or "") if reply.choices else ""

    def __call__(self, decision: Decision) -> str:
        started = time.monotonic()
        messages = [
            {"role": "system", "content": decision.prompt.system},
            {"role": "user", "content": decision.prompt.turn},
        ]
        for attempt in range(2):
            left = decision.deadline_s - (time.monotonic() - started) - SAFETY_S
            if left < MIN_CALL_S:
                break
            try:
                text = self._ask(messages, decision, left)
            except openai.OpenAIError as exc:
                text, problem = "", f"the model call failed ({type(exc).__name__})"
            else:
                move, problem = parse_answer(text, decision.move_ids)
                if move is not None:
                    self.counts["answers"] += 1
                    return move
            if attempt == 0:
                self.counts["reasks"] += 1
                messages += [
                    {"role": "assistant", "content": text},
                    {"role": "user", "content": feedback(problem, decision)},
                ]
        self.counts["fallbacks"] += 1
        return decision.move_ids[0]


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    p = argparse.ArgumentParser(description="Play one seat with an OpenAI-compatible model.")
    p.add_argument("--url", required=True, help="the service, e.g. http://127.0.0.1:8000")
    p.add_argument("--match", required=True, help="the match id")
    p.add_argument("--token", default=os.environ.get("BANGARENA_SEAT_TOKEN"),
                   help="the seat token (default: $BANGARENA_SEAT_TOKEN)")  # fmt: skip
    p.add_argument("--model", required=True, help="the model name, e.g. gpt-4.1-mini")
    p.add_argument("--base-url", default=None,
                   help="an OpenAI-compatible API (default: OpenAI's own)")  # fmt: skip
    p.add_argument("--api-key-env", default="OPENAI_API_KEY",
                   help="the variable holding the model API's key (default OPENAI_API_KEY)")  # fmt: skip
    p.add_argument("--answer-mode", choices=ANSWER_MODES, default="json_schema",
                   help="how the answer's shape is asked for (default json_schema)")  # fmt: skip
    p.add_argument("--temperature", type=float, default=None)
    p.add_argument("--max-tokens", type=int, default=400)
    p.add_argument("--wait", type=float, default=30.0, help="long-poll seconds (≤ 60)")
    args = p.parse_args(argv)
    if not args.token:
        p.error("a seat token is needed: --token or BANGARENA_SEAT_TOKEN")
    if not args.base_url and not os.environ.get(args.api_key_env):
        p.error(f"{args.api_key_env} is not set (or give --base-url for a local server)")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Play until the match is over; print the result and the agent's counts as one JSON
    line. Exit 0, or 1 when the service refused the seat."""
    args = parse_args(argv)
    # A local server needs no key, but the SDK insists on one.
    key = os.environ.get(args.api_key_env) or "no-key"
    llm = openai.OpenAI(api_key=key, base_url=args.base_url, max_retries=1)
    policy = ModelPolicy(
        llm,
        args.model,
        answer_mode=args.answer_mode,
        temperature=args.temperature,
        max_tokens=args.max_tokens,
    )
    try:
        with SeatClient(args.url, args.token, match_id=args.match) as seat:
            # the system prompt once, then only each decision's turn prompt on the wire
            result = seat.play(policy, wait=args.wait, prompt="turn")
    except ServiceError as exc:
        print(f"openai_agent: {exc}", file=sys.stderr)
        return 1
    finally:
        llm.close()
    print(json.dumps({"match_id": args.match, "result": result, "counts": policy.counts}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
