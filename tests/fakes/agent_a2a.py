"""A2A purple agents for the tests: the example agent (real a2a-sdk server) served on a free
loopback port whose URL its card names, and a faulty one that injects, on a fixed schedule, the
first message of a decision: slow, garbage, an illegal id, HTTP 500, a dropped connection, and
the A2A task states and id mix-ups (input-required, failed, rejected, another context, another
task). It logs every decision payload it was sent and the outcome each fault must be recorded as.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .serve import _bind, _server

ROOT = Path(__file__).resolve().parents[2]

A2A_FAULTS: dict[str, str] = {
    "slow": "timeout",
    "garbage": "unparsable",
    "illegal": "illegal",
    "500": "transport",
    "drop": "transport",
    "input_required": "empty",
    "failed": "empty",
    "rejected": "refusal",
    "other_context": "unparsable",
    "other_task": "unparsable",
}
"""Fault → the attempt outcome it must be recorded as."""


def example(name: str):
    """An example agent script as a module (examples/ is not a package)."""
    path = ROOT / "examples" / "agents" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"example_{name}", path)
    assert spec is not None and spec.loader is not None
    if spec.name in sys.modules:
        return sys.modules[spec.name]
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def serve_at(make_app: Callable[[str], Any]) -> Iterator[str]:
    """Serve ``make_app(url)`` on a free port from a thread (the URL is known before the app is
    made, so an agent card can name it); yield the URL."""
    import time

    sock = _bind()
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    server = _server(make_app(url))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the agent did not start")
        time.sleep(0.005)
    try:
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def fault_for(key: int, every: int = 2) -> str | None:
    """The fault of a decision's first message (``key``: from its decision id and seat)."""
    h = int(hashlib.sha256(str(key).encode()).hexdigest()[:8], 16) % (every * len(A2A_FAULTS))
    return None if h % every else list(A2A_FAULTS)[h // every]


class FaultPlan:
    """Which message gets which fault; what was injected and sent."""

    def __init__(self, seats: set[int] | None, every: int = 2, rounds: int | None = None) -> None:
        self.seats = seats
        self.every = every
        # At most ``rounds`` turns through the faults, then clean answers: a timeout fault
        # costs its seat's whole timeout, and a full match would take a dozen of them.
        self.limit = None if rounds is None else rounds * len(A2A_FAULTS)
        self.lock = threading.Lock()
        self.requests: Counter[tuple[str, int]] = Counter()
        self.by_message: dict[str, str] = {}
        self.injected: Counter[tuple[int, str]] = Counter()
        self.received: list[tuple[int, int, Any]] = []
        self.contexts: dict[int, set[str]] = {}
        self.turn = -1

    def note(self, message_id: str, context_id: str, payload: dict[str, Any]) -> str | None:
        seat, did = int(payload["seat"]), int(payload["decision_id"])
        with self.lock:
            self.received.append((seat, did, payload))
            self.contexts.setdefault(seat, set()).add(context_id)
            n = self.requests[(context_id, did)]
            self.requests[(context_id, did)] += 1
            if n or (self.seats is not None and seat not in self.seats):
                return None
            fault = None
            if fault_for(did * 31 + seat, self.every) is not None and (
                self.limit is None or self.turn + 1 < self.limit
            ):
                # the faulty decisions take the faults in turn: all are injected
                # whatever path the game takes
                self.turn += 1
                fault = list(A2A_FAULTS)[self.turn % len(A2A_FAULTS)]
            if fault is not None:
                self.injected[(seat, A2A_FAULTS[fault])] += 1
                self.by_message[message_id] = fault
            return fault


class FaultyA2A:
    """Raw ASGI in front of the a2a-sdk app: HTTP-level faults (500, a dropped connection)
    happen here, the rest in :class:`~fakes.agent_a2a_executor.FaultyExecutor`."""

    def __init__(self, inner: Any, plan: FaultPlan) -> None:
        self.inner = inner
        self.plan = plan

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            return await self.inner(scope, receive, send)
        raw = b""
        while True:
            msg = await receive()
            raw += msg.get("body", b"")
            if not msg.get("more_body"):
                break
        fault = None
        with contextlib.suppress(Exception):
            req = json.loads(raw)
            message = req["params"]["message"]
            data = next(p["data"] for p in message["parts"] if "data" in p)
            fault = self.plan.note(message["messageId"], message["contextId"], data)
        if fault == "500":
            await send({"type": "http.response.start", "status": 500, "headers": []})
            return await send({"type": "http.response.body", "body": b"boom"})
        if fault == "drop":
            raise ConnectionResetError("dropped on purpose")
        sent = False

        async def replay() -> dict:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": raw, "more_body": False}

        await self.inner(scope, replay, send)


def faulty_agent_app(url: str, plan: FaultPlan, *, streaming: bool = True, seed: int = 0) -> Any:
    """The example agent's app with the faulty executor, behind the HTTP faults."""
    from .agent_a2a_executor import FaultyExecutor  # a2a-sdk loads with the first agent

    agent = example("a2a_agent")
    executor = FaultyExecutor(plan, seed)
    app = agent.create_app(url, agent.random_policy(seed), executor, "faulty", streaming)
    return FaultyA2A(app, plan)


__all__ = ["A2A_FAULTS", "FaultPlan", "FaultyA2A", "example", "faulty_agent_app", "serve_at"]
