"""The provider contract: one request in, one reply out, one attempt per call.

Every provider (openai, anthropic, litellm, scripted) takes a `ProviderRequest` and returns a
`ProviderReply`, or raises a classified `ProviderError`. Providers never retry on their own (the
SDKs run with `max_retries=0`): the caller owns retries, so every attempt is visible and recorded.
"""

from __future__ import annotations

import email.utils
import importlib.metadata
import json
import time
from collections.abc import Mapping
from typing import Any, Literal, Protocol, get_args, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

AnswerMode = Literal["json_schema", "tool", "json_object", "text"]
ANSWER_MODES: tuple[str, ...] = get_args(AnswerMode)

FinishReason = Literal["stop", "length", "refusal", "tool", "content_filter", "other"]
ErrorKind = Literal["rate_limit", "server", "connection", "timeout", "bad_request", "auth"]
ERROR_KINDS: tuple[str, ...] = get_args(ErrorKind)
# Failures worth another attempt: the request itself was fine, the transport or server was not.
RETRYABLE_KINDS: frozenset[str] = frozenset({"rate_limit", "server", "connection", "timeout"})

TOOL_DESCRIPTION = "Submit your answer: the id of the chosen legal move, with a short reason."
# Sent when no key may or need be sent (a local server, an explicit base URL without
# `api_key_env`): the SDKs refuse to start without one.
DUMMY_API_KEY = "bangarena-no-key"
ERROR_MESSAGE_MAX_CHARS = 500
"""An error message is cut to this length: servers echo whole bodies (or a 10 MB id) in them."""


class ChatMessage(BaseModel):
    """One conversation turn after the system prompt."""

    model_config = ConfigDict(frozen=True)

    role: Literal["user", "assistant"]
    content: str


class ProviderRequest(BaseModel):
    """Everything one attempt needs. `system` is the stable, cacheable prefix."""

    model: str
    system: str
    messages: list[ChatMessage]
    answer_mode: AnswerMode
    answer_schema: dict
    schema_name: str = "bangarena_move"
    temperature: float | None = None
    max_tokens: int = 512
    reasoning_effort: str | None = None
    timeout_s: float = 60.0
    seed: int | None = None
    # Opaque to every network provider and never sent; the scripted provider hands it to its policy.
    context: Any = Field(default=None, exclude=True)


class Usage(BaseModel):
    """Token counts of one attempt, normalised across providers.

    `input_tokens` counts every prompt token, cached ones included (Anthropic reports cache reads
    and writes apart; they are added back). `cached_tokens` and `cache_write_tokens` are parts of
    it. `output_tokens` includes `reasoning_tokens`.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    cached_tokens: int = 0
    cache_write_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            reasoning_tokens=self.reasoning_tokens + other.reasoning_tokens,
            cached_tokens=self.cached_tokens + other.cached_tokens,
            cache_write_tokens=self.cache_write_tokens + other.cache_write_tokens,
        )

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens


class ProviderReply(BaseModel):
    """What one successful HTTP exchange produced (the answer may still be unusable)."""

    text: str | None
    finish_reason: FinishReason
    refusal: str | None = None
    usage: Usage
    model_id: str
    latency_s: float
    request_params: dict
    sdk: str


class ProviderError(Exception):
    """One failed attempt, classified so the caller can decide whether to retry."""

    def __init__(
        self,
        kind: ErrorKind,
        message: str,
        *,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        message = bounded_message(message)
        super().__init__(f"{kind}: {message}")
        self.kind: ErrorKind = kind
        self.status = status
        self.retry_after = retry_after
        self.message = message

    @property
    def retryable(self) -> bool:
        """True for transport and server failures (429, 5xx, connection, timeout)."""
        return self.kind in RETRYABLE_KINDS

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form for records."""
        return {
            "kind": self.kind,
            "status": self.status,
            "retry_after": self.retry_after,
            "message": self.message,
        }

    def __reduce__(self):  # keep the keyword-only fields through pickling
        return (_rebuild_error, (self.kind, self.message, self.status, self.retry_after))


def bounded_message(message: object, limit: int = ERROR_MESSAGE_MAX_CHARS) -> str:
    """``message`` as one bounded string (an ellipsis marks a cut)."""
    text = str(message)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def not_json(exc: json.JSONDecodeError) -> ProviderError:
    """A 2xx whose body is not JSON (a proxy's HTML page, a cut body): the server's fault, so
    retryable like a 5xx."""
    return ProviderError("server", f"invalid response: the body is not JSON ({exc.msg})")


def invalid_response(what: str, body: Any) -> ProviderError:
    """A 2xx that is not the expected object (``body``: what the SDK made of it, shown cut)."""
    shown = repr(body[:120] if isinstance(body, str | bytes) else body)
    shown = shown if len(shown) <= 160 else shown[:159] + "…"
    return ProviderError("server", f"invalid response: {what}: {shown}")


def _rebuild_error(kind, message, status, retry_after) -> ProviderError:
    return ProviderError(kind, message, status=status, retry_after=retry_after)


@runtime_checkable
class Provider(Protocol):
    """A model backend. `complete` makes exactly one attempt."""

    name: str

    async def complete(self, req: ProviderRequest) -> ProviderReply: ...

    async def aclose(self) -> None: ...


def sdk_label(package: str) -> str:
    """`"openai 2.3.0"`: the distribution name and its installed version."""
    try:
        return f"{package} {importlib.metadata.version(package)}"
    except importlib.metadata.PackageNotFoundError:
        return f"{package} (unknown version)"


def parse_retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds to wait from `retry-after-ms`, or `retry-after` (seconds or an HTTP date)."""
    if not headers:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def status_kind(status: int) -> ErrorKind:
    """Classify an HTTP error status."""
    if status == 429:
        return "rate_limit"
    if status in (401, 403):
        return "auth"
    if status == 408:
        return "timeout"
    if status >= 500:
        return "server"
    return "bad_request"


def schema_enum(schema: dict) -> list[str] | None:
    """The `move` enum of an answer schema, when the caller constrained it to the legal ids."""
    move = (schema.get("properties") or {}).get("move") or {}
    enum = move.get("enum")
    return list(enum) if isinstance(enum, list) else None
