"""The replay pages: which matches get one (the N most recent done matches and any asked for by
key), and building them — each match replayed through the engine (:mod:`.replay`), its page
and one data file per viewer mode written under ``replays/<suite>/<key>/``.

The records are read by the parent in one query (still compressed) and replayed in worker
processes when there are many: a 7-seat match with transcripts takes ~0.2 s of CPU, and the
default 200 pages would otherwise take a core for most of a minute.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from sqlalchemy import select

from bangarena.evals.store import Store, decompress_record
from bangarena.evals.store.tables import MatchRow, SuiteRow

from .pages import NAV, environment, root_of, script_json, write_text
from .replay import ReplayError, build_replay

PARALLEL_FROM: Final = 8
"""Fewer replays than this are built in this process (a pool costs more than it saves)."""
READ_BATCH: Final = 64


class MatchKeyError(LookupError):
    """A match asked for by key that the store does not hold (or a prefix of several)."""


@dataclass(frozen=True, slots=True)
class ReplayJob:
    """One match to replay: its row (without the record) and where its files go."""

    row_id: int
    key: str
    suite: str
    status: str
    seats: int
    mode: str
    lineup: tuple[str, ...]
    decisions: int
    finished_at: str
    deal: int
    rotation: int
    path: str
    """The page, from the site's root: ``replays/<suite>/<key>/index.html``."""


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """What building one replay gave: the bytes of its page and of each mode's file."""

    job: ReplayJob
    page_bytes: int
    mode_bytes: dict[str, int]
    error: str | None = None

    @property
    def total_bytes(self) -> int:
        return self.page_bytes + sum(self.mode_bytes.values())

    @property
    def initial_bytes(self) -> int:
        """What opening the page loads: the page and the spectator's data."""
        return self.page_bytes + self.mode_bytes.get("spectator", 0)


def _job(row: Any, suite: str) -> ReplayJob:
    return ReplayJob(
        row_id=int(row.id),
        key=str(row.key),
        suite=suite,
        status=str(row.status),
        seats=int(row.seats),
        mode=str(row.mode),
        lineup=tuple(str(p) for p in row.lineup or ()),
        decisions=int(row.decisions or 0),
        finished_at=row.finished_at.strftime("%Y-%m-%d %H:%M") if row.finished_at else "",
        deal=int(row.deal),
        rotation=int(row.rotation),
        path=f"replays/{suite}/{row.key}/index.html",
    )


_ROW_COLUMNS = (
    MatchRow.id,
    MatchRow.key,
    MatchRow.status,
    MatchRow.seats,
    MatchRow.mode,
    MatchRow.lineup,
    MatchRow.decisions,
    MatchRow.finished_at,
    MatchRow.deal,
    MatchRow.rotation,
    SuiteRow.name,
)


def choose_matches(
    store: Store, suite: str | None, recent: int, keys: Sequence[str] = ()
) -> list[ReplayJob]:
    """The ``recent`` most recently finished done matches of ``suite`` (every suite when None),
    then each match named in ``keys`` (a whole key or a prefix that names one match; a void
    match too, when asked for), newest first and without repeats. Raises
    :class:`MatchKeyError` for a key the store does not hold."""
    base = select(*_ROW_COLUMNS).join(SuiteRow, SuiteRow.id == MatchRow.suite_id)
    if suite is not None:
        base = base.where(SuiteRow.name == suite)
    jobs: dict[int, ReplayJob] = {}
    with store.engine.connect() as conn:
        if recent > 0:
            q = base.where(MatchRow.status == "done").order_by(
                MatchRow.finished_at.desc(), MatchRow.id.desc()
            )
            for row in conn.execute(q.limit(recent)):
                jobs[int(row.id)] = _job(row, str(row.name))
        for wanted in keys:
            found = conn.execute(
                base.where(MatchRow.key.startswith(wanted, autoescape=True)).order_by(
                    (MatchRow.status == "done").desc(), MatchRow.id.desc()
                )
            ).all()
            distinct = {(str(r.name), str(r.key)) for r in found}
            where = f" in suite {suite!r}" if suite is not None else ""
            if not found:
                raise MatchKeyError(f"--match {wanted!r}: no match with that key{where}")
            if len(distinct) > 1:
                raise MatchKeyError(
                    f"--match {wanted!r}: {len(distinct)} matches start so{where}; give more "
                    "of the key"
                )
            row = found[0]
            jobs.setdefault(int(row.id), _job(row, str(row.name)))
    return sorted(jobs.values(), key=lambda j: (j.finished_at, j.row_id), reverse=True)


