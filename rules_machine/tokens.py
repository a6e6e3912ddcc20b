"""Token counts with a real tokenizer: OpenAI's ``o200k_base`` from the offline ``bpe-openai``
package (tiktoken-compatible API; tiktoken itself cannot download its files here)."""

from __future__ import annotations

import warnings
from functools import cache
from typing import Any

ENCODING = "o200k_base"


@cache
def encoding(name: str = ENCODING) -> Any:
    """The tokenizer ``name``, loaded once (bpe-openai reads its bundled files lazily with a
    deprecated importlib.resources call, hence the warning filter around the first use)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import bpe_openai

        enc = bpe_openai.get_encoding(name)
        enc.encode("warm up")
    return enc


def count_tokens(text: str, encoding_name: str = ENCODING) -> int:
    """The number of tokens of ``text`` in ``encoding_name`` (default ``o200k_base``)."""
    return len(encoding(encoding_name).encode(text))
