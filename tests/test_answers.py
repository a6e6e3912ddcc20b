"""Answer parsing: one JSON object (the last), never a move guessed from prose, every failure
class, bounded notes, and the feedback text in every language."""

from __future__ import annotations

import json

import pytest

from bangarena.harness.answers import (
    FAILURE_KINDS,
    NOTES_MAX_CHARS,
    Answer,
    AnswerFailure,
    feedback_text,
    last_json_object,
    parse_answer,
)

LEGAL = ("end_turn", "shot@3", "discard:shot")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"move": "end_turn"}', {"move": "end_turn"}),
        ('Thinking... {"a": 1} then {"move": "shot@3"} done', {"move": "shot@3"}),
        (
            '```json\n{"reason": "x {y}", "move": "end_turn"}\n```',
            {"reason": "x {y}", "move": "end_turn"},
        ),
        (
            '{"outer": {"move": "inner"}, "move": "end_turn"}',
            {"outer": {"move": "inner"}, "move": "end_turn"},
        ),
        ('{broken {"move": "end_turn"}', {"move": "end_turn"}),
        ('{"move": "end_turn"} and then {"move": "sh', {"move": "end_turn"}),
        ('say "{" then {"move": "end_turn"}', {"move": "end_turn"}),  # a brace in prose
        ('{"a": 1, x {"move": "end_turn"}}', {"move": "end_turn"}),  # inside a broken object
        ('{"a": "b {\n"move": "end_turn"}', {"move": "end_turn"}),  # a string broken by a newline
        (
            '{"move": "x", "a": [1, {"b": 2}], "c": "}"}',
            {"move": "x", "a": [1, {"b": 2}], "c": "}"},
        ),
        ("no object at all", None),
        ("[1, 2, 3]", None),
        ('{"move": "end_tu', None),
    ],
)
def test_last_json_object(text: str, expected: dict | None) -> None:
    assert last_json_object(text) == expected


def test_valid_answer_with_reason_and_notes() -> None:
    text = json.dumps({"reason": " the sheriff is far ", "notes": "s3 shot me", "move": "shot@3"})
    assert parse_answer(text, LEGAL) == Answer("shot@3", "the sheriff is far", "s3 shot me")


def test_the_last_object_wins() -> None:
    text = '{"move": "end_turn"}\nOn second thought: {"move": "shot@3"}'
    assert parse_answer(text, LEGAL) == Answer("shot@3")


def test_a_move_is_never_guessed_from_prose() -> None:
    for text in ("I play end_turn.", "move: shot@3", "{move: end_turn}", "'move': 'end_turn'"):
        result = parse_answer(text, LEGAL)
        assert isinstance(result, AnswerFailure) and result.kind == "unparsable", text


def test_notes_are_bounded() -> None:
    text = json.dumps({"reason": None, "notes": "n" * 5000, "move": "end_turn"})
    result = parse_answer(text, LEGAL)
    assert isinstance(result, Answer) and len(result.notes) == NOTES_MAX_CHARS


@pytest.mark.parametrize(
    ("text", "finish", "refusal", "kind"),
    [
        ("", "stop", None, "empty"),
        ("   \n ", "stop", None, "empty"),
        (None, "stop", None, "empty"),
        (None, "length", None, "truncated"),
        ('{"reason": "I think", "move": "end_', "length", None, "truncated"),
        ('{"reason": "I think", "move": "end_', "stop", None, "unparsable"),
        ('{"reason": "no move here"}', "stop", None, "unparsable"),
        ('{"move": 3}', "stop", None, "unparsable"),
        ('{"move": "shot@9"}', "stop", None, "illegal"),
        ('{"move": "not a move"}', "stop", None, "illegal"),
        (None, "refusal", "I can't help with that.", "refusal"),
        ('{"move": "end_turn"}', "stop", "I won't.", "refusal"),
        ("", "content_filter", None, "refusal"),
    ],
)
def test_failure_classes(text: str | None, finish: str, refusal: str | None, kind: str) -> None:
    result = parse_answer(text, LEGAL, finish_reason=finish, refusal=refusal)
    assert isinstance(result, AnswerFailure)
    assert result.kind == kind and result.kind in FAILURE_KINDS
    assert result.detail


def test_illegal_keeps_the_id_sent() -> None:
    result = parse_answer('{"move": "shot@9"}', LEGAL)
    assert result == AnswerFailure("illegal", result.detail, "shot@9")


def test_complete_answer_at_the_token_limit_is_accepted() -> None:
    assert parse_answer('{"move": "end_turn"} and some more te', LEGAL, finish_reason="length") == (
        Answer("end_turn")
    )


@pytest.mark.parametrize("lang", ["en", "pt", "es", "fr"])
@pytest.mark.parametrize("kind", ["truncated", "empty", "unparsable", "illegal", "refusal"])
def test_feedback_names_the_problem_and_repeats_the_ids(lang: str, kind: str) -> None:
    text = feedback_text(AnswerFailure(kind, "detail", "shot@9"), LEGAL, lang)
    lines = text.splitlines()
    assert lines[-1] == "Legal move ids: end_turn, shot@3, discard:shot"
    assert len(lines) == 3
    if kind == "illegal":
        assert "shot@9" in lines[0]
    # the problem line differs per class and per language
    others = {feedback_text(AnswerFailure(k, "d", "x"), LEGAL, lang).splitlines()[0] for k in
              ("truncated", "empty", "unparsable", "refusal")}  # fmt: skip
    assert len(others) == 4
    if lang != "en":
        assert lines[0] != feedback_text(AnswerFailure(kind, "d", "shot@9"), LEGAL).splitlines()[0]
