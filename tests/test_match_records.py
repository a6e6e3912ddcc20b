"""Match record version 2: version-1 records still load (and are upgraded), the provenance
block (command line with credentials redacted, Python, platform, git commit read from .git),
and seat kinds as one open union."""

from __future__ import annotations

import json
import platform
from pathlib import Path

import jsonschema
import pytest

from bangarena.harness.match import Match, MatchSettings
from bangarena.harness.model_spec import ModelSpecError, parse_model_spec
from bangarena.harness.provenance import current_provenance, git_commit, redact_credentials
from bangarena.harness.providers.scripted import ScriptedProvider
from bangarena.harness.records import (
    RECORD_VERSION,
    SEAT_KINDS,
    AttemptRecord,
    MatchRecord,
    MoveRecord,
    SeatRecord,
    load_match_record,
    lost_to_provider,
    match_record_schema,
    seat_totals,
)
from bangarena.harness.seats import (
    BotSeat,
    ModelSeat,
    SeatSpecError,
    build_seat,
    factory,
    plan_seat,
)
from bangarena.harness.seats.factory import scripted_policy

V1 = Path(__file__).parent / "golden" / "match_record_v1.json"
"""Written by the version-1 harness: `bangarena play --seats 4 --seed 3 --seat 0=scripted:rule
--fill rule` with invalid_json 0.2 and illegal_id 0.1 faults, --no-transcripts."""
VALIDATOR = jsonschema.Draft202012Validator(match_record_schema())


def test_a_version_1_record_validates_as_it_is() -> None:
    data = json.loads(V1.read_text("utf-8"))
    assert data["version"] == 1 and "status" not in data and "provenance" not in data
    rec = MatchRecord.model_validate(data)
    assert rec.version == 1 and rec.status == "complete" and rec.provenance is None


def test_load_match_record_upgrades_version_1() -> None:
    data = json.loads(V1.read_text("utf-8"))
    old_match_rate = data["totals"]["match"]["first_try_valid_rate"]
    for source in (V1, str(V1), data):
        rec = load_match_record(source)
        assert rec.version == RECORD_VERSION == 2 and rec.status == "complete"
        VALIDATOR.validate(json.loads(rec.model_dump_json()))
    # version 1 mixed the rule bots into the match's first-try rate; version 2 does not
    seat = rec.totals.seats[0]
    assert seat.first_try_valid_rate is not None and seat.first_try_valid_rate < 0.6
    assert old_match_rate > 0.8
    assert rec.totals.match.first_try_valid_rate == seat.first_try_valid_rate
    assert rec.totals.kinds["rule"].first_try_valid_rate is None
    assert [t.decisions for t in rec.totals.seats] == [
        t["decisions"] for t in data["totals"]["seats"]
    ]


def test_load_match_record_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    data = json.loads(V1.read_text("utf-8"))
    with pytest.raises(ValueError, match="version 9"):
        load_match_record({**data, "version": 9})
    with pytest.raises(ValueError, match="not a match record"):
        load_match_record({"format": "something.else", "version": 1})


def test_seat_kinds_are_one_open_union() -> None:
    assert {"rule", "random", "human", "scripted", "model"} <= set(SEAT_KINDS)
    assert {"remote", "http", "a2a", "search"} <= set(SEAT_KINDS)
    schema = match_record_schema()
    kinds = schema["$defs"]["SeatRecord"]["properties"]["kind"]["enum"]
    assert set(kinds) == set(SEAT_KINDS)
    SeatRecord(seat=0, spec="a2a:http://x", display_name="x", controller="ai", kind="a2a",
               time_per_move_s=60)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0=openai:m@https://user:secret@host.example/v1", "0=openai:m@https://***@host.example/v1"),
        ("http://h/v1?key=abc&model=x", "http://h/v1?key=***&model=x"),
        ("http://h/v1?api_key=abc;token=t", "http://h/v1?api_key=***;token=***"),
        ("https://h/v1?access_token=zz#frag", "https://h/v1?access_token=***#frag"),
        ("sk-ant-api03-abcdefghijklmnop", "***"),
        ("--seed", "--seed"),
        ("openai:qwen2.5:7b@http://127.0.0.1:11434/v1", "openai:qwen2.5:7b@http://127.0.0.1:11434/v1"),
    ],
)  # fmt: skip
def test_credentials_are_redacted(text: str, expected: str) -> None:
    assert redact_credentials(text) == expected


def test_provenance_and_redacted_seats_in_the_record() -> None:
    spec = "openai:m@http://127.0.0.1:9/v1?api_key=k1"
    odd = "openai:n@http://alice:hunter2@127.0.0.1:9/v1"  # a model name that holds a URL
    provider = ScriptedProvider(scripted_policy("rule", 0), seed=0)  # never called
    seats = [ModelSeat(parse_model_spec(spec), provider, seat=0),
             ModelSeat(parse_model_spec(odd), provider, seat=1),
             *(BotSeat("rule", i, i) for i in range(2, 4))]  # fmt: skip
    command = ["/usr/bin/bangarena", "play", "--seat", f"0={spec}", "--seat", f"1={odd}"]
    rec = Match(MatchSettings(seats=4, seed=1), seats, command=command).record()
    dump = rec.model_dump_json()
    assert "hunter2" not in dump and "k1" not in dump and "alice" not in dump
    p = rec.provenance
    assert p.command[:2] == ["bangarena", "play"] and "api_key=***" in p.command[3]
    assert "***@127.0.0.1:9" in p.command[5]
    assert p.python == platform.python_version() and p.platform
    assert rec.seats[0].base_url == "http://127.0.0.1:9/v1?api_key=***"
    assert rec.status == "aborted" and rec.status_detail == "not finished"  # never played


