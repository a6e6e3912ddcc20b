"""What the seats of agents outside the process share (push agents over plain HTTP, A2A agents):
the decision as a :class:`~..decision_payload.DecisionPayload`, the answer read from the reply,
and the model seat's failure classes, feedback, retry budget and autopilot.

One decision: build the payload from the seat's own view, send it, read ``move_id`` (or
``move``) from one JSON object, check it against the legal ids. A reply that fails (empty,
unparsable, an illegal id, a refusal) is answered with the same feedback text a model gets,
sent with the payload again, up to the retry budget; transport failures (connection refused or
dropped, 5xx, 429) are retried with exponential backoff bounded by the deadline, and after
:data:`~.model_seat.DOWN_AFTER` decisions in a row lost to transport each decision makes a
single probe. Every attempt is an :class:`~..records.AttemptRecord` with the same outcomes as
a model's, so records, summaries and leaderboard statistics compare.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import weakref
from collections.abc import Mapping
from typing import Any, ClassVar, Final

import httpx

from bangarena.engine import Decision, SeatView
from bangarena.prompts.render import PROMPT_VERSION

from ..agent_spec import AgentSpec, agent_token, origin_of
from ..answers import (
    REPLY_ECHO_MAX_CHARS,
    Answer,
    AnswerFailure,
    clip,
    clip_reply,
    feedback_text,
    parse_answer,
)
from ..decision_payload import DecisionPayload, DecisionPrompter
from ..json_scan import scan_json
from ..model_spec import ModelOptions
from ..records import AttemptRecord, AutopilotReason, DecisionTelemetry, SeatRecord, Transcript
from .model_seat import DOWN_AFTER, MAX_TRANSPORT_TRIES, MIN_ATTEMPT_S, lost_reason
from .protocol import Deadline, SeatAnswer

MAX_BODY_BYTES: Final = 256 * 1024
"""A reply body over this is not read whole (the answer is a few hundred bytes)."""
DEFAULT_TIMEOUT_S: Final = 60.0


class AgentError(Exception):
    """A call that got no reply: ``kind`` is ``transport``, ``timeout``, ``rate_limit`` or
    ``auth``; ``retryable`` says whether another try may help."""

    def __init__(
        self,
        kind: str,
        detail: str,
        *,
        status: int | None = None,
        retryable: bool = False,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail[:300]
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after


class AgentReply:
    """What one call got back: the raw text for the record, and either the answer object or
    the failure already classified (a task state, a foreign task id …)."""

    __slots__ = ("text", "obj", "failure")

    def __init__(
        self,
        text: str | None,
        obj: dict[str, Any] | None = None,
        failure: AnswerFailure | None = None,
    ) -> None:
        self.text = text
        self.obj = obj
        self.failure = failure


class _GiveUp(Exception):
    def __init__(self, reason: AutopilotReason) -> None:
        self.reason = reason


# -- one httpx client per event loop ----------------------------------------------------------
_CLIENTS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, list[Any]] = (
    weakref.WeakKeyDictionary()
)


def acquire_client() -> httpx.AsyncClient:
    """The running loop's shared client (connection pools belong to one loop), counted."""
    loop = asyncio.get_running_loop()
    entry = _CLIENTS.get(loop)
    if entry is None or entry[0].is_closed:
        # redirects are not followed: a token must never be carried to another host
        client = httpx.AsyncClient(
            follow_redirects=False,
            timeout=httpx.Timeout(DEFAULT_TIMEOUT_S, connect=10.0),
            limits=httpx.Limits(max_connections=200, max_keepalive_connections=50),
            trust_env=False,
        )
        entry = _CLIENTS[loop] = [client, 0]
    entry[1] += 1
    return entry[0]


async def release_client(client: httpx.AsyncClient) -> None:
    """Give back the client; the last user of a loop closes it."""
    with contextlib.suppress(RuntimeError):
        loop = asyncio.get_running_loop()
        entry = _CLIENTS.get(loop)
        if entry is None or entry[0] is not client:
            return
        entry[1] -= 1
        if entry[1] <= 0:
            _CLIENTS.pop(loop, None)
            await client.aclose()


def answer_from_object(
    obj: Any, legal: tuple[str, ...], decision_id: int
) -> Answer | AnswerFailure:
    """Read an agent's answer object: ``move_id`` (or ``move``, the models' field), an optional
    ``decision_id`` that must be this decision's, optional ``reason`` and ``notes``."""
    if not isinstance(obj, dict):
        return AnswerFailure("unparsable", "the answer is not a JSON object")
    move = obj.get("move_id", obj.get("move"))
    if move is None:
        return AnswerFailure("unparsable", 'the JSON object has no "move_id" field')
    if not isinstance(move, str):
        return AnswerFailure("unparsable", '"move_id" is not a string')
    did = obj.get("decision_id")
    # A2A data parts carry numbers as doubles: 4.0 is decision 4
    if did is not None and (
        isinstance(did, bool) or not isinstance(did, int | float) or did != decision_id
    ):
        shown = clip(repr(did), 40)
        return AnswerFailure("unparsable", f"the answer names decision {shown}, not {decision_id}")
    text = json.dumps({"move": move, "reason": obj.get("reason"), "notes": obj.get("notes")})
    return parse_answer(text, legal)


