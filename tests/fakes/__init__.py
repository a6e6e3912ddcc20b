"""Fake model servers for tests and benchmarks, speaking the real OpenAI and Anthropic wire formats.

Tests import this package as `fakes` (pytest puts `tests/` on sys.path):

```python
from fakes import FakeBehaviour, FakeServer, actions

with FakeServer("openai", FakeBehaviour([actions.rate_limit(2), actions.answer()])) as fake:
    provider = get_provider(f"openai:gpt-fake@{fake.base_url}")
    ...
    fake.requests[-1].body["response_format"]
```
`fake.behaviour = FakeBehaviour(...)` swaps the script of a running server (e.g. module-scoped).
"""

from __future__ import annotations

from typing import Any, Literal

from . import behaviour as actions
from .behaviour import Action, FakeBehaviour, Received, ids_from_prompt, offered_ids
from .serve import aserve, reset_server, serve

Kind = Literal["openai", "anthropic"]


def create_app(kind: Kind, behaviour: FakeBehaviour | None = None) -> Any:
    """The FastAPI app of the fake `openai` or `anthropic` server, its tokenizer loaded (about
    a second, once per process: paid here, not inside the first answer and a seat's clock)."""
    actions.count_tokens("warm up")
    if kind == "openai":
        from .openai_server import create_app as make
    elif kind == "anthropic":
        from .anthropic_server import create_app as make
    else:
        raise ValueError(f"unknown fake server kind {kind!r}")
    return make(behaviour)


class FakeServer:
    """A fake model server on loopback: `with` (thread) or `async with` (thread, non-blocking)."""

    def __init__(self, kind: Kind, behaviour: FakeBehaviour | None = None) -> None:
        self.kind = kind
        self.app = create_app(kind, behaviour)
        self.base_url = ""
        self._cm: Any = None

    @property
    def behaviour(self) -> FakeBehaviour:
        return self.app.state.behaviour

    @behaviour.setter
    def behaviour(self, value: FakeBehaviour) -> None:
        self.app.state.behaviour = value

    @property
    def requests(self) -> list[Received]:
        return self.behaviour.requests

    def spec(self, model: str = "fake-model") -> str:
        """A model spec pointing at this server."""
        return f"{self.kind}:{model}@{self.base_url}"

    def __enter__(self) -> FakeServer:
        self._cm = serve(self.app)
        self.base_url = self._cm.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._cm.__exit__(*exc)

    async def __aenter__(self) -> FakeServer:
        self._cm = aserve(self.app)
        self.base_url = await self._cm.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._cm.__aexit__(*exc)


__all__ = [
    "Action",
    "FakeBehaviour",
    "FakeServer",
    "Received",
    "actions",
    "aserve",
    "create_app",
    "ids_from_prompt",
    "offered_ids",
    "reset_server",
    "serve",
]
