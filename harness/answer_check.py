"""Checking an answer that arrives as a JSON object (remote and push agents send one, not text)
against the decision's published answer schema, with jsonschema.

A text reply goes through :func:`bangarena.harness.answers.parse_answer`, which is lenient (one
object found in prose, only ``move`` required). An agent that was handed the schema is held to
it: :func:`check_answer` validates against ``rules_machine.answer_schema(legal_ids, notes=...)``
— the constrained schema of this decision (``reason``, [``notes``,] ``move``, all required, no
other property, ``move`` one of the legal ids) — and tells the two failures apart the way the
evals count them: ``illegal`` when the only problem is a ``move`` outside the legal ids,
``unparsable`` for any other breach. Messages are bounded, whatever the agent sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from .answers import (
    NOTES_MAX_CHARS,
    REASON_MAX_CHARS,
    Answer,
    AnswerFailure,
    clip,
    illegal,
)

MESSAGE_MAX_CHARS: Final = 200
"""What is kept of one jsonschema message (they repeat the offending value whole)."""
LONGEST_ID: Final = 200
"""No legal move id is this long: a longer ``move`` is illegal without a schema check."""


def answer_validator(legal_ids: Sequence[str], notes: bool) -> Draft202012Validator:
    """A Draft 2020-12 validator of this decision's constrained answer schema (cheap to build:
    ~15 µs, so one per decision)."""
    from bangarena.rules_machine import answer_schema

    return Draft202012Validator(answer_schema(list(legal_ids), notes=notes))


def check_answer(
    obj: Any, legal_ids: Sequence[str], *, notes: bool = True
) -> Answer | AnswerFailure:
    """``obj`` (a JSON value as ``json.loads`` gives it) checked against the decision's answer
    schema: an :class:`Answer` (``reason`` and ``notes`` bounded as on the text path) or an
    ``illegal`` / ``unparsable`` :class:`AnswerFailure`. ``notes`` says which schema the agent
    was given (with or without the ``notes`` field). Never raises for any ``obj``; raises
    ValueError when ``legal_ids`` is empty (a caller's error, not the agent's)."""
    if not isinstance(obj, dict):
        # jsonschema's message would repeat the whole value
        return _unparsable("$", f"the answer is not an object (got {_json_type(obj)})")
    move = obj.get("move")
    if isinstance(move, str) and len(move) > LONGEST_ID:
        return illegal(move)
    try:
        errors = list(answer_validator(legal_ids, notes).iter_errors(obj))
    except RecursionError:
        return _unparsable("$", "nested too deeply to check")
    if not errors:
        return Answer(move, _bounded(obj.get("reason"), REASON_MAX_CHARS), _bounded(
            obj.get("notes"), NOTES_MAX_CHARS))  # fmt: skip
    if all(_is_move_enum(e) for e in errors):
        return illegal(move)
    first = min(errors, key=_order)
    return _unparsable(first.json_path, first.message)


def _is_move_enum(error: ValidationError) -> bool:
    return error.validator == "enum" and list(error.absolute_path) == ["move"]


def _order(error: ValidationError) -> tuple[bool, int, str]:
    # What makes it unparsable first: the object's own shape (required, additional
    # properties), then its fields in path order; an illegal move last.
    return (_is_move_enum(error), len(error.absolute_path), error.json_path)


def _unparsable(path: str, message: str) -> AnswerFailure:
    what = clip(" ".join(message.split()), MESSAGE_MAX_CHARS)
    return AnswerFailure(
        "unparsable", f"the answer does not match the answer schema: {path}: {what}"
    )


def _bounded(value: str | None, limit: int) -> str | None:
    if value is None:
        return None
    value = value.strip()
    return value[:limit] if value else None


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "an array"
    return type(value).__name__


__all__ = ["LONGEST_ID", "MESSAGE_MAX_CHARS", "answer_validator", "check_answer"]
