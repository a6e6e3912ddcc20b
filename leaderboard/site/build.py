"""``build_site``: the whole static site from a store.

```python
from bangarena.leaderboard.site import build_site

report = build_site("results.db", "site/")        # or a Store, or postgresql+psycopg://…
print(report.notices, report.seconds)            # open site/index.html
```

The site (every link relative, so it works from ``file://`` and from any static host; no CDN,
no network)::

    index.html                 the board of each rules version: sortable table, plots
    leaderboard.json           the boards for machines (schema: leaderboard.schema.json)
    compare.html               head to head on duplicate deals
    methodology.html           the model, the bootstrap, the validity figures
    participants/<id>.html     a page per participant
    replays/index.html         the replayed matches
    replays/<suite>/<key>/     a replay: index.html and one data file per viewer mode
    static/                    the stylesheet, the scripts, the card and character names

A folder is only built over when it is empty or was built by this function before (it holds
:data:`MARKER`); the previous build's pages are removed first, so no stale replay survives.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from bangarena.evals.store import Store, StoreError, open_store

from .context import BoardView, board_views, load_boards, method_html
from .pages import participant_path, render, write_static, write_text
from .replay_pages import MatchKeyError, ReplayJob, ReplayResult, build_replays, choose_matches

MARKER: Final = ".bangarena-site"
GENERATED: Final = (
    "index.html",
    "compare.html",
    "methodology.html",
    "leaderboard.json",
    "leaderboard.schema.json",
    "participants",
    "replays",
    "static",
)


class SiteError(ValueError):
    """A site that cannot be written (``str()`` is one line): the folder is someone else's,
    or the store cannot be read."""


@dataclass
class SiteReport:
    """What a build wrote and found."""

    out_dir: Path
    boards: int = 0
    participants: int = 0
    matches: int = 0
    replays: int = 0
    replay_results: list[ReplayResult] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """What was asked for and is not in the store (a suite, a match key): the site was built
    with what there is, and the command exits 2."""
    notices: list[str] = field(default_factory=list)
    """What the store holds that a reader should know (shown on the pages too)."""
    replay_errors: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def largest_replay(self) -> dict[str, Any] | None:
        """The replay with the most bytes (page and every mode's file)."""
        return _size_entry(max(self.replay_results, key=lambda r: r.total_bytes, default=None))

    def largest_replay_of(self, seats: int) -> dict[str, Any] | None:
        """The largest replay of a ``seats``-seat match."""
        of = [r for r in self.replay_results if r.job.seats == seats and r.error is None]
        return _size_entry(max(of, key=lambda r: r.total_bytes, default=None))


def _size_entry(r: ReplayResult | None) -> dict[str, Any] | None:
    if r is None:
        return None
    return {
        "path": r.job.path,
        "seats": r.job.seats,
        "decisions": r.job.decisions,
        "total_bytes": r.total_bytes,
        "initial_bytes": r.initial_bytes,
        "largest_mode_bytes": max(r.mode_bytes.values(), default=0),
    }


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("bangarena")
    except PackageNotFoundError:
        return "unknown"


def prepare_folder(out_dir: Path) -> None:
    """Make ``out_dir`` ready: create it, or clear the previous build in it. Raises
    :class:`SiteError` for a folder with other files and no :data:`MARKER`."""
    if out_dir.exists() and not out_dir.is_dir():
        raise SiteError(f"{out_dir}: not a folder")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not (out_dir / MARKER).is_file():
        raise SiteError(
            f"{out_dir}: the folder has files and was not built by `bangarena leaderboard "
            "build`; give an empty or new folder"
        )
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in GENERATED:
        path = out_dir / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
    write_text(out_dir / MARKER, "built by bangarena leaderboard build\n")


def _links(views: Sequence[BoardView]) -> dict[str, str]:
    """Participant id → its page (also under ``SUITE/ID`` for ids told apart by suite)."""
    out: dict[str, str] = {}
    for b in views:
        for r in b.rows:
            out[r.id] = r.href
    return out


def _replay_links(links: dict[str, str], jobs: Sequence[ReplayJob]) -> dict[str, str]:
    """Per replayed seat (``suite/participant``: one id may name two participants of two
    suites) the page of the participant it was on the board."""
    out: dict[str, str] = {}
    for job in jobs:
        for pid in job.lineup:
            href = links.get(f"{job.suite}/{pid}") or links.get(pid)
            if href is not None:
                out[f"{job.suite}/{pid}"] = href
    return out


def build_site(
    store_or_url: Store | str | Path,
    out_dir: str | Path,
    suite: str | None = None,
    replays: int = 200,
    keys: Sequence[str] = (),
    resamples: int = 1000,
    seed: int = 0,
    workers: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> SiteReport:
    """Build the site of ``store_or_url`` (a :class:`Store`, or a URL or SQLite path to open)
    into ``out_dir``: the boards of ``suite`` (every suite when None) with ``resamples``
    bootstrap resamples, replay pages for the ``replays`` most recent matches and for every
    match in ``keys``. What the store lacks is reported in the returned report, never raised;
    raises :class:`SiteError` only when nothing can be written or read."""
    started = time.perf_counter()
    out = Path(out_dir)
    report = SiteReport(out)
    say = progress or (lambda _msg: None)
    store = store_or_url if isinstance(store_or_url, Store) else None
    try:
        if store is None:
            store = open_store(store_or_url)  # type: ignore[arg-type]
    except StoreError as e:
        raise SiteError(str(e)) from None
    try:
        prepare_folder(out)
        return _build(store, out, report, suite, replays, keys, resamples, seed, workers, say)
    finally:
        if not isinstance(store_or_url, Store):
            store.close()
        report.seconds["total"] = time.perf_counter() - started


def _build(
    store: Store,
    out: Path,
    report: SiteReport,
    suite: str | None,
    replays: int,
    keys: Sequence[str],
    resamples: int,
    seed: int,
    workers: int | None,
    say: Callable[[str], None],
) -> SiteReport:
    clock = time.perf_counter()
    say("rating")
    boards, problems, notices = load_boards(store, suite, resamples, seed)
    report.problems += problems
    report.notices += notices
    report.seconds["ratings"] = time.perf_counter() - clock

    clock = time.perf_counter()
    say("plots")
    views = board_views(boards, links=None, plots=True)
    report.seconds["plots"] = time.perf_counter() - clock
    report.boards = len(views)
    report.participants = len({r.id for b in views for r in b.rows})
    report.matches = sum(b.matches for b in views)
    links = _links(views)
    generated_at = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    site = {
        "generated_at": generated_at,
        "version": _version(),
        "store": store.shown_url,
        "rules_versions": [b.rules_version for b in views],
        "subtitle": (f"suite {suite}" if suite else "all suites"),
        "heading": "Leaderboard" + (f": {suite}" if suite else ""),
        "notices": [],
        "empty_reason": "",
    }

    clock = time.perf_counter()
    say("replays")
    try:
        jobs = choose_matches(store, suite, replays, keys)
    except MatchKeyError as e:
        report.problems.append(str(e))
        jobs = choose_matches(store, suite, replays, ())
    write_static(out)
    results = build_replays(store, jobs, out, site, _replay_links(links, jobs), workers)
    report.replay_results = [r for r in results if r.error is None]
    report.replay_errors = [r.error for r in results if r.error is not None]
    report.replays = len(report.replay_results)
    report.seconds["replays"] = time.perf_counter() - clock

    clock = time.perf_counter()
    say("pages")
    site["notices"] = [{"text": t, "error": True} for t in report.problems] + [
        {"text": t, "error": False} for t in report.notices
    ]
    site["empty_reason"] = _empty_reason(report, store, suite)
    _write_pages(out, site, boards, views, report)
    report.seconds["pages"] = time.perf_counter() - clock
    return report


def _empty_reason(report: SiteReport, store: Store, suite: str | None) -> str:
    if report.problems:
        return report.problems[0]
    if suite is not None:
        return f"suite {suite!r} has no done match in {store.shown_url} yet."
    return f"{store.shown_url} holds no done match yet (run `bangarena eval SUITE.toml` first)."


def _write_pages(
    out: Path,
    site: dict[str, Any],
    boards: Sequence[Any],
    views: Sequence[BoardView],
    report: SiteReport,
) -> None:
    from bangarena.leaderboard.board import boards_json

    from .context import board_schema, participant_pages, replay_rows

    render(out, "index.html", "index.j2", site, title="Board", boards=views, wide=True)
    render(out, "compare.html", "compare.j2", site, title="Head to head", boards=views)
    render(
        out,
        "methodology.html",
        "methodology.j2",
        site,
        title="Methodology",
        boards=views,
        method_html=method_html(),
    )
    rows = replay_rows(report.replay_results)
    render(
        out,
        "replays/index.html",
        "replays.j2",
        site,
        title="Replays",
        replays=rows,
        asked=False,
        errors=report.replay_errors,
    )
    for page in participant_pages(views, rows):
        render(out, participant_path(page["id"]), "participant.j2", site, title=page["id"], p=page)
    write_text(out / "leaderboard.json", boards_json(boards) + "\n")
    write_text(out / "leaderboard.schema.json", json.dumps(board_schema(), indent=1) + "\n")


__all__ = ["MARKER", "SiteError", "SiteReport", "build_site", "prepare_folder"]
