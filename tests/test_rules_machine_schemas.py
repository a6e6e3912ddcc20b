"""The JSON Schemas: valid Draft 2020-12, mirrors of the engine's dataclasses, and answer
schemas that OpenAI strict structured outputs and Anthropic tool input schemas accept as-is."""

from __future__ import annotations

import copy
import dataclasses
import random
import re
from typing import Any, Literal

import pytest
from jsonschema import Draft202012Validator, validators
from pydantic import Field, TypeAdapter, create_model

from bangarena.engine import (
    EVENT_TYPES,
    MOVE_KINDS,
    Decision,
    DecisionInfo,
    GameConfig,
    Move,
    PlayerView,
    SeatView,
    new_game,
)
from bangarena.engine.events import event_fields
from bangarena.engine.moves import MOVE_ID_PATTERNS
from bangarena.rules_machine import SCHEMA_NAMES, answer_schema, schema
from bangarena.rules_machine import models as M
from bangarena.rules_machine.ids import (
    DECISION_MOVES,
    alternatives,
    example_id,
    move_kind_regex,
)
from bangarena.rules_machine.schemas import DRAFT_2020_12, tidy

LEGAL = ["end_turn", "shot@2", "jail@3", "wagon"]


def answers() -> list[dict[str, Any]]:
    return [
        answer_schema(),
        answer_schema(notes=True),
        answer_schema(LEGAL),
        answer_schema(LEGAL, notes=True),
    ]


# -- Draft 2020-12 -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_every_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    doc = schema(name)
    Draft202012Validator.check_schema(doc)
    if not name.startswith("Answer"):  # the answer schemas go to providers bare
        assert doc["$schema"] == DRAFT_2020_12
        assert validators.validator_for(doc) is Draft202012Validator
        assert doc["title"] == name and doc["description"]


def test_answer_schemas_are_valid_draft_2020_12_schemas() -> None:
    for doc in answers():
        Draft202012Validator.check_schema(doc)


def test_schema_returns_a_fresh_copy_and_rejects_unknown_names() -> None:
    a = schema("Move")
    a["$defs"].clear()
    assert schema("Move")["$defs"]
    with pytest.raises(KeyError) as e:
        schema("Moves")
    assert all(n in str(e.value) for n in SCHEMA_NAMES)


# -- the answer schemas ------------------------------------------------------------------------
def test_fixed_answer_schema_is_reason_then_move_all_required() -> None:
    fixed = answer_schema()
    assert fixed["type"] == "object"
    assert list(fixed["properties"]) == ["reason", "move"]
    assert fixed["required"] == ["reason", "move"]
    assert fixed["additionalProperties"] is False
    assert fixed["properties"]["reason"]["anyOf"] == [{"type": "string"}, {"type": "null"}]
    assert fixed["properties"]["move"]["type"] == "string"
    assert "enum" not in fixed["properties"]["move"]
    assert fixed == schema("AnswerFixed")
    v = Draft202012Validator(fixed)
    assert v.is_valid({"reason": None, "move": "anything"})
    assert v.is_valid({"reason": "why", "move": "shot@2"})
    assert not v.is_valid({"move": "shot@2"})
    assert not v.is_valid({"reason": None, "move": "x", "notes": None})
    assert not v.is_valid({"reason": 3, "move": "x"})


def test_notes_come_between_reason_and_move() -> None:
    s = answer_schema(notes=True)
    assert s == schema("AnswerFixedNotes")  # published, as the default answer shape
    assert list(s["properties"]) == ["reason", "notes", "move"]
    assert s["required"] == ["reason", "notes", "move"]
    assert s["properties"]["notes"]["anyOf"] == [{"type": "string"}, {"type": "null"}]
    # No length bound: OpenAI strict mode and Anthropic's helper reject minLength/maxLength.
    assert "maxLength" not in str(s)


def test_constrained_answer_schema_is_an_enum_of_exactly_the_legal_ids() -> None:
    s = answer_schema(LEGAL + ["wagon"])
    assert s["properties"]["move"]["enum"] == LEGAL
    v = Draft202012Validator(s)
    for move_id in LEGAL:
        assert v.is_valid({"reason": None, "move": move_id})
    for bad in ("take_hit", "shot@3", "", "END_TURN"):
        assert not v.is_valid({"reason": None, "move": bad})
    # every other part is the fixed schema's (so the two forms differ only in the enum)
    s["properties"]["move"].pop("enum")
    assert s == answer_schema()


def test_constrained_schema_is_what_pydantic_makes_of_a_literal() -> None:
    model = create_model(
        "Answer",
        __config__=M._FORBID,
        reason=(str | None, Field(description=M.REASON_DESCRIPTION)),
        move=(Literal[tuple(LEGAL)], Field(description=M.MOVE_DESCRIPTION)),
    )
    generated = tidy(TypeAdapter(model).json_schema())
    generated.pop("description", None)
    assert generated == answer_schema(LEGAL)


