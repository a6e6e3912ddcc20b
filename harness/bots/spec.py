"""Bot seat specs: ``KIND[:key=value[;key=value]]`` — ``rule``, ``random``, ``rule:eps=0.3``.

One grammar for every command that names a bot (``play --seat``, ``simulate --players``, suite
participants): the kind, then optional parameters that change how the bot plays. Each kind
declares its parameters with their ranges in :data:`BOT_PARAMS`; anything else is a
:class:`BotSpecError` that names what is valid.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final


class BotSpecError(ValueError):
    """A bot spec that does not parse or names an unknown parameter or value."""


@dataclass(frozen=True, slots=True)
class BotParam:
    """One parameter of a bot kind: a float in ``[low, high]`` with its default."""

    name: str
    low: float
    high: float
    default: float
    help: str


BOT_PARAMS: Final[dict[str, tuple[BotParam, ...]]] = {
    "random": (),
    "rule": (
        BotParam(
            "eps",
            0.0,
            1.0,
            0.0,
            "probability of a uniformly random legal move instead of the rule bot's (a weaker "
            "rung of a ladder)",
        ),
    ),  # fmt: skip
    "search": (
        BotParam(
            "sims",
            1,
            10_000,
            50,
            "simulations (rule-bot rollouts) per decision of the information-set Monte-Carlo "
            "tree search (a whole number)",
        ),
    ),  # fmt: skip
}
"""The parameters of each bot kind (the kinds of :data:`bangarena.harness.bots.BOTS`)."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A parsed bot spec; ``params`` holds only values that differ from the defaults, sorted,
    so equal play has one canonical text (``str(spec)``)."""

    kind: str
    params: tuple[tuple[str, float], ...] = ()

    def __str__(self) -> str:
        if not self.params:
            return self.kind
        return self.kind + ":" + ";".join(f"{k}={_number(v)}" for k, v in self.params)

    def param(self, name: str) -> float:
        """The value of ``name`` (its default when not given)."""
        for k, v in self.params:
            if k == name:
                return v
        return next(p.default for p in BOT_PARAMS[self.kind] if p.name == name)


def _number(v: float) -> str:
    return str(int(v)) if v == int(v) else repr(v)


def is_bot_spec(text: str) -> bool:
    """Whether ``text`` names a bot kind (``rule``, ``rule:eps=0.3``), as opposed to a model."""
    return text.strip().partition(":")[0] in BOT_PARAMS


def parse_bot_spec(text: str) -> BotSpec:
    """Parse ``KIND[:key=value[;key=value]]``; raises :class:`BotSpecError`."""
    kind, sep, rest = text.strip().partition(":")
    if kind not in BOT_PARAMS:
        raise BotSpecError(f"unknown bot kind {kind!r}; valid: {', '.join(BOT_PARAMS)}")
    known = {p.name: p for p in BOT_PARAMS[kind]}
    values: dict[str, float] = {}
    if sep:
        if not rest.strip():
            raise BotSpecError(f"bot spec {text!r}: nothing after ':' (expected key=value)")
        for item in rest.split(";"):
            key, eq, raw = (x.strip() for x in item.partition("="))
            valid = ", ".join(known) or "none"
            if key not in known:
                raise BotSpecError(
                    f"bot spec {text!r}: {kind} has no parameter {key!r} (parameters: {valid})"
                )
            if not eq or not raw:
                raise BotSpecError(f"bot spec {text!r}: {key} needs a value ({key}=VALUE)")
            if key in values:
                raise BotSpecError(f"bot spec {text!r}: {key} is given twice")
            p = known[key]
            try:
                value = float(raw)
            except ValueError:
                value = math.nan
            if not (math.isfinite(value) and p.low <= value <= p.high):
                raise BotSpecError(
                    f"bot spec {text!r}: {key} must be a number from {_number(p.low)} to "
                    f"{_number(p.high)}, got {raw[:40]!r}"
                )
            values[key] = value
    defaults = {p.name: p.default for p in BOT_PARAMS[kind]}
    params = tuple(sorted((k, v) for k, v in values.items() if v != defaults[k]))
    return BotSpec(kind, params)
