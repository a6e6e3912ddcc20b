"""Model seats: a provider behind the seat protocol.

One decision: render the turn prompt, call the provider, read one JSON object, check the id.
A reply that fails (truncated, empty, unparsable, illegal id, refusal) is answered with feedback
and the legal ids again, up to the retry budget; transport failures (429, 5xx, connection,
timeouts) are retried with tenacity — exponential backoff with jitter, Retry-After honoured,
bounded by the deadline — and backoff on a rate limit is credited back to the seat's clock up to
the driver's cap. Every attempt is recorded with its tokens, cost and latency; when the deadline,
the retries or the seat's per-match token/cost budget run out, the seat returns no move and the
driver plays the autopilot's.

The ``scripted`` provider goes through exactly this path (prompt in, JSON text out); its seat is
labelled ``scripted`` and controlled by a bot, never a model.
"""

from __future__ import annotations

import asyncio
import time
from functools import cache
from typing import Any, Final

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, wait_random_exponential

from bangarena.engine import Decision, SeatView
from bangarena.prompts.memory import PromptMemory
from bangarena.prompts.render import PROMPT_VERSION, TOOL_NAME, render_system, render_turn
from bangarena.prompts.warm import warm_prompts

from ..answers import (
    NOTES_MAX_CHARS,
    REPLY_ECHO_MAX_CHARS,
    Answer,
    AnswerFailure,
    clip_reply,
    feedback_text,
    parse_answer,
)
from ..model_spec import ModelOptions, ModelSpec, answer_mode_for
from ..pricing import cost_usd
from ..providers import ChatMessage, Provider, ProviderError, ProviderReply, ProviderRequest
from ..providers.scripted import ScriptedContext
from ..records import (
    AttemptRecord,
    AutopilotReason,
    DecisionTelemetry,
    SeatRecord,
    TokenUsage,
    Transcript,
)
from .protocol import Deadline, SeatAnswer

DEFAULT_MAX_TOKENS: Final = 512
MIN_ATTEMPT_S: Final = 0.05
"""No new attempt is started with less time than this left."""
MAX_TRANSPORT_TRIES: Final = 8
"""Transport attempts per answer attempt (the deadline usually ends them first)."""
DOWN_AFTER: Final = 3
"""After this many decisions in a row lost to transport failures the provider counts as down:
each later decision makes a single probe attempt (no backoff) until one succeeds."""
BACKOFF = wait_random_exponential(multiplier=0.25, max=8.0)


@cache
def _schema(notes: bool) -> dict:
    return _answer_schema()(None, notes=notes)


def _answer_schema():
    try:
        from bangarena.rules_machine import answer_schema
    except ImportError:  # the rules package re-exports it; older builds only had the module
        from bangarena.rules_machine.schemas import answer_schema
    return answer_schema


def lost_reason(reason: AutopilotReason, tel: DecisionTelemetry) -> AutopilotReason:
    """Why a decision went to the autopilot: ``reason``, except that a clock that ran out
    between retries of a provider that could not be reached (every attempt a transport
    failure) is a transport loss, and counts towards :data:`DOWN_AFTER` as one."""
    if reason == "timeout" and tel.attempts and all(a.outcome == "transport" for a in tel.attempts):
        return "transport"
    return reason


class _GiveUp(Exception):
    def __init__(self, reason: AutopilotReason) -> None:
        self.reason = reason


