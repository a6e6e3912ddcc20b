"""The leaderboard's reading of a store, the board it builds and its bad input: the telemetry
agrees with the stored records, void matches are never read, every board validates against the
published schema, and an empty store, an unknown suite, one participant or mixed rules versions
give clear typed errors or boards that say so — never a traceback."""

from __future__ import annotations

import json

import jsonschema
import pytest
from evals_support import played, small_suite, store_url  # noqa: F401
from sqlalchemy import update

from bangarena.evals import parse_suite, plan_suite
from bangarena.evals.store import Store, open_store
from bangarena.evals.store.tables import MatchRow
from bangarena.leaderboard import (
    Board,
    LeaderboardError,
    UnknownSuiteError,
    board_json_schema,
    boards_json,
    build_board,
    build_boards,
    load_store,
)
from bangarena.leaderboard.board import SCHEMA_PATH, schema_text
from bangarena.leaderboard.data import RatedMatch

FAST = {"resamples": 50, "splits": 5}
REQUIRED_BOARD = {"generated_at", "suite", "rules_version", "participants", "split_half",
                  "head_to_head"}  # fmt: skip
REQUIRED_ENTRY = {"id", "spec", "rating", "ci", "rank", "matches", "deals", "win_rate", "by_role",
                  "first_try_valid", "autopilot_rate", "cost_usd"}  # fmt: skip


def filled(url: str, void_first: bool = True) -> Store:
    """The small suite's four matches (plus a void copy of the first)."""
    store = open_store(url)
    pairs = played()
    store.register_suite(small_suite(), [m for m, _ in pairs])
    for i, (m, rec) in enumerate(pairs):
        if i == 0 and void_first:
            store.write_match(m, rec, status="void", void_reason="transport: seat 1")
        store.write_match(m, rec)
    return store


def test_rated_matches_are_the_done_rows(store_url: str) -> None:  # noqa: F811
    pairs = {m.key: (m, rec) for m, rec in played()}
    with filled(store_url) as store:
        data = load_store(store, "small")
    assert data.suites == ["small"] and data.void_matches == 1
    (version, matches), *_ = data.matches.items()
    assert len(matches) == len(pairs) and len(data.matches) == 1
    for r in matches:
        m, rec = pairs[r.key]
        assert isinstance(r, RatedMatch)
        assert r.rules_version == version == rec.versions["rules"]
        assert r.lineup == m.participants and r.deal == m.deal and r.rotation == m.rotation
        assert list(r.roles) == rec.result["roles"] and r.winner == rec.result["winning_team"]
        assert list(r.winning_seats) == rec.result["winners"]
        assert (r.seats, r.mode, r.max_rounds) == (4, "classic", 40)
        assert r.deal_key == ("small", m.deal)
    assert {p: data.participants[p].spec for p in data.participants} == {
        "rule": "rule",
        "faulty": "scripted:rule",
        "random": "random",
        "scripted": "scripted:random",
    }


