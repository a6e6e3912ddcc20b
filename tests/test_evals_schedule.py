"""Scheduling: rotations seat every participant of a lineup in every seat of every deal on the
same cards; pool schedules keep appearances within one and pair counts within the bound stated
in docs/evals.md; plans are deterministic and stable when deals are added."""

from __future__ import annotations

import asyncio
import json
import shlex
import subprocess
import sys
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path

import pytest

from bangarena.engine import GameConfig, new_game
from bangarena.evals import parse_suite, plan_suite
from bangarena.evals.pool import appearance_counts, pair_counts, pool_lineups
from bangarena.evals.schedule import rotate, table_lineups
from bangarena.harness.model_spec import load_model_options
from bangarena.harness.seats import plan_seat

ROTATION = """
[suite]
name = "rot"
seed = 3
deals = 3

[[participants]]
id = "rule"
spec = "rule"

[[participants]]
id = "random"
spec = "random"

[[participants]]
id = "scripted"
spec = "scripted:rule"

[[tables]]
seats = 5
lineup = ["rule", "random", "scripted", "rule", "random"]

[[tables]]
seats = 4
mode = "partners"
lineup = ["scripted", "rule", "random", "rule"]
"""


def pool_suite(participants: int, seats: int, deals: int, tables: int = 1) -> str:
    parts = "".join(
        f'[[participants]]\nid = "p{i}"\nspec = "{"rule" if i % 2 else "random"}"\n\n'
        for i in range(participants)
    )
    table = f"[[tables]]\nseats = {seats}\n\n" * tables
    return f'[suite]\nname = "pool"\nseed = 11\ndeals = {deals}\ndesign = "pool"\n\n{parts}{table}'


def test_rotation_plan_shape_and_order() -> None:
    suite = parse_suite(ROTATION)
    plan = plan_suite(suite)
    assert len(plan) == 3 * (5 + 4)
    # Deal by deal: every table and rotation of deal 0 before deal 1.
    assert [m.deal for m in plan] == sorted(m.deal for m in plan)
    for m in plan:
        lineup = suite.file.lineup(m.table_index)
        assert list(m.participants) == rotate(lineup, m.rotation)
        assert [s.seat for s in m.seats] == list(range(len(lineup)))
        assert m.settings().seed == m.deal_seed and m.settings().seats == len(lineup)
    assert len({m.key for m in plan}) == len(plan)


def test_every_participant_sits_in_every_seat_once_per_deal_and_lineup() -> None:
    plan = plan_suite(parse_suite(ROTATION))
    groups: dict[tuple[int, int], list] = defaultdict(list)
    for m in plan:
        groups[(m.deal, m.table_index)].append(m)
    for (_, _), matches in groups.items():
        lineup = list(matches[0].lineup)
        n = len(lineup)
        assert sorted(m.rotation for m in matches) == list(range(n))
        for seat in range(n):
            # Over the rotations, seat i holds each lineup position exactly once.
            assert Counter(m.participants[seat] for m in matches) == Counter(lineup)
        for position in range(n):
            seats = [(position - m.rotation) % n for m in matches]
            assert sorted(seats) == list(range(n))


def test_a_deal_deals_the_same_cards_in_every_rotation() -> None:
    plan = plan_suite(parse_suite(ROTATION))
    by_deal: dict[tuple[int, int], list] = defaultdict(list)
    for m in plan:
        by_deal[(m.deal, m.table_index)].append(m)
    seen_deals = set()
    for matches in by_deal.values():
        deals = []
        for m in matches:
            t = m.table
            game = new_game(GameConfig(t["seats"], t["mode"], t["max_rounds"]), m.deal_seed)
            state = game.state
            deals.append(
                (
                    [p.role for p in state.players],
                    [p.character for p in state.players],
                    list(state.deck),
                    [list(p.hand) for p in state.players],
                )
            )
        assert all(d == deals[0] for d in deals)
        seen_deals.add(repr(deals[0]))
    assert len(seen_deals) == len(by_deal)  # different deals are different cards


def test_default_lineup_is_the_participants_in_order() -> None:
    text = ROTATION.replace('lineup = ["rule", "random", "scripted", "rule", "random"]', "")
    text = text.replace("seats = 5", "seats = 4").replace(
        'lineup = ["scripted", "rule", "random", "rule"]', ""
    )
    text += '\n[[participants]]\nid = "rule2"\nspec = "rule"\n'
    suite = parse_suite(text)
    assert table_lineups(suite, 0)[0] == ["rule", "random", "scripted", "rule2"]


def test_play_command_names_the_deal_and_the_seats() -> None:
    plan = plan_suite(parse_suite(ROTATION))
    for m in plan[:6]:
        command = m.play_command()
        assert f"--seed {m.deal_seed}" in command
        assert f"--seats {len(m.seats)} --mode {m.table['mode']}" in command
        for s in m.seats:
            assert f"--seat {s.seat}={s.spec}" in command
        assert "--models-file" not in command  # no seat has options


