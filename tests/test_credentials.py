"""Which key goes where: a provider's default key (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...) only
to its own API or to the base URL set in that SDK's own variable; an explicit @URL gets the
``api_key_env`` key or none. Checked on the wire: the real SDKs (and litellm) against fake
servers that record every header."""

from __future__ import annotations

import pytest
from fakes import FakeBehaviour, FakeServer
from fakes.sample import make_request

from bangarena.harness.model_spec import (
    Credential,
    ModelOptions,
    ModelSpecError,
    credential_for,
    default_key_allowed,
    parse_model_spec,
    same_base_url,
)
from bangarena.harness.providers import get_provider
from bangarena.harness.providers.base import DUMMY_API_KEY

REAL_OPENAI = "sk-real-openai-key"
REAL_ANTHROPIC = "sk-ant-real-key"
REAL_TOKEN = "real-anthropic-bearer-token"
PROXY_KEY = "proxy-key-for-this-host"
SDK_VARS = (
    "OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_BASE_URL", "PROXY_KEY",
)  # fmt: skip


@pytest.fixture(scope="module")
def servers():
    with FakeServer("openai") as o, FakeServer("anthropic") as a:
        yield {"openai": o, "anthropic": a}


@pytest.fixture
def env(monkeypatch, servers):
    """The real keys in the environment, as on a developer's machine."""
    for var in SDK_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", REAL_OPENAI)
    monkeypatch.setenv("ANTHROPIC_API_KEY", REAL_ANTHROPIC)
    for fake in servers.values():
        fake.behaviour = FakeBehaviour()
    return monkeypatch


async def _headers(fake, spec: str, options: ModelOptions | None = None) -> dict[str, str]:
    """The headers of one request a provider built from ``spec`` sends to ``fake``."""
    provider = get_provider(spec, options)
    try:
        await provider.complete(make_request("text", model=parse_model_spec(spec).model))
    finally:
        await provider.aclose()
    return fake.requests[-1].headers


def _no_real_key(headers: dict[str, str]) -> None:
    sent = " ".join(headers.values())
    for secret in (REAL_OPENAI, REAL_ANTHROPIC, REAL_TOKEN):
        assert secret not in sent


# -- openai ------------------------------------------------------------------------------------
async def test_openai_default_key_never_goes_to_an_explicit_url(env, servers) -> None:
    fake = servers["openai"]
    headers = await _headers(fake, f"openai:gpt-x@{fake.base_url}")
    assert headers["authorization"] == f"Bearer {DUMMY_API_KEY}"
    _no_real_key(headers)


async def test_openai_explicit_url_gets_the_api_key_env_key(env, servers) -> None:
    env.setenv("PROXY_KEY", PROXY_KEY)
    fake = servers["openai"]
    headers = await _headers(
        fake, f"openai:gpt-x@{fake.base_url}", ModelOptions(api_key_env="PROXY_KEY")
    )
    assert headers["authorization"] == f"Bearer {PROXY_KEY}"
    _no_real_key(headers)


async def test_openai_default_key_goes_to_the_sdk_base_url_variable(env, servers) -> None:
    fake = servers["openai"]
    env.setenv("OPENAI_BASE_URL", fake.base_url)
    assert (await _headers(fake, "openai:gpt-x"))["authorization"] == f"Bearer {REAL_OPENAI}"
    # the same URL written out (a trailing slash does not make it another host)
    headers = await _headers(fake, f"openai:gpt-x@{fake.base_url}/")
    assert headers["authorization"] == f"Bearer {REAL_OPENAI}"


async def test_openai_base_url_variable_elsewhere_does_not_open_an_explicit_url(
    env, servers
) -> None:
    fake = servers["openai"]
    env.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    headers = await _headers(fake, f"openai:gpt-x@{fake.base_url}")
    assert headers["authorization"] == f"Bearer {DUMMY_API_KEY}"


# -- anthropic ---------------------------------------------------------------------------------
async def test_anthropic_default_key_and_token_never_go_to_an_explicit_url(env, servers) -> None:
    env.setenv("ANTHROPIC_AUTH_TOKEN", REAL_TOKEN)
    fake = servers["anthropic"]
    headers = await _headers(fake, f"anthropic:claude-x@{fake.base_url}")
    assert headers["x-api-key"] == DUMMY_API_KEY and "authorization" not in headers
    _no_real_key(headers)


async def test_anthropic_explicit_url_gets_the_api_key_env_key(env, servers) -> None:
    env.setenv("PROXY_KEY", PROXY_KEY)
    fake = servers["anthropic"]
    headers = await _headers(
        fake, f"anthropic:claude-x@{fake.base_url}", ModelOptions(api_key_env="PROXY_KEY")
    )
    assert headers["x-api-key"] == PROXY_KEY
    _no_real_key(headers)


