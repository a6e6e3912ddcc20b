"""The leaderboard served live from the store: the boards (``GET /v1/leaderboard``) and the
static site (``/leaderboard``), built by the leaderboard's own builders and cached until the
store changes (a new match, a new suite: read from one cheap query before each use).

Builds run on the service's store thread (never in the event loop, never two at once). The site
is built into a fresh folder and swapped in whole, so a reader never sees half a build.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from bangarena.evals.store import Store
from bangarena.evals.store.tables import MatchRow, SuiteRow

SITE_REPLAYS = 50
"""Replay pages the live site keeps (the most recent matches)."""


class LiveBoard:
    """Boards and site of one store, rebuilt when :meth:`mark` changes."""

    def __init__(self, store: Store, resamples: int, root: Path | None = None) -> None:
        self.store = store
        self.resamples = resamples
        self.root = (
            Path(root) if root is not None else Path(tempfile.mkdtemp(prefix="bangarena-board-"))
        )
        self._boards: dict[str | None, tuple[tuple[int, ...], list[dict[str, Any]]]] = {}
        self._site: tuple[tuple[int, ...], Path] | None = None
        self._builds = 0

    def mark(self) -> tuple[int, ...]:
        """What the cache depends on: the suites and the matches stored (count, last id)."""
        with self.store.engine.connect() as conn:
            matches = conn.execute(select(func.count(), func.max(MatchRow.id))).one()
            suites = conn.execute(select(func.count(), func.max(SuiteRow.id))).one()
        return (int(matches[0]), int(matches[1] or 0), int(suites[0]), int(suites[1] or 0))

    def boards(self, suite: str | None) -> list[dict[str, Any]]:
        """The boards of ``suite`` (every suite when None), newest rules version first; raises
        the leaderboard's UnknownSuiteError for a suite the store does not hold."""
        from bangarena.leaderboard.board import build_boards

        mark = self.mark()
        have = self._boards.get(suite)
        if have is not None and have[0] == mark:
            return have[1]
        boards = build_boards(self.store, suite=suite, resamples=self.resamples)
        data = [json.loads(b.model_dump_json()) for b in boards]
        self._boards[suite] = (mark, data)
        return data

    def site(self) -> Path:
        """The folder of the current site (rebuilt first when the store changed)."""
        from bangarena.leaderboard.site import build_site

        mark = self.mark()
        if self._site is not None and self._site[0] == mark:
            return self._site[1]
        self._builds += 1
        out = self.root / f"site-{self._builds}"
        build_site(self.store, out, replays=SITE_REPLAYS, resamples=self.resamples, workers=1)
        old, self._site = self._site, (mark, out)
        if old is not None:
            shutil.rmtree(old[1], ignore_errors=True)
        return out

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


__all__ = ["LiveBoard"]
