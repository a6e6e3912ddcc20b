"""Model spec strings (`PROVIDER:MODEL[@BASE_URL]`) and per-model options from TOML.

Everything here fails early with a `ModelSpecError` whose message names the problem, so the CLI
can exit 2 before any match starts.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .providers.base import AnswerMode
from .providers.scripted import FAULT_KINDS

PROVIDERS: tuple[str, ...] = ("openai", "anthropic", "litellm", "scripted")
SCRIPTED_POLICIES: tuple[str, ...] = ("rule", "random")
DEFAULT_SCRIPTED_POLICY = "rule"

# Why these: OpenAI (and vLLM/llama.cpp/Ollama) enforce strict JSON Schema output; Anthropic's
# forced tool works on every Claude model (structured outputs only on recent ones); litellm passes
# `response_format` on and translates it where the backend lacks it; scripted answers in text.
DEFAULT_ANSWER_MODES: dict[str, AnswerMode] = {
    "openai": "json_schema",
    "anthropic": "tool",
    "litellm": "json_schema",
    "scripted": "text",
}

# The environment variable each provider reads its key from (litellm checks its own per backend).
API_KEY_ENV: dict[str, tuple[str, ...]] = {
    "openai": ("OPENAI_API_KEY",),
    "anthropic": ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"),
}
BASE_URL_ENV: dict[str, str] = {"openai": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL"}
OFFICIAL_API_HOSTS: dict[str, str] = {"openai": "api.openai.com", "anthropic": "api.anthropic.com"}


class ModelSpecError(ValueError):
    """A model spec, option file or credential problem found before a match starts."""


class ModelSpec(BaseModel):
    """A parsed `PROVIDER:MODEL[@BASE_URL]`; for `scripted` the model is the policy name."""

    model_config = ConfigDict(frozen=True)

    provider: str
    model: str
    base_url: str | None = None

    def __str__(self) -> str:
        at = f"@{self.base_url}" if self.base_url else ""
        return f"{self.provider}:{self.model}{at}"

    @property
    def is_scripted(self) -> bool:
        return self.provider == "scripted"


def parse_model_spec(s: str) -> ModelSpec:
    """Parse a model spec.

    The provider is the text before the first `:`; the base URL starts at the last `@` that is
    followed by `http://` or `https://` (so `openai:qwen2.5:7b@http://127.0.0.1:11434/v1`,
    `anthropic:claude-3-5-sonnet@20241022` and `openai:m@http://user:pw@host/v1` all parse).
    `scripted`, `scripted:rule` and `scripted:random` name the offline provider and its bot
    policy. Anything else raises ModelSpecError, never another exception.
    """
    if not isinstance(s, str) or not s.strip():
        raise ModelSpecError("empty model spec; expected PROVIDER:MODEL[@BASE_URL]")
    text = s.strip()
    if any(ch.isspace() or not ch.isprintable() for ch in text):
        raise ModelSpecError(f"model spec {_shown(s)} contains whitespace or control characters")
    if text == "scripted":
        return ModelSpec(provider="scripted", model=DEFAULT_SCRIPTED_POLICY)
    provider, sep, rest = text.partition(":")
    if not sep:
        raise ModelSpecError(
            f"malformed model spec {_shown(s)}: expected PROVIDER:MODEL[@BASE_URL], "
            f"PROVIDER one of {', '.join(PROVIDERS)}"
        )
    if provider not in PROVIDERS:
        raise ModelSpecError(
            f"unknown provider {_shown(provider)} in model spec {_shown(s)}; valid providers: "
            f"{', '.join(PROVIDERS)}"
        )
    model, base_url = rest, None
    at = max(rest.rfind("@http://"), rest.rfind("@https://"))
    if at >= 0:
        model, base_url = rest[:at], rest[at + 1 :]
        _check_base_url(base_url, s)
    if not model:
        raise ModelSpecError(f"malformed model spec {_shown(s)}: the model name is empty")
    if provider == "scripted":
        if base_url is not None:
            raise ModelSpecError(f"model spec {_shown(s)}: the scripted provider takes no base URL")
        if model not in SCRIPTED_POLICIES:
            raise ModelSpecError(
                f"unknown scripted policy {_shown(model)} in {_shown(s)}; "
                f"valid: {', '.join(SCRIPTED_POLICIES)}"
            )
    return ModelSpec(provider=provider, model=model, base_url=base_url)


def _shown(text: str, limit: int = 120) -> str:
    """``repr(text)`` cut to about ``limit`` characters: messages stay one readable line."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "…"


