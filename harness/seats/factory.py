"""Seats from CLI specs: ``rule``, ``random``, ``human``, ``scripted[:rule|random]`` and model
specs ``PROVIDER:MODEL[@BASE_URL]`` (or a table name from the models file).

:func:`plan_seat` checks a spec without building anything; :func:`build_seat` builds the seat,
and for model seats the provider, which checks the API key. Both raise :class:`SeatSpecError`
(a :class:`ModelSpecError`) with a message that names the problem, so a CLI can stop before
any match starts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TextIO

from rich.console import Console

from ..bots import BotSpec, BotSpecError, is_bot_spec, parse_bot_spec
from ..model_spec import ModelOptions, ModelSpec, ModelSpecError, resolve_model
from ..provenance import redact_credentials
from ..providers import Provider, get_provider
from ..providers.scripted import bot_policy
from .bot_seat import BotSeat
from .human_seat import HumanSeat
from .model_seat import ModelSeat
from .protocol import Seat

PlanKind = Literal["rule", "random", "human", "scripted", "model"]
SIMPLE_KINDS: tuple[str, ...] = ("rule", "random", "human")


class SeatSpecError(ModelSpecError):
    """A seat spec that cannot be played."""


@dataclass(frozen=True, slots=True)
class SeatPlan:
    """A checked seat spec (``bot``: the parsed spec of a bot seat, its parameters included)."""

    text: str
    kind: PlanKind
    spec: ModelSpec | None = None
    options: ModelOptions | None = None
    bot: BotSpec | None = None


def plan_seat(text: str, models: Mapping[str, ModelOptions] | None = None) -> SeatPlan:
    """Check one seat spec (``models``: the tables of a models file)."""
    t = text.strip()
    if t == "human":
        return SeatPlan(t, "human")
    if is_bot_spec(t):
        try:
            bot = parse_bot_spec(t)
        except BotSpecError as e:
            raise SeatSpecError(f"bad seat spec {text!r}: {e}") from None
        return SeatPlan(str(bot), bot.kind, bot=bot)  # type: ignore[arg-type]
    try:
        spec, options = resolve_model(t, models)
    except ModelSpecError as e:
        raise SeatSpecError(
            redact_credentials(f"bad seat spec {text!r}: {e}")
            + f". A seat is one of {', '.join(SIMPLE_KINDS)} (bots take KIND:key=value, e.g. rule:eps=0.3), "
            "scripted[:rule|random], PROVIDER:MODEL[@BASE_URL] or a table of the models file"
        ) from None
    return SeatPlan(t, "scripted" if spec.is_scripted else "model", spec, options)


def seat_seed(match_seed: int, seat: int) -> int:
    """The seed of a seat's own random streams (bots, scripted faults)."""
    return match_seed * 16 + seat


def scripted_policy(kind: str, seed: int) -> Callable[[Any], str]:
    """A bot policy for the scripted provider that answers the same decision the same way when
    asked again (a retry after an injected fault), so the bot sees each view once."""
    inner = bot_policy(kind, seed)
    memo: dict[str, Any] = {"key": None, "move": None}

    def choose(context: Any) -> str:
        key = (context.seat, context.view.cursor)
        if memo["key"] != key:
            memo["key"], memo["move"] = key, inner(context)
        return memo["move"]

    choose.__name__ = f"{kind}_policy"
    return choose


def build_seat(
    plan: SeatPlan,
    *,
    seat: int,
    seed: int,
    lang: str = "en",
    notes: bool = True,
    constrain_ids: bool = False,
    transcripts: bool = True,
    console: Console | None = None,
    stream: TextIO | None = None,
    environ: Mapping[str, str] | None = None,
    wrap_provider: Callable[[Provider], Provider] | None = None,
) -> Seat:
    """Build the seat for chair ``seat`` of a match seeded ``seed`` (``wrap_provider``: put a
    model or scripted seat's provider behind something, e.g. a runner's shared request limits,
    :class:`~bangarena.harness.providers.limits.LimitedProvider`)."""
    s = seat_seed(seed, seat)
    if plan.kind in ("rule", "random"):
        return BotSeat(plan.bot or plan.kind, s, seat)
    if plan.kind == "human":
        return HumanSeat(lang=lang, stream=stream, console=console)
    assert plan.spec is not None
    policy = scripted_policy(plan.spec.model, s) if plan.kind == "scripted" else None
    try:
        provider = get_provider(plan.spec, plan.options, policy=policy, seed=s, environ=environ)
    except ModelSpecError as e:
        # messages are printed and logged: never with the credentials of a URL
        raise SeatSpecError(redact_credentials(f"seat {seat} ({plan.text}): {e}")) from None
    if wrap_provider is not None:
        provider = wrap_provider(provider)
    return ModelSeat(
        plan.spec, provider, plan.options, seat=seat, lang=lang, notes=notes,
        constrain_ids=constrain_ids if plan.options.constrain_ids is None else plan.options.constrain_ids,
        transcripts=transcripts,
    )  # fmt: skip
