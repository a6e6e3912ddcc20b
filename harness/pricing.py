"""Cost of one attempt in USD: the per-model price table first, else litellm's cost map."""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import sys
from pathlib import Path
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


BUNDLED_COST_MAP = "model_prices_and_context_window_backup.json"
"""The cost map litellm ships in its package and loads with ``LITELLM_LOCAL_MODEL_COST_MAP``."""


@functools.cache
def litellm_cost_map() -> dict[str, Any]:
    """litellm's cost map, offline: the copy bundled with the package, read as litellm reads it
    (its ``alias_of`` rows served as their targets) without importing litellm, which takes
    seconds; ``litellm.model_cost`` itself when litellm is imported already (a process that
    registered its own prices) or when ``LITELLM_LOCAL_MODEL_COST_MAP`` is set to another value
    than true (the user asked litellm for its remote map). Empty when litellm is not
    installed. ``tests/test_providers_pricing.py`` holds the file's reading to
    ``litellm.model_cost``, price for price."""
    spec = importlib.util.find_spec("litellm")
    if spec is None:
        return {}
    from .providers.litellm_provider import LOCAL_COST_MAP_ENV, import_litellm

    local = os.environ.get(LOCAL_COST_MAP_ENV, "true").strip().lower() == "true"
    if local and "litellm" not in sys.modules and spec.submodule_search_locations:
        bundled = _bundled_cost_map(Path(next(iter(spec.submodule_search_locations))))
        if bundled is not None:
            return bundled
    try:
        return import_litellm().model_cost
    except ImportError:  # installed but broken: prices unknown, as without it
        return {}


def _bundled_cost_map(package: Path) -> dict[str, Any] | None:
    """The bundled map with each ``alias_of`` row replaced by the row it names (a row naming
    a missing row or another alias is dropped, as litellm drops it), or None when the file is
    missing or unreadable (a litellm laid out differently: then its import decides)."""
    try:
        table = json.loads((package / BUNDLED_COST_MAP).read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(table, dict):
        return None
    table.pop("fallback_generalizations", None)  # litellm's rules for unknown names, not a model
    pointers = {
        name: target
        for name, row in table.items()
        if isinstance(row, dict) and isinstance(target := row.get("alias_of"), str)
    }
    for name, target in pointers.items():
        row = table.get(target)
        if target in pointers or not isinstance(row, dict):
            del table[name]
        else:
            table[name] = row
    for row in list(table.values()):
        if isinstance(row, dict):
            for alias in row.get("aliases") or ():
                if isinstance(alias, str) and alias not in table:
                    table[alias] = row
    return table


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
