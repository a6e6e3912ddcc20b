"""Structured answers (remote and push agents) checked against the decision's published answer
schema with jsonschema: the same verdict as the constrained schema, ``illegal`` told apart from
``unparsable``, bounded messages, no exception for any value."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from bangarena.engine import GameConfig, new_game
from bangarena.harness.answer_check import check_answer
from bangarena.harness.answers import ID_ECHO_MAX_CHARS, NOTES_MAX_CHARS, Answer, AnswerFailure
from bangarena.rules_machine import answer_schema

LEGAL = ("end_turn", "shot@3", "discard:shot")
PROPS = settings(max_examples=300, deadline=None, database=None)


@pytest.mark.parametrize("notes", [True, False])
def test_a_valid_answer(notes: bool) -> None:
    obj = {"reason": "  far  ", "move": "shot@3"} | ({"notes": "n" * 900} if notes else {})
    result = check_answer(obj, LEGAL, notes=notes)
    assert result == Answer("shot@3", "far", "n" * NOTES_MAX_CHARS if notes else None)


@pytest.mark.parametrize(
    ("obj", "kind", "words"),
    [
        ({"reason": None, "notes": None, "move": "heal"}, "illegal", "'heal' is not a legal"),
        ({"reason": None, "notes": None, "move": " end_turn"}, "illegal", "not a legal"),
        ({"reason": None, "move": "end_turn"}, "unparsable", "'notes' is a required property"),
        ({"reason": None, "notes": None, "move": "end_turn", "x": 1}, "unparsable", "'x' was"),
        ({"reason": 3, "notes": None, "move": "heal"}, "unparsable", "$.reason"),
        ({"reason": None, "notes": None, "move": 7}, "unparsable", "$.move"),
        (["end_turn"], "unparsable", "not an object (got an array)"),
        ("end_turn", "unparsable", "not an object (got a string)"),
        (None, "unparsable", "(got null)"),
    ],
)
def test_failures_are_classified(obj: object, kind: str, words: str) -> None:
    result = check_answer(obj, LEGAL, notes=True)
    assert isinstance(result, AnswerFailure) and result.kind == kind
    assert words in result.detail


def test_what_is_echoed_is_bounded() -> None:
    huge = "x" * 10_000_000
    result = check_answer({"reason": None, "notes": None, "move": huge}, LEGAL)
    assert result.kind == "illegal" and len(result.move) == ID_ECHO_MAX_CHARS
    assert len(result.detail) < 120
    result = check_answer({"reason": None, "notes": None, "move": "end_turn", huge: 1}, LEGAL)
    assert result.kind == "unparsable" and len(result.detail) < 300
    deep: object = "leaf"
    for _ in range(10_000):
        deep = [deep]
    result = check_answer({"reason": deep, "notes": None, "move": "end_turn"}, LEGAL)
    assert result.kind == "unparsable" and len(result.detail) < 300


def test_a_real_decision() -> None:
    game = new_game(GameConfig(seats=5), 11)
    d = game.decision
    assert check_answer({"reason": "r", "notes": None, "move": d.ids[-1]}, d.ids) == Answer(
        d.ids[-1], "r"
    )
    with pytest.raises(ValueError):
        check_answer({"move": "x"}, [])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)  # fmt: skip
answer_like = st.fixed_dictionaries(
    {},
    optional={
        "reason": st.none() | st.text(max_size=8) | json_values,
        "notes": st.none() | st.text(max_size=8) | json_values,
        "move": st.sampled_from([*LEGAL, "heal", ""]) | json_values,
        "extra": json_values,
    },
)


@PROPS
@given(obj=answer_like | json_values, notes=st.booleans())
def test_the_verdict_is_the_constrained_schemas(obj: object, notes: bool) -> None:
    result = check_answer(obj, LEGAL, notes=notes)
    schema_ok = Draft202012Validator(answer_schema(list(LEGAL), notes=notes)).is_valid(obj)
    assert isinstance(result, Answer) == schema_ok
    if isinstance(result, AnswerFailure):
        assert result.kind in ("illegal", "unparsable") and len(result.detail) < 300
        if result.kind == "illegal":  # only the move is wrong: the fixed schema accepts it
            assert Draft202012Validator(answer_schema(None, notes=notes)).is_valid(obj)