def _fake_git(root: Path, head: str) -> Path:
    git = root / ".git"
    (git / "refs" / "heads").mkdir(parents=True)
    (git / "HEAD").write_text(head)
    (root / "pkg").mkdir()
    return root / "pkg" / "module.py"


def test_git_commit_is_read_from_the_checkout(tmp_path: Path) -> None:
    sha = "0123456789abcdef0123456789abcdef01234567"
    loose = _fake_git(tmp_path / "a", "ref: refs/heads/main\n")
    (tmp_path / "a" / ".git" / "refs" / "heads" / "main").write_text(sha + "\n")
    assert git_commit(loose) == sha
    packed = _fake_git(tmp_path / "b", "ref: refs/heads/dev\n")
    (tmp_path / "b" / ".git" / "packed-refs").write_text(
        f"# pack-refs with: peeled\n{sha} refs/heads/dev\n"
    )
    assert git_commit(packed) == sha
    detached = _fake_git(tmp_path / "c", sha)
    assert git_commit(detached) == sha
    worktree = tmp_path / "d"
    (worktree / "pkg").mkdir(parents=True)
    (worktree / ".git").write_text(f"gitdir: {tmp_path / 'a' / '.git'}\n")
    assert git_commit(worktree / "pkg" / "m.py") == sha
    assert git_commit(_fake_git(tmp_path / "e", "garbage")) is None
    installed = tmp_path / "a" / "venv" / "site-packages" / "bangarena" / "x.py"
    installed.parent.mkdir(parents=True)
    assert git_commit(installed) is None  # a checkout above site-packages is not ours
    assert git_commit(tmp_path / "nowhere" / "x.py") is None


def test_current_provenance_defaults_to_this_process() -> None:
    p = current_provenance()
    assert p.python == platform.python_version()
    assert p.commit is None or len(p.commit) == 40


def test_seat_errors_never_echo_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = "openai:m@https://alice:hunter2@api.example.com/v1?key=k2"
    with pytest.raises(SeatSpecError) as e:
        plan_seat(spec.replace("openai", "nope"))  # an unknown provider
    assert "hunter2" not in str(e.value) and "***@api.example.com" in str(e.value)

    def refuse(spec_obj, *a, **kw):  # a provider that cannot be built, naming its spec
        raise ModelSpecError(f"model {spec_obj} cannot be built")

    monkeypatch.setattr(factory, "get_provider", refuse)
    with pytest.raises(SeatSpecError) as e:
        build_seat(plan_seat(spec), seat=0, seed=1, environ={})
    text = str(e.value)
    assert "hunter2" not in text and "k2" not in text and "***@api.example.com" in text


def _move(outcomes: list[str], how: str, reason: str | None) -> MoveRecord:
    attempts = [AttemptRecord(n=i + 1, outcome=o, started_s=0.0) for i, o in enumerate(outcomes)]
    return MoveRecord(index=0, seat=0, decision="play", legal=2, move="end_turn", how=how,
                      autopilot_reason=reason, chosen_by="ai" if how == "chosen" else "autopilot",
                      time_limit_s=60, attempts=attempts)  # fmt: skip


@pytest.mark.parametrize(
    ("outcomes", "how", "reason", "lost", "answered", "valid", "retries"),
    [
        (["ok"], "chosen", None, False, 1, 1, 0),
        (["transport", "transport", "ok"], "chosen", None, False, 1, 1, 0),  # 429, 5xx, answer
        (["illegal", "ok"], "chosen", None, False, 1, 0, 1),
        (["transport", "illegal", "ok"], "chosen", None, False, 1, 0, 1),
        (["transport", "transport"], "autopilot", "transport", True, 0, 0, 0),
        (["transport"], "autopilot", "auth", True, 0, 0, 0),
        (["transport", "timeout"], "autopilot", "timeout", True, 0, 0, 0),  # down, then out of time
        (["timeout"], "autopilot", "timeout", False, 1, 0, 0),  # a slow model is its own fault
        (["illegal", "transport"], "autopilot", "transport", False, 1, 0, 0),
        ([], "autopilot", "budget", False, 0, 0, 0),
    ],
)  # fmt: skip
def test_rule_following_statistics_never_blame_the_transport(
    outcomes: list[str], how: str, reason: str | None, lost: bool, answered: int, valid: int,
    retries: int,
) -> None:  # fmt: skip
    m = _move(outcomes, how, reason)
    assert lost_to_provider(m) is lost
    t = seat_totals(0, [m], "model")
    assert (t.answered, t.first_try_valid, t.retries) == (answered, valid, retries)
    assert t.lost_to_provider == (1 if lost and how == "autopilot" else 0)
    bot = seat_totals(0, [m], "rule")
    assert bot.answered is None and bot.first_try_valid is None and bot.retries == 0


