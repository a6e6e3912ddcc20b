"""Push agents over plain HTTP (``http:URL``): each decision is POSTed to URL as the
:class:`~..decision_payload.DecisionPayload` JSON (``schema`` by its alias); the agent answers
``{"move_id": "…", "reason": "…"}`` (``reason`` and ``notes`` optional) before ``deadline_s``.

A retry after a failed reply POSTs the same payload with a ``feedback`` object: ``text`` (the
re-prompt a model gets, ending with the legal ids), ``failure`` (the class), ``detail``,
``previous_reply`` (what the agent sent, cut) and ``attempt``. How a reply is classified:

==========================================  ===========================================
connection refused or dropped, 5xx, 502…    ``transport`` (retried with backoff)
429                                         ``transport`` (retried after Retry-After)
401, 403                                    ``transport``, autopilot ``auth`` (stops the match)
other 4xx                                   ``transport`` (not retried)
no reply within the deadline / timeout_s    ``timeout``
2xx with an empty body                      ``empty``
2xx, not one JSON object with ``move_id``   ``unparsable``
a ``move_id`` that is not legal now         ``illegal``
``{"refusal": "…"}``                        ``refusal``
==========================================  ===========================================

The bearer token (``BANGARENA_HTTP_AGENT_TOKEN``, or the variable named by ``api_key_env``) goes
only to the spec's own scheme, host and port; redirects are not followed.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

import httpx

from ..answers import AnswerFailure, clip
from ..decision_payload import DecisionPayload
from .agent_seat import MAX_BODY_BYTES, AgentError, AgentReply, AgentSeat


def _retry_after(resp: httpx.Response) -> float | None:
    value = resp.headers.get("retry-after")
    try:
        return min(60.0, max(0.0, float(value))) if value else None
    except ValueError:
        return None


class HttpSeat(AgentSeat):
    """A seat played by a push agent at an HTTP URL."""

    kind: ClassVar[str] = "http"

    async def _exchange(
        self, body: dict[str, Any], payload: DecisionPayload, timeout: float, first: bool
    ) -> AgentReply:
        url = self.agent.url
        headers = {"Content-Type": "application/json", **self.auth_headers(url)}
        data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        try:
            async with self.client.stream(
                "POST", url, content=data, headers=headers, timeout=timeout
            ) as resp:
                raw = bytearray()
                async for chunk in resp.aiter_bytes():
                    raw += chunk
                    if len(raw) > MAX_BODY_BYTES:
                        break
        except httpx.TimeoutException as e:
            detail = f"no reply within {timeout:.2f}s ({type(e).__name__})"
            raise AgentError("timeout", detail, retryable=True) from None
        except httpx.TransportError as e:  # refused, reset, dropped mid-reply, bad TLS …
            raise AgentError(
                "transport", f"{type(e).__name__}: {e or 'connection failed'}", retryable=True
            ) from None
        status = resp.status_code
        text = bytes(raw[:MAX_BODY_BYTES]).decode("utf-8", "replace")
        if status >= 400:
            detail = f"HTTP {status}: {clip(text.strip(), 200) or resp.reason_phrase}"
            if status in (401, 403):
                raise AgentError("auth", detail, status=status)
            if status == 429:
                raise AgentError(
                    "rate_limit", detail, status=status, retryable=True,
                    retry_after=_retry_after(resp),
                )  # fmt: skip
            if status in (408, 504):
                raise AgentError("timeout", detail, status=status, retryable=True)
            raise AgentError("transport", detail, status=status, retryable=status >= 500)
        if len(raw) > MAX_BODY_BYTES:
            return AgentReply(
                text[:2000],
                failure=AnswerFailure("unparsable", f"the reply is over {MAX_BODY_BYTES:,} bytes"),
            )
        if 300 <= status < 400:
            return AgentReply(
                text,
                failure=AnswerFailure(
                    "unparsable", f"HTTP {status}: a redirect is not an answer (not followed)"
                ),
            )
        try:
            obj = json.loads(text) if text.strip() else None
        except ValueError:
            return AgentReply(text)  # read as text: the bounded scan classifies it
        if isinstance(obj, dict) and obj.get("refusal") and "move_id" not in obj:
            return AgentReply(
                text, failure=AnswerFailure("refusal", clip(str(obj["refusal"]), 300))
            )
        if obj is None:
            return AgentReply(text)
        if not isinstance(obj, dict):
            return AgentReply(
                text, failure=AnswerFailure("unparsable", "the reply is JSON but not an object")
            )
        return AgentReply(text, obj)


__all__ = ["HttpSeat"]
