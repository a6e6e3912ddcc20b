"""Model specs, per-model TOML options, credentials, the registry and pricing."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from bangarena.harness.model_spec import (
    DEFAULT_ANSWER_MODES,
    ModelOptions,
    ModelSpec,
    ModelSpecError,
    answer_mode_for,
    api_key_for,
    load_model_options,
    parse_model_spec,
    resolve_model,
)
from bangarena.harness.pricing import cost_usd, litellm_prices
from bangarena.harness.providers import ANSWER_MODES, Provider, Usage, get_provider


@pytest.mark.parametrize(
    ("text", "provider", "model", "base_url"),
    [
        (
            "openai:qwen2.5:7b@http://127.0.0.1:11434/v1",
            "openai",
            "qwen2.5:7b",
            "http://127.0.0.1:11434/v1",
        ),
        ("anthropic:claude-3-5-sonnet@20241022", "anthropic", "claude-3-5-sonnet@20241022", None),
        ("openai:gpt-4.1-mini", "openai", "gpt-4.1-mini", None),
        ("openai:a@b@https://host.example/v1", "openai", "a@b", "https://host.example/v1"),
        ("litellm:gemini/gemini-2.0-flash", "litellm", "gemini/gemini-2.0-flash", None),
        ("scripted", "scripted", "rule", None),
        ("scripted:rule", "scripted", "rule", None),
        ("scripted:random", "scripted", "random", None),
    ],
)
def test_specs_parse(text, provider, model, base_url):
    spec = parse_model_spec(text)
    assert (spec.provider, spec.model, spec.base_url) == (provider, model, base_url)
    assert parse_model_spec(str(spec)) == spec


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "gemini:flash",
            "unknown provider 'gemini'.*valid providers: openai, anthropic, litellm, scripted",
        ),
        ("gpt-4o", "malformed model spec"),
        ("openai:", "model name is empty"),
        ("openai:@http://127.0.0.1:1/v1", "model name is empty"),
        ("openai:x@http://", "malformed base URL"),
        ("openai:gpt 4", "whitespace"),
        ("", "empty model spec"),
        ("scripted:smart", "unknown scripted policy 'smart'"),
        ("scripted:rule@http://127.0.0.1:1", "takes no base URL"),
    ],
)
def test_bad_specs_name_the_problem(text, message):
    with pytest.raises(ModelSpecError, match=message):
        parse_model_spec(text)


def test_default_answer_modes_per_provider():
    assert set(DEFAULT_ANSWER_MODES.values()) <= set(ANSWER_MODES)
    assert answer_mode_for(parse_model_spec("openai:x"), None) == "json_schema"
    assert answer_mode_for(parse_model_spec("anthropic:x"), None) == "tool"
    assert answer_mode_for(parse_model_spec("scripted"), None) == "text"
    assert answer_mode_for(parse_model_spec("openai:x"), ModelOptions(answer_mode="text")) == "text"


TOML = """
["openai:gpt-4.1-mini"]
display_name = "GPT-4.1 mini"
temperature = 0.2
max_tokens = 400
price_input_per_mtok = 0.40
price_output_per_mtok = 1.60
price_cached_per_mtok = 0.10
concurrency = 8

[local-qwen]
spec = "openai:qwen2.5:7b@http://127.0.0.1:11434/v1"
answer_mode = "text"
timeout_s = 120
retry_budget = 3