def test_answer_schema_bad_input() -> None:
    with pytest.raises(ValueError):
        answer_schema([])
    with pytest.raises(TypeError):
        answer_schema("shot@2")
    with pytest.raises(ValueError):
        answer_schema(["shot@2", ""])
    first = answer_schema(LEGAL)
    first["properties"]["move"]["enum"].append("oops")
    assert answer_schema(LEGAL)["properties"]["move"]["enum"] == LEGAL


# -- OpenAI strict structured outputs ----------------------------------------------------------
_OPENAI_KEYWORDS = {
    "type", "properties", "required", "additionalProperties", "items", "anyOf", "enum",
    "const", "description", "$defs", "$ref", "pattern", "format", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "title",
}  # fmt: skip
"""The keywords OpenAI's Structured Outputs guide lists as supported in strict mode (strings:
pattern and format only — no minLength/maxLength)."""


def openai_strict_problems(doc: dict[str, Any]) -> list[str]:
    """What OpenAI's documented strict-mode rules reject in ``doc``: a root that is not an
    object (or is an ``anyOf``); an object without ``additionalProperties: false`` or with a
    property not in ``required``; an unsupported keyword; more than 5 levels of nesting, 100
    object properties or 500 enum values (the guide's original limits, the strictest)."""
    problems: list[str] = []
    if doc.get("type") != "object" or "anyOf" in doc:
        problems.append("root must be a plain object")
    count = {"properties": 0, "enum": 0}

    def walk(node: dict[str, Any], path: str, depth: int) -> None:
        for key in node:
            if key not in _OPENAI_KEYWORDS:
                problems.append(f"{path}: unsupported keyword {key}")
        if node.get("type") == "object" or "properties" in node:
            if node.get("additionalProperties") is not False:
                problems.append(f"{path}: additionalProperties must be false")
            if sorted(node.get("required", [])) != sorted(node.get("properties", {})):
                problems.append(f"{path}: every property must be required")
            if depth > 5:
                problems.append(f"{path}: nested deeper than 5 levels")
            count["properties"] += len(node.get("properties", {}))
            for k, sub in node.get("properties", {}).items():
                walk(sub, f"{path}.{k}", depth + 1)
        if "enum" in node:
            count["enum"] += len(node["enum"])
            if not all(isinstance(x, str | None) for x in node["enum"]):
                problems.append(f"{path}: enum values must be strings")
        for sub in node.get("anyOf", []):
            walk(sub, f"{path}|", depth)
        if isinstance(node.get("items"), dict):
            walk(node["items"], f"{path}[]", depth + 1)

    walk(doc, "$", 1)
    if count["properties"] > 100:
        problems.append("more than 100 object properties")
    if count["enum"] > 500:
        problems.append("more than 500 enum values")
    return problems


def test_answer_schemas_meet_openai_strict_rules() -> None:
    from openai.lib._pydantic import _ensure_strict_json_schema  # the SDKs load where used
    from openai.types.shared_params import ResponseFormatJSONSchema

    for doc in answers():
        assert openai_strict_problems(doc) == []
        # The SDK's own strict-schema transform leaves them exactly as they are.
        assert _ensure_strict_json_schema(copy.deepcopy(doc), path=(), root=doc) == doc
        # And they fit the SDK's response_format type unchanged.
        response_format = {
            "type": "json_schema",
            "json_schema": {"name": "bangarena_answer", "strict": True, "schema": doc},
        }
        TypeAdapter(ResponseFormatJSONSchema).validate_python(response_format)


def test_openai_strict_checker_catches_what_strict_mode_rejects() -> None:
    """The checker is not vacuous: each documented violation is reported."""
    base = answer_schema()
    bad = copy.deepcopy(base)
    bad["properties"]["reason"] = {"type": "string", "maxLength": 200}
    assert any("maxLength" in p for p in openai_strict_problems(bad))
    bad = copy.deepcopy(base)
    bad["required"] = ["move"]
    assert openai_strict_problems(bad)
    bad = copy.deepcopy(base)
    del bad["additionalProperties"]
    assert openai_strict_problems(bad)
    assert openai_strict_problems({"anyOf": [base, {"type": "null"}]})
    assert openai_strict_problems(answer_schema([f"m{i}" for i in range(501)]))


def test_fixed_answer_is_what_the_openai_sdk_makes_of_the_pydantic_model() -> None:
    from openai.lib._pydantic import to_strict_json_schema

    for model, notes in ((M.AnswerFixed, False), (M.AnswerFixedNotes, True)):
        made = tidy(to_strict_json_schema(TypeAdapter(model)))
        made.pop("description", None)
        assert made == answer_schema(notes=notes)


