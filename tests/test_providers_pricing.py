"""Prices from litellm's public cost API (``litellm.model_cost``), offline: importing litellm
through the harness never fetches its cost map from the network, and a seat's prices are looked
up when its provider is built, not on the match's event loop."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bangarena.harness.pricing import cost_usd, litellm_prices
from bangarena.harness.providers import Usage

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

# Run in a fresh interpreter whose sockets refuse to connect and record every try.
NO_NETWORK = textwrap.dedent(
    """
    import json, os, socket
    tries = []
    def refuse(*args, **kwargs):
        tries.append(repr(args)[:80])
        raise OSError("network disabled in this test")
    socket.socket.connect = refuse
    socket.socket.connect_ex = refuse
    socket.create_connection = refuse
    socket.getaddrinfo = refuse
    import sys
    from bangarena.harness.pricing import cost_usd
    from bangarena.harness.providers import Usage
    from bangarena.harness.providers.litellm_provider import import_litellm
    cost = cost_usd(Usage(input_tokens=1000, output_tokens=100), None, "openai:gpt-4o-mini")
    without_import = "litellm" not in sys.modules
    litellm = import_litellm()
    print(json.dumps({"cost": cost, "tries": tries, "without_import": without_import,
                      "flag": os.environ.get("LITELLM_LOCAL_MODEL_COST_MAP"),
                      "public": cost == (litellm.model_cost["gpt-4o-mini"]["input_cost_per_token"]
                                         * 1000 + litellm.model_cost["gpt-4o-mini"]
                                         ["output_cost_per_token"] * 100)}))
    """
)


def test_the_cost_map_is_read_offline() -> None:
    pytest.importorskip("litellm")
    env = {k: v for k, v in os.environ.items() if k != "LITELLM_LOCAL_MODEL_COST_MAP"}
    out = subprocess.run(
        [sys.executable, "-c", NO_NETWORK], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["tries"] == []  # no connection attempted: no download of the cost map
    assert result["flag"] == "True" and result["cost"] and result["public"]
    assert result["without_import"]  # the price came from the bundled file, not litellm's import


def test_the_bundled_file_gives_every_price_litellm_gives() -> None:
    """The cost map read from litellm's bundled file without importing litellm equals
    ``litellm.model_cost`` (its public API, offline) for every model and every price field."""
    pytest.importorskip("litellm")
    from bangarena.harness import pricing
    from bangarena.harness.providers.litellm_provider import import_litellm

    package = next(iter(importlib.util.find_spec("litellm").submodule_search_locations))
    ours = pricing._bundled_cost_map(Path(package))
    public = import_litellm().model_cost
    assert ours is not None and ours.keys() == public.keys()
    fields = (
        "input_cost_per_token", "output_cost_per_token", "cache_read_input_token_cost",
        "cache_creation_input_token_cost",
    )  # fmt: skip
    differ = [k for k in public if any(ours[k].get(f) != public[k].get(f) for f in fields)]
    assert differ == []
    # once litellm is imported its own map is read (prices a process registered included)
    pricing.litellm_cost_map.cache_clear()
    try:
        assert pricing.litellm_cost_map() is public
    finally:
        pricing.litellm_cost_map.cache_clear()
        pricing.litellm_prices.cache_clear()


def test_prices_come_from_litellms_public_cost_map() -> None:
    litellm = pytest.importorskip("litellm")
    name, entry = next(
        (k, v)
        for k, v in litellm.model_cost.items()
        if k.startswith("claude") and "/" not in k and v.get("cache_creation_input_token_cost")
        and v.get("cache_read_input_token_cost") and v.get("input_cost_per_token")
    )  # fmt: skip
    usage = Usage(input_tokens=1_000, cached_tokens=200, cache_write_tokens=300, output_tokens=50)
    expected = (
        500 * entry["input_cost_per_token"]
        + 200 * entry["cache_read_input_token_cost"]
        + 300 * entry["cache_creation_input_token_cost"]
        + 50 * entry["output_cost_per_token"]
    )
    assert cost_usd(usage, None, f"anthropic:{name}") == pytest.approx(expected)
    assert litellm_prices(f"litellm:anthropic/{name}") == litellm_prices(f"anthropic:{name}")


def test_building_a_provider_looks_its_prices_up(monkeypatch) -> None:
    pytest.importorskip("litellm")
    from bangarena.harness import pricing
    from bangarena.harness.providers import get_provider

    pricing.litellm_prices.cache_clear()
    get_provider("openai:gpt-4o-mini@http://127.0.0.1:9/v1")
    info = pricing.litellm_prices.cache_info()
    assert info.currsize == 1 and info.misses == 1
    # during the match: a cache hit, no import, no file read
    cost_usd(Usage(input_tokens=10), None, "openai:gpt-4o-mini@http://127.0.0.1:9/v1")
    assert pricing.litellm_prices.cache_info().hits == 1
