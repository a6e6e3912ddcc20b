"""Token counts with a real tokenizer: OpenAI's ``o200k_base`` from the offline ``bpe-openai``
package (the Rust ``bpe-openai`` crate with its vocabularies built in; tiktoken itself cannot
download its files here)."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

ENCODING = "o200k_base"


@cache
def _rust_core() -> ModuleType:
    """``bpe_openai._bindings``, the package's Rust extension, loaded on its own.

    Why not ``import bpe_openai``: the package's ``__init__`` builds a model registry that
    parses three vocabularies in Python to read their special tokens, ~1.1 s at every process
    start (every ``bangarena eval`` with a scripted seat paid it). The extension carries its
    vocabularies compiled in and loads in ~0.1 s; its API is the package's ``_bindings.pyi``."""
    package = importlib.util.find_spec("bpe_openai")  # locates the package without running it
    if package is None or not package.submodule_search_locations:
        raise ModuleNotFoundError("bpe-openai is not installed (pip install bpe-openai)")
    folder = Path(next(iter(package.submodule_search_locations)))
    binary = next(folder.glob("_bindings*.so"), None) or next(folder.glob("_bindings*.pyd"))
    spec = importlib.util.spec_from_file_location("bpe_openai._bindings", binary)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def encoding(name: str = ENCODING) -> Any:
    """The tokenizer ``name`` (a ``PyTokenizer``: ``encode``, ``decode``, ``count``), loaded once.

    Special-token strings such as ``<|endoftext|>`` are counted as the ordinary text they are:
    a prompt that quotes one is still a prompt, never an error."""
    return _rust_core().tokenizer_for_encoding(name)


def count_tokens(text: str, encoding_name: str = ENCODING) -> int:
    """The number of tokens of ``text`` in ``encoding_name`` (default ``o200k_base``)."""
    return encoding(encoding_name).count(text)
