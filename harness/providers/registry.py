"""Providers registered by name and imported lazily (an SDK is imported only when used)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .base import DUMMY_API_KEY, Provider

if TYPE_CHECKING:
    from ..model_spec import ModelOptions, ModelSpec

# name -> "module:factory"; a factory takes (spec, options, **kwargs) and returns a Provider.
_FACTORIES: dict[str, str | Callable[..., Provider]] = {
    "openai": f"{__package__}.registry:_make_openai",
    "anthropic": f"{__package__}.registry:_make_anthropic",
    "litellm": f"{__package__}.registry:_make_litellm",
    "scripted": f"{__package__}.registry:_make_scripted",
}


def provider_names() -> tuple[str, ...]:
    """Every registered provider name."""
    return tuple(_FACTORIES)


def register_provider(name: str, factory: str | Callable[..., Provider]) -> None:
    """Add a provider: a factory `(spec, options, **kwargs) -> Provider` or its "module:attr"."""
    _FACTORIES[name] = factory


def _resolve(name: str) -> Callable[..., Provider]:
    factory = _FACTORIES[name]
    if isinstance(factory, str):
        module, _, attr = factory.partition(":")
        factory = getattr(importlib.import_module(module), attr)
    return factory


def get_provider(
    spec: str | ModelSpec,
    options: ModelOptions | None = None,
    *,
    policy: Callable[[Any], str] | None = None,
    seed: int = 0,
    environ: Mapping[str, str] | None = None,
) -> Provider:
    """Build the provider for a model spec.

    Raises `ModelSpecError` (before any request) for an unknown provider, a malformed spec, a
    missing API key or a missing optional package (litellm). `policy` and `seed` are for the
    scripted provider: its bot policy (default: the `rule`/`random` bot named by the spec) and
    the seed of its fault stream.
    """
    from ..model_spec import ModelOptions, ModelSpecError, parse_model_spec

    parsed = parse_model_spec(spec) if isinstance(spec, str) else spec
    if parsed.provider not in _FACTORIES:
        raise ModelSpecError(
            f"unknown provider {parsed.provider!r}; valid providers: {', '.join(_FACTORIES)}"
        )
    options = options or ModelOptions()
    try:
        factory = _resolve(parsed.provider)
    except ImportError as exc:
        raise ModelSpecError(f"provider {parsed.provider!r} is not available: {exc}") from None
    provider = factory(parsed, options, policy=policy, seed=seed, environ=environ)
    if not parsed.is_scripted:
        from ..pricing import prepare_prices

        prepare_prices(parsed, options)  # litellm's cost map loads now, not mid-match
    return provider


def _sdk_kwargs(
    spec: ModelSpec, options: ModelOptions, environ
) -> tuple[dict[str, Any], str | None]:
    """What the openai and anthropic providers are built with, and the variable the key came
    from. The key is always passed (the real one, or the placeholder), so an SDK never falls
    back on its own environment variable for a host the key was not meant for."""
    from ..model_spec import credential_for

    cred = credential_for(spec, options, environ)
    kwargs = {
        "base_url": spec.base_url,
        "api_key": cred.key or DUMMY_API_KEY,
        "concurrency": options.concurrency,
    }
    return kwargs, cred.env_var


def _make_openai(spec: ModelSpec, options: ModelOptions, *, environ=None, **_: Any) -> Provider:
    from .openai_provider import OpenAIProvider

    kwargs, _var = _sdk_kwargs(spec, options, environ)
    return OpenAIProvider(spec.model, **kwargs)


def _make_anthropic(spec: ModelSpec, options: ModelOptions, *, environ=None, **_: Any) -> Provider:
    from .anthropic_provider import AnthropicProvider

    kwargs, var = _sdk_kwargs(spec, options, environ)
    if var == "ANTHROPIC_AUTH_TOKEN":  # a bearer token (Authorization), not an x-api-key
        kwargs["auth_token"], kwargs["api_key"] = kwargs["api_key"], None
    return AnthropicProvider(spec.model, **kwargs)


def _make_litellm(spec: ModelSpec, options: ModelOptions, *, environ=None, **_: Any) -> Provider:
    import os

    from ..model_spec import ModelSpecError, credential_for
    from .litellm_provider import LiteLLMProvider, import_litellm

    try:
        litellm = import_litellm()
    except ImportError as exc:
        raise ModelSpecError(f"provider 'litellm' is not available: {exc}") from None
    env = os.environ if environ is None else environ
    if spec.base_url is None:
        # litellm's default endpoints (or its backends' base URL variables) with its own keys.
        api_key = credential_for(spec, options, env).key if options.api_key_env else None
        if api_key is None:
            check = litellm.validate_environment(model=spec.model)
            if not check.get("keys_in_environment", True) and check.get("missing_keys"):
                raise ModelSpecError(
                    f"model {str(spec)!r} needs an API key: set "
                    f"{' and '.join(check['missing_keys'])}"
                )
    else:
        # An explicit api_key always: litellm would otherwise send its backend's default key
        # (OPENAI_API_KEY, ...) from the environment to whatever api_base it is given.
        api_key = credential_for(spec, options, env).key or DUMMY_API_KEY
    return LiteLLMProvider(
        spec.model, base_url=spec.base_url, api_key=api_key, concurrency=options.concurrency
    )


def _make_scripted(
    spec: ModelSpec, options: ModelOptions, *, policy=None, seed: int = 0, **_: Any
) -> Provider:
    from .scripted import ScriptedProvider, bot_policy

    return ScriptedProvider(
        policy or bot_policy(spec.model, seed),
        faults=options.faults,
        delay_s=options.delay_s,
        seed=seed,
        label=spec.model,
    )