def answer_from_text(
    text: str | None, legal: tuple[str, ...], decision_id: int
) -> Answer | AnswerFailure:
    """One JSON object in ``text`` (bounded scan, never a move guessed from prose)."""
    if text is None or not text.strip():
        return AnswerFailure("empty", "the reply was empty")
    if len(text) > REPLY_ECHO_MAX_CHARS * 16:
        return AnswerFailure("unparsable", f"the reply is {len(text):,} characters, too long")
    scan = scan_json(text)
    if scan.obj is None:
        return AnswerFailure("unparsable", "no complete JSON object in the reply")
    return answer_from_object(scan.obj, legal, decision_id)


class AgentSeat:
    """The base of remote agents' seats; subclasses implement :meth:`_exchange` (one call)."""

    kind: ClassVar[str] = "agent"
    controller = "ai"
    transport_label: ClassVar[str] = "agent"

    def __init__(
        self,
        spec: AgentSpec,
        options: ModelOptions | None = None,
        *,
        seat: int,
        lang: str = "en",
        transcripts: bool = True,
        environ: Mapping[str, str] | None = None,
        seed: int = 0,
    ) -> None:
        self.agent = spec
        self.spec = str(spec)
        self.options = options or ModelOptions()
        self.seat = seat
        self.lang = lang
        self.transcripts = transcripts
        self.display_name = self.options.display_name or spec.label
        self.match_id = ""
        self.decision_index = 0
        self.prompter = DecisionPrompter(lang)
        self.in_flight: DecisionTelemetry | None = None
        self.sdk: str | None = None
        self._token = agent_token(spec, self.options, environ)
        self._origin = origin_of(spec.url)
        self._down_streak = 0
        self._rng = random.Random(seed)
        self._client: httpx.AsyncClient | None = None

    # -- what subclasses use --------------------------------------------------------------------
    @property
    def client(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = acquire_client()
        return self._client

    def auth_headers(self, url: str) -> dict[str, str]:
        """The bearer header, only for a request to the spec's own origin."""
        if self._token and origin_of(url) == self._origin:
            return {"Authorization": f"Bearer {self._token}"}
        return {}

    async def _exchange(
        self, body: dict[str, Any], payload: DecisionPayload, timeout: float, first: bool
    ) -> AgentReply:
        """Send ``body`` (the payload, with ``feedback`` on a retry); raise AgentError when no
        reply came."""
        raise NotImplementedError

    def _message_log(self, payload: DecisionPayload, feedback: list[dict[str, str]]) -> list:
        return [{"role": "user", "content": payload.prompt.turn}, *feedback]

    # -- the decision ---------------------------------------------------------------------------
    async def decide(self, view: SeatView, decision: Decision, deadline: Deadline) -> SeatAnswer:
        payload = self.prompter.payload(
            self.match_id, self.decision_index, view, decision, deadline.remaining()
        )
        body = payload.model_dump(mode="json", by_alias=True)
        legal = decision.ids
        tel = DecisionTelemetry()
        self.in_flight = tel
        failed = 0
        log: list[dict[str, str]] = []
        first = True
        try:
            while True:
                reply = await self._call(body, payload, deadline, tel, log, first)
                first = False
                att = tel.attempts[-1]
                parsed = reply.failure or (
                    answer_from_object(reply.obj, legal, payload.decision_id)
                    if reply.obj is not None
                    else answer_from_text(reply.text, legal, payload.decision_id)
                )
                self._down_streak = 0
                if isinstance(parsed, Answer):
                    att.move = parsed.move
                    tel.reason, tel.notes = parsed.reason, parsed.notes
                    return SeatAnswer(parsed.move, tel)
                att.outcome, att.detail, att.move = parsed.kind, parsed.detail, parsed.move
                failed += 1
                if failed > self.options.retry_budget:
                    raise _GiveUp("failures")
                said = clip_reply((reply.text or "").strip() or "(no answer)", 2_000)
                text = feedback_text(parsed, legal, self.lang)
                body = {
                    **body,
                    "feedback": {
                        "text": text,
                        "failure": parsed.kind,
                        "detail": parsed.detail,
                        "previous_reply": said,
                        "attempt": len(tel.attempts) + 1,
                    },
                }
                log += [{"role": "assistant", "content": said}, {"role": "user", "content": text}]
        except _GiveUp as g:
            reason = lost_reason(g.reason, tel)
            if reason in ("transport", "auth"):
                self._down_streak += 1
            tel.autopilot_reason = reason
            return SeatAnswer(None, tel)
        finally:
            tel.backoff_s = round(tel.backoff_s, 6)

    async def _call(
        self,
        body: dict[str, Any],
        payload: DecisionPayload,
        deadline: Deadline,
        tel: DecisionTelemetry,
        log: list[dict[str, str]],
        first: bool,
    ) -> AgentReply:
        """One reply, retrying transport failures within the deadline; raises _GiveUp."""
        probe_only = self._down_streak >= DOWN_AFTER
        waited = 0.0
        for n in range(1, MAX_TRANSPORT_TRIES + 1):
            try:
                return await self._attempt(body, payload, deadline, tel, log, waited, first)
            except AgentError as e:
                reason: AutopilotReason = {"timeout": "timeout", "auth": "auth"}.get(
                    e.kind, "transport"
                )  # type: ignore[assignment]
                if not e.retryable or probe_only or n == MAX_TRANSPORT_TRIES:
                    raise _GiveUp(reason) from None
                sleep = e.retry_after or self._rng.uniform(0, min(8.0, 0.25 * 2**n))
                credit = 0.0
                if e.kind == "rate_limit":
                    credit = min(sleep, deadline.backoff_cap_s - deadline.credited_s)
                if deadline.remaining() + credit - sleep < MIN_ATTEMPT_S:
                    raise _GiveUp(reason) from None
                if credit:
                    deadline.credit(sleep)
                    tel.credited_s = deadline.credited_s
                tel.backoff_s += sleep
                deadline.backoff_s += sleep
                waited = sleep
                await asyncio.sleep(sleep)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _attempt(
        self,
        body: dict[str, Any],
        payload: DecisionPayload,
        deadline: Deadline,
        tel: DecisionTelemetry,
        log: list[dict[str, str]],
        waited: float,
        first: bool,
    ) -> AgentReply:
        """Exactly one call, recorded as one attempt."""
        remaining = deadline.remaining()
        if remaining < MIN_ATTEMPT_S:
            raise _GiveUp("timeout")
        timeout = min(self.options.timeout_s or DEFAULT_TIMEOUT_S, remaining)
        body["deadline_s"] = round(max(0.0, remaining), 3)
        att = AttemptRecord(
            n=len(tel.attempts) + 1, outcome="ok", started_s=round(deadline.elapsed(), 6),
            waited_s=round(waited, 6), sdk=self.sdk,
        )  # fmt: skip
        tel.attempts.append(att)
        messages = self._message_log(payload, log) if self.transcripts else []
        t0 = time.monotonic()
        try:
            reply = await asyncio.wait_for(self._exchange(body, payload, timeout, first), timeout)
        except AgentError as e:
            att.latency_s = round(time.monotonic() - t0, 6)
            att.outcome = "timeout" if e.kind == "timeout" else "transport"
            att.status, att.detail = e.status, f"{e.kind}: {e.detail}"[:300]
            if self.transcripts:
                att.transcript = Transcript(messages=messages, request_params=self._params())
            raise
        except asyncio.CancelledError:  # the driver's deadline: the attempt got no reply
            att.latency_s = round(time.monotonic() - t0, 6)
            att.outcome, att.detail = "timeout", "cancelled at the decision's deadline"
            raise
        except TimeoutError:
            att.latency_s = round(time.monotonic() - t0, 6)
            att.outcome, att.detail = "timeout", f"no reply within {timeout:.2f}s"
            raise AgentError("timeout", att.detail, retryable=True) from None
        except Exception as e:  # noqa: BLE001 — a broken agent must not stop the table
            att.latency_s = round(time.monotonic() - t0, 6)
            att.outcome, att.detail = "transport", f"{type(e).__name__}: {e}"[:300]
            raise AgentError("transport", att.detail) from None
        att.latency_s = round(time.monotonic() - t0, 6)
        if self.transcripts:
            att.transcript = Transcript(
                messages=messages,
                raw_reply=None if reply.text is None else clip_reply(reply.text),
                request_params=self._params(),
            )
        return reply

    def _params(self) -> dict[str, Any]:
        return {"url": self.agent.label, "protocol": self.kind}

    # -- the record -----------------------------------------------------------------------------
    def seat_record(self, seat: int, time_per_move_s: float, transcripts: bool) -> SeatRecord:
        opts = self.options.model_dump(exclude_none=True, exclude_defaults=True)
        opts.pop("api_key_env", None)
        return SeatRecord(
            seat=seat, spec=self.spec, display_name=self.display_name,
            controller=self.controller, kind=self.kind,  # type: ignore[arg-type]
            provider=self.kind, base_url=self.agent.url, answer_mode="agent", lang=self.lang,
            prompt_version=PROMPT_VERSION, sdk=self.sdk, options=opts,
            time_per_move_s=time_per_move_s,
            system_prompt=self.prompter.system if transcripts else None,
        )  # fmt: skip

    def finish(self) -> None:
        """The match ended and its record is made (it names the system prompt): the prompter
        lets its memory, views, prompts and payloads go while the service keeps the match."""
        self.prompter.close()

    async def aclose(self) -> None:
        if self._client is not None:
            client, self._client = self._client, None
            await release_client(client)


__all__ = [
    "AgentError",
    "AgentReply",
    "AgentSeat",
    "acquire_client",
    "answer_from_object",
    "answer_from_text",
    "release_client",
]