async def test_anthropic_default_key_goes_to_the_sdk_base_url_variable(env, servers) -> None:
    fake = servers["anthropic"]
    env.setenv("ANTHROPIC_BASE_URL", fake.base_url)
    assert (await _headers(fake, "anthropic:claude-x"))["x-api-key"] == REAL_ANTHROPIC


async def test_anthropic_auth_token_is_sent_as_a_bearer_token(env, servers) -> None:
    env.delenv("ANTHROPIC_API_KEY")
    env.setenv("ANTHROPIC_AUTH_TOKEN", REAL_TOKEN)
    fake = servers["anthropic"]
    env.setenv("ANTHROPIC_BASE_URL", fake.base_url)
    headers = await _headers(fake, "anthropic:claude-x")
    assert headers["authorization"] == f"Bearer {REAL_TOKEN}" and "x-api-key" not in headers


# -- litellm: the same rule, and litellm must not pick the key up itself ----------------------
litellm_only = pytest.mark.filterwarnings("ignore::UserWarning")


@litellm_only
@pytest.mark.parametrize(
    ("kind", "model"), [("openai", "openai/gpt-x"), ("anthropic", "anthropic/claude-x")]
)
async def test_litellm_default_key_never_goes_to_an_explicit_url(env, servers, kind, model) -> None:
    pytest.importorskip("litellm")
    fake = servers[kind]
    headers = await _headers(fake, f"litellm:{model}@{fake.base_url}")
    header = "authorization" if kind == "openai" else "x-api-key"
    assert headers[header].removeprefix("Bearer ") == DUMMY_API_KEY
    _no_real_key(headers)
    env.setenv("PROXY_KEY", PROXY_KEY)
    headers = await _headers(
        fake, f"litellm:{model}@{fake.base_url}", ModelOptions(api_key_env="PROXY_KEY")
    )
    assert headers[header].removeprefix("Bearer ") == PROXY_KEY


@litellm_only
async def test_litellm_explicit_url_that_is_the_sdk_base_url_gets_the_default_key(
    env, servers
) -> None:
    pytest.importorskip("litellm")
    fake = servers["openai"]
    env.setenv("OPENAI_BASE_URL", fake.base_url)
    headers = await _headers(fake, f"litellm:openai/gpt-x@{fake.base_url}")
    assert headers["authorization"] == f"Bearer {REAL_OPENAI}"


# -- the rule itself ---------------------------------------------------------------------------
def test_the_rule_without_a_network() -> None:
    env = {
        "OPENAI_API_KEY": "k",
        "ANTHROPIC_API_KEY": "a",
        "OPENAI_BASE_URL": "http://LOCAL:8000/v1/",
    }
    spec = parse_model_spec
    assert credential_for(spec("openai:m"), None, env) == Credential("k", "OPENAI_API_KEY")
    assert credential_for(spec("openai:m@https://api.openai.com/v1"), None, env).key == "k"
    assert credential_for(spec("openai:m@http://local:8000/v1"), None, env).key == "k"
    for other in ("http://local:8001/v1", "https://local:8000/v1", "http://local:8000/v2",
                  "http://api.openai.com/v1", "https://api.openai.com.evil.test/v1",
                  "https://evil.test/api.openai.com"):  # fmt: skip
        assert credential_for(spec(f"openai:m@{other}"), None, env) == Credential(None), other
        assert not default_key_allowed(spec(f"openai:m@{other}"), env)
    assert credential_for(spec("anthropic:c@https://api.anthropic.com"), None, env).key == "a"
    assert credential_for(spec("anthropic:c@http://127.0.0.1:1"), None, env) == Credential(None)
    assert credential_for(spec("litellm:gemini/g@http://h:1"), None, env) == Credential(None)
    assert credential_for(spec("litellm:openai/g@https://api.openai.com/v1"), None, env).key == "k"
    with pytest.raises(ModelSpecError, match="OPENAI_API_KEY"):
        credential_for(spec("litellm:openai/g@https://api.openai.com/v1"), None, {})
    assert credential_for(spec("litellm:openai/g"), None, {}) == Credential(None)
    # the provider's own API needs the key; a base URL elsewhere does not
    with pytest.raises(ModelSpecError, match="OPENAI_API_KEY"):
        credential_for(spec("openai:m@https://api.openai.com/v1"), None, {})
    assert credential_for(spec("openai:m"), None, {"OPENAI_BASE_URL": "http://h/v1"}).key is None
    # api_key_env is explicit: required, and sent anywhere
    opts = ModelOptions(api_key_env="PROXY_KEY")
    assert credential_for(spec("openai:m@http://h/v1"), opts, {"PROXY_KEY": "p"}).key == "p"
    with pytest.raises(ModelSpecError, match="PROXY_KEY"):
        credential_for(spec("openai:m@http://h/v1"), opts, env)
    assert same_base_url("HTTP://Host:80/v1/", "http://host/v1")
    assert not same_base_url("http://host/v1", None) and not same_base_url("http://[::1", "x")
