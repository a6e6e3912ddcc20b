"""Seats from CLI specs: ``rule``, ``random``, ``human`` (``human:NAME``: a named person),
``scripted[:rule|random]`` and model specs ``PROVIDER:MODEL[@BASE_URL]`` (or a table name from
the models file).

:func:`plan_seat` checks a spec without building anything; :func:`build_seat` builds the seat,
and for model seats the provider, which checks the API key. Both raise :class:`SeatSpecError`
(a :class:`ModelSpecError`) with a message that names the problem, so a CLI can stop before
any match starts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, TextIO

from rich.console import Console

from ..agent_spec import AgentSpec, check_agent_options, is_agent_spec, parse_agent_spec
from ..bots import BotSpec, BotSpecError, is_bot_spec, parse_bot_spec
from ..model_spec import ModelOptions, ModelSpec, ModelSpecError, resolve_model
from ..provenance import redact_credentials
from ..providers import Provider, get_provider
from ..providers.scripted import bot_policy
from .bot_seat import BotSeat
from .human_seat import HumanSeat
from .model_seat import ModelSeat
from .protocol import Seat

PlanKind = Literal["rule", "random", "human", "scripted", "model", "http", "a2a"]
SIMPLE_KINDS: tuple[str, ...] = ("rule", "random", "human", "human:NAME")
PERSON_NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}")
"""The name in ``human:NAME``: what the person's join link and the leaderboard show."""


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
    agent: AgentSpec | None = None
    person: str | None = None
    """``human:NAME``'s name (None for a plain ``human`` seat)."""


def plan_seat(text: str, models: Mapping[str, ModelOptions] | None = None) -> SeatPlan:
    """Check one seat spec (``models``: the tables of a models file)."""
    t = text.strip()
    if t == "human":
        return SeatPlan(t, "human")
    kind, sep, name = t.partition(":")
    if sep and kind.strip() == "human":
        name = name.strip()
        if PERSON_NAME.fullmatch(name) is None:
            raise SeatSpecError(
                f"bad seat spec {text[:80]!r}: a person is human:NAME, NAME 1–64 letters, digits "
                "or . _ @ + - (starting with a letter or digit)"
            )
        return SeatPlan(f"human:{name}", "human", person=name)
    if is_bot_spec(t):
        try:
            bot = parse_bot_spec(t)
        except BotSpecError as e:
            raise SeatSpecError(f"bad seat spec {text!r}: {e}") from None
        return SeatPlan(str(bot), bot.kind, bot=bot)  # type: ignore[arg-type]
    if is_agent_spec(t):  # http:URL, a2a:URL (harness/agent_spec.py)
        try:
            agent = parse_agent_spec(t)
        except ModelSpecError as e:
            raise SeatSpecError(f"bad seat spec: {e}") from None
        opts = (models or {}).get(t) or ModelOptions()
        return SeatPlan(str(agent), agent.kind, options=opts, agent=agent)
    try:
        spec, options = resolve_model(t, models)
    except ModelSpecError as e:
        raise SeatSpecError(
            redact_credentials(f"bad seat spec {text!r}: {e}")
            + f". A seat is one of {', '.join(SIMPLE_KINDS)} (bots take KIND:key=value, e.g. rule:eps=0.3), "
            "scripted[:rule|random], PROVIDER:MODEL[@BASE_URL], http:URL, a2a:URL or a table of "
            "the models file"
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
    if plan.kind in ("rule", "random", "search"):
        return BotSeat(plan.bot or plan.kind, s, seat)
    if plan.kind == "human":  # at the terminal; the seat service seats people itself
        name = plan.person or "You"
        return HumanSeat(name, lang=lang, stream=stream, console=console)
    if plan.agent is not None:
        return _agent_seat(plan, seat=seat, seed=s, lang=lang, transcripts=transcripts,
                           environ=environ)  # fmt: skip
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


def _agent_seat(
    plan: SeatPlan,
    *,
    seat: int,
    seed: int,
    lang: str,
    transcripts: bool,
    environ: Mapping[str, str] | None,
) -> Seat:
    """A push (``http:``) or A2A (``a2a:``) agent's seat; the token is checked now."""
    assert plan.agent is not None
    options = plan.options or ModelOptions()
    try:
        check_agent_options(plan.agent, options)
        if plan.agent.kind == "http":
            from .http_seat import HttpSeat

            return HttpSeat(plan.agent, options, seat=seat, lang=lang, transcripts=transcripts,
                            environ=environ, seed=seed)  # fmt: skip
        from .a2a_seat import A2ASeat  # a2a-sdk is imported only for A2A seats

        return A2ASeat(plan.agent, options, seat=seat, lang=lang, transcripts=transcripts,
                       environ=environ, seed=seed)  # fmt: skip
    except ModelSpecError as e:
        raise SeatSpecError(f"seat {seat} ({plan.agent.label}): {e}") from None
