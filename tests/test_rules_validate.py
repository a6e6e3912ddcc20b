"""``validate_instance`` and ``bangarena rules validate``: real engine and harness objects pass the
published schemas, broken ones give one issue per problem with its JSON path (the branch a
discriminated union's ``kind`` names, not "valid under none"), and the command reads JSON, JSONL
and stdin with exit codes 0 (valid), 1 (invalid) and 2 (bad usage)."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from bangarena.cli.app import app
from bangarena.cli.rules import MAX_ISSUES
from bangarena.engine import GameConfig, new_game, view_to_dict
from bangarena.harness.records import match_record_schema
from bangarena.rules_machine import (
    SCHEMA_NAMES,
    VALIDATE_KINDS,
    SchemaIssue,
    answer_schema,
    dump_json,
    rules_document,
    schema_issues,
    validate_instance,
)
from bangarena.rules_machine.publish import MATCH_RECORD_FILE, build_published
from bangarena.rules_machine.validate import UnknownKind, published_schema

runner = CliRunner()


def _json(obj: Any) -> Any:
    """The value as a third party holds it: through JSON."""
    return json.loads(json.dumps(obj))


@pytest.fixture(scope="module")
def played() -> dict[str, list[Any]]:
    """Objects of every engine kind from two random games (double_agent and old_classic)."""
    found: dict[str, list[Any]] = {"Move": [], "Decision": [], "SeatView": [], "Event": []}
    records = []
    for config, seed in ((GameConfig(6, "double_agent"), 3), (GameConfig(5, "old_classic"), 8)):
        game = new_game(config, seed)
        rnd = random.Random(seed)
        for step in range(400):
            if game.over:
                break
            decision = game.decision
            if step % 7 == 0:
                found["Decision"].append(_json(dataclasses.asdict(decision)))
                found["Move"] += [_json(dataclasses.asdict(m)) for m in decision.moves]
            game.apply(decision.seat, rnd.choice(decision.moves).id)
        for seat in range(config.seats):
            view = _json(view_to_dict(game.view(seat)))
            found["SeatView"].append(view)
            found["Event"] += view["events"]
        found["Event"] += _json(game.omniscient_events())
        records.append(_json(game.omniscient_record()))
    found["GameRecord"] = records
    return found


@pytest.mark.parametrize("kind", ["Move", "Decision", "SeatView", "Event", "GameRecord"])
def test_engine_objects_are_valid(played: dict[str, list[Any]], kind: str) -> None:
    assert played[kind]
    for obj in played[kind]:
        assert validate_instance(kind, obj) == [], obj


def test_answers_are_valid_and_broken_ones_say_where() -> None:
    assert validate_instance("AnswerFixed", {"reason": None, "move": "shot@2"}) == []
    assert validate_instance("AnswerFixedNotes", {"reason": "r", "notes": None, "move": "x"}) == []
    assert validate_instance("AnswerFixed", {"reason": 3, "move": "x"}) == [
        SchemaIssue("$.reason", "3 is not of type 'string' or 'null'")
    ]
    notes = validate_instance("AnswerFixed", {"reason": None, "notes": "n", "move": "x"})
    assert [i.path for i in notes] == ["$"] and "notes" in notes[0].message


@pytest.mark.parametrize("kind", ["Move", "Decision", "Event"])
def test_the_discriminator_shortcut_gives_the_standard_verdict(
    played: dict[str, list[Any]], kind: str
) -> None:
    """Checking only the branch ``kind`` names agrees with jsonschema's own oneOf, on valid
    objects and on objects broken the ways that matter (another kind, a field gone, a wrong
    type)."""
    standard = Draft202012Validator(published_schema(kind))
    rnd = random.Random(kind)
    size = 12 if kind == "Decision" else 40  # the standard oneOf is slow on decisions
    pool = rnd.sample(played[kind], min(size, len(played[kind])))
    kinds = sorted({o["kind"] for o in played[kind]})
    cases: list[Any] = []
    for obj in pool:
        cases.append(obj)
        cases.append({**obj, "kind": rnd.choice(kinds)})
        field = rnd.choice(sorted(obj))
        cases.append({k: v for k, v in obj.items() if k != field})
        cases.append({**obj, field: rnd.choice([None, 3, "x", [], {}])})
    disagree = [c for c in cases if (not validate_instance(kind, c)) != standard.is_valid(c)]
    assert not disagree, disagree[:3]


def test_a_union_reports_the_branch_its_kind_names() -> None:
    move = {"id": "zzz", "kind": "play", "card": "shot", "target": None, "option": None}
    issues = validate_instance("Move", move)
    assert [i.path for i in issues] == ["$.id"], issues
    unknown = validate_instance("Move", {**move, "kind": "fly"})
    assert [i.path for i in unknown] == ["$.kind"]
    assert "'fly' is not one of: " in unknown[0].message and "end_turn" in unknown[0].message
    assert validate_instance("Move", {"id": "x"}) == [
        SchemaIssue("$", "'kind' is a required property")
    ]
    assert validate_instance("Event", [1]) == [SchemaIssue("$", "[1] is not of type 'object'")]
    events = validate_instance("Event", {"kind": "fly"})
    assert events[0].message.endswith("turn_ended, turn_started")  # every kind, uncut


def test_nested_issues_carry_their_json_path(played: dict[str, list[Any]]) -> None:
    view = json.loads(json.dumps(played["SeatView"][0]))
    view["events"][0]["kind"] = "zzz"
    view["events"][1]["seat"] = 99
    view["hand"] = 5
    paths = {i.path for i in validate_instance("SeatView", view)}
    assert paths == {"$.hand", "$.events[0].kind", "$.events[1].seat"}


def test_messages_are_short() -> None:
    issues = validate_instance("Move", {"id": "x" * 100_000, "kind": "end_turn", "card": None,
                                        "target": None, "option": None})  # fmt: skip
    assert issues and all(len(i.message) <= 200 for i in issues)


def test_unknown_kind_lists_the_kinds() -> None:
    with pytest.raises(UnknownKind) as e:
        validate_instance("Moves", {})
    assert all(k in str(e.value) for k in VALIDATE_KINDS)
    assert set(SCHEMA_NAMES) < set(VALIDATE_KINDS) and "MatchRecord" in VALIDATE_KINDS


def test_schema_issues_against_a_live_answer_schema_and_deep_values() -> None:
    live = answer_schema(["end_turn", "shot@2"])
    assert schema_issues(live, {"reason": None, "move": "shot@2"}) == []
    assert [i.path for i in schema_issues(live, {"reason": None, "move": "shot@3"})] == ["$.move"]
    nested: list[Any] = []
    for _ in range(5_000):
        nested = [nested]
    tree = {"$defs": {"n": {"type": "array", "items": {"$ref": "#/$defs/n"}}}, "$ref": "#/$defs/n"}
    assert schema_issues(tree, nested) == [SchemaIssue("$", "nested too deeply to check")]


def test_a_match_record_is_valid(tmp_path: Path) -> None:
    out = tmp_path / "match.json"
    r = runner.invoke(app, ["play", "--seats", "4", "--fill", "random", "--seed", "1", "--quiet",
                            "--out", str(out)])  # fmt: skip
    assert r.exit_code == 0, r.output
    record = json.loads(out.read_text("utf-8"))
    # Against the harness's current schema (the published copy is checked by the published test).
    (tmp_path / MATCH_RECORD_FILE).write_text(dump_json(match_record_schema()), "utf-8")
    assert validate_instance("MatchRecord", record, root=tmp_path) == []
    record["seats"][0]["seat"] = "zero"
    del record["moves"]
    broken = validate_instance("MatchRecord", record, root=tmp_path)
    assert {i.path for i in broken} == {"$", "$.seats[0].seat"}


# -- the command -------------------------------------------------------------------------------
def validate(*args: str, input: str | None = None):
    return runner.invoke(app, ["rules", "validate", *args], input=input)


MOVE = {"id": "end_turn", "kind": "end_turn", "card": None, "target": None, "option": None}


def test_a_valid_json_file_is_ok(tmp_path: Path) -> None:
    path = tmp_path / "move.json"
    path.write_text(json.dumps(MOVE, indent=2))
    r = validate("Move", str(path))
    assert (r.exit_code, r.stdout) == (0, f"{path}: ok\n")


def test_jsonl_reports_each_line(tmp_path: Path) -> None:
    path = tmp_path / "answers.jsonl"
    lines = ['{"reason": null, "move": "x"}', '{"reason": 3, "move": "x"}', "not json", "",
             '{"reason": "\u2028", "move": "y"}']  # fmt: skip
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = validate("AnswerFixed", str(path))
    assert r.exit_code == 1
    assert r.stdout.splitlines() == [
        f"{path}:1: ok",
        f"{path}:2: $.reason: 3 is not of type 'string' or 'null'",
        f"{path}:3: not JSON: Expecting value at column 1",
        f"{path}:5: ok",
    ]


def test_stdin_is_one_value_or_jsonl_by_content() -> None:
    one = validate("Move", "-", input=json.dumps(MOVE, indent=1))
    assert (one.exit_code, one.stdout) == (0, "<stdin>: ok\n")
    many = validate("Move", "-", input=f"{json.dumps(MOVE)}\n{json.dumps(MOVE)}\n")
    assert (many.exit_code, many.stdout) == (0, "<stdin>:1: ok\n<stdin>:2: ok\n")
    typo = validate("Move", "-", input='{\n  "id": "end_turn",\n}\n')
    assert typo.exit_code == 1
    assert typo.stdout.splitlines() == [
        "<stdin>: not JSON: Expecting property name enclosed in double quotes at line 3 column 1"
    ]


def test_a_json_file_is_one_value(tmp_path: Path) -> None:
    path = tmp_path / "two.json"
    path.write_text(f"{json.dumps(MOVE)}\n{json.dumps(MOVE)}\n")
    r = validate("Move", str(path))
    assert r.exit_code == 1 and "not JSON: Extra data" in r.stdout


def test_empty_input_is_invalid(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n")
    r = validate("Move", str(path))
    assert (r.exit_code, r.stdout) == (1, f"{path}: no JSON value\n")


def test_many_issues_are_capped(tmp_path: Path) -> None:
    path = tmp_path / "view.json"
    path.write_text(json.dumps({f"x{i}": i for i in range(40)}))
    r = validate("SeatView", str(path))
    out = r.stdout.splitlines()
    assert r.exit_code == 1 and len(out) == MAX_ISSUES + 1
    assert out[-1].startswith(f"{path}: … ") and out[-1].endswith(" more issues")


def test_show_json_compact_is_one_line() -> None:
    r = runner.invoke(app, ["rules", "show", "--format", "json", "--compact"])
    assert r.exit_code == 0
    assert r.stdout.count("\n") == 1 and ": " not in r.stdout.split('"', 1)[0]
    assert json.loads(r.stdout) == rules_document()


def test_build_keeps_schema_files_of_a_folder_it_did_not_write(tmp_path: Path) -> None:
    mine = tmp_path / "my.schema.json"
    mine.write_text("{}")
    build_published(tmp_path)
    # Not a previous build's folder: nothing is pruned (a build's folder is, as
    # test_rules_machine_published checks).
    assert mine.read_text() == "{}"
