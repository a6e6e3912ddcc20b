"""Cost of one attempt in USD: the per-model price table first, else litellm's cost map."""

from __future__ import annotations

import functools
import importlib.util
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model_spec import ModelOptions, ModelSpec
    from .providers.base import Usage

MTOK = 1_000_000


def cost_usd(usage: Usage, options: ModelOptions | None, model: str | ModelSpec) -> float | None:
    """The cost of `usage` for `model` (a bare model name or a `PROVIDER:MODEL` spec).

    With `price_input_per_mtok` and `price_output_per_mtok` set in the options: uncached input
    and cache writes at the input price, cache reads at `price_cached_per_mtok` (the input price
    when unset), output (reasoning included) at the output price. Otherwise litellm's cost map
    (``litellm.model_cost``, offline) when litellm is installed and knows the model; otherwise
    None (unknown, not free).
    Scripted seats cost nothing and have no price: None.
    """
    if options is not None and (
        options.price_input_per_mtok is not None and options.price_output_per_mtok is not None
    ):
        p_in = options.price_input_per_mtok
        p_cached = (
            options.price_cached_per_mtok if options.price_cached_per_mtok is not None else p_in
        )
        return _cost(
            usage, p_in / MTOK, p_cached / MTOK, p_in / MTOK, options.price_output_per_mtok / MTOK
        )
    model = str(model)
    if model.startswith("scripted"):
        return None
    entry = litellm_prices(model)
    if entry is None:
        return None
    p_in, p_cached, p_write, p_out = entry
    return _cost(usage, p_in, p_cached, p_write, p_out)


def _cost(usage: Usage, p_in: float, p_cached: float, p_write: float, p_out: float) -> float:
    uncached = max(0, usage.input_tokens - usage.cached_tokens - usage.cache_write_tokens)
    return (
        uncached * p_in
        + usage.cached_tokens * p_cached
        + usage.cache_write_tokens * p_write
        + usage.output_tokens * p_out
    )


def _candidates(model: str) -> list[str]:
    provider, sep, name = model.partition(":")
    if not sep:
        return [model]
    name = name.rsplit("@http", 1)[0]
    if provider == "litellm":
        return [name, name.split("/", 1)[-1]]
    return [name, f"{provider}/{name}"]


@functools.cache
def litellm_cost_map() -> dict[str, Any]:
    """litellm's cost map through its public API (``litellm.model_cost``), read offline from
    the copy bundled with the package (``LITELLM_LOCAL_MODEL_COST_MAP``); empty when litellm is
    not installed. Importing litellm takes seconds: :func:`prepare_prices` does it before a
    match, not on its event loop."""
    if importlib.util.find_spec("litellm") is None:
        return {}
    from .providers.litellm_provider import import_litellm

    try:
        return import_litellm().model_cost
    except ImportError:  # installed but broken: prices unknown, as without it
        return {}


def prepare_prices(model: str | ModelSpec, options: ModelOptions | None = None) -> None:
    """Look the model's prices up now (loading litellm's cost map if they come from it), so
    that :func:`cost_usd` costs a dictionary lookup during a match."""
    if options is not None and (
        options.price_input_per_mtok is not None and options.price_output_per_mtok is not None
    ):
        return
    model = str(model)
    if not model.startswith("scripted"):
        litellm_prices(model)


@functools.lru_cache(maxsize=512)
def litellm_prices(model: str) -> tuple[float, float, float, float] | None:
    """(input, cache read, cache write, output) USD per token from litellm's cost map."""
    table = litellm_cost_map()
    for key in _candidates(model):
        entry = table.get(key)
        if not isinstance(entry, dict) or entry.get("input_cost_per_token") is None:
            continue
        p_in = float(entry["input_cost_per_token"])
        p_out = float(entry.get("output_cost_per_token") or 0.0)
        p_cached = entry.get("cache_read_input_token_cost")
        p_write = entry.get("cache_creation_input_token_cost")
        return (
            p_in,
            float(p_cached) if p_cached is not None else p_in,
            float(p_write) if p_write is not None else p_in,
            p_out,
        )
    return None