def _check_base_url(url: str, spec: str) -> None:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 — reading it validates it (a range or a non-number raises)
    except ValueError as exc:
        raise ModelSpecError(
            f"malformed base URL {_shown(url)} in model spec {_shown(spec)}: {exc}"
        ) from None
    if not parts.hostname:
        raise ModelSpecError(f"malformed base URL {_shown(url)} in model spec {_shown(spec)}")


class ModelOptions(BaseModel):
    """Per-model options (one TOML table per model). Unset fields fall back to defaults."""

    model_config = ConfigDict(extra="forbid")

    spec: str | None = Field(
        default=None, description="the model spec, when the table is keyed by a display name"
    )
    display_name: str | None = None
    answer_mode: AnswerMode | None = Field(
        default=None, description="default per provider: see DEFAULT_ANSWER_MODES"
    )
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    max_tokens: int | None = Field(default=None, ge=1, le=200_000)
    reasoning_effort: str | None = None
    timeout_s: float | None = Field(default=None, gt=0.0, description="per-attempt HTTP timeout")
    retry_budget: int = Field(default=2, ge=0, le=20)
    token_budget: int | None = Field(default=None, ge=1, description="per seat and match")
    cost_budget_usd: float | None = Field(default=None, gt=0.0, description="per seat and match")
    price_input_per_mtok: float | None = Field(default=None, ge=0.0)
    price_output_per_mtok: float | None = Field(default=None, ge=0.0)
    price_cached_per_mtok: float | None = Field(default=None, ge=0.0)
    concurrency: int | None = Field(default=None, ge=1, description="max requests in flight")
    constrain_ids: bool | None = Field(
        default=None,
        description="json_schema/tool modes: send the answer schema whose move is an enum of the "
        "legal ids (the fixed schema keeps provider prompt caches warmer)",
    )
    api_key_env: str | None = Field(
        default=None, description="read the API key from this variable (e.g. OPENROUTER_API_KEY)"
    )
    faults: dict[str, float] = Field(
        default_factory=dict, description="scripted only: fault kind -> probability per answer"
    )
    delay_s: float = Field(default=1.0, ge=0.0, description="scripted only: the delay fault")

    @field_validator("spec")
    @classmethod
    def _spec_parses(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                parse_model_spec(value)
            except ModelSpecError as exc:
                raise ValueError(str(exc)) from None
        return value

    @field_validator("faults")
    @classmethod
    def _faults_known(cls, value: dict[str, float]) -> dict[str, float]:
        for kind, p in value.items():
            if kind not in FAULT_KINDS:
                raise ValueError(f"unknown fault {kind!r}; valid: {', '.join(FAULT_KINDS)}")
            if not 0.0 <= p <= 1.0:
                raise ValueError(f"fault {kind!r} probability {p} is not within [0, 1]")
        if sum(value.values()) > 1.0 + 1e-9:
            raise ValueError(f"fault probabilities add up to {sum(value.values()):g} > 1")
        return value

    @model_validator(mode="after")
    def _effort_not_blank(self) -> ModelOptions:
        if self.reasoning_effort is not None and not self.reasoning_effort.strip():
            raise ValueError("reasoning_effort is blank")
        return self


def default_answer_mode(provider: str) -> AnswerMode:
    """The answer mode a provider uses unless the options say otherwise."""
    return DEFAULT_ANSWER_MODES[provider]


def answer_mode_for(spec: ModelSpec, options: ModelOptions | None) -> AnswerMode:
    """The effective answer mode of a seat."""
    if options is not None and options.answer_mode is not None:
        return options.answer_mode
    return default_answer_mode(spec.provider)


def _render_validation_error(where: str, exc: ValidationError) -> str:
    lines = [f"bad model options {where}:"]
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "(table)"
        if err["type"] == "extra_forbidden":
            valid = ", ".join(n for n in ModelOptions.model_fields)
            lines.append(f"  unknown option {loc!r} (valid options: {valid})")
        else:
            msg = err["msg"].removeprefix("Value error, ")
            lines.append(f"  {loc}: {msg} (got {err.get('input')!r})")
    return "\n".join(lines)


def model_options(data: Mapping[str, Any], where: str = "") -> ModelOptions:
    """Validate one table of options, with a readable error."""
    try:
        return ModelOptions.model_validate(dict(data))
    except ValidationError as exc:
        raise ModelSpecError(_render_validation_error(where or "(inline)", exc)) from None


def load_model_options(path: str | Path) -> dict[str, ModelOptions]:
    """Read a TOML file of per-model tables, keyed by model spec or display name.

    ```toml
    ["openai:gpt-4.1-mini"]
    answer_mode = "json_schema"
    price_input_per_mtok = 0.40

    [local-qwen]            # a name: then `spec` says which model it is
    spec = "openai:qwen2.5:7b@http://127.0.0.1:11434/v1"
    ```
    """
    file = Path(path)
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise ModelSpecError(
            f"cannot read model options file {str(file)!r}: {exc.strerror}"
        ) from None
    try:
        doc = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ModelSpecError(f"model options file {str(file)!r} is not valid TOML: {exc}") from None
    table: dict[str, ModelOptions] = {}
    for key, value in doc.items():
        if not isinstance(value, dict):
            raise ModelSpecError(
                f"model options file {str(file)!r}: {key!r} must be a table "
                f'(write ["{key}"] above its options), got {type(value).__name__}'
            )
        options = model_options(value, f"for {key!r} in {str(file)!r}")
        if options.spec is None:
            try:
                parse_model_spec(key)
            except ModelSpecError as exc:
                raise ModelSpecError(
                    f"model options file {str(file)!r}: table {key!r} is neither a model spec "
                    f'nor has a `spec = "PROVIDER:MODEL"` option ({exc})'
                ) from None
        table[key] = options
    return table


def resolve_model(
    name: str, table: Mapping[str, ModelOptions] | None = None
) -> tuple[ModelSpec, ModelOptions]:
    """A seat's model: `name` is a table key, a display name or a spec string.

    Lookup order: the exact key; a table whose `display_name` is `name`; a table keyed by the
    spec (with or without its base URL) or whose `spec` option is that spec; otherwise default
    options. A table keyed by a plain name gets that name as its display name unless it sets one.
    """
    table = table or {}

    def named(key: str, options: ModelOptions) -> tuple[ModelSpec, ModelOptions]:
        spec = parse_model_spec(options.spec or key)
        if options.spec is not None and options.display_name is None:
            options = options.model_copy(update={"display_name": key})
        return spec, options

    if name in table:
        return named(name, table[name])
    for key, options in table.items():
        if options.display_name == name:
            return named(key, options)
    spec = parse_model_spec(name)
    for key in (str(spec), f"{spec.provider}:{spec.model}"):
        if key in table:
            return spec, table[key]
    for key, options in table.items():
        if options.spec is not None and parse_model_spec(options.spec) == spec:
            return named(key, options)
    return spec, ModelOptions()


def base_url_in_effect(spec: ModelSpec, environ: Mapping[str, str] | None = None) -> str | None:
    """The explicit `@BASE_URL`, else the SDK's own environment variable, else None."""
    env = os.environ if environ is None else environ
    if spec.base_url:
        return spec.base_url
    var = BASE_URL_ENV.get(spec.provider)
    return (env.get(var) or None) if var else None


@dataclass(frozen=True, slots=True)
class Credential:
    """The key a seat sends and the variable it was read from; ``key`` None: no real key is
    sent (the providers send the placeholder ``bangarena-no-key``, since the SDKs insist)."""

    key: str | None
    env_var: str | None = None


def key_family(spec: ModelSpec) -> str | None:
    """Whose default keys a seat's requests may carry: ``openai`` or ``anthropic`` for those
    providers and for litellm's ``openai/…`` and ``anthropic/…`` models; None otherwise."""
    if spec.provider in API_KEY_ENV:
        return spec.provider
    if spec.provider == "litellm" and "/" in spec.model:
        prefix = spec.model.split("/", 1)[0]
        return prefix if prefix in API_KEY_ENV else None
    return None


def _url_key(url: str) -> tuple[str, str, int | None, str] | None:
    try:
        parts = urlsplit(url.strip())
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme.lower())
    except ValueError:
        return None
    if not parts.hostname:
        return None
    return (parts.scheme.lower(), parts.hostname.lower(), port, parts.path.rstrip("/"))


