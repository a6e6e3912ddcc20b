"""``bangarena simulate --workers N``: the games in N processes of the evaluation runner's pool
give the JSON one process gives, apart from the timings and rates."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from bangarena.cli.app import app
from bangarena.harness.simulate import (
    CHUNKS_PER_WORKER,
    Summary,
    chunk_ranges,
    merge_summaries,
    simulate_range,
)

runner = CliRunner()
TIMINGS = ("seconds", "decisions_per_s", "games_per_s")


def _without_timings(text: str) -> dict:
    out = json.loads(text)
    for key in TIMINGS:
        out.pop(key)
    return out


@pytest.mark.parametrize("games", [1, 7, 24, 25, 60, 101, 1000, 12345])
@pytest.mark.parametrize("workers", [1, 2, 3, 8])
def test_chunks_cover_every_game_once_in_order(games: int, workers: int) -> None:
    chunks = chunk_ranges(games, workers)
    assert chunks[0][0] == 0 and chunks[-1][1] == games
    assert all(a < b for a, b in chunks)
    assert all(chunks[k][1] == chunks[k + 1][0] for k in range(len(chunks) - 1))
    assert len(chunks) <= workers * CHUNKS_PER_WORKER
    sizes = [b - a for a, b in chunks]
    assert max(sizes) - min(sizes) <= 1


def test_merged_chunks_equal_one_range() -> None:
    teams = {"law": "rule", "outlaws": "random", "renegade": "rule"}
    whole = simulate_range(0, 8, 40, "all", "all", True, teams, ("armed_dangerous",))
    parts = [
        simulate_range(a, b, 40, "all", "all", True, teams, ("armed_dangerous",))
        for a, b in ((0, 3), (3, 4), (4, 8))
    ]
    merged = merge_summaries(parts, teams)
    merged.seconds = whole.seconds
    assert merged.to_dict() == whole.to_dict()
    # The sanity counters keep the order their kinds first appeared in, as one run does.
    assert list(merged.sanity.counts) == list(whole.sanity.counts)


def test_merge_of_nothing_is_an_empty_summary() -> None:
    teams = dict.fromkeys(("law", "outlaws", "renegade"), "random")
    assert merge_summaries([], teams).to_dict() == Summary(players=teams).to_dict()


def test_two_workers_print_the_json_of_one() -> None:
    # 50 games: two chunks of 25 (chunk_ranges), one per worker.
    assert len(chunk_ranges(50, 2)) == 2
    args = ["simulate", "--games", "50", "--seed", "11", "--players", "law=rule"]
    one = runner.invoke(app, [*args, "--workers", "1"])
    two = runner.invoke(app, [*args, "--workers", "2"])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    a, b = _without_timings(one.stdout), _without_timings(two.stdout)
    assert a == b
    assert a["games"] == 50 and a["violations"] == 0
    assert a["engine_build"] in ("pure", "compiled")


@pytest.mark.parametrize("value", ["0", "-1", "x", "257"])
def test_bad_workers_is_a_usage_error(value: str) -> None:
    r = runner.invoke(app, ["simulate", "--games", "2", "--workers", value])
    assert r.exit_code == 2
    assert "--workers" in r.output