[scripted]
faults = { invalid_json = 0.1, delay = 0.05 }
delay_s = 0.5
"""


def test_toml_options_load_and_resolve(tmp_path):
    path = tmp_path / "models.toml"
    path.write_text(TOML)
    table = load_model_options(path)
    assert set(table) == {"openai:gpt-4.1-mini", "local-qwen", "scripted"}
    spec, opts = resolve_model("openai:gpt-4.1-mini", table)
    assert opts.display_name == "GPT-4.1 mini" and opts.concurrency == 8 and opts.retry_budget == 2
    spec, opts = resolve_model("local-qwen", table)
    assert spec == ModelSpec(
        provider="openai", model="qwen2.5:7b", base_url="http://127.0.0.1:11434/v1"
    )
    assert (
        opts.display_name == "local-qwen" and opts.answer_mode == "text" and opts.retry_budget == 3
    )
    # The spec itself, or a display name, finds the same table.
    assert resolve_model("openai:qwen2.5:7b@http://127.0.0.1:11434/v1", table)[1].timeout_s == 120
    assert resolve_model("GPT-4.1 mini", table) == resolve_model("openai:gpt-4.1-mini", table)
    spec, opts = resolve_model("scripted", table)
    assert opts.faults == {"invalid_json": 0.1, "delay": 0.05} and opts.delay_s == 0.5
    spec, opts = resolve_model("openai:unlisted", table)
    assert opts == ModelOptions()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '["openai:x"]\ntempurature = 0.1\n',
            "unknown option 'tempurature'.*valid options: .*temperature",
        ),
        ('["openai:x"]\ntemperature = "hot"\n', "temperature: Input should be a valid number"),
        ('["openai:x"]\ntemperature = 5\n', "temperature: Input should be less than or equal to 2"),
        ('["openai:x"]\nanswer_mode = "xml"\n', "answer_mode: Input should be 'json_schema'"),
        ('["openai:x"]\nretry_budget = -1\n', "retry_budget"),
        ("[scripted]\nfaults = { explode = 0.1 }\n", "unknown fault 'explode'"),
        ("[scripted]\nfaults = { empty = 0.8, refusal = 0.8 }\n", "add up to 1.6"),
        ("[scripted]\nfaults = { empty = 1.5 }\n", r"not within \[0, 1\]"),
        ('["openai:x"\ntemperature = 1\n', "not valid TOML"),
        ("temperature = 1\n", "'temperature' must be a table"),
        ("[fast-one]\ntemperature = 1\n", "neither a model spec nor has a `spec"),
        ('[fast-one]\nspec = "nope:x"\n', "unknown provider 'nope'"),
    ],
)
def test_bad_toml_options_name_the_problem(tmp_path, body, message):
    path = tmp_path / "bad.toml"
    path.write_text(body)
    with pytest.raises(ModelSpecError, match=message):
        load_model_options(path)


def test_missing_options_file(tmp_path):
    with pytest.raises(ModelSpecError, match="cannot read model options file"):
        load_model_options(tmp_path / "absent.toml")


def test_api_keys():
    openai = parse_model_spec("openai:gpt-4.1-mini")
    with pytest.raises(ModelSpecError, match="needs an API key: set OPENAI_API_KEY"):
        api_key_for(openai, None, {})
    assert api_key_for(openai, None, {"OPENAI_API_KEY": "sk-1"}) == "sk-1"
    # A local server may need no key: explicit @base_url or the SDK's base URL variable.
    assert api_key_for(parse_model_spec("openai:q@http://127.0.0.1:8000/v1"), None, {}) is None
    assert api_key_for(openai, None, {"OPENAI_BASE_URL": "http://127.0.0.1:8000/v1"}) is None
    claude = parse_model_spec("anthropic:claude-3-5-sonnet@20241022")
    with pytest.raises(ModelSpecError, match="ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN"):
        api_key_for(claude, None, {})
    routed = ModelOptions(api_key_env="OPENROUTER_API_KEY")
    with pytest.raises(ModelSpecError, match="OPENROUTER_API_KEY"):
        api_key_for(openai, routed, {"OPENAI_API_KEY": "sk-1"})
    assert api_key_for(openai, routed, {"OPENROUTER_API_KEY": "or-1"}) == "or-1"
    assert api_key_for(parse_model_spec("scripted"), None, {}) is None


def test_get_provider_errors_before_any_request(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ModelSpecError, match="OPENAI_API_KEY"):
        get_provider("openai:gpt-4.1-mini")
    with pytest.raises(ModelSpecError, match="unknown provider"):
        get_provider("mistral:large")


def test_registry_builds_each_provider_lazily():
    p = get_provider("openai:m@http://127.0.0.1:9/v1")
    assert isinstance(p, Provider) and p.name == "openai"
    a = get_provider("anthropic:m@http://127.0.0.1:9")
    assert a.name == "anthropic"
    assert get_provider("scripted").name == "scripted"


def test_litellm_missing_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "litellm", None)  # import litellm -> ImportError
    with pytest.raises(ModelSpecError, match="pip install"):
        get_provider("litellm:openai/x@http://127.0.0.1:9/v1")


def test_cost_from_the_price_table():
    opts = ModelOptions(
        price_input_per_mtok=2.0, price_output_per_mtok=8.0, price_cached_per_mtok=0.5
    )
    usage = Usage(
        input_tokens=10_000, cached_tokens=4_000, output_tokens=1_000, reasoning_tokens=300
    )
    assert cost_usd(usage, opts, "openai:x") == pytest.approx(
        (6_000 * 2 + 4_000 * 0.5 + 1_000 * 8) / 1e6
    )
    no_cached_price = ModelOptions(price_input_per_mtok=2.0, price_output_per_mtok=8.0)
    assert cost_usd(usage, no_cached_price, "x") == pytest.approx((10_000 * 2 + 1_000 * 8) / 1e6)


def test_cost_unknown_or_scripted_is_none():
    usage = Usage(input_tokens=100, output_tokens=10)
    assert cost_usd(usage, None, "scripted:rule") is None
    assert cost_usd(usage, ModelOptions(), "openai:surely-not-a-real-model-name") is None


def test_cost_from_litellms_map_when_installed():
    if importlib.util.find_spec("litellm") is None:
        pytest.skip("litellm is not installed")
    from bangarena.harness.pricing import litellm_cost_map

    entry = litellm_cost_map()["gpt-4o-mini"]
    usage = Usage(input_tokens=1_000, cached_tokens=200, output_tokens=100)
    cached_price = entry.get("cache_read_input_token_cost", entry["input_cost_per_token"])
    expected = (
        800 * entry["input_cost_per_token"]
        + 200 * cached_price
        + 100 * entry["output_cost_per_token"]
    )
    assert cost_usd(usage, None, "openai:gpt-4o-mini") == pytest.approx(expected)
    assert litellm_prices("gpt-4o-mini") == litellm_prices("openai:gpt-4o-mini")
    spec = parse_model_spec("openai:gpt-4o-mini@http://127.0.0.1:9/v1")
    assert cost_usd(usage, None, spec) == pytest.approx(expected)


def test_retry_after_forms():
    import email.utils
    import time

    from bangarena.harness.providers import parse_retry_after

    assert parse_retry_after({"retry-after": "7"}) == 7.0
    assert parse_retry_after({"retry-after-ms": "1500", "retry-after": "7"}) == 1.5
    later = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 25 <= parse_retry_after({"retry-after": later}) <= 31
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None and parse_retry_after(None) is None