def same_base_url(a: str | None, b: str | None) -> bool:
    """Whether two base URLs name the same endpoint (scheme, host, port and path; a trailing
    slash, letter case of scheme and host and a default port do not count)."""
    if not a or not b:
        return False
    ka, kb = _url_key(a), _url_key(b)
    return ka is not None and ka == kb


def is_official_api(family: str, url: str) -> bool:
    """True for the provider's own API over HTTPS (``https://api.openai.com/…``,
    ``https://api.anthropic.com``)."""
    key = _url_key(url)
    return key is not None and key[0] == "https" and key[1] == OFFICIAL_API_HOSTS.get(family)


def default_key_allowed(spec: ModelSpec, environ: Mapping[str, str] | None = None) -> bool:
    """Whether the provider's default key (``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, …) may go
    where this seat's requests go: to the provider's own API, or to the base URL the user set in
    that SDK's own variable (``OPENAI_BASE_URL``, ``ANTHROPIC_BASE_URL``). An explicit
    ``@BASE_URL`` elsewhere never gets it: such a host gets the ``api_key_env`` key or none."""
    family = key_family(spec)
    if family is None:
        return False
    if spec.base_url is None:
        return True  # the SDK's default endpoint, or the one its own variable names
    env = os.environ if environ is None else environ
    return is_official_api(family, spec.base_url) or same_base_url(
        spec.base_url, env.get(BASE_URL_ENV[family])
    )


