"""Token counts with a real tokenizer: OpenAI's ``o200k_base`` from the offline ``bpe-openai``
package (tiktoken-compatible API; tiktoken itself cannot download its files here)."""

from __future__ import annotations

from functools import cache
from typing import Any

ENCODING = "o200k_base"


@cache
def _encoding(name: str) -> Any:
    import bpe_openai

    return bpe_openai.get_encoding(name)


def count_tokens(text: str, encoding: str = ENCODING) -> int:
    """The number of tokens of ``text`` in ``encoding`` (default ``o200k_base``)."""
    return len(_encoding(encoding).encode(text))
