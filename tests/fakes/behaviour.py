"""What a fake model server does with each request: a queue of scripted actions or a function.

An action says how to answer one request (a move, a 429, a 500, a slow answer, a refusal, a cut
answer, invalid JSON, an illegal id, ...). The servers render it in their own wire format. The
behaviour also records every request, counts tokens with the real o200k_base tokenizer and keeps
the prompt-cache state (which system prompts it has seen).
"""

from __future__ import annotations

import json
import random
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from bangarena.rules_machine.tokens import count_tokens as _count

LEGAL_IDS_PREFIX = "Legal move ids: "
ILLEGAL_ID = "not_a_legal_move"
NO_IDS = "no_legal_ids_in_prompt"


@dataclass(frozen=True)
class Action:
    """One scripted answer. Build them with the helper functions below."""

    kind: str
    move: str | None = None
    seconds: float = 0.0
    retry_after: float | None = None
    status: int | None = None
    then: Action | None = None
    text: str | None = None
    content_type: str = "application/json"


def answer(move: str | None = None) -> Action:
    """A valid answer: `move`, or the behaviour's chooser picks one of the offered ids."""
    return Action("answer", move=move)


def rate_limit(retry_after: float | None = 1.0) -> Action:
    """HTTP 429 with a Retry-After header (none when `retry_after` is None)."""
    return Action("rate_limit", retry_after=retry_after, status=429)


def server_error(status: int = 500) -> Action:
    """An HTTP 5xx error."""
    return Action("server_error", status=status)


def overloaded() -> Action:
    """Anthropic's 529 overloaded_error; 503 on the OpenAI server."""
    return Action("overloaded", status=529)


def unauthorized() -> Action:
    return Action("unauthorized", status=401)


def bad_request() -> Action:
    return Action("bad_request", status=400)


def slow(seconds: float, then: Action | None = None) -> Action:
    """Sleep, then do `then` (a valid answer by default)."""
    return Action("slow", seconds=seconds, then=then or answer())


def refusal() -> Action:
    return Action("refusal")


def truncated() -> Action:
    """finish_reason length / stop_reason max_tokens with the answer JSON cut in half."""
    return Action("truncated")


def invalid_json() -> Action:
    return Action("invalid_json")


def illegal_id() -> Action:
    return Action("illegal_id")


def empty() -> Action:
    return Action("empty")


def reply_text(text: str, *, cut: bool = False) -> Action:
    """A 200 whose answer is exactly ``text``, ending at the token limit when ``cut``: hostile or
    odd replies, verbatim (the message text; the OpenAI fake's tool arguments in tool mode)."""
    return Action("reply_text", text=text, status=1 if cut else None)


def not_json(
    body: str = "<html><body>502 Bad Gateway</body></html>", content_type: str = "text/html"
) -> Action:
    """HTTP 200 whose body is not a response object at all (a proxy's page, a cut body)."""
    return Action("not_json", text=body, content_type=content_type)


@dataclass
class Received:
    """One request as the server got it."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    raw: bytes
    action: str = ""


def count_tokens(text: str) -> int:
    """Real o200k_base token count."""
    return _count(text) if text else 0


def text_of(content: Any) -> str:
    """The text of a message content: a string or a list of content blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(b.get("text", "") for b in content if isinstance(b, dict))
    return ""


def ids_from_prompt(messages: list[dict[str, Any]]) -> list[str]:
    """The ids on the last `Legal move ids: a, b, c` line of the last user message."""
    for message in reversed(messages):
        if message.get("role") != "user":
            continue
        for line in reversed(text_of(message.get("content")).splitlines()):
            if line.startswith(LEGAL_IDS_PREFIX):
                return [x.strip() for x in line[len(LEGAL_IDS_PREFIX) :].split(",") if x.strip()]
        return []
    return []


def schema_of_request(body: dict[str, Any]) -> dict[str, Any] | None:
    """The answer schema a request carries, in either wire format and any answer mode."""
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return (fmt.get("json_schema") or {}).get("schema")
    for tool in body.get("tools") or []:
        if "function" in tool:
            return tool["function"].get("parameters")
        if "input_schema" in tool:
            return tool["input_schema"]
    out = (body.get("output_config") or {}).get("format") or {}
    if out.get("type") == "json_schema":
        return out.get("schema")
    return None


def offered_ids(body: dict[str, Any]) -> list[str]:
    """The schema's `move` enum when present, else the ids listed in the turn prompt."""
    schema = schema_of_request(body) or {}
    enum = ((schema.get("properties") or {}).get("move") or {}).get("enum")
    if isinstance(enum, list) and enum:
        return [str(x) for x in enum]
    return ids_from_prompt(body.get("messages") or [])


def answer_text(schema: dict[str, Any] | None, move: str, reason: str = "fake server") -> str:
    """The answer object with the schema's properties, in order."""
    props = list(((schema or {}).get("properties") or {}).keys()) or ["reason", "move"]
    values: dict[str, Any] = {"reason": reason, "notes": None, "move": move}
    obj = {k: values.get(k) for k in props}
    obj.setdefault("move", move)
    return json.dumps(obj)


@dataclass
class FakeBehaviour:
    """Scripted behaviour shared by the fake servers.

    `actions` are used in order, one per request; then `default` (a valid answer). `fn`, when
    given, is asked first with the request body and may return an Action or None.
    `cached_share` is the share of the system prompt's tokens reported as cached once an
    identical system prompt has been seen (and, for Anthropic, marked with cache_control).
    """

    actions: Iterable[Action] = ()
    default: Action = field(default_factory=answer)
    fn: Callable[[dict[str, Any]], Action | None] | None = None
    chooser: Callable[[list[str], dict[str, Any]], str] | None = None
    cached_share: float = 1.0
    reasoning_tokens: int = 0
    model_suffix: str = "-fake"
    seed: int = 0

    def __post_init__(self) -> None:
        self.queue: deque[Action] = deque(self.actions)
        self.requests: list[Received] = []
        self.counts: Counter[str] = Counter()
        self.seen_systems: set[str] = set()
        self._rng = random.Random(self.seed)
        self._lock = threading.Lock()

    def push(self, *actions: Action) -> None:
        """Queue more actions."""
        self.queue.extend(actions)

    def next_action(self, body: dict[str, Any]) -> Action:
        if self.fn is not None:
            chosen = self.fn(body)
            if chosen is not None:
                return chosen
        try:
            return self.queue.popleft()
        except IndexError:
            return self.default

    def record(self, path: str, headers: dict[str, str], body: dict, raw: bytes, kind: str) -> None:
        with self._lock:
            self.requests.append(Received(path, headers, body, raw, kind))
            self.counts[kind] += 1

    def choose(self, body: dict[str, Any], forced: str | None = None) -> str:
        """The move a fake model plays: `forced`, else the chooser over the offered ids."""
        if forced is not None:
            return forced
        ids = offered_ids(body)
        if not ids:
            return NO_IDS
        if self.chooser is not None:
            return self.chooser(ids, body)
        with self._lock:
            return self._rng.choice(ids)

    def cache_hit(self, system: str, *, cacheable: bool = True) -> tuple[int, int]:
        """(cached, written) tokens for this system prompt; remembers it for next time."""
        if not cacheable or not system:
            return 0, 0
        tokens = int(count_tokens(system) * self.cached_share)
        with self._lock:
            if system in self.seen_systems:
                return tokens, 0
            self.seen_systems.add(system)
        return 0, tokens
