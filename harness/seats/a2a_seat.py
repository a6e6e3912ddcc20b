"""A2A participants (``a2a:URL``): a seat played by an Agent2Agent agent through the real
``a2a-sdk`` client.

The agent card is read from ``URL/.well-known/agent-card.json`` at the seat's first decision (a
card that cannot be fetched or does not parse is a ``transport`` failure whose detail says why;
the next decision tries again). Each decision is one message in the seat's own A2A context (one
per seat and match, so the agent keeps its memory): a text part with the prompt (the system
prompt too in the context's first message) and a data part with the decision payload. A retry
after a failed reply is a new message in the same context: the feedback text, and the payload
with its ``feedback`` object.

The move is read from the reply (streamed or not): a data part that is an object with
``move_id`` (or ``move``) — from the task's artifacts, the reply message, or the final status
message — else one JSON object in the text parts, never a move guessed from prose. Task states:
``completed`` is read; ``input-required`` and ``failed`` and ``canceled`` are ``empty`` (no
answer was given), ``rejected`` is ``refusal``, ``auth-required`` is an auth failure; a reply
naming another context, or a task other than the one it started, is ``unparsable`` — the
match goes on in every case, with the model seat's feedback, retries and autopilot.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib.metadata
import json
import uuid
from typing import Any, ClassVar

import httpx
from a2a.client import (
    A2ACardResolver,
    A2AClientError,
    A2AClientTimeoutError,
    AgentCardResolutionError,
    Client,
    ClientCallContext,
    ClientConfig,
    ClientFactory,
)
from a2a.helpers.proto_helpers import new_data_part, new_text_part
from a2a.types import (
    GetTaskRequest,
    Message,
    Part,
    Role,
    SendMessageConfiguration,
    SendMessageRequest,
    StreamResponse,
    TaskState,
)
from a2a.utils.constants import AGENT_CARD_WELL_KNOWN_PATH
from google.protobuf.json_format import MessageToDict

from ..answers import AnswerFailure, clip
from ..decision_payload import DecisionPayload
from .agent_seat import AgentError, AgentReply, AgentSeat

TERMINAL: frozenset[int] = frozenset(
    {
        TaskState.TASK_STATE_COMPLETED,
        TaskState.TASK_STATE_FAILED,
        TaskState.TASK_STATE_CANCELED,
        TaskState.TASK_STATE_REJECTED,
        TaskState.TASK_STATE_INPUT_REQUIRED,
        TaskState.TASK_STATE_AUTH_REQUIRED,
    }
)
"""States after which the agent will not answer this message any more."""
POLL_S = 0.05
MAX_PARTS = 64


@functools.cache
def sdk_label() -> str:
    """``a2a-sdk <version>`` (looked up once per process)."""
    try:
        return f"a2a-sdk {importlib.metadata.version('a2a-sdk')}"
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover
        return "a2a-sdk"


def state_name(state: int) -> str:
    """``input-required`` for TASK_STATE_INPUT_REQUIRED …"""
    try:
        return TaskState.Name(state).removeprefix("TASK_STATE_").lower().replace("_", "-")
    except ValueError:
        return f"state {state}"


def classify_a2a_error(exc: BaseException, what: str) -> AgentError:
    """An a2a-sdk (or httpx) error as the failure class a model's would get."""
    cause: BaseException | None = exc
    for _ in range(6):
        if cause is None:
            break
        if isinstance(cause, httpx.HTTPStatusError):
            status = cause.response.status_code
            detail = f"{what}: HTTP {status}"
            if status in (401, 403):
                return AgentError("auth", detail, status=status)
            if status == 429:
                return AgentError("rate_limit", detail, status=status, retryable=True)
            return AgentError("transport", detail, status=status, retryable=status >= 500)
        if isinstance(cause, httpx.TimeoutException | A2AClientTimeoutError):
            return AgentError("timeout", f"{what}: timed out", retryable=True)
        if isinstance(cause, httpx.TransportError):
            return AgentError(
                "transport", f"{what}: {type(cause).__name__}: {cause}", retryable=True
            )
        cause = cause.__cause__ or cause.__context__
    return AgentError("transport", f"{what}: {type(exc).__name__}: {exc}")