def credential_for(
    spec: ModelSpec, options: ModelOptions | None = None, environ: Mapping[str, str] | None = None
) -> Credential:
    """The key a seat sends, following the rule of :func:`default_key_allowed`.

    ``api_key_env`` (options) names the variable explicitly and is required to be set. Else the
    provider's default variables, when the key may go where the requests go. Raises
    ModelSpecError when a key is needed and missing: for the provider's own API; not for another
    base URL (local servers need none, and a server that wants one answers 401).
    """
    env = os.environ if environ is None else environ
    if options is not None and options.api_key_env:
        var = options.api_key_env
        if not env.get(var):
            raise ModelSpecError(f"model {str(spec)!r} needs an API key: set {var}")
        return Credential(env[var], var)
    family = key_family(spec)
    if family is None or not default_key_allowed(spec, env):
        return Credential(None)
    names = API_KEY_ENV[family] if spec.provider == family else API_KEY_ENV[family][:1]
    for var in names:
        if env.get(var):
            return Credential(env[var], var)
    if spec.provider == "litellm" and spec.base_url is None:
        return Credential(None)  # litellm names the variables it misses itself
    target = base_url_in_effect(spec, env)
    if target is not None and not is_official_api(family, target):
        return Credential(None)
    raise ModelSpecError(
        f"model {str(spec)!r} needs an API key: set {' or '.join(names)} "
        f"(or point it at a local server with @http://HOST:PORT/...)"
    )


def api_key_for(
    spec: ModelSpec, options: ModelOptions | None = None, environ: Mapping[str, str] | None = None
) -> str | None:
    """The API key the seat will send, or None (then a placeholder goes): see
    :func:`credential_for`."""
    return credential_for(spec, options, environ).key


__all__ = [
    "API_KEY_ENV",
    "BASE_URL_ENV",
    "DEFAULT_ANSWER_MODES",
    "FAULT_KINDS",
    "OFFICIAL_API_HOSTS",
    "PROVIDERS",
    "SCRIPTED_POLICIES",
    "Credential",
    "ModelOptions",
    "ModelSpec",
    "ModelSpecError",
    "answer_mode_for",
    "api_key_for",
    "base_url_in_effect",
    "credential_for",
    "default_answer_mode",
    "default_key_allowed",
    "is_official_api",
    "key_family",
    "load_model_options",
    "model_options",
    "parse_model_spec",
    "resolve_model",
    "same_base_url",
]