def test_telemetry_agrees_with_the_records(store_url: str) -> None:  # noqa: F811
    totals: dict[str, dict[str, float]] = {}
    for m, rec in played():
        for seat, t in enumerate(rec.totals.seats):
            acc = totals.setdefault(m.participants[seat], {})
            for k in ("decisions", "answered", "first_try_valid", "retries", "autopilot_moves",
                      "attempts"):  # fmt: skip
                acc[k] = acc.get(k, 0) + (getattr(t, k) or 0)
            acc["cost"] = acc.get("cost", 0.0) + (t.cost_usd or 0.0)
            acc["tokens"] = acc.get("tokens", 0) + t.usage.input_tokens + t.usage.output_tokens
            for kind, n in t.failures.items():
                acc["f:" + kind] = acc.get("f:" + kind, 0) + n
            for reason, n in t.autopilot.items():
                acc["a:" + reason] = acc.get("a:" + reason, 0) + n
            won = seat in rec.result["winners"]
            acc["wins"] = acc.get("wins", 0) + won
    with filled(store_url) as store:
        (tel,) = load_store(store, "small").telemetry.values()
    for pid, want in totals.items():
        t = tel[pid]
        assert t.matches == t.seats == 4 and t.wins == want["wins"]
        assert t.decisions == want["decisions"] and t.autopilot_moves == want["autopilot_moves"]
        assert t.attempts == want["attempts"]
        assert t.input_tokens + t.output_tokens == want["tokens"]
        assert t.cost_usd == pytest.approx(want["cost"])
        for key, n in want.items():
            if key.startswith("f:"):
                assert t.failures.get(key[2:], 0) == n, (pid, key)
            if key.startswith("a:"):
                assert t.autopilot.get(key[2:], 0) == n, (pid, key)
        if pid in ("faulty", "scripted"):
            assert t.rule_following
            assert t.answered == want["answered"] and t.first_try_valid == want["first_try_valid"]
            assert t.retries == want["retries"]
        else:
            assert not t.rule_following and t.answered == 0
    assert tel["faulty"].failures.get("unparsable", 0) > 0 and tel["faulty"].priced


def test_the_board_has_the_issue_shape_and_validates(store_url: str) -> None:  # noqa: F811
    with filled(store_url) as store:
        (board,) = build_boards(store, "small", **FAST)
    doc = json.loads(boards_json([board]))[0]
    assert set(doc) >= REQUIRED_BOARD
    assert doc["suite"] == "small" and doc["void_matches"] == 1 and doc["matches"] == 4
    assert len(doc["participants"]) == 4
    for entry in doc["participants"]:
        assert set(entry) >= REQUIRED_ENTRY
        lo, hi = entry["ci"]
        assert lo <= entry["rating"] <= hi or entry["anchor"]
        best, worst = entry["rank"]
        assert 1 <= best <= worst <= 4
    jsonschema.Draft202012Validator(board_json_schema()).validate(doc)
    assert Board.model_validate(doc) == board
    rule = board.participant("rule")
    assert rule.anchor and rule.rating == 1000.0 and rule.ci == (1000.0, 1000.0)
    faulty = board.participant("faulty")
    assert faulty.rule_following.applies and faulty.first_try_valid is not None
    assert 0 < faulty.first_try_valid < 1 and faulty.retries_per_decision
    assert faulty.rule_following.failures["unparsable"] > 0
    assert faulty.cost_usd is not None and faulty.cost_per_match is not None
    assert board.participant("random").first_try_valid is None  # bots follow no contract
    assert board.participant("random").cost_usd is None  # no price: unknown, not 0
    assert set(rule.by_role) <= {"sheriff", "deputy", "outlaw", "renegade", "double_agent"}
    assert sum(r.played for r in rule.by_role.values()) == rule.seats
    assert board.head_to_head and all(h.units > 0 for h in board.head_to_head)


def test_the_published_schema_is_current() -> None:
    # Regenerate with: python -c "from bangarena.leaderboard import write_board_schema as w; w()"
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text()


def test_an_empty_store_gives_no_board(tmp_path) -> None:  # noqa: ANN001
    with open_store(tmp_path / "empty.db") as store:
        assert build_boards(store, **FAST) == []
        data = load_store(store)
        assert data.matches == {} and data.suites == []
        store.register_suite(small_suite())  # a suite without a done match yet
        assert build_boards(store, "small", **FAST) == []


def test_an_unknown_suite_is_a_typed_one_line_error(store_url: str) -> None:  # noqa: F811
    with filled(store_url) as store, pytest.raises(UnknownSuiteError) as info:
        build_boards(store, "nope", **FAST)
    message = str(info.value)
    assert "'nope'" in message and "small" in message and "\n" not in message
    assert isinstance(info.value, LeaderboardError)


