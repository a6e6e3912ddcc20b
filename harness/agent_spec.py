"""Agent specs: ``http:URL`` (a push agent the harness POSTs each decision to) and ``a2a:URL``
(an Agent2Agent agent, its card at ``URL/.well-known/agent-card.json``).

The URL is written whole after the kind: ``http:http://127.0.0.1:8700/decide``,
``a2a:https://agents.example.org/bang``. Options are the per-model options that make sense for
an agent: ``display_name``, ``retry_budget``, ``timeout_s`` and ``api_key_env`` (the variable
holding the bearer token; default :data:`TOKEN_ENV` of the kind). Everything here fails with a
:class:`~.model_spec.ModelSpecError` naming the problem, so a CLI stops before a match starts.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal
from urllib.parse import urlsplit

from .model_spec import ModelOptions, ModelSpecError
from .provenance import redact_credentials

AgentKind = Literal["http", "a2a"]
AGENT_KINDS: Final[tuple[str, ...]] = ("http", "a2a")
TOKEN_ENV: Final[dict[str, str]] = {
    "http": "BANGARENA_HTTP_AGENT_TOKEN",
    "a2a": "BANGARENA_A2A_AGENT_TOKEN",
}
"""Where an agent's bearer token is read from unless its options name another variable."""
AGENT_OPTIONS: Final[tuple[str, ...]] = ("display_name", "retry_budget", "timeout_s", "api_key_env")
"""The options an agent participant takes (the rest are about models)."""


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """A parsed agent spec."""

    kind: AgentKind
    url: str

    def __str__(self) -> str:
        return f"{self.kind}:{self.url}"

    @property
    def origin(self) -> tuple[str, str, int]:
        """(scheme, host, port) of the URL: the only place the token may go."""
        return origin_of(self.url)  # type: ignore[return-value]

    @property
    def label(self) -> str:
        """A display name: the kind and the URL without credentials."""
        return redact_credentials(str(self))


def origin_of(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of ``url`` (default ports filled in), or None if it has none."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme.lower())
    except ValueError:
        return None
    if not parts.hostname or port is None:
        return None
    return (parts.scheme.lower(), parts.hostname.lower(), port)


def is_agent_spec(text: str) -> bool:
    """Whether ``text`` names an agent (``http:…`` or ``a2a:…``)."""
    return isinstance(text, str) and text.strip().partition(":")[0] in AGENT_KINDS


def parse_agent_spec(text: str) -> AgentSpec:
    """Parse ``http:URL`` or ``a2a:URL``; raises ModelSpecError."""
    t = text.strip()
    kind, sep, url = t.partition(":")
    if kind not in AGENT_KINDS or not sep:
        raise ModelSpecError(f"not an agent spec: {redact_credentials(t)!r}")
    if any(ch.isspace() or not ch.isprintable() for ch in url):
        raise ModelSpecError(f"agent spec {kind}:… has whitespace or control characters in its URL")
    shown = redact_credentials(url)
    if not url.lower().startswith(("http://", "https://")):
        raise ModelSpecError(
            f"agent spec {kind}:{shown!r}: expected {kind}:http://HOST[:PORT]/PATH "
            f"(or https://), the URL written whole after '{kind}:'"
        )
    if origin_of(url) is None:
        raise ModelSpecError(f"agent spec {kind}:{shown!r}: the URL has no valid host or port")
    return AgentSpec(kind, url)  # type: ignore[arg-type]


def check_agent_options(spec: AgentSpec, options: ModelOptions) -> None:
    """Refuse model-only options on an agent (they would silently do nothing)."""
    extra = sorted(k for k in options.model_fields_set if k not in AGENT_OPTIONS)
    if extra:
        raise ModelSpecError(
            f"agent {spec.label!r} takes only the options {', '.join(AGENT_OPTIONS)} "
            f"(got {', '.join(extra)})"
        )


def agent_token(
    spec: AgentSpec, options: ModelOptions | None, environ: Mapping[str, str] | None = None
) -> str | None:
    """The bearer token for ``spec``: from ``options.api_key_env`` (required to be set when
    named), else from :data:`TOKEN_ENV` of the kind when set, else None (no header)."""
    env = os.environ if environ is None else environ
    if options is not None and options.api_key_env:
        value = env.get(options.api_key_env)
        if not value:
            raise ModelSpecError(f"agent {spec.label!r} needs a token: set {options.api_key_env}")
        return value
    return env.get(TOKEN_ENV[spec.kind]) or None


__all__ = [
    "AGENT_KINDS",
    "AGENT_OPTIONS",
    "TOKEN_ENV",
    "AgentKind",
    "AgentSpec",
    "agent_token",
    "check_agent_options",
    "is_agent_spec",
    "origin_of",
    "parse_agent_spec",
]
