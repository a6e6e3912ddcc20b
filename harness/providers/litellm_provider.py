"""Every other provider through litellm (an optional extra: `pip install 'bangarena[litellm]'`).

Model names are litellm's (`litellm:anthropic/claude-3-5-haiku-20241022`,
`litellm:gemini/gemini-2.0-flash`, `litellm:openai/NAME@http://127.0.0.1:8000/v1`). The request
is OpenAI-shaped; litellm translates it. Its own retries are turned off.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import os
import time
from typing import Any

from .base import (
    ProviderError,
    ProviderReply,
    ProviderRequest,
    parse_retry_after,
    sdk_label,
    status_kind,
)
from .openai_provider import map_openai_error, openai_messages, openai_params, reply_from_completion

INSTALL_HINT = "the litellm provider needs litellm: pip install 'bangarena[litellm]' (or litellm)"


def import_litellm() -> Any:
    """Import litellm with its bundled cost map (no network fetch at import)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
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


def _transport_cause(exc: BaseException) -> Exception | None:
    """litellm reports a refused connection as a 500; find the transport error underneath."""
    import openai

    seen = 0
    node: BaseException | None = exc
    while node is not None and seen < 12:
        if isinstance(node, openai.APIConnectionError):  # APITimeoutError included
            return node
        node = node.__cause__ or node.__context__
        seen += 1
    return None


def map_litellm_error(exc: Exception) -> ProviderError:
    """litellm's exceptions subclass openai's; keep the Retry-After header it preserves."""
    cause = _transport_cause(exc)
    if cause is not None:
        return map_openai_error(cause)
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
        self._sdk = sdk_label("litellm")
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