# -- Anthropic tool input_schema ---------------------------------------------------------------
def test_answer_schemas_are_anthropic_tool_input_schemas_as_they_are() -> None:
    import anthropic
    from anthropic.types import ToolParam

    for doc in answers():
        assert doc["type"] == "object"  # a tool input_schema is an object schema
        # Anthropic's own strict-schema transform changes nothing (it rejects type lists,
        # which is why nullable fields are anyOf with a null branch).
        assert anthropic.transform_schema(copy.deepcopy(doc)) == doc
        tool = {
            "name": "bangarena_move",
            "description": "Answer the decision.",
            "input_schema": doc,
            "strict": True,
        }
        TypeAdapter(ToolParam).validate_python(tool)
    with pytest.raises(AssertionError):
        anthropic.transform_schema({"type": ["string", "null"]})


# -- mirrors of the engine's dataclasses -------------------------------------------------------
def _props(doc: dict[str, Any], name: str) -> list[str]:
    return list(doc["$defs"][name]["properties"])


def test_models_have_exactly_the_engine_fields_in_order() -> None:
    move_fields = [f.name for f in dataclasses.fields(Move)]
    moves = schema("Move")
    assert set(moves["discriminator"]["mapping"]) == set(MOVE_KINDS)
    for kind in MOVE_KINDS:
        assert _props(moves, "Move" + M.camel(kind)) == move_fields
    decisions = schema("Decision")
    for name in decisions["discriminator"]["mapping"].values():
        assert _props(decisions, name.rsplit("/", 1)[1]) == [
            f.name for f in dataclasses.fields(Decision)
        ]
    view = schema("SeatView")
    # The base schemas describe base games: the Armed & Dangerous fields are left out of
    # their views (view_to_dict drops them there) and records.
    ad_only = {"supply", "expansions", "tokens", "loads"}
    assert list(view["properties"]) == [
        f.name for f in dataclasses.fields(SeatView) if f.name not in ad_only
    ]
    assert _props(view, "PlayerView") == [
        f.name for f in dataclasses.fields(PlayerView) if f.name not in ad_only
    ]
    assert _props(view, "DecisionInfo") == [f.name for f in dataclasses.fields(DecisionInfo)]
    events = schema("Event")
    assert set(events["discriminator"]["mapping"]) == {c.KIND for c in EVENT_TYPES}
    for cls in EVENT_TYPES:
        d = events["$defs"]["Event" + M.camel(cls.KIND)]
        assert list(d["properties"]) == ["kind", *event_fields(cls), "private_to"]
        assert d["required"] == ["kind", *event_fields(cls)]
        for hidden in cls.HIDDEN:  # hidden fields are null in other viewers' forms
            assert "null" in str(d["properties"][hidden])


def test_game_record_schema_has_the_record_keys() -> None:
    game = new_game(GameConfig(seats=4), seed=1)
    chooser = random.Random(1)
    while not game.over:
        game.apply_fast(game.legal_moves[chooser.randrange(len(game.legal_moves))])
    record = game.omniscient_record()
    doc = schema("GameRecord")
    assert list(doc["properties"]) == list(record)
    assert doc["required"] == list(record)
    assert _props(doc, "GameResult") == list(record["result"])
    assert _props(doc, "GameConfig") == [
        f.name for f in dataclasses.fields(GameConfig) if f.name != "expansions"
    ]
    v = Draft202012Validator(doc)
    assert v.is_valid(record)
    assert not v.is_valid({**record, "rules_version": "latest"})
    assert not v.is_valid({**record, "moves": [[0, "end_turn", 1]]})


def test_move_schema_rejects_a_move_of_the_wrong_shape() -> None:
    v = Draft202012Validator(schema("Move"))
    ok = {"id": "shot@2", "kind": "play", "card": "shot", "target": 2, "option": None}
    assert v.is_valid(ok)
    assert not v.is_valid({**ok, "id": "discard:shot"})
    assert not v.is_valid({**ok, "card": "bullet"})
    assert not v.is_valid({**ok, "target": 8})
    assert not v.is_valid({**ok, "kind": "teleport"})
    assert not v.is_valid({**ok, "option": "deck"})


def test_every_move_kind_has_an_id_pattern_and_decision_patterns_are_its_shapes() -> None:
    assert set(MOVE_ID_PATTERNS) == set(MOVE_KINDS)
    for kind, pairs in DECISION_MOVES.items():
        for move_kind, pattern in pairs:
            assert move_kind in MOVE_KINDS
            for alt in alternatives(pattern):
                assert re.fullmatch(move_kind_regex(move_kind), example_id(alt)), (kind, alt)


def test_a_mirrored_class_without_annotations_needs_every_field_named() -> None:
    """The compiled build's view and decision classes are extension types, which keep no type
    hints: ``mirror`` takes their fields' types from its overrides, and says which one is
    missing rather than failing on a bare key."""
    bare = dataclasses.make_dataclass("Bare", [("a", int), ("b", str)])
    del bare.__annotations__  # as an extension type of the compiled build
    with pytest.raises(TypeError, match=r"Bare\.b has no type hint"):
        M.mirror(bare, "Bare", {"a": int})
    model = M.mirror(bare, "Bare", {"a": int, "b": str})
    assert model(a=1, b="x").model_dump() == {"a": 1, "b": "x"}
