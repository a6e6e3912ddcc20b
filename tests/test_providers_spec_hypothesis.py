"""Property tests of the model spec parser (``PROVIDER:MODEL[@BASE_URL]``): every combination of
parts parses back to its parts, and any other input raises the typed ModelSpecError, never
another exception."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bangarena.harness.model_spec import (
    SCRIPTED_POLICIES,
    ModelSpec,
    ModelSpecError,
    parse_model_spec,
)

PROPS = settings(max_examples=400, deadline=None, database=None)
NETWORK = ("openai", "anthropic", "litellm")

# Model names as they come: letters, digits and the punctuation real names use, including the
# `:` of Ollama tags and the `@` of Vertex versions; a name never contains "@http".
model_names = st.text(
    alphabet=st.sampled_from("abcxyzQ0123456789-_.:/@+é"), min_size=1, max_size=30
).filter(lambda m: "@http://" not in m and "@https://" not in m)
hosts = st.one_of(
    st.from_regex(r"[a-z][a-z0-9-]{0,12}(\.[a-z0-9-]{1,8}){0,3}", fullmatch=True),
    st.sampled_from(["127.0.0.1", "localhost", "[::1]", "api.openai.com"]),
)
paths = st.from_regex(r"(/[A-Za-z0-9._~-]{0,8}){0,3}", fullmatch=True)
urls = st.builds(
    lambda scheme, userinfo, host, port, path: f"{scheme}://{userinfo}{host}{port}{path}",
    st.sampled_from(["http", "https"]),
    st.sampled_from(["", "user:pw@", "token@"]),
    hosts,
    st.one_of(st.just(""), st.integers(1, 65535).map(lambda p: f":{p}")),
    paths,
)


@PROPS
@given(provider=st.sampled_from(NETWORK), model=model_names, url=st.none() | urls)
def test_any_spec_parses_back_to_its_parts(provider: str, model: str, url: str | None) -> None:
    spec = ModelSpec(provider=provider, model=model, base_url=url)
    assert parse_model_spec(str(spec)) == spec
    assert parse_model_spec(f"  {spec}\n") == spec  # surrounding whitespace is not part of it


@PROPS
@given(policy=st.sampled_from(SCRIPTED_POLICIES))
def test_scripted_specs(policy: str) -> None:
    assert parse_model_spec(f"scripted:{policy}") == ModelSpec(provider="scripted", model=policy)


junk = st.one_of(
    st.text(max_size=60),
    st.builds(
        lambda p, rest: f"{p}:{rest}",
        st.sampled_from([*NETWORK, "scripted", "x"]),
        st.text(max_size=40),
    ),  # fmt: skip
    st.builds(
        lambda p, m, rest: f"{p}:{m}@{rest}",
        st.sampled_from(NETWORK),
        model_names,
        st.sampled_from(
            [
                "http://",
                "https://",
                "http://[::1",
                "http://h:99999/",
                "http://h:port/",
                "https://:80",
                "http://h/\x00",
            ]
        ),
    ),  # fmt: skip
)


@PROPS
@given(text=junk)
def test_anything_else_is_a_spec_error_or_a_spec(text: str) -> None:
    try:
        spec = parse_model_spec(text)
    except ModelSpecError as exc:
        assert str(exc) and len(str(exc)) < 600  # one readable line, whatever the input
        return
    assert isinstance(spec, ModelSpec) and spec.model
    assert parse_model_spec(str(spec)) == spec


@PROPS
@given(value=st.one_of(st.none(), st.integers(), st.binary(), st.lists(st.text())))
def test_non_strings_are_spec_errors(value: object) -> None:
    with pytest.raises(ModelSpecError):
        parse_model_spec(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("openai:m@http://[::1", "malformed base URL"),
        ("openai:m@http://h:99999/v1", "malformed base URL"),
        ("openai:m@http://h:port/v1", "malformed base URL"),
        ("openai:m\x00", "control characters"),
        ("openai:" + "m" * 10_000 + " x", "whitespace"),
    ],
)
def test_bad_specs_found_by_the_properties(text: str, words: str) -> None:
    with pytest.raises(ModelSpecError, match=words) as err:
        parse_model_spec(text)
    assert len(str(err.value)) < 600


def test_userinfo_in_the_base_url_stays_in_the_url() -> None:
    spec = parse_model_spec("openai:qwen2.5:7b@http://user:pw@127.0.0.1:11434/v1")
    assert (spec.model, spec.base_url) == ("qwen2.5:7b", "http://user:pw@127.0.0.1:11434/v1")