def test_models_file_reproduces_options(tmp_path: Path) -> None:
    text = ROTATION.replace(
        'spec = "scripted:rule"',
        'spec = "scripted:rule"\noptions = { faults = { empty = 0.2 }, retry_budget = 1 }',
    )
    m = plan_suite(parse_suite(text))[0]
    assert "--models-file MODELS.toml" in m.play_command()
    assert "--seat 2=scripted" in m.play_command()
    path = tmp_path / "models.toml"
    path.write_text(m.models_file(), encoding="utf-8")
    table = load_model_options(path)
    plan = plan_seat("scripted", table)
    assert plan.kind == "scripted" and plan.options is not None
    assert plan.options.faults == {"empty": 0.2} and plan.options.retry_budget == 1


# -- pool --------------------------------------------------------------------------------------
POOL_GRID = [
    (seats, participants, deals)
    for seats in (4, 5, 7, 8)
    for participants in (seats + 1, seats + 3, 2 * seats + 1)
    for deals in (20, 60)
]


@pytest.mark.parametrize(("seats", "participants", "deals"), POOL_GRID)
def test_pool_appearances_and_pairs_within_the_stated_bounds(
    seats: int, participants: int, deals: int
) -> None:
    ids = [f"p{i}" for i in range(participants)]
    lineups = pool_lineups(ids, seats, deals, seed=seats * 1000 + participants)
    assert len(lineups) == deals
    assert all(len(lu) == seats and len(set(lu)) == seats for lu in lineups)
    appearances = appearance_counts(lineups)
    assert set(appearances) == set(ids)
    assert max(appearances.values()) - min(appearances.values()) <= 1
    pairs = pair_counts(lineups, ids)
    mean = deals * seats * (seats - 1) / (participants * (participants - 1))
    # The bound stated in docs/evals.md: every pair within 4 of the mean.
    assert all(abs(c - mean) <= 4 for c in pairs.values()), (min(pairs.values()), mean)


def test_pool_plan_plays_each_lineup_in_every_rotation() -> None:
    suite = parse_suite(pool_suite(participants=7, seats=4, deals=5, tables=2))
    plan = plan_suite(suite)
    assert len(plan) == 5 * 2 * 4
    groups: dict[tuple[int, int], list] = defaultdict(list)
    for m in plan:
        groups[(m.deal, m.table_index)].append(m)
    for matches in groups.values():
        assert sorted(m.rotation for m in matches) == [0, 1, 2, 3]
        assert len({m.lineup for m in matches}) == 1
        assert {m.participants for m in matches} == {
            tuple(rotate(matches[0].lineup, r)) for r in range(4)
        }
    # Two tables draw their own lineups.
    assert table_lineups(suite, 0) != table_lineups(suite, 1)


def test_pool_schedule_is_seeded_and_keeps_its_prefix() -> None:
    a = plan_suite(parse_suite(pool_suite(participants=9, seats=5, deals=8)))
    b = plan_suite(parse_suite(pool_suite(participants=9, seats=5, deals=8)))
    assert [m.key for m in a] == [m.key for m in b]
    longer = plan_suite(parse_suite(pool_suite(participants=9, seats=5, deals=12)))
    assert [m.key for m in longer[: len(a)]] == [m.key for m in a]
    other = plan_suite(parse_suite(pool_suite(9, 5, 8).replace("seed = 11", "seed = 12")))
    assert [m.lineup for m in other] != [m.lineup for m in a]


def test_pool_rejects_bad_pools() -> None:
    with pytest.raises(ValueError, match="more participants than seats"):
        pool_lineups(["a", "b", "c", "d"], 4, 3, seed=1)
    with pytest.raises(ValueError, match="distinct"):
        pool_lineups(["a", "a", "b", "c", "d"], 4, 3, seed=1)


def test_pair_counts_cover_every_pair() -> None:
    ids = ["a", "b", "c", "d", "e"]
    counts = pair_counts([["a", "b", "c", "d"], ["e", "a", "b", "c"]], ids)
    assert len(counts) == len(list(combinations(ids, 2)))
    assert counts[("a", "b")] == 2 and counts[("d", "e")] == 0


def test_play_command_reproduces_a_suite_match(tmp_path: Path) -> None:
    """The printed command, run as a real `bangarena play` with the printed models file, plays
    the stored match move for move (scripted faults included)."""
    text = ROTATION.replace(
        'spec = "scripted:rule"',
        'spec = "scripted:rule"\noptions = { faults = { invalid_json = 0.2, illegal_id = 0.1 } }',
    )
    m = plan_suite(parse_suite(text))[1]
    models = tmp_path / "models.toml"
    models.write_text(m.models_file(), encoding="utf-8")
    out = tmp_path / "record.json"
    args = shlex.split(m.play_command().replace("MODELS.toml", str(models)))
    exe = Path(sys.executable).with_name("bangarena")
    done = subprocess.run(
        [str(exe), *args[1:], "--quiet", "--out", str(out)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    played = json.loads(out.read_text(encoding="utf-8"))
    record = asyncio.run(m.play())
    assert played["game"]["moves"] == record.game["moves"]
    assert played["result"] == record.result
