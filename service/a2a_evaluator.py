"""BangArena as an A2A evaluator ("green" agent): an assessment request names player agents by
A2A URL (and optional bots) with a suite configuration; the evaluator runs that suite with the
evals runner (the service's store, duplicate deals, budgets), streams progress as task status
updates and returns the leaderboard JSON and a results summary as artifacts.

Mounted by :func:`install` (listed in :mod:`.extensions`):

- ``GET /a2a/evaluator/.well-known/agent-card.json`` (and ``/.well-known/agent-card.json``):
  the card, whose JSON-RPC interface URL is built from the request's own base URL;
- ``POST /a2a/evaluator/``: A2A JSON-RPC (``SendMessage``, ``SendStreamingMessage``,
  ``GetTask`` …), admin token required (``Authorization: Bearer …``; 401 otherwise).

The request is one data part (docs/agent-protocols.md)::

    {"participants": [{"id": "purple-a", "url": "http://127.0.0.1:8701"}],
     "bots": ["rule", {"id": "explorer", "spec": "rule:eps=0.3"}],
     "suite": {"name": "assess-1", "seed": 1, "deals": 2},
     "tables": [{"seats": 4, "lineup": ["purple-a", "rule", "rule", "explorer"]}],
     "budget": {"max_wall_s": 600}, "concurrency": {"matches": 4}}

``suite``, ``tables``, ``budget`` and ``concurrency`` are the suite file's sections
(:mod:`bangarena.evals.suite`); a participant's ``options`` are an agent's options. A request
that does not check is rejected (task state ``rejected``) with the one-line reason the suite
parser gives; a run that cannot start (the suite is locked by another run …) fails with its
reason.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Callable, Mapping
from typing import Any, Final

from a2a.helpers.proto_helpers import (
    get_data_parts,
    new_data_part,
    new_task_from_user_message,
    new_text_part,
)
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.request_handlers.response_helpers import agent_card_to_dict
from a2a.server.routes import create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill, TaskState
from a2a.utils.constants import AGENT_CARD_WELL_KNOWN_PATH
from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bangarena.evals.suite import PARTICIPANT_ID_PATTERN, Suite, SuiteError, parse_suite

from .registry import MatchRegistry
from .tokens import request_token

log = logging.getLogger("bangarena.service")

BASE_PATH: Final = "/a2a/evaluator"
MAX_PLANNED_MATCHES: Final = 5_000
"""An assessment plans at most this many matches (a typo in ``deals`` is not a week's run)."""
PROGRESS_EVERY_S: Final = 0.5


class AgentEntry(BaseModel):
    """A player agent of the assessment: its leaderboard id and its A2A URL."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=PARTICIPANT_ID_PATTERN)
    url: str = Field(min_length=8, max_length=2000)
    options: dict[str, Any] = Field(default_factory=dict)

    @field_validator("url")
    @classmethod
    def _http(cls, value: str) -> str:
        if not value.lower().startswith(("http://", "https://")):
            raise ValueError("an A2A URL starts with http:// or https://")
        return value


class BotEntry(BaseModel):
    """A bot of the assessment (``rule``, ``random``, ``rule:eps=0.3`` …)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=PARTICIPANT_ID_PATTERN)
    spec: str = Field(min_length=1, max_length=200)


class AssessmentRequest(BaseModel):
    """What an assessment asks for (the data part of the request message)."""

    model_config = ConfigDict(extra="forbid")

    participants: list[AgentEntry] = Field(min_length=1, max_length=64)
    bots: list[str | BotEntry] = Field(default_factory=list, max_length=64)
    suite: dict[str, Any]
    tables: list[dict[str, Any]] = Field(min_length=1, max_length=32)
    budget: dict[str, Any] | None = None
    concurrency: dict[str, Any] | None = None


# -- the request as a suite file ---------------------------------------------------------------
def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        if isinstance(value, float) and value.is_integer():
            return repr(value)  # 30.0 stays a float: the suite's types are strict
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string (ASCII, escaped) is a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise SuiteError(f"a value of type {type(value).__name__} has no TOML form")


def _key(key: Any) -> str:
    k = str(key)
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k)


def _table(name: str, body: Mapping[str, Any], array: bool = False) -> str:
    head = f"[[{name}]]" if array else f"[{name}]"
    return "\n".join([head, *(f"{_key(k)} = {_toml_value(v)}" for k, v in body.items())])


def suite_text(req: AssessmentRequest) -> str:
    """The request as a suite file's TOML (stored with the suite, so ``bangarena suites`` and
    the leaderboard read it like any other)."""
    parts = [_table("suite", req.suite)]
    for p in req.participants:
        entry: dict[str, Any] = {"id": p.id, "spec": f"a2a:{p.url}"}
        if p.options:
            entry["options"] = p.options
        parts.append(_table("participants", entry, array=True))
    for b in req.bots:
        bot = BotEntry(id=b, spec=b) if isinstance(b, str) else b
        parts.append(_table("participants", {"id": bot.id, "spec": bot.spec}, array=True))
    parts += [_table("tables", t, array=True) for t in req.tables]
    if req.budget is not None:
        parts.append(_table("budget", req.budget))
    if req.concurrency is not None:
        parts.append(_table("concurrency", req.concurrency))
    return "\n\n".join(parts) + "\n"


