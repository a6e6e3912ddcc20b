"""``bangarena serve``: the seat service (``bangarena.service``) with uvicorn.

The admin token is ``BANGARENA_ADMIN_TOKEN``; when it is unset a random one is made and printed
once, here, at start (nothing else ever logs it). Model participants clients may seat come from
``--participants FILE`` (``[[participants]]`` tables as in a suite file). ``--suite FILE`` plays
a suite with people (``human:NAME`` participants) at the web table
(:mod:`bangarena.service.suite_host`), stored under the suite's own name; each person's join
link is printed once at start.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Final

import typer

from .support import fail

if TYPE_CHECKING:
    from bangarena.service.suite_host import SuiteHost

SERVE_HELP: Final = (
    "Serve the seat service: remote agents and people sit at tables over HTTP (API v1; "
    "OpenAPI at /docs, the guide at /developers).\n\n"
    "The admin token (to make matches) is BANGARENA_ADMIN_TOKEN, or a random one printed once "
    "at start. Finished matches are stored under the suite 'live' of --db."
)
HTTP_CHOICES: Final = ("httptools", "h11", "auto")
LOOP_CHOICES: Final = ("uvloop", "asyncio", "auto")
DEFAULT_HTTP: Final = "httptools"
DEFAULT_LOOP: Final = "uvloop"
"""The faster pair, measured on loopback as server CPU per request (8 keep-alive clients): a
bare FastAPI endpoint 208 µs with httptools + uvloop against 342 µs with h11 + asyncio; the
decision poll 292 µs against 417 µs."""


def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="Interface to listen on."),
    port: int = typer.Option(8000, "--port", help="TCP port."),
    db: str | None = typer.Option(
        None,
        "--db",
        help="Store URL or SQLite path (default: BANGARENA_DB, else bangarena-live.db).",
    ),
    participants: Path | None = typer.Option(
        None, "--participants", help="TOML file of the model participants clients may seat."
    ),
    cors: list[str] = typer.Option(
        [], "--cors-origin", help="Allow this browser origin (repeatable; CORS is off without)."
    ),
    http: str = typer.Option(DEFAULT_HTTP, "--http", help="HTTP parser: httptools, h11, auto."),
    loop: str = typer.Option(DEFAULT_LOOP, "--loop", help="Event loop: uvloop, asyncio, auto."),
    log_level: str = typer.Option("info", "--log-level", help="uvicorn's log level."),
    suite: Path | None = typer.Option(
        None,
        "--suite",
        help="Play this suite file with its people (human:NAME participants) at the web table; "
        "each person's join link is printed once at start.",
    ),
    max_matches: int | None = typer.Option(
        None, "--max-matches", help="With --suite: play at most N of its missing matches."
    ),
    waiting_timeout: float = typer.Option(
        3600.0,
        "--waiting-timeout",
        help="Seconds a match made through the API may wait for its remote and human seats to "
        "connect before it is cancelled.",
    ),
) -> None:
    import os

    from bangarena.evals.store import DB_ENV
    from bangarena.service.settings import (
        DEFAULT_DB,
        ServiceSettings,
        SettingsError,
        load_participants,
    )

    if not 0 < port < 65536:
        raise fail(f"--port {port}: give 1 to 65535")
    if http not in HTTP_CHOICES:
        raise fail(f"--http {http!r}: one of {', '.join(HTTP_CHOICES)}")
    if loop not in LOOP_CHOICES:
        raise fail(f"--loop {loop!r}: one of {', '.join(LOOP_CHOICES)}")
    try:
        offered = load_participants(participants) if participants is not None else ()
        settings = ServiceSettings(
            db_url=db or os.environ.get(DB_ENV) or DEFAULT_DB,
            participants=offered,
            cors_origins=tuple(cors),
            waiting_timeout_s=waiting_timeout,
        ).resolved()
    except (SettingsError, ValueError) as exc:
        raise fail(str(exc)) from None

    from bangarena.evals.store import StoreError, open_store
    from bangarena.service import create_app
    from bangarena.service.server import serve

    try:  # fail here, in one line, rather than in the server's start-up
        open_store(settings.db_url).close()
    except StoreError as exc:
        raise fail(str(exc)) from None
    suite_host = _suite_host(suite, max_matches, settings.db_url) if suite is not None else None
    if max_matches is not None and suite_host is None:
        raise fail("--max-matches: only with --suite")
    if settings.admin_token_generated:
        typer.echo(
            f"admin token (set BANGARENA_ADMIN_TOKEN to choose one): {settings.admin_token}",
            err=True,
        )
    typer.echo(f"seat service on http://{host}:{port} (guide: /developers, API: /docs)", err=True)
    extensions = None
    if suite_host is not None:
        from bangarena.service.extensions import EXTENSIONS

        extensions = [*EXTENSIONS, suite_host.install]
        _print_links(suite_host, f"http://{_shown_host(host)}:{port}")
    app = create_app(settings, extensions=extensions)
    server_gc()
    serve(app, host=host, port=port, http=http, loop=loop, log_level=log_level)


GC_THRESHOLD: Final = (50_000, 20, 20)
"""The server's collector thresholds (Python's default is 700, 10, 10)."""


def server_gc() -> None:
    """Keep the cyclic garbage collector out of the way of a long-running server: everything
    alive now (modules, FastAPI's and pydantic's schemas, the engine's tables) is frozen, never
    scanned again, and young collections run every 50,000 allocations instead of 700. A match
    allocates many short-lived, acyclic objects (views, events, payloads) that reference counting
    frees; what the collector found was almost never garbage, and a full collection over a heap
    of live matches stalled the loop for ~0.2 s: with 64 remote seats polling and moving, 33 % of
    the server's CPU went to the collector before, none in the same 6 s with these settings."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)


def _suite_host(path: Path, max_matches: int | None, db_url: str) -> SuiteHost:
    """The host of ``--suite``: the file checked (people allowed, model keys present), its
    run lock free now (the run takes it once the server is up)."""
    from bangarena.evals.store import StoreError, open_store
    from bangarena.evals.store.locks import DEFAULT_STALE_AFTER_S, lock_holder
    from bangarena.evals.suite import SuiteError, check_api_keys, load_suite
    from bangarena.service.suite_host import SuiteHost

    if max_matches is not None and max_matches < 1:
        raise fail(f"--max-matches {max_matches}: at least 1")
    try:
        suite = load_suite(path)
        check_api_keys(suite, people=True)
    except SuiteError as exc:
        raise fail(str(exc)) from None
    if not suite.file.people:
        raise fail(
            f"--suite {path}: no participant is a person (human:NAME); run it with "
            "`bangarena eval` instead"
        )
    try:  # only a look: taking the lock here would log a run that plays nothing
        with open_store(db_url) as store:
            holder = lock_holder(store.engine, suite.name)
    except StoreError as exc:
        raise fail(str(exc)) from None
    now = time.time()
    if holder is not None and now - holder.heartbeat_at < DEFAULT_STALE_AFTER_S:
        raise fail(f"--suite {path}: suite {suite.name!r} is being run by {holder.describe(now)}")
    return SuiteHost(suite, max_matches=max_matches)


def _shown_host(host: str) -> str:
    # A wildcard address is where the server listens, not where people reach it.
    return "127.0.0.1" if host in ("0.0.0.0", "::", "") else host


def _print_links(host: SuiteHost, base_url: str) -> None:
    """The one place join tokens are shown: each person's link, once, at start."""
    typer.echo(
        f"suite {host.name}: {len(host.plan)} planned matches; join links (give each person "
        "their own; open it again after each match for the next one):",
        err=True,
    )
    for name, link in host.links(base_url).items():
        typer.echo(f"  {name}: {link}", err=True)


def register(app: typer.Typer) -> None:
    """Add ``serve`` to ``app``."""
    app.command("serve", help=SERVE_HELP)(serve_command)