class _Collected:
    """What one message's reply said, in the order the answer is looked for."""

    def __init__(self) -> None:
        self.artifact_data: list[Any] = []
        self.message_data: list[Any] = []
        self.texts: list[str] = []
        self.state: int | None = None
        self.status_text: list[str] = []
        self.task_id: str | None = None
        self.problem: str | None = None
        self.parts = 0

    def add(self, parts: Any, into: list[Any], texts: list[str]) -> None:
        for p in parts:
            self.parts += 1
            if self.parts > MAX_PARTS:
                return
            if p.HasField("data"):
                into.append(MessageToDict(p.data))
            elif p.HasField("text"):
                texts.append(p.text)

    def record_text(self) -> str:
        out = [*self.texts, *self.status_text]
        out += [json.dumps(d, ensure_ascii=False) for d in self.artifact_data + self.message_data]
        return "\n".join(out)


class A2ASeat(AgentSeat):
    """A seat played by an A2A agent."""

    kind: ClassVar[str] = "a2a"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.context_id = uuid.uuid4().hex
        self.sdk = sdk_label()
        self._a2a: Client | None = None
        self._interface_url: str | None = None
        self._spoken = False
        self.card_name: str | None = None

    @property
    def card_url(self) -> str:
        return self.agent.url.rstrip("/") + AGENT_CARD_WELL_KNOWN_PATH

    async def _connect(self, timeout: float) -> Client:
        if self._a2a is not None:
            return self._a2a
        resolver = A2ACardResolver(self.client, self.agent.url)
        try:
            card = await resolver.get_agent_card(
                http_kwargs={"headers": self.auth_headers(self.card_url), "timeout": timeout}
            )
        except AgentCardResolutionError as e:
            status = e.status_code
            detail = f"agent card at {self.card_url}: {clip(str(e), 240)}"
            if status is not None:
                if status in (401, 403):
                    raise AgentError("auth", detail, status=status) from None
                raise AgentError(
                    "transport", detail, status=status, retryable=status >= 500
                ) from None
            err = classify_a2a_error(e, "agent card")
            if err.retryable:
                raise err from None
            # fetched, but not a card: the agent's fault, told precisely
            raise AgentError("transport", f"{detail} (the card does not parse)") from None
        except (A2AClientError, httpx.HTTPError) as e:
            raise classify_a2a_error(e, f"agent card at {self.card_url}") from None
        factory = ClientFactory(
            ClientConfig(
                httpx_client=self.client,
                streaming=True,
                accepted_output_modes=["application/json", "text/plain"],
            )
        )
        try:
            client = factory.create(card)
        except ValueError as e:
            raise AgentError(
                "transport", f"agent card at {self.card_url}: {e} (this client speaks JSON-RPC)"
            ) from None
        self._interface_url = next(
            (i.url for i in card.supported_interfaces if i.protocol_binding == "JSONRPC"),
            self.agent.url,
        )
        self.card_name = card.name or None
        self._a2a = client
        return client

    def _message(self, body: dict[str, Any], payload: DecisionPayload) -> Message:
        fb = body.get("feedback")
        if fb is not None:
            text = fb["text"]
        elif not self._spoken:
            text = f"{payload.prompt.system}\n\n{payload.prompt.turn}"
        else:
            text = payload.prompt.turn
        parts: list[Part] = [
            new_text_part(text, media_type="text/markdown"),
            new_data_part(body, media_type="application/json"),
        ]
        return Message(
            role=Role.ROLE_USER,
            message_id=uuid.uuid4().hex,
            context_id=self.context_id,
            parts=parts,
        )

    def _check_ids(self, got: _Collected, task_id: str, context_id: str) -> None:
        if got.problem is not None:
            return
        if context_id and context_id != self.context_id:
            got.problem = (
                f"the reply belongs to context {clip(context_id, 60)!r}, "
                f"not this seat's {self.context_id!r}"
            )
        elif task_id:
            if got.task_id is None:
                got.task_id = task_id
            elif task_id != got.task_id:
                got.problem = (
                    f"the reply names task {clip(task_id, 60)!r}, not the task "
                    f"{got.task_id!r} this message started"
                )

    async def _exchange(
        self, body: dict[str, Any], payload: DecisionPayload, timeout: float, first: bool
    ) -> AgentReply:
        client = await self._connect(timeout)
        headers = self.auth_headers(self._interface_url or self.agent.url)
        ctx = ClientCallContext(timeout=timeout, service_parameters=headers or None)
        request = SendMessageRequest(
            message=self._message(body, payload),
            configuration=SendMessageConfiguration(
                accepted_output_modes=["application/json", "text/plain"]
            ),
        )
        got = _Collected()
        try:
            async for ev in client.send_message(request, context=ctx):
                self._take(ev, got)
                if got.problem is not None:
                    break
            if got.problem is None and got.state is not None and got.state not in TERMINAL:
                await self._poll(client, got, ctx)
        except (A2AClientError, httpx.HTTPError) as e:
            raise classify_a2a_error(e, "send message") from None
        except ValueError as e:  # a reply with neither task nor message
            raise AgentError("transport", f"send message: {e}") from None
        self._spoken = True
        return self._reply(got)

    def _take(self, ev: Any, got: _Collected) -> None:
        which = ev.WhichOneof("payload")
        if which == "message":
            m = ev.message
            if m.task_id and got.task_id is None and got.problem is None:
                # a direct reply to a new message starts no task: this one is someone else's
                got.problem = (
                    f"the reply names task {clip(m.task_id, 60)!r}, which it never started"
                )
            self._check_ids(got, m.task_id, m.context_id)
            got.add(m.parts, got.message_data, got.texts)
            got.state = TaskState.TASK_STATE_COMPLETED  # a direct reply is final
        elif which == "task":
            t = ev.task
            self._check_ids(got, t.id, t.context_id)
            got.state = t.status.state
            for a in t.artifacts:
                got.add(a.parts, got.artifact_data, got.texts)
            if t.status.HasField("message"):
                got.add(t.status.message.parts, got.message_data, got.status_text)
        elif which == "status_update":
            u = ev.status_update
            self._check_ids(got, u.task_id, u.context_id)
            got.state = u.status.state
            if u.status.HasField("message"):
                got.add(u.status.message.parts, got.message_data, got.status_text)
        elif which == "artifact_update":
            u = ev.artifact_update
            self._check_ids(got, u.task_id, u.context_id)
            got.add(u.artifact.parts, got.artifact_data, got.texts)

    async def _poll(self, client: Client, got: _Collected, ctx: ClientCallContext) -> None:
        """A task left running when the reply ended: ask for it until it is done."""
        assert got.task_id is not None
        while got.state not in TERMINAL:
            await asyncio.sleep(POLL_S)
            task = await client.get_task(GetTaskRequest(id=got.task_id), context=ctx)
            fresh = _Collected()
            fresh.task_id = got.task_id
            self._take(StreamResponse(task=task), fresh)
            got.state, got.problem = fresh.state, fresh.problem
            got.artifact_data, got.message_data = fresh.artifact_data, fresh.message_data
            got.texts, got.status_text = fresh.texts, fresh.status_text
            if got.problem is not None:
                return

    def _reply(self, got: _Collected) -> AgentReply:
        said = got.record_text()
        if got.problem is not None:
            return AgentReply(said, failure=AnswerFailure("unparsable", got.problem))
        state = got.state
        why = clip(" ".join(got.status_text).strip(), 200)
        if state == TaskState.TASK_STATE_AUTH_REQUIRED:
            raise AgentError("auth", f"the agent asked for authentication: {why}")
        if state == TaskState.TASK_STATE_REJECTED:
            return AgentReply(
                said, failure=AnswerFailure("refusal", f"the agent rejected the task: {why}")
            )
        if state in (
            TaskState.TASK_STATE_INPUT_REQUIRED,
            TaskState.TASK_STATE_FAILED,
            TaskState.TASK_STATE_CANCELED,
        ):
            detail = f"the task ended {state_name(state)} without a move"
            return AgentReply(said, failure=AnswerFailure("empty", f"{detail}: {why}"[:300]))
        if state != TaskState.TASK_STATE_COMPLETED:
            detail = f"the reply ended with the task {state_name(state or 0)}"
            return AgentReply(said, failure=AnswerFailure("empty", detail))
        for data in got.artifact_data + got.message_data:
            if isinstance(data, dict) and ("move_id" in data or "move" in data):
                return AgentReply(said, data)
        if got.artifact_data or got.message_data:
            first = next(iter(got.artifact_data + got.message_data))
            return AgentReply(said, first if isinstance(first, dict) else {"value": first})
        return AgentReply("\n".join(got.texts + got.status_text))

    def _params(self) -> dict[str, Any]:
        return {**super()._params(), "context_id": self.context_id}

    async def aclose(self) -> None:
        if self._a2a is not None:
            client, self._a2a = self._a2a, None
            with contextlib.suppress(Exception):  # closing must not fail the match
                await client.close()
        await super().aclose()


__all__ = ["A2ASeat", "classify_a2a_error", "sdk_label", "state_name"]