def assessment_suite(data: Any) -> Suite:
    """Check an assessment request and make its suite; raises SuiteError with one line."""
    try:
        req = AssessmentRequest.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "(request)"
        msg = first["msg"].removeprefix("Value error, ")
        raise SuiteError(f"assessment request: {where}: {msg}") from None
    suite = parse_suite(suite_text(req), where="assessment request")
    for p in suite.file.participants:
        if p.plan.kind not in ("a2a", "rule", "random"):
            raise SuiteError(
                f"assessment request: participant {p.id!r} ({p.plan.kind}): only A2A agents "
                "and bots take part in an assessment"
            )
    return suite


# -- the executor -------------------------------------------------------------------------------
class EvaluatorExecutor(AgentExecutor):
    """Runs one assessment per message: the suite in a worker thread, progress as status."""

    def __init__(self, db_url: Callable[[], str], environ: Mapping[str, str] | None = None):
        self.db_url = db_url
        self.environ = environ

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        msg = context.message
        assert msg is not None
        if context.current_task is None:
            await event_queue.enqueue_event(new_task_from_user_message(msg))
        up = TaskUpdater(event_queue, context.task_id or "", context.context_id or "")
        data = [d for d in get_data_parts(msg.parts) if isinstance(d, dict)]
        if len(data) != 1:
            await up.reject(_agent_text(up, f"send one data part (got {len(data)}): the "
                                            "assessment request, see docs/agent-protocols.md"))  # fmt: skip
            return
        try:
            suite = assessment_suite(_ints(data[0]))
            from bangarena.evals import plan_suite

            # every deal plays each table in all its rotations: counted before planning them
            f = suite.file
            planned = f.suite.deals * sum(t.seats for t in f.tables)
            if planned <= MAX_PLANNED_MATCHES:
                planned = len(plan_suite(suite))
            if planned > MAX_PLANNED_MATCHES:
                raise SuiteError(
                    f"assessment request: {planned} matches planned, over the limit of "
                    f"{MAX_PLANNED_MATCHES}"
                )
        except SuiteError as exc:
            await up.reject(_agent_text(up, str(exc)))
            return
        await up.start_work(
            _agent_text(up, f"assessing suite {suite.name!r}: {planned} matches planned")
        )
        try:
            result, boards = await self._run(suite, up)
        except Exception as exc:  # noqa: BLE001 — the reason goes back to the client
            await up.failed(_agent_text(up, f"the run did not complete: {exc}"[:500]))
            return
        board_json = [b.model_dump(mode="json") for b in boards]
        summary = _summary(result)
        await up.add_artifact(
            [new_data_part(board_json[0] if len(board_json) == 1 else board_json)],
            name="leaderboard",
            metadata={"format": "bangarena.leaderboard"},
        )
        await up.add_artifact(
            [new_text_part(_summary_text(summary)), new_data_part(summary)], name="summary"
        )
        await up.complete(_agent_text(up, _summary_text(summary)))

    async def _run(self, suite: Suite, up: TaskUpdater) -> tuple[Any, list[Any]]:
        from bangarena.evals.runner import RunObserver, RunOptions, RunView, run_suite
        from bangarena.evals.store import open_store
        from bangarena.leaderboard.board import build_boards

        loop = asyncio.get_running_loop()
        progress: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        class Observer(RunObserver):
            def stored(self, view: RunView, outcome: Any) -> None:
                snap = {
                    "suite": view.suite,
                    "planned": view.planned,
                    "reused": view.reused,
                    "to_run": view.to_run,
                    "done": view.done_now,
                    "void": view.void_now,
                    "errors": view.errors,
                    "last": {"key": outcome.key, "status": outcome.status},
                }
                loop.call_soon_threadsafe(progress.put_nowait, snap)

        db = self.db_url()

        def work() -> tuple[Any, list[Any]]:
            result = run_suite(suite, RunOptions(db=db, environ=self.environ), Observer())
            store = open_store(db)
            try:
                return result, build_boards(store, suite.name)
            finally:
                store.close()

        job = asyncio.ensure_future(asyncio.to_thread(work))
        try:
            while not job.done():
                getter = asyncio.ensure_future(progress.get())
                done, _ = await asyncio.wait({job, getter}, return_when=asyncio.FIRST_COMPLETED)
                if getter in done:
                    await _progress(up, getter.result())
                else:
                    getter.cancel()
            while not progress.empty():
                await _progress(up, progress.get_nowait())
            return job.result()
        finally:
            if not job.done():
                job.cancel()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        up = TaskUpdater(event_queue, context.task_id or "", context.context_id or "")
        await up.cancel(_agent_text(up, "an assessment cannot be stopped half-way; it ends "
                                        "when its matches end"))  # fmt: skip


