"""Model providers: one attempt per call, classified errors, normalised usage.

```python
from bangarena.harness.providers import get_provider, ProviderRequest, ChatMessage
provider = get_provider("openai:gpt-4.1-mini")          # or anthropic:..., litellm:..., scripted
reply = await provider.complete(ProviderRequest(model=..., system=..., messages=[...],
                                                answer_mode="json_schema", answer_schema=...))
```
SDKs are imported only when their provider is built. See docs/providers.md.
"""

from .base import (
    ANSWER_MODES,
    ERROR_KINDS,
    RETRYABLE_KINDS,
    AnswerMode,
    ChatMessage,
    ErrorKind,
    FinishReason,
    Provider,
    ProviderError,
    ProviderReply,
    ProviderRequest,
    Usage,
    parse_retry_after,
)
from .registry import get_provider, provider_names, register_provider
from .scripted import FAULT_KINDS, ScriptedContext, ScriptedProvider, bot_policy

__all__ = [
    "ANSWER_MODES",
    "ERROR_KINDS",
    "FAULT_KINDS",
    "RETRYABLE_KINDS",
    "AnswerMode",
    "ChatMessage",
    "ErrorKind",
    "FinishReason",
    "Provider",
    "ProviderError",
    "ProviderReply",
    "ProviderRequest",
    "ScriptedContext",
    "ScriptedProvider",
    "Usage",
    "bot_policy",
    "get_provider",
    "parse_retry_after",
    "provider_names",
    "register_provider",
]
