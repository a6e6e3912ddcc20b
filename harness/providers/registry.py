"""Providers registered by name and imported lazily (an SDK is imported only when used)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .base import Provider

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
    return factory(parsed, options, policy=policy, seed=seed, environ=environ)


def _sdk_kwargs(spec: ModelSpec, options: ModelOptions, environ) -> dict[str, Any]:
    from ..model_spec import api_key_for

    key = api_key_for(spec, options, environ)
    if key is None:
        # A local server needs no key, but the SDKs refuse to start without one.
        from .openai_provider import DUMMY_API_KEY

        key = DUMMY_API_KEY
    return {"base_url": spec.base_url, "api_key": key, "concurrency": options.concurrency}


def _make_openai(spec: ModelSpec, options: ModelOptions, *, environ=None, **_: Any) -> Provider:
    from .openai_provider import OpenAIProvider

    return OpenAIProvider(spec.model, **_sdk_kwargs(spec, options, environ))


def _make_anthropic(spec: ModelSpec, options: ModelOptions, *, environ=None, **_: Any) -> Provider:
    from .anthropic_provider import AnthropicProvider

    return AnthropicProvider(spec.model, **_sdk_kwargs(spec, options, environ))


def _make_litellm(spec: ModelSpec, options: ModelOptions, *, environ=None, **_: Any) -> Provider:
    import os

    from ..model_spec import ModelSpecError
    from .litellm_provider import LiteLLMProvider, import_litellm

    try:
        litellm = import_litellm()
    except ImportError as exc:
        raise ModelSpecError(f"provider 'litellm' is not available: {exc}") from None
    env = os.environ if environ is None else environ
    api_key = env.get(options.api_key_env) if options.api_key_env else None
    if options.api_key_env and not api_key:
        raise ModelSpecError(f"model {str(spec)!r} needs an API key: set {options.api_key_env}")
    if spec.base_url is None and api_key is None:
        check = litellm.validate_environment(model=spec.model)
        if not check.get("keys_in_environment", True) and check.get("missing_keys"):
            raise ModelSpecError(
                f"model {str(spec)!r} needs an API key: set {' and '.join(check['missing_keys'])}"
            )
    if api_key is None and spec.base_url is not None:
        from .openai_provider import DUMMY_API_KEY

        api_key = DUMMY_API_KEY  # a local server may need none; litellm's clients insist
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
