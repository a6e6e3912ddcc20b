"""Match keys: a deterministic hash of everything that determines how a match is played.

A key covers the rules and engine versions (the rules version of the table's expansions), a
version per bot kind, the prompt version when a seat reads prompts, the table as played, the
deal seed, the rotation and each seat's spec with only the options that change play (a person,
``human:NAME``: the name and the table's clock). It leaves out what does not change play:
participant ids, display names, concurrency, prices, HTTP timeouts and API-key variable names. So adding deals
to a suite reuses every finished match, adding participants to a rotation suite reuses every
lineup that did not change, and changing anything that plays differently makes new matches.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from bangarena.engine import ENGINE_VERSION, RULES_VERSION, rules_version
from bangarena.harness.bots import BOT_VERSIONS
from bangarena.harness.match import MatchSettings
from bangarena.harness.model_spec import answer_mode_for
from bangarena.harness.provenance import redact_credentials
from bangarena.harness.seats.factory import SeatPlan
from bangarena.harness.seats.model_seat import DEFAULT_MAX_TOKENS
from bangarena.prompts.render import PROMPT_VERSION

KEY_FORMAT: Final = 1
"""Bumped when the key's payload or anything it assumes (such as how seat seeds derive from the
deal seed) changes."""


KEY_HEX_CHARS: Final = 32

# A table's time limits matter only to seats that can run out of time (models, scripted seats);
# bots answer at once, so a bot-only match is the same whatever the clock says.
DEFAULT_BACKOFF_CAP_S: Final = MatchSettings().backoff_cap_s


def uses_prompts(plan: SeatPlan) -> bool:
    """Whether the seat reads prompts (models and scripted seats answer through the text path;
    push and A2A agents get the same prompts in their payload and can run out of time)."""
    return plan.kind in ("model", "scripted", "http", "a2a")


def bot_version(kind: str) -> str:
    """The version of bot ``kind``; unknown kinds are a programming error."""
    try:
        return BOT_VERSIONS[kind]
    except KeyError:
        raise KeyError(f"no BOT_VERSIONS entry for bot kind {kind!r}") from None


def play_options(plan: SeatPlan) -> dict[str, Any]:
    """The seat's options that change its play, with defaults resolved (so a changed default
    changes the key too). Bots have none beyond their kind."""
    if not uses_prompts(plan):
        return {}
    if plan.agent is not None:  # what the harness controls of an agent's play
        retry = plan.options.retry_budget if plan.options is not None else 2
        return {"retry_budget": retry, "notes": False}
    assert plan.spec is not None and plan.options is not None
    o = plan.options
    out: dict[str, Any] = {
        "answer_mode": answer_mode_for(plan.spec, o),
        "temperature": o.temperature,
        "max_tokens": o.max_tokens or DEFAULT_MAX_TOKENS,
        "reasoning_effort": o.reasoning_effort,
        "retry_budget": o.retry_budget,
        "token_budget": o.token_budget,
        "cost_budget_usd": o.cost_budget_usd,
        "constrain_ids": bool(o.constrain_ids),
        "notes": True,
    }
    if plan.kind == "scripted":
        faults = {k: v for k, v in sorted(o.faults.items()) if v}
        out["faults"] = faults
        if faults.get("delay"):
            out["delay_s"] = o.delay_s
    return out


def seat_spec(plan: SeatPlan) -> str:
    """The canonical spec text of a seat (``scripted`` and ``scripted:rule`` are one spec), with
    credentials in a base URL redacted: they are not play, and keys, stores and printed commands
    must not carry them."""
    if plan.agent is not None:
        return redact_credentials(str(plan.agent))
    return plan.text if plan.spec is None else redact_credentials(str(plan.spec))


def seat_identity(plan: SeatPlan) -> dict[str, Any]:
    """What a seat contributes to a key."""
    if plan.kind in ("rule", "random", "search"):
        out = {"kind": plan.kind, "bot_version": bot_version(plan.kind)}
        if plan.bot is not None and plan.bot.params:
            out["params"] = dict(plan.bot.params)
        return out
    if plan.agent is not None:
        return {"kind": plan.kind, "spec": seat_spec(plan), "options": play_options(plan)}
    if plan.kind == "human":  # a person: who (their name) — the clock is the table's
        return {"kind": "human", "name": plan.person}
    assert plan.spec is not None
    out: dict[str, Any] = {
        "kind": plan.kind,
        "spec": seat_spec(plan),
        "options": play_options(plan),
    }
    if plan.kind == "scripted":
        out["bot_version"] = bot_version(plan.spec.model)
    return out


def seat_versions(plan: SeatPlan) -> dict[str, str]:
    """The versions a seat's play depends on (stored with participants)."""
    if plan.kind in ("rule", "random", "search"):
        return {"bot": f"{plan.kind}/{bot_version(plan.kind)}"}
    if plan.agent is not None:
        return {"prompts": PROMPT_VERSION}
    if plan.kind == "human":
        return {}
    assert plan.spec is not None
    out = {"prompts": PROMPT_VERSION}
    if plan.kind == "scripted":
        out["bot"] = f"{plan.spec.model}/{bot_version(plan.spec.model)}"
    return out


