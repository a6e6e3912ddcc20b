"""What the service publishes about itself: ``/healthz``, ``GET /v1/rules`` (rules.json),
``GET /v1/schemas/{name}`` (the JSON Schemas), ``/developers`` (the "for AI developers" page)
and browser sessions (``POST``/``DELETE /v1/session``: a token into an HttpOnly cookie)."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Annotated, Any, Final

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, JSONResponse, Response

from bangarena.engine import ENGINE_VERSION, RULES_VERSION

from ..errors import ERROR_RESPONSES, ApiError
from ..models import Health, SessionBody, SessionRequest
from ..state import service_state
from ..tokens import COOKIE_NAME

router = APIRouter(tags=["meta"], responses=ERROR_RESPONSES)
DOCS_FILE: Final = Path(__file__).resolve().parents[2] / "docs" / "for-ai-developers.md"
"""The page's source in the repository (``ServiceSettings.docs_path`` overrides it)."""
SchemaName = Annotated[str, PathParam(min_length=1, max_length=60, pattern=r"^[a-z0-9-]+$")]


@router.get("/healthz", response_model=Health)
async def healthz(request: Request) -> Health:
    """Liveness: versions and the number of matches held."""
    state = service_state(request)
    return Health(
        status="ok", engine_version=ENGINE_VERSION, rules_version=RULES_VERSION,
        live_matches=len(state.registry.matches),
    )  # fmt: skip


@functools.cache
def _rules_body() -> bytes:
    from bangarena.rules_machine.document import rules_document

    return json.dumps(rules_document(), ensure_ascii=False).encode("utf-8")


@router.get("/v1/rules", response_model=dict[str, Any])
async def rules() -> Response:
    """rules.json: cards, deck, characters, roles, modes, decision and move kinds, versions."""
    return Response(_rules_body(), media_type="application/json")


@functools.cache
def schema_names() -> dict[str, str]:
    """Schema name → where it comes from: the published files (``decision``, ``seat-view``,
    ``match-record`` …) and the service's own (``decision-payload``, ``move-answer``,
    ``leaderboard``)."""
    from bangarena.rules_machine.publish import MATCH_RECORD_FILE, PUBLISHED_DIR
    from bangarena.rules_machine.schemas import SCHEMA_FILES

    out = {f.removesuffix(".schema.json"): str(PUBLISHED_DIR / f) for f in SCHEMA_FILES.values()}
    out[MATCH_RECORD_FILE.removesuffix(".schema.json")] = str(PUBLISHED_DIR / MATCH_RECORD_FILE)
    out.update({"decision-payload": "", "move-answer": "", "leaderboard": ""})
    return dict(sorted(out.items()))


@functools.cache
def _schema(name: str) -> dict[str, Any]:
    from bangarena.harness.decision_payload import DecisionPayload, MoveAnswer

    dialect = {"$schema": "https://json-schema.org/draft/2020-12/schema"}
    if name == "decision-payload":
        return {**dialect, **DecisionPayload.model_json_schema(by_alias=True)}
    if name == "move-answer":
        return {**dialect, **MoveAnswer.model_json_schema()}
    if name == "leaderboard":
        from bangarena.leaderboard.board import board_json_schema

        return board_json_schema()
    data: dict[str, Any] = json.loads(Path(schema_names()[name]).read_text(encoding="utf-8"))
    return data


@router.get(
    "/v1/schemas/{name}",
    response_model=dict[str, Any],
    responses={404: {"description": "no such schema"}},
)
async def get_schema(name: SchemaName) -> JSONResponse:
    """A JSON Schema (Draft 2020-12) by name: decision-payload, move-answer, decision,
    seat-view, event, move, game-record, match-record, answer-fixed, leaderboard …"""
    names = schema_names()
    if name not in names:
        raise ApiError(404, "unknown_schema", f"no schema {name!r}; valid: {', '.join(names)}")
    return JSONResponse(_schema(name))


def _docs_path(request: Request) -> Path:
    return service_state(request).settings.docs_path or DOCS_FILE


@functools.cache
def _render(path: str, mtime_ns: int) -> str:
    from markdown_it import MarkdownIt

    text = Path(path).read_text(encoding="utf-8")
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>BangArena for AI developers</title><style>"
        "body{max-width:50rem;margin:2rem auto;padding:0 1rem;font:16px/1.5 system-ui,sans-serif}"
        "pre{background:#f4f4f4;padding:.75rem;overflow:auto}code{font-size:.95em}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem}"
        f"</style></head><body>{body}</body></html>"
    )


@router.get(
    "/developers",
    response_class=HTMLResponse,
    responses={404: {"description": "the page's source is missing on this server"}},
)
async def developers(request: Request) -> HTMLResponse:
    """The "for AI developers" page: docs/for-ai-developers.md, rendered."""
    path = _docs_path(request)
    try:
        mtime = path.stat().st_mtime_ns
        html = _render(str(path), mtime)
    except (OSError, UnicodeDecodeError):
        raise ApiError(
            404, "no_developers_page", "docs/for-ai-developers.md is not on this server"
        ) from None
    return HTMLResponse(html)


@router.post("/v1/session", response_model=SessionBody)
async def open_session(request: Request, body: SessionRequest) -> JSONResponse:
    """For a browser: trade a seat, spectator or host token (sent once, in the body) for an
    HttpOnly SameSite cookie that every later request (``EventSource`` included) carries."""
    state = service_state(request)
    grant = state.tokens.lookup(body.token)
    if grant is None:
        raise ApiError(401, "unknown_token", "the token is not known to this service")
    out = SessionBody(match_id=grant.match_id, role=grant.role, seat=grant.seat)
    resp = JSONResponse(out.model_dump(mode="json"))
    resp.set_cookie(
        COOKIE_NAME, body.token, httponly=True, samesite="strict",
        secure=state.settings.cookie_secure, path="/",
    )  # fmt: skip
    return resp


@router.delete("/v1/session", status_code=204)
async def close_session() -> Response:
    """Forget the browser's token cookie."""
    resp = Response(status_code=204)
    resp.delete_cookie(COOKIE_NAME, path="/", httponly=True, samesite="strict")
    return resp
