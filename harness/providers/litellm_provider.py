"""Every other provider through litellm (an optional extra: `pip install 'bangarena[litellm]'`).

Model names are litellm's (`litellm:anthropic/claude-3-5-haiku-20241022`,
`litellm:gemini/gemini-2.0-flash`, `litellm:openai/NAME@http://127.0.0.1:8000/v1`). The request
is OpenAI-shaped; litellm translates it. Its own retries are turned off.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import os
import time
from collections.abc import Iterator
from typing import Any

from .base import (
    ErrorKind,
    ProviderError,
    ProviderReply,
    ProviderRequest,
    parse_retry_after,
    status_kind,
)
from .openai_provider import map_openai_error, openai_messages, openai_params, reply_from_completion
from .sdk_client import cached_sdk_label

INSTALL_HINT = "the litellm provider needs litellm: pip install 'bangarena[litellm]' (or litellm)"


LOCAL_COST_MAP_ENV = "LITELLM_LOCAL_MODEL_COST_MAP"


def import_litellm() -> Any:
    """Import litellm with its bundled cost map: without ``LITELLM_LOCAL_MODEL_COST_MAP=True``
    its import downloads the map from GitHub. Set unless the user chose a value."""
    if not os.environ.get(LOCAL_COST_MAP_ENV):
        os.environ[LOCAL_COST_MAP_ENV] = "True"
    try:
        module = importlib.import_module("litellm")
    except ImportError as exc:
        raise ImportError(INSTALL_HINT) from exc
    module.suppress_debug_info = True  # no "Give Feedback" banners on stdout for each error
    module.telemetry = False
    return module


def wants_cache_control(model: str) -> bool:
    """Claude models (direct, Bedrock, Vertex) need the explicit cache marker."""
    return "claude" in model or model.startswith("anthropic/")


def _chain(exc: BaseException, limit: int = 12) -> Iterator[BaseException]:
    """``exc`` and what caused it, nearest first."""
    node: BaseException | None = exc
    for _ in range(limit):
        if node is None:
            return
        yield node
        node = node.__cause__ or node.__context__


@functools.cache
def _transport_errors() -> tuple[tuple[type[BaseException], ...], tuple[type[BaseException], ...]]:
    """(timeouts, other transport failures) of the HTTP stacks litellm may use underneath."""
    timeouts: list[type[BaseException]] = [TimeoutError]
    failures: list[type[BaseException]] = [OSError]  # refused, reset, DNS, TLS
    for module, timeout, failure in (
        ("httpx", "TimeoutException", "TransportError"),
        ("httpx2", "TimeoutException", "TransportError"),
        ("aiohttp", "ServerTimeoutError", "ClientConnectionError"),
    ):
        try:
            mod = importlib.import_module(module)
        except ImportError:
            continue
        for name, into in ((timeout, timeouts), (failure, failures)):
            cls = getattr(mod, name, None)
            if isinstance(cls, type) and issubclass(cls, BaseException):
                into.append(cls)
    return tuple(timeouts), tuple(failures)


def _transport_kind(exc: BaseException) -> ErrorKind | None:
    """``timeout`` or ``connection`` when a transport failure lies under ``exc``.

    litellm reports a refused connection as a 500 on some backends, and a body it cannot read
    as an APIConnectionError on others: the class it raises says little, what caused it does.
    """
    import openai

    timeouts, failures = _transport_errors()
    for node in _chain(exc):
        if isinstance(node, (openai.APITimeoutError, *timeouts)):  # litellm.Timeout included
            return "timeout"
        sdk_side = type(node).__module__.split(".")[0] == "openai"
        if isinstance(node, failures) or (sdk_side and isinstance(node, openai.APIConnectionError)):
            return "connection"
    return None


def map_litellm_error(exc: Exception) -> ProviderError:
    """litellm's exceptions subclass openai's; classify by the transport failure underneath when
    there is one, keep the Retry-After header it preserves, and read an "API connection error"
    with no connection failure under it (a body that is not JSON, a response of the wrong
    shape) as the server's fault: ``server``, retryable."""
    import openai

    kind = _transport_kind(exc)
    if kind is not None:
        return ProviderError(kind, str(exc) or type(exc).__name__)
    if isinstance(exc, openai.APIConnectionError):
        return ProviderError("server", f"invalid response: {exc}")
    error = map_openai_error(exc)
    status = getattr(exc, "status_code", None)
    if error.kind == "bad_request" and error.status is None and isinstance(status, int):
        error = ProviderError(status_kind(status), str(exc), status=status)
    if error.kind == "rate_limit" and error.retry_after is None:
        headers = getattr(exc, "litellm_response_headers", None) or getattr(exc, "headers", None)
        if headers is not None:
            error.retry_after = parse_retry_after({k.lower(): v for k, v in dict(headers).items()})
    return error


class LiteLLMProvider:
    """`litellm.acompletion`, one attempt per call."""

    name = "litellm"

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        concurrency: int | None = None,
    ) -> None:
        self._litellm = import_litellm()
        self.model = model
        self.base_url = base_url
        self._api_key = api_key
        self._sdk = cached_sdk_label("litellm")
        self._limit = asyncio.Semaphore(concurrency) if concurrency else None

    def request_params(self, req: ProviderRequest) -> dict[str, Any]:
        """What `complete` sends besides the messages (OpenAI-shaped; litellm maps it)."""
        params = openai_params(req, official=False)
        if self.base_url:
            params["api_base"] = self.base_url
        return params

    def _messages(self, req: ProviderRequest) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = openai_messages(req)
        if wants_cache_control(req.model):
            messages[0] = {
                "role": "system",
                "content": [
                    {"type": "text", "text": req.system, "cache_control": {"type": "ephemeral"}}
                ],
            }
        return messages

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        params = self.request_params(req)
        extra: dict[str, Any] = {"num_retries": 0, "max_retries": 0, "timeout": req.timeout_s}
        if self._api_key is not None:
            extra["api_key"] = self._api_key
        async with self._limit or contextlib.nullcontext():
            started = time.perf_counter()
            try:
                response = await self._litellm.acompletion(
                    messages=self._messages(req), **params, **extra
                )
            except Exception as exc:  # every failure becomes one classified ProviderError
                raise map_litellm_error(exc) from exc
            latency = time.perf_counter() - started
        recorded = {**params, "answer_mode": req.answer_mode, "timeout_s": req.timeout_s}
        reply = reply_from_completion(
            response, mode=req.answer_mode, latency_s=latency, params=recorded, sdk=self._sdk
        )
        usage = getattr(response, "usage", None)
        # litellm passes Anthropic's cache counters through under their own names.
        read = getattr(usage, "cache_read_input_tokens", None) or 0
        written = getattr(usage, "cache_creation_input_tokens", None) or 0
        if read and not reply.usage.cached_tokens:
            reply.usage.cached_tokens = read
        if written and not reply.usage.cache_write_tokens:
            reply.usage.cache_write_tokens = written
        return reply

    async def aclose(self) -> None:
        return None