def _records(store: Store, jobs: Sequence[ReplayJob]) -> Iterable[tuple[ReplayJob, bytes, str]]:
    """(job, compressed record, its format) for every job, a batch of rows per query."""
    by_id = {j.row_id: j for j in jobs}
    ids = list(by_id)
    for i in range(0, len(ids), READ_BATCH):
        chunk = ids[i : i + READ_BATCH]
        q = select(MatchRow.id, MatchRow.record, MatchRow.record_format).where(
            MatchRow.id.in_(chunk)
        )
        with store.engine.connect() as conn:
            for row_id, blob, fmt in conn.execute(q):
                yield by_id[int(row_id)], bytes(blob), str(fmt)


def build_one(
    job: ReplayJob,
    blob: bytes,
    fmt: str,
    out_dir: str,
    site: dict[str, Any],
    links: dict[str, str],
) -> ReplayResult:
    """Replay one match and write its page and mode files (run in a worker process)."""
    try:
        record = decompress_record(blob, fmt)
        row = {
            "suite": job.suite,
            "deal": job.deal,
            "rotation": job.rotation,
            "lineup": list(job.lineup),
        }
        replay = build_replay(record, row)
    except (ReplayError, ValueError, KeyError, TypeError) as e:
        return ReplayResult(job, 0, {}, f"match {job.key} of {job.suite}: {e}")
    folder = Path(out_dir) / Path(job.path).parent
    header = replay.header
    for seat in header["seats"]:
        seat["href"] = links.get(f"{job.suite}/{seat['participant']}")
    page = (
        environment()
        .get_template("replay.j2")
        .render(
            root=root_of(job.path),
            here="replays/index.html",
            nav=NAV,
            site=site,
            wide=True,
            title=f"Match {job.key[:12]}",
            h=header,
            header_json=script_json(header),
        )
    )
    page_bytes = write_text(folder / "index.html", page)
    sizes = {
        name: write_text(folder / f"{name}.js", text) for name, text in replay.scripts().items()
    }
    return ReplayResult(job, page_bytes, sizes)


def _build_packed(args: tuple[Any, ...]) -> ReplayResult:
    return build_one(*args)


def build_replays(
    store: Store,
    jobs: Sequence[ReplayJob],
    out_dir: Path,
    site: dict[str, Any],
    links: dict[str, str],
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[ReplayResult]:
    """Build every job's replay into ``out_dir`` (``workers`` processes; default: the cores,
    at most 4; 1: this process). ``links`` maps ``suite/participant`` to the participant's page. A record that
    does not replay gives a result with its ``error`` instead of stopping the build."""
    if not jobs:
        return []
    packed = [
        (job, blob, fmt, str(out_dir), site, links) for job, blob, fmt in _records(store, jobs)
    ]
    count = workers if workers is not None else min(4, os.cpu_count() or 1)
    results: list[ReplayResult] = []
    if count <= 1 or len(packed) < PARALLEL_FROM:
        for args in packed:
            results.append(build_one(*args))
            if progress is not None:
                progress(len(results), len(packed))
    else:
        with ProcessPoolExecutor(max_workers=count) as pool:
            for result in pool.map(_build_packed, packed, chunksize=4):
                results.append(result)
                if progress is not None:
                    progress(len(results), len(packed))
    order = {j.row_id: i for i, j in enumerate(jobs)}
    return sorted(results, key=lambda r: order[r.job.row_id])


__all__ = [
    "MatchKeyError",
    "ReplayJob",
    "ReplayResult",
    "build_one",
    "build_replays",
    "choose_matches",
]