def table_identity(
    table: Mapping[str, Any], lang: str, prompted: bool, people: bool = False
) -> dict[str, Any]:
    """The table as it changes play: seats, mode and round cap; for tables with a seat that
    reads prompts also the language and the clocks; for tables with a person the table's time
    per move (a person's clock)."""
    out: dict[str, Any] = {
        "seats": table["seats"],
        "mode": table["mode"],
        "max_rounds": table["max_rounds"],
    }
    if table.get("expansions"):  # only then: base tables keep the keys they always had
        out["expansions"] = list(table["expansions"])
    if prompted:
        out["lang"] = lang
        out["time_per_move_s"] = float(table["time_per_move"])
        model_time = table.get("model_time_per_move")
        out["model_time_per_move_s"] = float(model_time or table["time_per_move"])
        out["backoff_cap_s"] = DEFAULT_BACKOFF_CAP_S
    elif people:
        out["time_per_move_s"] = float(table["time_per_move"])
    return out


def key_payload(
    table: Mapping[str, Any],
    lang: str,
    deal_seed: int,
    rotation: int,
    seats: Sequence[SeatPlan],
    repeat: int = 0,
) -> dict[str, Any]:
    """The object a key hashes. ``repeat`` tells apart the n-th identical match of one plan
    (two tables that happen to plan the very same match)."""
    prompted = any(uses_prompts(p) for p in seats)
    people = any(p.kind == "human" for p in seats)
    payload: dict[str, Any] = {
        "format": KEY_FORMAT,
        "rules": table_rules_version(table),
        "engine": ENGINE_VERSION,
        "prompts": PROMPT_VERSION if prompted else None,
        "table": table_identity(table, lang, prompted, people),
        "deal_seed": deal_seed,
        "rotation": rotation,
        "seats": [seat_identity(p) for p in seats],
    }
    if repeat:
        payload["repeat"] = repeat
    return payload


def table_rules_version(table: Mapping[str, Any]) -> str:
    """The rules version of the game a table plays (its expansions' when it has some)."""
    expansions = tuple(table.get("expansions", ()))
    # The base game reads this module's RULES_VERSION (rules_version(()) is the same value).
    return _rules_version(expansions) if expansions else RULES_VERSION


@functools.cache  # a hash of the play data: computed once per set of expansions
def _rules_version(expansions: tuple[str, ...]) -> str:
    return rules_version(expansions)


def hash_payload(payload: Mapping[str, Any]) -> str:
    """The key of a payload: sha256 of its canonical JSON, first 32 hex digits (128 bits)."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:KEY_HEX_CHARS]


def match_key(
    table: Mapping[str, Any],
    lang: str,
    deal_seed: int,
    rotation: int,
    seats: Sequence[SeatPlan],
    repeat: int = 0,
) -> str:
    """The key of one match (see :func:`key_payload`)."""
    return hash_payload(key_payload(table, lang, deal_seed, rotation, seats, repeat))


__all__ = [
    "BOT_VERSIONS",
    "KEY_FORMAT",
    "bot_version",
    "hash_payload",
    "key_payload",
    "match_key",
    "play_options",
    "seat_identity",
    "seat_spec",
    "seat_versions",
    "table_identity",
    "table_rules_version",
    "uses_prompts",
]
