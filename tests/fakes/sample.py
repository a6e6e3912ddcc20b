"""Sample requests for provider tests and benchmarks: the real answer schema and a turn prompt
that ends with the `Legal move ids: ...` line the fake servers read."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bangarena.harness.providers import ChatMessage, ProviderRequest

from .behaviour import LEGAL_IDS_PREFIX

LEGAL = ("end_turn", "shot@3", "discard:shot", "heal")
SYSTEM = (
    "You are seat 2 in BangArena, a BANG!-like hidden-role card game. Your role: Deputy — "
    "protect the Sheriff (seat 0). Answer with one JSON object: reason, then move. "
    "Ünïcödé survives byte for byte: « ¡olé! » 🤠\n"
)


def answer_schema(legal_ids: Sequence[str] | None = None, notes: bool = False) -> dict[str, Any]:
    """The rules machine's answer schema (a faithful local copy until it is re-exported)."""
    try:
        from bangarena.rules_machine import answer_schema as real
    except ImportError:
        try:
            from bangarena.rules_machine.schemas import answer_schema as real
        except ImportError:
            real = None
    if real is not None:
        return real(legal_ids, notes=notes)
    nullable = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    props: dict[str, Any] = {"reason": dict(nullable)}
    if notes:
        props["notes"] = dict(nullable)
    props["move"] = {"type": "string", **({"enum": list(legal_ids)} if legal_ids else {})}
    return {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }


def turn_prompt(legal: Sequence[str] = LEGAL) -> str:
    return (
        "Round 3. Seats: 0 Sheriff (4 life), 1 ?, 2 you, 3 ? (2 life).\n"
        "Your hand: shot_07, beer_02.\n"
        f"{LEGAL_IDS_PREFIX}{', '.join(legal)}"
    )


def make_request(
    mode: str = "json_schema",
    *,
    model: str = "fake-model",
    legal: Sequence[str] = LEGAL,
    constrained: bool = False,
    system: str = SYSTEM,
    **kwargs: Any,
) -> ProviderRequest:
    """A request with the fixed (or, with `constrained`, the enum) answer schema."""
    return ProviderRequest(
        model=model,
        system=system,
        messages=[ChatMessage(role="user", content=turn_prompt(legal))],
        answer_mode=mode,
        answer_schema=answer_schema(list(legal) if constrained else None),
        **kwargs,
    )
