"""What the sync and the async clients share: the routes, the headers, reading each answer, the
retry delays. Keeping it here means both clients speak exactly the same protocol.
"""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import quote, urlsplit

import httpx

from .errors import error_for
from .models import Decision, PromptPart

API = "/v1"
MAX_WAIT_S = 60.0
"""The service holds a long-poll at most this long; a longer ``wait`` is clamped to it."""
USER_AGENT = "bangarena-client/1"


def check_base_url(base_url: str) -> str:
    """The service's root URL without a trailing slash. A URL that carries credentials or a
    query is refused: tokens travel only in the ``Authorization`` header."""
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError("base_url must be an http:// or https:// URL")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise ValueError("base_url must not carry credentials, a query or a fragment")
    return base_url.rstrip("/")


def check_token(token: str) -> str:
    """A bearer token: non-empty, printable, no whitespace (so it cannot split a header)."""
    if not isinstance(token, str) or not token or any(c.isspace() for c in token):
        raise ValueError("token must be a non-empty string without whitespace")
    if not token.isprintable() or not token.isascii():
        raise ValueError("token must be printable ASCII")
    return token


def headers(token: str) -> dict[str, str]:
    """The request headers: the bearer token and the client's name."""
    return {"Authorization": f"Bearer {token}", "User-Agent": USER_AGENT}


def match_path(match_id: str, tail: str = "") -> str:
    """``/v1/matches/{id}{tail}`` with the id escaped (an id is never trusted to be a path)."""
    if not match_id:
        raise ValueError("match_id must be a non-empty string")
    return f"{API}/matches/{quote(match_id, safe='')}{tail}"


def clamp_wait(wait: float) -> float:
    """``wait`` within [0, :data:`MAX_WAIT_S`]."""
    return min(max(0.0, float(wait)), MAX_WAIT_S)


PROMPT_PARTS: tuple[PromptPart, ...] = ("full", "turn", "none")


def prompt_params(prompt: PromptPart) -> dict[str, str]:
    """The query that asks for ``prompt`` (none for ``full``, the service's default)."""
    if prompt not in PROMPT_PARTS:
        raise ValueError(f"prompt must be one of {', '.join(PROMPT_PARTS)}")
    return {} if prompt == "full" else {"prompt": prompt}


class SystemPrompt:
    """A seat client's copy of the match's system prompt, for polls with ``prompt="turn"``:
    the service leaves the system prompt (fixed for the match, ~9 KB) out of those, so the
    client asks for both until it holds one and fills it in after."""

    def __init__(self) -> None:
        self.text: str | None = None

    def params(self, wait: float, prompt: PromptPart) -> dict[str, str]:
        """The long-poll's query for ``wait`` seconds and the prompt part asked for."""
        sent = prompt_params(prompt)  # checks it
        if prompt == "turn" and self.text is None:
            sent = {}  # both prompts until the client holds the system prompt
        return {"wait": f"{wait:g}", **sent}

    def fill(self, decision: Decision | None, prompt: PromptPart) -> Decision | None:
        """``decision`` with the kept system prompt in (``prompt="turn"``); keeps the first."""
        if decision is not None and prompt == "turn":
            if self.text is None:
                self.text = decision.prompt.system
            else:
                decision.prompt.system = self.text
        return decision


def poll_timeout(timeout: float, wait: float) -> httpx.Timeout:
    """A long-poll's timeouts: the read may take the whole wait plus the usual margin."""
    return httpx.Timeout(timeout, read=wait + timeout)


def json_of(response: httpx.Response) -> Any:
    """The JSON of a 2xx answer; the typed error otherwise."""
    if response.status_code >= 400:
        raise error_for(response)
    return response.json()


def decision_of(response: httpx.Response) -> Decision | None:
    """A long-poll's answer: the decision, None on 204, a typed error otherwise."""
    if response.status_code == 204:
        return None
    return Decision.model_validate(json_of(response))


def events_of(response: httpx.Response) -> list[dict[str, Any]]:
    """A move's answer: the events it caused as this seat sees them (a bare list, or the list
    under ``events``)."""
    body = json_of(response)
    if isinstance(body, dict):
        body = body.get("events", [])
    return [e for e in body if isinstance(e, dict)] if isinstance(body, list) else []


def stream_headers(token: str, last_event_id: str | None) -> dict[str, str]:
    """The headers of an event stream request (resumed after ``last_event_id`` when given)."""
    out = headers(token) | {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
    if last_event_id is not None:
        out["Last-Event-ID"] = last_event_id
    return out


class Backoff:
    """Exponential backoff with full jitter: ``first_s``, doubling up to ``max_s``; a server's
    ``Retry-After`` hint wins when it is longer. ``give_up_s`` bounds a run of failures."""

    def __init__(self, first_s: float = 0.2, max_s: float = 5.0, give_up_s: float = 120.0):
        self.first_s = first_s
        self.max_s = max_s
        self.give_up_s = give_up_s
        self.failures = 0
        self.failing_s = 0.0

    def reset(self) -> None:
        """A success: the next failure starts from ``first_s`` again."""
        self.failures = 0
        self.failing_s = 0.0

    def next_delay(self, retry_after: float | None = None) -> float | None:
        """The delay before the next try, or None once failures have lasted ``give_up_s``."""
        if self.failing_s >= self.give_up_s:
            return None
        cap = min(self.max_s, self.first_s * 2**self.failures)
        delay = random.uniform(cap / 2, cap)
        if retry_after is not None:
            delay = max(delay, min(retry_after, self.max_s * 4))
        self.failures += 1
        self.failing_s += delay
        return delay