def test_one_participant_gets_a_board_that_says_so(tmp_path) -> None:  # noqa: ANN001
    from bangarena.evals.runner import RunOptions, run_suite

    suite = parse_suite(
        """
[suite]
name = "solo"
seed = 3
deals = 1

[[participants]]
id = "rule"
spec = "rule"

[[tables]]
seats = 4
lineup = ["rule", "rule", "rule", "rule"]
""",
        where="solo.toml",
    )
    result = run_suite(suite, RunOptions(db=str(tmp_path / "solo.db")))
    assert result.exit_code == 0
    with open_store(tmp_path / "solo.db") as store:
        (board,) = build_boards(store, **FAST)
    (entry,) = board.participants
    assert entry.rating == 1000.0 and entry.rank == (1, 1) and entry.matches == 4
    assert entry.seats == 16 and entry.wins == sum(r.wins for r in entry.by_role.values())
    assert any("only one participant" in n for n in board.notes)
    assert board.head_to_head == [] and board.split_half.mean_spearman is None


def test_mixed_rules_versions_are_rated_apart(store_url: str) -> None:  # noqa: F811
    pairs = played()
    with filled(store_url, void_first=False) as store:
        with store.engine.begin() as conn:
            conn.execute(
                update(MatchRow)
                .where(MatchRow.key.in_([pairs[0][0].key, pairs[1][0].key]))
                .values(rules_version="0ld")
            )
        boards = build_boards(store, **FAST)
    assert len(boards) == 2
    assert {b.rules_version for b in boards} == {"0ld", pairs[0][1].versions["rules"]}
    assert sorted(b.matches for b in boards) == [2, 2]
    for b in boards:
        assert b.rules_versions == sorted({"0ld", pairs[0][1].versions["rules"]})
        assert any("rated apart" in n for n in b.notes)
        assert sum(p.matches for p in b.participants) == 2 * 4
    with pytest.raises(LeaderboardError, match="rate them apart"):
        build_board(
            [m for ms in load_store(open_store(store_url)).matches.values() for m in ms], {}
        )


def test_no_rule_participant_anchors_the_mean(store_url: str) -> None:  # noqa: F811
    with filled(store_url) as store:
        (board,) = build_boards(store, "small", anchor_spec="nobody", anchor_rating=1500.0, **FAST)
    assert board.model.anchor.kind == "mean" and board.model.anchor.id is None
    mean = sum(p.rating for p in board.participants) / len(board.participants)
    assert mean == pytest.approx(1500.0, abs=0.1)
    assert any("mean of all strengths" in n for n in board.notes)
    assert not any(p.anchor for p in board.participants)


def test_one_id_with_two_specs_across_suites_is_told_apart(tmp_path) -> None:  # noqa: ANN001
    pairs = played()
    other_text = (
        small_suite()
        .text.replace('name = "small"', 'name = "other"')
        .replace('id = "random"\nspec = "random"', 'id = "random"\nspec = "rule"')
    )
    other = parse_suite(other_text, where="other.toml")
    with open_store(tmp_path / "two.db") as store:
        store.register_suite(small_suite(), [m for m, _ in pairs])
        for m, rec in pairs:
            store.write_match(m, rec)
        store.register_suite(other, plan_suite(other))
        data = load_store(store)
    assert "small/random" in data.participants and "other/random" in data.participants
    assert data.participants["small/random"].spec == "random"
    assert data.participants["rule"].suites == ("other", "small")
    (matches,) = data.matches.values()
    assert all("random" not in m.lineup for m in matches)
    assert any("small/random" in m.lineup for m in matches)


def test_importing_the_package_loads_nothing_heavy() -> None:
    import subprocess
    import sys

    code = (
        "import json, sys, bangarena.leaderboard as lb\n"
        "assert 'build_boards' in lb.__all__\n"
        "print(json.dumps(sorted(m.split('.')[0] for m in sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    roots = set(json.loads(out.stdout.strip().splitlines()[-1]))
    assert not roots & {"numpy", "scipy", "sqlalchemy", "openskill", "pydantic"}