async def _progress(up: TaskUpdater, snap: dict[str, Any]) -> None:
    finished = snap["done"] + snap["void"] + snap["errors"]
    text = f"{finished}/{snap['to_run']} matches played ({snap['done']} done, {snap['void']} void)"
    msg = up.new_agent_message([new_text_part(text), new_data_part(snap)])
    await up.update_status(TaskState.TASK_STATE_WORKING, msg, metadata={"progress": True})


def _agent_text(up: TaskUpdater, text: str):
    return up.new_agent_message([new_text_part(text)])


def _ints(value: Any) -> Any:
    """A data part's numbers come as doubles: 4.0 back to 4 (the suite's types are strict)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_ints(v) for v in value]
    if isinstance(value, dict):
        return {k: _ints(v) for k, v in value.items()}
    return value


def _summary(result: Any) -> dict[str, Any]:
    out = result.to_json()
    out["void_reasons"] = list(result.void_reasons)[:20]
    out["errors"] = list(result.errors)[:20]
    out["participants"] = [
        {
            "participant": p.participant,
            "kind": p.kind,
            "seats": p.seats,
            "wins": p.wins,
            "win_rate": round(p.wins / p.seats, 4) if p.seats else None,
            "decisions": p.decisions,
            "first_try_valid_rate": p.first_try_valid_rate,
            "autopilot_moves": p.autopilot_moves,
        }
        for p in result.participants
    ]
    out.pop("db", None)  # where the store lives is the service's business
    return out


def _summary_text(summary: dict[str, Any]) -> str:
    rows = ", ".join(
        f"{p['participant']} {p['wins']}/{p['seats']} wins" for p in summary["participants"]
    )
    return (
        f"suite {summary['suite']}: {summary['matches_done']} of {summary['matches_planned']} "
        f"matches done, {summary['matches_void']} void; {rows}"
    )


# -- the card and the routes --------------------------------------------------------------------
def evaluator_card(base_url: str) -> AgentCard:
    """The evaluator's card; ``base_url``: the service's public base (``http://host:port``)."""
    return AgentCard(
        name="BangArena evaluator",
        description=(
            "Assesses A2A player agents at BANG!-like hidden-role card tables: send an "
            "assessment request (participants by A2A URL, optional bots, a suite configuration) "
            "as a data part; progress streams as task status updates; the leaderboard JSON and "
            "a results summary come back as artifacts."
        ),
        version="1.0.0",
        capabilities=AgentCapabilities(streaming=True),
        default_input_modes=["application/json"],
        default_output_modes=["application/json", "text/plain"],
        skills=[
            AgentSkill(
                id="assess-bangarena-agents",
                name="Assess agents at BangArena tables",
                description="Runs a suite of matches (duplicate deals, rotations) with the "
                "named agents and rates them on a leaderboard.",
                tags=["evaluation", "game", "leaderboard", "bangarena"],
                examples=[
                    '{"participants": [{"id": "me", "url": "http://127.0.0.1:8701"}], '
                    '"bots": ["rule"], "suite": {"name": "try", "deals": 1}, '
                    '"tables": [{"seats": 4, "lineup": ["me", "rule", "rule", "rule"]}]}'
                ],
            )  # fmt: skip
        ],
        supported_interfaces=[
            AgentInterface(
                protocol_binding="JSONRPC",
                protocol_version="1.0",
                url=base_url.rstrip("/") + BASE_PATH + "/",
            )
        ],
    )


def install(app: FastAPI, registry: MatchRegistry) -> None:
    """Mount the evaluator's card and JSON-RPC endpoint on the service ``app`` (the registry is
    not used: an assessment plays through the evals runner, not the live tables)."""
    state = app.state.service
    executor = EvaluatorExecutor(lambda: state.settings.db_url)
    handler = DefaultRequestHandler(
        agent_executor=executor,
        task_store=InMemoryTaskStore(),
        agent_card=evaluator_card("http://localhost"),
    )
    (rpc,) = create_jsonrpc_routes(handler, rpc_url=BASE_PATH + "/")
    endpoint = rpc.endpoint

    async def guarded(request: Request) -> Response:
        token = request_token(request)
        if not token or not state.tokens.is_admin(token):
            reason = "missing bearer token" if token is None else "not the admin token"
            return JSONResponse(
                {
                    "error": "unauthorized",
                    "detail": f"an assessment needs the admin token: {reason}",
                },
                status_code=401,
                headers={"WWW-Authenticate": "Bearer"},
            )
        return await endpoint(request)

    async def card(request: Request) -> JSONResponse:
        base = str(request.base_url).rstrip("/")
        return JSONResponse(agent_card_to_dict(evaluator_card(base)))

    for path in (BASE_PATH + AGENT_CARD_WELL_KNOWN_PATH, AGENT_CARD_WELL_KNOWN_PATH):
        app.router.routes.append(Route(path, card, methods=["GET"]))
    app.router.routes.append(Route(BASE_PATH + "/", guarded, methods=["POST"]))


__all__ = [
    "BASE_PATH",
    "AgentEntry",
    "AssessmentRequest",
    "BotEntry",
    "EvaluatorExecutor",
    "assessment_suite",
    "evaluator_card",
    "install",
    "suite_text",
]
