"""Anthropic Messages through the official SDK, with the system prompt marked for caching."""

from __future__ import annotations

import functools
import inspect
import json
import time
from typing import TYPE_CHECKING, Any

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
    import anthropic

# The anthropic SDK (~1.5 s to import) is imported by the functions that use it, so that the
# request helpers here cost nothing to import.

CACHE_CONTROL = {"type": "ephemeral"}

_FINISH: dict[str, FinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool",
    "refusal": "refusal",
}


@functools.cache
def sdk_supports(param: str) -> bool:
    """Whether the installed SDK's `messages.create` takes `param` (e.g. `output_config`)."""
    from anthropic.resources.messages import AsyncMessages

    return param in inspect.signature(AsyncMessages.create).parameters


def effective_mode(requested: str) -> str:
    """`json_schema` needs structured outputs (`output_config.format`); older SDKs get `tool`."""
    if requested == "json_schema" and not sdk_supports("output_config"):
        return "tool"
    return requested


def anthropic_params(req: ProviderRequest) -> dict[str, Any]:
    """The Messages parameters for `req`, everything except `messages` and `system`."""
    mode = effective_mode(req.answer_mode)
    params: dict[str, Any] = {"model": req.model, "max_tokens": req.max_tokens}
    output_config: dict[str, Any] = {}
    if mode == "json_schema":
        output_config["format"] = {"type": "json_schema", "schema": req.answer_schema}
    elif mode == "tool":
        params["tools"] = [
            {
                "name": req.schema_name,
                "description": TOOL_DESCRIPTION,
                "input_schema": req.answer_schema,
            }
        ]
        params["tool_choice"] = {"type": "tool", "name": req.schema_name}
    if req.reasoning_effort is not None:
        output_config["effort"] = req.reasoning_effort
    if output_config:
        params["output_config"] = output_config
    # This SDK's `create` no longer names temperature; the API still reads it from the body.
    extra_body: dict[str, Any] = {}
    if req.temperature is not None:
        if sdk_supports("temperature"):
            params["temperature"] = req.temperature
        else:
            extra_body["temperature"] = req.temperature
    if extra_body:
        params["extra_body"] = extra_body
    return params


def anthropic_system(req: ProviderRequest) -> list[dict[str, Any]]:
    """One text block carrying `cache_control`, so the stable prefix is cached."""
    return [{"type": "text", "text": req.system, "cache_control": dict(CACHE_CONTROL)}]


def map_anthropic_error(exc: Exception) -> ProviderError:
    """Classify an exception raised by the anthropic SDK."""
    import anthropic

    if isinstance(exc, anthropic.APITimeoutError):
        dead = refused_connection(exc)
        if dead is not None:
            return ProviderError("connection", f"Connection error. ({type(dead).__name__}: {dead})")
        return ProviderError("timeout", "request timed out")
    if isinstance(exc, anthropic.APIConnectionError):
        cause = exc.__cause__
        detail = f"{exc.message} ({type(cause).__name__}: {cause})" if cause else exc.message
        return ProviderError("connection", detail)
    if isinstance(exc, anthropic.APIStatusError):
        status = exc.status_code
        retry_after = parse_retry_after(exc.response.headers) if status in (429, 503, 529) else None
        return ProviderError(
            status_kind(status), exc.message, status=status, retry_after=retry_after
        )
    if isinstance(exc, anthropic.APIResponseValidationError):
        return ProviderError("server", f"invalid response: {exc}", status=exc.status_code)
    if isinstance(exc, json.JSONDecodeError):
        return not_json(exc)
    return ProviderError("bad_request", f"{type(exc).__name__}: {exc}")


def usage_from_anthropic(usage: Any) -> Usage:
    """Normalise: Anthropic's input_tokens exclude cache reads and writes; add them back."""
    if usage is None:
        return Usage()
    cached = getattr(usage, "cache_read_input_tokens", 0) or 0
    written = getattr(usage, "cache_creation_input_tokens", 0) or 0
    details = getattr(usage, "output_tokens_details", None)
    return Usage(
        input_tokens=(usage.input_tokens or 0) + cached + written,
        output_tokens=usage.output_tokens or 0,
        reasoning_tokens=getattr(details, "thinking_tokens", 0) or 0,
        cached_tokens=cached,
        cache_write_tokens=written,
    )


