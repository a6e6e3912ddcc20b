"""OpenAI Chat Completions through the official SDK; works with any OpenAI-compatible server."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from .base import DUMMY_API_KEY as DUMMY_API_KEY  # re-exported: where callers found it first
from .base import (
    TOOL_DESCRIPTION,
    FinishReason,
    ProviderError,
    ProviderReply,
    ProviderRequest,
    Usage,
    invalid_response,
    not_json,
    parse_retry_after,
    status_kind,
)
from .sdk_client import (
    DEFAULT_TRANSPORT,
    LoopBoundClient,
    build_sdk_client,
    cached_sdk_label,
    http_transport,
    refused_connection,
)

if TYPE_CHECKING:
    import openai

# The openai SDK (~1.5 s to import) is imported by the functions that use it, so that the pure
# helpers here (request parameters, messages, usage) cost nothing to import.

_FINISH: dict[str, FinishReason] = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool",
    "function_call": "tool",
    "content_filter": "content_filter",
}


def is_official_endpoint(base_url: str) -> bool:
    """True when requests go to OpenAI itself rather than a compatible server."""
    return (urlsplit(base_url).hostname or "").endswith("api.openai.com")


def openai_params(req: ProviderRequest, *, official: bool = True) -> dict[str, Any]:
    """The Chat Completions parameters for `req`, everything except `messages`.

    `official` picks the token limit field: OpenAI wants `max_completion_tokens` (reasoning
    models reject `max_tokens`); compatible servers (vLLM, Ollama, llama.cpp) all read
    `max_tokens`.
    """
    params: dict[str, Any] = {"model": req.model}
    params["max_completion_tokens" if official else "max_tokens"] = req.max_tokens
    if req.temperature is not None:
        params["temperature"] = req.temperature
    if req.reasoning_effort is not None:
        params["reasoning_effort"] = req.reasoning_effort
    if req.seed is not None:
        params["seed"] = req.seed
    if req.answer_mode == "json_schema":
        params["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": req.schema_name, "schema": req.answer_schema, "strict": True},
        }
    elif req.answer_mode == "tool":
        params["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": req.schema_name,
                    "description": TOOL_DESCRIPTION,
                    "parameters": req.answer_schema,
                    "strict": True,
                },
            }
        ]
        params["tool_choice"] = {"type": "function", "function": {"name": req.schema_name}}
        params["parallel_tool_calls"] = False
    elif req.answer_mode == "json_object":
        params["response_format"] = {"type": "json_object"}
    return params


def openai_messages(req: ProviderRequest) -> list[dict[str, str]]:
    """The system prompt first (OpenAI caches stable prefixes on its own), then the turns."""
    return [{"role": "system", "content": req.system}] + [
        {"role": m.role, "content": m.content} for m in req.messages
    ]


def map_openai_error(exc: Exception) -> ProviderError:
    """Classify an exception raised by the openai SDK (also used for litellm, which wraps it)."""
    import openai

    if isinstance(exc, openai.APITimeoutError):
        dead = refused_connection(exc)
        if dead is not None:
            return ProviderError("connection", f"Connection error. ({type(dead).__name__}: {dead})")
        return ProviderError("timeout", str(exc) or "request timed out")
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__
        detail = f"{exc} ({type(cause).__name__}: {cause})" if cause else str(exc)
        return ProviderError("connection", detail)
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        retry_after = parse_retry_after(exc.response.headers) if status in (429, 503) else None
        return ProviderError(
            status_kind(status), exc.message, status=status, retry_after=retry_after
        )
    if isinstance(exc, openai.APIResponseValidationError):
        return ProviderError("server", f"invalid response: {exc}", status=exc.status_code)
    if isinstance(exc, json.JSONDecodeError):
        return not_json(exc)
    return ProviderError("bad_request", f"{type(exc).__name__}: {exc}")


def reply_from_completion(
    completion: Any, *, mode: str, latency_s: float, params: dict, sdk: str
) -> ProviderReply:
    """Turn a ChatCompletion (SDK object or litellm's look-alike) into a ProviderReply; a
    response that is not one is a retryable ``server`` error, never an exception of its own."""
    try:
        return _reply_from_completion(
            completion, mode=mode, latency_s=latency_s, params=params, sdk=sdk
        )
    except ProviderError:
        raise
    except (AttributeError, TypeError, ValueError, KeyError, IndexError) as exc:
        raise invalid_response(f"{type(exc).__name__}: {exc}", completion) from exc


def _reply_from_completion(
    completion: Any, *, mode: str, latency_s: float, params: dict, sdk: str
) -> ProviderReply:
    choices = getattr(completion, "choices", None) or []
    if not choices:
        raise ProviderError("server", "the response has no choices")
    choice = choices[0]
    message = choice.message
    refusal = getattr(message, "refusal", None)
    text: str | None = message.content
    tool_calls = getattr(message, "tool_calls", None) or []
    if mode == "tool" and tool_calls:
        fn = getattr(tool_calls[0], "function", None)
        if fn is not None:
            text = fn.arguments
    finish: FinishReason = _FINISH.get(choice.finish_reason or "", "other")
    if refusal:
        finish = "refusal"
    return ProviderReply(
        text=text,
        finish_reason=finish,
        refusal=refusal,
        usage=usage_from_openai(getattr(completion, "usage", None)),
        model_id=getattr(completion, "model", None) or params.get("model", ""),
        latency_s=latency_s,
        request_params=params,
        sdk=sdk,
    )


def usage_from_openai(usage: Any) -> Usage:
    """Prompt/completion tokens plus cached and reasoning details, when reported."""
    if usage is None:
        return Usage()
    prompt_details = getattr(usage, "prompt_tokens_details", None)
    completion_details = getattr(usage, "completion_tokens_details", None)
    return Usage(
        input_tokens=getattr(usage, "prompt_tokens", 0) or 0,
        output_tokens=getattr(usage, "completion_tokens", 0) or 0,
        reasoning_tokens=getattr(completion_details, "reasoning_tokens", 0) or 0,
        cached_tokens=getattr(prompt_details, "cached_tokens", 0) or 0,
        cache_write_tokens=getattr(prompt_details, "cache_write_tokens", 0) or 0,
    )


def make_openai_client(transport: str = DEFAULT_TRANSPORT, **kwargs: Any) -> openai.AsyncOpenAI:
    """An ``AsyncOpenAI`` on ``transport`` (shared per loop by :class:`LoopBoundClient`)."""
    import openai

    aiohttp_client = getattr(openai, "DefaultAioHttpClient", None)
    return build_sdk_client(openai.AsyncOpenAI, aiohttp_client, transport, **kwargs)


class OpenAIProvider:
    """Chat Completions with SDK retries off; one `complete` call is one HTTP attempt."""

    name = "openai"

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        concurrency: int | None = None,
        client: openai.AsyncOpenAI | None = None,
    ) -> None:
        from openai.types.chat import ChatCompletion

        self._completion_type = ChatCompletion
        self.model = model
        kwargs: dict[str, Any] | None = None
        if client is None:
            kwargs = {"max_retries": 0, "api_key": api_key, "transport": http_transport()}
            if base_url is not None:
                kwargs["base_url"] = base_url
        self._sdk_client = LoopBoundClient(make_openai_client, kwargs, client, concurrency)
        self.base_url = self._sdk_client.base_url
        self._official = is_official_endpoint(self.base_url)
        self._sdk = cached_sdk_label("openai")

    def request_params(self, req: ProviderRequest) -> dict[str, Any]:
        """What `complete` sends besides the messages."""
        return openai_params(req, official=self._official)

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        params = self.request_params(req)
        messages = openai_messages(req)
        client = self._sdk_client.bound()
        async with self._sdk_client.slot():
            started = time.perf_counter()
            try:
                # The SDK's documented `post` for the same request `chat.completions.create`
                # sends: the same HTTP stack, errors and response parsing, without the typed
                # walk over every message (~0.6 ms of CPU per call: a third of the SDK's share
                # of a decision, when one process keeps hundreds of matches in flight).
                completion = await client.post(
                    "/chat/completions",
                    body={"messages": messages, **params},
                    cast_to=self._completion_type,
                    options={"timeout": req.timeout_s, "security": {"bearer_auth": True}},
                )
            except Exception as exc:  # every SDK failure becomes one classified ProviderError
                raise map_openai_error(exc) from exc
            latency = time.perf_counter() - started
        # The SDK returns text for non-JSON bodies.
        if not isinstance(completion, self._completion_type):
            raise invalid_response("not a chat completion", completion)
        recorded = {
            **params,
            "answer_mode": req.answer_mode,
            "base_url": self.base_url,
            "timeout_s": req.timeout_s,
        }
        return reply_from_completion(
            completion, mode=req.answer_mode, latency_s=latency, params=recorded, sdk=self._sdk
        )

    async def aclose(self) -> None:
        await self._sdk_client.aclose()