def test_the_drivers_move_records_equal_validated_ones() -> None:
    """The driver builds move records without validation (their fields come from it): each
    must be the record validation gives — values, fields set, JSON — for bot decisions and
    for decisions with telemetry."""
    from bangarena.engine import GameConfig, new_game
    from bangarena.harness.match import _move_record
    from bangarena.harness.records import DecisionTelemetry

    game = new_game(GameConfig(5), 3)
    decision = game.decision
    move = decision.moves[0].id
    bot = _move_record(
        4, decision.seat, decision, move, "chosen", None, "bot", 1e-7, 30.0, 0.0, None
    )
    want = MoveRecord(
        index=4, seat=decision.seat, decision=decision.kind, legal=len(decision.moves), move=move,
        how="chosen", autopilot_reason=None, chosen_by="bot", elapsed_s=0.0, time_limit_s=30.0,
        credited_s=0.0, attempts=[],
    )  # fmt: skip
    assert bot == want and bot.model_fields_set == want.model_fields_set
    assert bot.model_dump_json() == want.model_dump_json()
    tel = DecisionTelemetry(
        attempts=[
            AttemptRecord(n=1, outcome="transport", started_s=0.0),
            AttemptRecord(n=2, outcome="illegal", started_s=0.1),
            AttemptRecord(n=3, outcome="ok", started_s=0.2),
        ],
        reason="why",
        notes="n",
        backoff_s=0.1234567,
    )
    ai = _move_record(
        5, decision.seat, decision, move, "autopilot", "failures", "autopilot", 0.5, 30.0, 0.25,
        tel,
    )  # fmt: skip
    want = MoveRecord.model_validate(
        {
            "index": 5, "seat": decision.seat, "decision": decision.kind,
            "legal": len(decision.moves), "move": move, "how": "autopilot",
            "autopilot_reason": "failures", "chosen_by": "autopilot", "elapsed_s": 0.5,
            "time_limit_s": 30.0, "credited_s": 0.25, "attempts": tel.model_dump()["attempts"],
            "retries": 1, "backoff_s": 0.123457, "reason": "why", "notes": "n",
        }
    )  # fmt: skip
    assert ai == want and ai.model_fields_set == want.model_fields_set
    assert ai.model_dump_json() == want.model_dump_json()
    ai.retries = 7  # a record's own fields set: never shared with another record
    assert "retries" in ai.model_fields_set and bot.model_fields_set == want.model_fields_set - {
        "retries",
        "backoff_s",
        "reason",
        "notes",
    }


def test_merged_totals_are_the_sums_of_their_parts() -> None:
    """merge_totals (sums kept in locals) adds every counter, token count and time of its
    parts, the rule-following ones only from the parts that have them, and recomputes the
    rates."""
    from bangarena.harness.records import SeatTotals, TokenUsage, merge_totals

    model = SeatTotals(
        seat=0, decisions=10, answered=9, first_try_valid=6, attempts=14, retries=4,
        autopilot_moves=2, autopilot={"failures": 1, "transport": 1}, lost_to_provider=1,
        failures={"illegal": 3, "unparsable": 1}, cost_usd=0.5, latency_s=7.0, backoff_s=1.5,
        credited_s=0.5, elapsed_s=9.0,
        usage=TokenUsage(input_tokens=100, output_tokens=20, reasoning_tokens=5,
                         cached_tokens=40, cache_write_tokens=3),
    )  # fmt: skip
    bot = SeatTotals(seat=1, decisions=30, autopilot_moves=1, autopilot={"timeout": 1},
                     elapsed_s=0.25)  # fmt: skip
    other = model.model_copy(deep=True, update={"seat": 2, "answered": 1, "first_try_valid": 1})
    t = merge_totals([model, bot, other])
    assert t.seat is None
    assert (t.decisions, t.attempts, t.autopilot_moves, t.lost_to_provider) == (50, 28, 5, 2)
    assert t.autopilot == {"failures": 2, "transport": 2, "timeout": 1}
    assert (t.answered, t.first_try_valid, t.retries) == (10, 7, 8)
    assert t.failures["illegal"] == 6 and t.failures["unparsable"] == 2
    assert t.usage == TokenUsage(input_tokens=200, output_tokens=40, reasoning_tokens=10,
                                 cached_tokens=80, cache_write_tokens=6)  # fmt: skip
    assert t.cost_usd == 1.0 and t.latency_s == 14.0 and t.elapsed_s == 18.25
    assert (t.backoff_s, t.credited_s) == (3.0, 1.0)
    assert t.first_try_valid_rate == 0.7 and t.mean_latency_s == 0.5
    bots_only = merge_totals([bot, bot])
    assert bots_only.answered is None and bots_only.first_try_valid_rate is None
    assert bots_only.cost_usd is None and bots_only.mean_latency_s is None