class ModelSeat:
    """A seat played through a :class:`Provider` (a model, or the offline scripted provider)."""

    def __init__(
        self,
        spec: ModelSpec,
        provider: Provider,
        options: ModelOptions | None = None,
        *,
        seat: int,
        lang: str = "en",
        notes: bool = True,
        constrain_ids: bool = False,
        transcripts: bool = True,
        display_name: str | None = None,
    ) -> None:
        self.spec_obj = spec
        self.spec = str(spec)
        self.provider = provider
        self.options = options or ModelOptions()
        self.seat = seat
        self.lang = lang
        self.notes_enabled = notes
        self.constrain_ids = constrain_ids
        self.transcripts = transcripts
        self.scripted = spec.provider == "scripted"
        self.kind = "scripted" if self.scripted else "model"
        self.controller = "bot" if self.scripted else "ai"
        self.answer_mode = answer_mode_for(spec, self.options)
        self.display_name = (
            self.options.display_name
            or display_name
            or (f"Scripted {seat + 1}" if self.scripted else spec.model)
        )
        self.memory = PromptMemory()
        self.system: str | None = None
        self.notes: str | None = None
        self.usage = TokenUsage()
        self.cost = 0.0
        self.sdk: str | None = None
        self._down_streak = 0
        self.in_flight: DecisionTelemetry | None = None
        warm_prompts(lang)  # the process's first prompt costs ~70 ms: paid now, off the clock

    # -- the decision ---------------------------------------------------------------------------
    async def decide(self, view: SeatView, decision: Decision, deadline: Deadline) -> SeatAnswer:
        if self.system is None:
            self.system = render_system(
                view, self.lang, answer_mode=self.answer_mode, notes=self.notes_enabled,
                notes_max=NOTES_MAX_CHARS,
            )  # fmt: skip
        turn = render_turn(
            view, decision, self.memory, self.lang, notes=self.notes,
            notes_enabled=self.notes_enabled,
        )  # fmt: skip
        legal = decision.ids
        schema = (
            _answer_schema()(legal, notes=self.notes_enabled)
            if self.constrain_ids
            else _schema(self.notes_enabled)
        )
        o = self.options
        base = ProviderRequest(
            model=self.spec_obj.model,
            system=self.system,
            messages=[ChatMessage(role="user", content=turn)],
            answer_mode=self.answer_mode,
            answer_schema=schema,
            schema_name=TOOL_NAME,
            temperature=o.temperature,
            max_tokens=o.max_tokens or DEFAULT_MAX_TOKENS,
            reasoning_effort=o.reasoning_effort,
            timeout_s=o.timeout_s or 60.0,
            context=ScriptedContext(self.seat, view, decision) if self.scripted else None,
        )
        tel = DecisionTelemetry()
        self.in_flight = tel  # the driver keeps it when it cancels this decision at the deadline
        failed_replies = 0
        try:
            while True:
                reply = await self._call(base, deadline, tel)
                parsed = parse_answer(
                    reply.text, legal, finish_reason=reply.finish_reason, refusal=reply.refusal
                )
                att = tel.attempts[-1]
                if isinstance(parsed, Answer):
                    att.move = parsed.move
                    self._down_streak = 0
                    if self.notes_enabled:
                        self.notes = parsed.notes
                    tel.reason, tel.notes = parsed.reason, self.notes
                    return SeatAnswer(parsed.move, tel)
                att.outcome, att.detail, att.move = parsed.kind, parsed.detail, parsed.move
                self._down_streak = 0
                failed_replies += 1
                if failed_replies > o.retry_budget:
                    raise _GiveUp("failures")
                base = base.model_copy(
                    update={"messages": [*base.messages, *self._feedback(reply, parsed, legal)]}
                )
        except _GiveUp as g:
            reason = lost_reason(g.reason, tel)
            if reason == "transport":
                self._down_streak += 1
            tel.autopilot_reason = reason
            return SeatAnswer(None, tel)
        finally:
            tel.backoff_s = round(tel.backoff_s, 6)

    def _feedback(
        self, reply: ProviderReply, failure: AnswerFailure, legal: tuple[str, ...]
    ) -> list[ChatMessage]:
        said = (reply.text or "").strip() or (reply.refusal or "").strip() or "(no answer)"
        said = clip_reply(said, REPLY_ECHO_MAX_CHARS)  # a hostile reply is not sent back whole
        return [
            ChatMessage(role="assistant", content=said),
            ChatMessage(role="user", content=feedback_text(failure, legal, self.lang)),
        ]

    # -- one answer attempt, with transport retries ---------------------------------------------
    async def _call(
        self, base: ProviderRequest, deadline: Deadline, tel: DecisionTelemetry
    ) -> ProviderReply:
        """One reply, retrying transport failures; raises _GiveUp when none can be had."""
        try:
            # The first attempt runs outside tenacity (building its loop costs about as much
            # CPU as the rest of a decision's harness work); a retryable failure enters the
            # loop as its attempt 1, so stop, wait and before_sleep see every attempt.
            try:
                return await self._attempt(base, deadline, tel, 0.0)
            except ProviderError as e:
                if not e.retryable:
                    raise
                first: ProviderError | None = e
            waited = [0.0]
            async for attempt in self._retrying(deadline, tel, waited):
                with attempt:
                    if first is not None:
                        failed, first = first, None
                        raise failed
                    w, waited[0] = waited[0], 0.0
                    return await self._attempt(base, deadline, tel, w)
        except ProviderError as e:
            # auth (401/403) has its own reason: the driver stops the match on it
            reason = {"timeout": "timeout", "auth": "auth"}.get(e.kind, "transport")
            raise _GiveUp(reason) from None  # type: ignore[arg-type]
        raise AssertionError("unreachable")  # pragma: no cover

    def _retrying(
        self, deadline: Deadline, tel: DecisionTelemetry, waited: list[float]
    ) -> AsyncRetrying:
        """Tenacity's loop for the transport retries of one answer attempt: exponential backoff
        with jitter or the server's Retry-After, bounded by the deadline (a rate limit's backoff
        is credited back to the seat's clock, up to the driver's cap); ``waited[0]`` is the
        backoff before the next attempt."""
        probe_only = self._down_streak >= DOWN_AFTER

        def stop(rs: RetryCallState) -> bool:
            if probe_only or rs.attempt_number >= MAX_TRANSPORT_TRIES:
                return True
            sleep = rs.upcoming_sleep
            exc = rs.outcome.exception() if rs.outcome else None
            credit = 0.0
            if isinstance(exc, ProviderError) and exc.kind == "rate_limit":
                credit = min(sleep, deadline.backoff_cap_s - deadline.credited_s)
            return deadline.remaining() + credit - sleep < MIN_ATTEMPT_S

        def wait(rs: RetryCallState) -> float:
            exc = rs.outcome.exception() if rs.outcome else None
            if isinstance(exc, ProviderError) and exc.retry_after is not None:
                return exc.retry_after
            return BACKOFF(rs)

        def before_sleep(rs: RetryCallState) -> None:
            sleep = rs.upcoming_sleep
            exc = rs.outcome.exception() if rs.outcome else None
            if isinstance(exc, ProviderError) and exc.kind == "rate_limit":
                deadline.credit(sleep)
            tel.backoff_s += sleep
            deadline.backoff_s += sleep
            tel.credited_s = deadline.credited_s
            waited[0] = sleep

        return AsyncRetrying(
            retry=retry_if_exception(lambda e: isinstance(e, ProviderError) and e.retryable),
            stop=stop,
            wait=wait,
            before_sleep=before_sleep,
            reraise=True,
        )

    async def _attempt(
        self, base: ProviderRequest, deadline: Deadline, tel: DecisionTelemetry, waited: float
    ) -> ProviderReply:
        """Exactly one provider call, recorded as one attempt."""
        self._check_budget()
        remaining = deadline.remaining()
        if remaining < MIN_ATTEMPT_S:
            raise _GiveUp("timeout")
        timeout = min(base.timeout_s, remaining)
        req = base.model_copy(update={"timeout_s": timeout})
        att = AttemptRecord(
            n=len(tel.attempts) + 1, outcome="ok", started_s=round(deadline.elapsed(), 6),
            waited_s=round(waited, 6),
        )  # fmt: skip
        tel.attempts.append(att)
        t0 = time.monotonic()
        try:
            async with asyncio.timeout(timeout):  # no task of its own, unlike wait_for
                reply = await self.provider.complete(req)
        except ProviderError as e:
            att.latency_s = round(time.monotonic() - t0, 6)
            att.outcome = "timeout" if e.kind == "timeout" else "transport"
            att.status, att.detail = e.status, f"{e.kind}: {e.message}"[:300]
            if self.transcripts:
                att.transcript = Transcript(
                    messages=[m.model_dump() for m in req.messages],
                    request_params=self._params(req),
                )
            raise
        except asyncio.CancelledError:  # the driver's deadline: the attempt got no reply
            att.latency_s = round(time.monotonic() - t0, 6)
            att.outcome, att.detail = "timeout", "cancelled at the decision's deadline"
            raise
        except TimeoutError:
            att.latency_s = round(time.monotonic() - t0, 6)
            att.outcome, att.detail = "timeout", f"no reply within {timeout:.2f}s"
            raise ProviderError("timeout", att.detail) from None
        except Exception as e:  # noqa: BLE001 — a broken provider must not stop the table
            att.latency_s = round(time.monotonic() - t0, 6)
            att.outcome, att.detail = "transport", f"{type(e).__name__}: {e}"[:300]
            raise ProviderError("bad_request", att.detail) from None
        att.latency_s = round(reply.latency_s, 6)
        att.finish_reason, att.model_id, att.sdk = reply.finish_reason, reply.model_id, reply.sdk
        self.sdk = reply.sdk
        att.usage = TokenUsage(**reply.usage.model_dump())
        att.cost_usd = cost_usd(reply.usage, self.options, self.spec)
        self.usage.add(att.usage)
        self.cost += att.cost_usd or 0.0
        if self.transcripts:
            att.transcript = Transcript(
                messages=[m.model_dump() for m in req.messages],
                raw_reply=None if reply.text is None else clip_reply(reply.text),
                refusal=None if reply.refusal is None else clip_reply(reply.refusal),
                request_params=reply.request_params,
            )
        return reply

    def _params(self, req: ProviderRequest) -> dict[str, Any]:
        return {
            "model": req.model,
            "answer_mode": req.answer_mode,
            "max_tokens": req.max_tokens,
            "temperature": req.temperature,
            "reasoning_effort": req.reasoning_effort,
            "timeout_s": req.timeout_s,
        }

    def _check_budget(self) -> None:
        o = self.options
        if o.token_budget is not None and self.usage.total >= o.token_budget:
            raise _GiveUp("budget")
        if o.cost_budget_usd is not None and self.cost >= o.cost_budget_usd:
            raise _GiveUp("budget")

    # -- the record -----------------------------------------------------------------------------
    def seat_record(self, seat: int, time_per_move_s: float, transcripts: bool) -> SeatRecord:
        opts = self.options.model_dump(exclude_none=True, exclude_defaults=True)
        opts.pop("api_key_env", None)
        injected = None
        if self.scripted:
            injected = dict(getattr(self.provider, "injected", {}) or {})
        return SeatRecord(
            seat=seat, spec=self.spec, display_name=self.display_name,
            controller=self.controller, kind=self.kind, provider=self.spec_obj.provider,
            model=self.spec_obj.model, base_url=self.spec_obj.base_url,
            answer_mode=self.answer_mode, lang=self.lang, prompt_version=PROMPT_VERSION,
            sdk=self.sdk, options=opts, time_per_move_s=time_per_move_s,
            system_prompt=self.system if transcripts else None, injected_faults=injected,
        )  # fmt: skip

    async def aclose(self) -> None:
        await self.provider.aclose()
