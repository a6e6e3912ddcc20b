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
