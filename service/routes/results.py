"""What the store holds: ``GET /v1/suites``, ``/v1/suites/{name}``, ``/v1/leaderboard`` and the
live leaderboard site at ``/leaderboard`` (public: only finished matches are stored)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, RedirectResponse, Response
from sqlalchemy import select

from bangarena.evals.store import Store, StoreError
from bangarena.evals.store.tables import ParticipantRow

from ..errors import ERROR_RESPONSES, ApiError
from ..models import SuiteBody, SuiteDetail, SuiteTotalsBody
from ..state import ServiceState, service_state

router = APIRouter(tags=["results"], responses=ERROR_RESPONSES)
SuiteName = Annotated[str, PathParam(min_length=1, max_length=100)]


def _store(state: ServiceState) -> Store:
    if state.store is None:
        raise ApiError(503, "no_store", "this service runs without a store")
    return state.store


def _utc(moment: datetime) -> datetime:
    # SQLite gives back naive datetimes; the store writes UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _suite_body(status: Any) -> dict[str, Any]:
    t = status.totals
    return {
        "name": status.name,
        "hash": status.hash,
        "updated_at": _utc(status.updated_at),
        "runs": status.runs,
        "totals": SuiteTotalsBody(
            cost_usd=t.cost_usd, tokens=t.tokens, input_tokens=t.input_tokens,
            output_tokens=t.output_tokens, wall_s=t.wall_s, matches_done=t.matches_done,
            matches_void=t.matches_void,
        ),
    }  # fmt: skip


@router.get("/v1/suites", response_model=list[SuiteBody])
async def list_suites(request: Request) -> list[SuiteBody]:
    """Every suite of the store (``live`` holds the matches played here), with its totals."""
    state = service_state(request)
    store = _store(state)
    statuses = await state.run_store(store.suites)
    return [SuiteBody(**_suite_body(s)) for s in statuses]


def _detail(store: Store, name: str) -> SuiteDetail | None:
    sid = store.suite_id(name)
    if sid is None:
        return None
    status = store.suite_status(name)
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(ParticipantRow.participant, ParticipantRow.spec, ParticipantRow.kind)
            .where(ParticipantRow.suite_id == sid)
            .order_by(ParticipantRow.participant)
        ).all()
    participants = [{"id": p, "spec": _public_spec(s), "kind": k} for p, s, k in rows]
    return SuiteDetail(**_suite_body(status), participants=participants)


def _public_spec(spec: str) -> str:
    # A model's base URL is the server's business: the spec is shown up to its '@'.
    return spec.split("@", 1)[0]


@router.get(
    "/v1/suites/{name}",
    response_model=SuiteDetail,
    responses={404: {"description": "no such suite"}},
)
async def get_suite(request: Request, name: SuiteName) -> SuiteDetail:
    """One suite: totals and participants."""
    state = service_state(request)
    found = await state.run_store(_detail, _store(state), name)
    if found is None:
        raise ApiError(404, "unknown_suite", "no such suite in the store")
    return found


@router.get("/v1/leaderboard", response_model=list[dict[str, Any]])
async def leaderboard(
    request: Request,
    suite: Annotated[str | None, Query(max_length=100, description="default: every suite")] = None,
) -> list[dict[str, Any]]:
    """The boards (the ``leaderboard.json`` shape, schema ``/v1/schemas/leaderboard``), newest
    rules version first; ``suite=live`` rates the matches played here apart."""
    from bangarena.leaderboard.data import LeaderboardError

    state = service_state(request)
    _store(state)
    try:
        return await state.run_store(state.board.boards, suite)
    except LeaderboardError as exc:
        raise ApiError(
            404, "unknown_suite", str(exc).split(" is not in ")[0] + " is not stored"
        ) from None
    except StoreError:
        raise ApiError(503, "store_unavailable", "the store cannot be read now") from None


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_root() -> Response:
    # The site's links are relative: its pages must be served under a folder URL.
    return RedirectResponse("/leaderboard/", status_code=307)


@router.get("/leaderboard/{path:path}", include_in_schema=False)
async def leaderboard_site(request: Request, path: str) -> Response:
    """The leaderboard site, built from the store and rebuilt when it changes."""
    state = service_state(request)
    _store(state)
    root: Path = await state.run_store(state.board.site)
    target = (root / (path or "index.html")).resolve()
    if target.is_dir():
        target = target / "index.html"
    if not target.is_relative_to(root.resolve()) or not target.is_file():
        raise ApiError(404, "not_found", "no such page of the leaderboard site")
    return FileResponse(target)
