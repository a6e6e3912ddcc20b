"""A push agent with faults injected on a fixed schedule, and a log of what it was sent.

One decision in ``every`` (picked by :func:`fault_for` from the decision id and seat) gets a
fault on its first request, the faulty decisions taking the faults in turn (so all are
injected whatever path the game takes); later requests of the same decision are answered
properly, except ``always_illegal``, which answers an illegal id every time (the seat must give
up and the autopilot play). Each injected fault is logged with the outcome the seat must record
for it.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

FAULTS: dict[str, str | None] = {
    "slow": "timeout",
    "garbage": "unparsable",
    "illegal": "illegal",
    "500": "transport",
    "drop": "transport",
    "empty": "empty",
    "always_illegal": "illegal",
}
"""Fault → the attempt outcome it must be recorded as."""


def fault_for(seat: int, decision_id: int, every: int = 3) -> str | None:
    """The fault of a decision's first request: one decision in ``every`` gets one."""
    h = (decision_id * 7919 + seat * 104729) % (every * len(FAULTS))
    if h % every:
        return None
    return list(FAULTS)[h // every]


class FaultyAgent:
    """A raw ASGI push agent (raw, so it can drop a connection mid-reply)."""

    def __init__(
        self,
        seats_with_faults: set[int] | None = None,
        *,
        slow_s: float = 1.0,
        every: int = 3,
        seed: int = 0,
        choose: Callable[[dict[str, Any]], str] | None = None,
    ) -> None:
        self.faulty = seats_with_faults
        self.slow_s = slow_s
        self.every = every
        self.rng = random.Random(seed)
        self.choose = choose
        self.lock = threading.Lock()
        self.requests: Counter[tuple[str, int, int]] = Counter()
        self.injected: Counter[tuple[int, str]] = Counter()
        """(seat, expected outcome) → count."""
        self.always: set[tuple[str, int, int]] = set()
        self.received: list[tuple[int, int, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.turn = -1

    def _fault(self, body: dict[str, Any]) -> str | None:
        key = (body["match_id"], body["seat"], body["decision_id"])
        with self.lock:
            n = self.requests[key]
            self.requests[key] += 1
            if key in self.always:
                self.injected[(body["seat"], "illegal")] += 1
                return "illegal"
            if n or (self.faulty is not None and body["seat"] not in self.faulty):
                return None
            fault = fault_for(body["seat"], body["decision_id"], self.every)
            if fault is not None:  # the faulty decisions take the faults in turn
                self.turn += 1
                fault = list(FAULTS)[self.turn % len(FAULTS)]
            if fault == "always_illegal":
                self.always.add(key)
            if fault is not None:
                self.injected[(body["seat"], FAULTS[fault])] += 1  # type: ignore[index]
            return fault

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            return
        raw = b""
        while True:
            msg = await receive()
            raw += msg.get("body", b"")
            if not msg.get("more_body"):
                break
        body = json.loads(raw)
        with self.lock:
            self.received.append((body["seat"], body["decision_id"], body))
            self.headers.append({k.decode(): v.decode() for k, v in scope["headers"]})
        fault = self._fault(body)
        if fault == "slow":
            await asyncio.sleep(self.slow_s)
        if fault == "500":
            return await _send(send, 500, b'{"error":"boom"}')
        if fault == "drop":  # a length promised, half of it sent, then the connection closes
            await send(
                {"type": "http.response.start", "status": 200,
                 "headers": [(b"content-type", b"application/json"), (b"content-length", b"80")]}
            )  # fmt: skip
            await send({"type": "http.response.body", "body": b'{"move_id": ', "more_body": True})
            raise ConnectionResetError("dropped on purpose")
        if fault == "garbage":
            return await _send(send, 200, b"I shall shoot the sheriff, obviously.", b"text/plain")
        if fault == "empty":
            return await _send(send, 200, b"", b"application/json")
        if fault in ("illegal", "always_illegal"):
            return await _send(send, 200, b'{"move_id": "no_such_move"}')
        move = (
            self.choose(body) if self.choose is not None else self.rng.choice(body["moves"])["id"]
        )
        answer = {"move_id": move, "decision_id": body["decision_id"], "reason": "test"}
        return await _send(send, 200, json.dumps(answer).encode())


async def _send(send: Callable, status: int, body: bytes, ctype: bytes = b"application/json"):
    await send(
        {"type": "http.response.start", "status": status, "headers": [(b"content-type", ctype)]}
    )
    await send({"type": "http.response.body", "body": body})


__all__ = ["FAULTS", "FaultyAgent", "fault_for"]