def reply_from_message(
    message: Any, *, mode: str, name: str, latency_s: float, params: dict, sdk: str
) -> ProviderReply:
    """The answer text: the forced tool's input as JSON in tool mode, else the text blocks."""
    texts: list[str] = []
    tool_input: Any = None
    for block in message.content or []:
        kind = getattr(block, "type", None)
        if kind == "text":
            texts.append(block.text)
        elif kind == "tool_use" and tool_input is None and block.name == name:
            tool_input = block.input
    text: str | None
    if mode == "tool" and tool_input is not None:
        text = json.dumps(tool_input, ensure_ascii=False)
    else:
        text = "".join(texts) if texts else None
    finish: FinishReason = _FINISH.get(message.stop_reason or "", "other")
    refusal = None
    if finish == "refusal":
        refusal = text or "the model refused (stop_reason=refusal)"
        text = None
    return ProviderReply(
        text=text,
        finish_reason=finish,
        refusal=refusal,
        usage=usage_from_anthropic(message.usage),
        model_id=str(message.model),
        latency_s=latency_s,
        request_params=params,
        sdk=sdk,
    )


def make_anthropic_client(
    transport: str = DEFAULT_TRANSPORT, **kwargs: Any
) -> anthropic.AsyncAnthropic:
    """An ``AsyncAnthropic`` on ``transport`` (shared per loop by :class:`LoopBoundClient`)."""
    import anthropic

    aiohttp_client = getattr(anthropic, "DefaultAioHttpClient", None)
    return build_sdk_client(anthropic.AsyncAnthropic, aiohttp_client, transport, **kwargs)


class AnthropicProvider:
    """Messages with SDK retries off; one `complete` call is one HTTP attempt."""

    name = "anthropic"

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        auth_token: str | None = None,
        concurrency: int | None = None,
        client: anthropic.AsyncAnthropic | None = None,
    ) -> None:
        from anthropic.types import Message

        self._message_type = Message
        self.model = model
        kwargs: dict[str, Any] | None = None
        if client is None:
            kwargs = {"max_retries": 0, "transport": http_transport()}
            # Either one passed keeps the SDK from reading both from the environment.
            if api_key is not None:
                kwargs["api_key"] = api_key
            if auth_token is not None:
                kwargs["auth_token"] = auth_token
            if base_url is not None:
                kwargs["base_url"] = base_url
        self._sdk_client = LoopBoundClient(make_anthropic_client, kwargs, client, concurrency)
        self.base_url = self._sdk_client.base_url
        self._sdk = cached_sdk_label("anthropic")

    def request_params(self, req: ProviderRequest) -> dict[str, Any]:
        """What `complete` sends besides the messages and the system prompt text."""
        return anthropic_params(req)

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        params = self.request_params(req)
        messages = [{"role": m.role, "content": m.content} for m in req.messages]
        client = self._sdk_client.bound()
        async with self._sdk_client.slot():
            started = time.perf_counter()
            try:
                message = await client.messages.create(
                    system=anthropic_system(req),
                    messages=messages,
                    timeout=req.timeout_s,
                    **params,
                )
            except Exception as exc:  # every SDK failure becomes one classified ProviderError
                raise map_anthropic_error(exc) from exc
            latency = time.perf_counter() - started
        # The SDK returns text for a non-JSON body and fills what a JSON body lacks with None.
        if not isinstance(message, self._message_type) or not isinstance(message.content, list):
            raise invalid_response("not a Messages response", message)
        recorded = {k: v for k, v in params.items() if k != "extra_body"}
        recorded.update(params.get("extra_body", {}))
        recorded.update(
            answer_mode=effective_mode(req.answer_mode),
            system_cache_control=dict(CACHE_CONTROL),
            base_url=self.base_url,
            timeout_s=req.timeout_s,
        )
        if recorded["answer_mode"] != req.answer_mode:
            recorded["answer_mode_requested"] = req.answer_mode
        try:
            return reply_from_message(
                message,
                mode=recorded["answer_mode"],
                name=req.schema_name,
                latency_s=latency,
                params=recorded,
                sdk=self._sdk,
            )
        except (AttributeError, TypeError, ValueError, KeyError) as exc:
            raise invalid_response(f"{type(exc).__name__}: {exc}", message) from exc

    async def aclose(self) -> None:
        await self._sdk_client.aclose()
