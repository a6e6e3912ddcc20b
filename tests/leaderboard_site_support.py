"""Shared pieces of the site tests: a small real store (bot and scripted matches with
transcripts, a 4-seat suite and a 7-seat one whose replays are the heaviest kind) and a site
built from it."""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path

from evals_support import SMALL_SUITE, played, small_suite

from bangarena.evals import PlannedMatch, plan_suite
from bangarena.evals.store import open_store
from bangarena.harness.records import MatchRecord

SEVEN_SUITE = """
[suite]
name = "seven"
seed = 3
deals = 1

[[participants]]
id = "faulty"
spec = "scripted:rule"
options = { faults = { invalid_json = 0.1, illegal_id = 0.1, truncated = 0.05 }, price_input_per_mtok = 0.5, price_output_per_mtok = 1.5 }

[[participants]]
id = "scripted"
spec = "scripted:rule"

[[participants]]
id = "rule"
spec = "rule"

[[tables]]
seats = 7
time_per_move = 30
lineup = ["faulty", "scripted", "rule", "faulty", "scripted", "faulty", "scripted"]
"""
"""7-seat matches, six seats of seven answering through the text path with transcripts: what a
model match's replay weighs. The store keeps :data:`SEVEN_MATCHES` of its rotations (time)."""
SEVEN_MATCHES = 2

SOLO_SUITE = """
[suite]
name = "solo"
seed = 5
deals = 1

[[participants]]
id = "rule"
spec = "rule"

[[tables]]
seats = 4
lineup = ["rule", "rule", "rule", "rule"]
"""
"""One participant at every seat: a board with nothing to compare."""


@functools.cache
def played_seven() -> tuple[tuple[PlannedMatch, MatchRecord], ...]:
    """The first :data:`SEVEN_MATCHES` matches of :data:`SEVEN_SUITE` with their records."""
    plan = plan_suite(small_suite(SEVEN_SUITE))[:SEVEN_MATCHES]

    async def play_all() -> list[MatchRecord]:
        return [await m.play() for m in plan]

    return tuple(zip(plan, asyncio.run(play_all()), strict=True))


def make_store(path: Path, suites: tuple[str, ...] = (SMALL_SUITE, SEVEN_SUITE)) -> str:
    """A SQLite store at ``path`` holding every match of ``suites`` (played once per process);
    its URL."""
    url = f"sqlite:///{path}"
    store = open_store(url)
    try:
        for text in suites:
            suite = small_suite(text)
            pairs = played(text) if text != SEVEN_SUITE else played_seven()
            store.register_suite(suite, [m for m, _ in pairs])
            for planned, record in pairs:
                store.write_match(planned, record)
    finally:
        store.close()
    return url
