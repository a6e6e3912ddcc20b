"""Model answers: take exactly one JSON object out of a reply, check its move against the legal
list, and classify every failure. A move is never guessed from prose.

The failure classes are the ones evals report apart (transport and timeout come from the call,
the rest from the reply); :func:`feedback_text` tells the model what was wrong and repeats the
legal ids, in the seat's language.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

FailureKind = Literal[
    "transport", "timeout", "truncated", "empty", "unparsable", "illegal", "refusal"
]
FAILURE_KINDS: Final[tuple[str, ...]] = (
    "transport",
    "timeout",
    "truncated",
    "empty",
    "unparsable",
    "illegal",
    "refusal",
)
"""Every failure class, in the order records and summaries list them."""

REPLY_FAILURES: Final = frozenset({"truncated", "empty", "unparsable", "illegal", "refusal"})
"""Failures of a reply that did arrive: answered with feedback and a new attempt."""

NOTES_MAX_CHARS: Final = 400
"""A seat's private notes are cut to this many characters before they are shown back."""
REASON_MAX_CHARS: Final = 2000

_DECODER = json.JSONDecoder()


@dataclass(frozen=True, slots=True)
class Answer:
    """A valid answer: a legal move id, the model's stated reason and its notes (both bounded)."""

    move: str
    reason: str | None = None
    notes: str | None = None


@dataclass(frozen=True, slots=True)
class AnswerFailure:
    """Why a reply (or a call) gave no legal move. ``move`` is the id the model sent, if any."""

    kind: FailureKind
    detail: str
    move: str | None = None


def last_json_object(text: str) -> dict | None:
    """The last top-level JSON object in ``text`` (prose, code fences and earlier objects
    around it are ignored), or None when there is no complete object."""
    found: dict | None = None
    i = text.find("{")
    n = len(text)
    while 0 <= i < n:
        try:
            obj, end = _DECODER.raw_decode(text, i)
        except ValueError:
            i = text.find("{", i + 1)
            continue
        if isinstance(obj, dict):
            found = obj
        i = text.find("{", end)
    return found


def _bounded(value: object, limit: int) -> str | None:
    if value is None:
        return None
    s = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    s = s.strip()
    return s[:limit] if s else None


def parse_answer(
    text: str | None,
    legal_ids: Sequence[str],
    *,
    finish_reason: str = "stop",
    refusal: str | None = None,
) -> Answer | AnswerFailure:
    """Read one reply. ``finish_reason`` ``length`` turns a reply without a complete legal
    answer into ``truncated``; a refusal (field or finish reason) is ``refusal``."""
    if refusal or finish_reason in ("refusal", "content_filter"):
        return AnswerFailure("refusal", (refusal or f"finish_reason={finish_reason}")[:300])
    cut = finish_reason == "length"
    if text is None or not text.strip():
        if cut:
            return AnswerFailure("truncated", "the reply hit the token limit before any text")
        return AnswerFailure("empty", "the reply was empty")
    obj = last_json_object(text)
    if obj is None:
        if cut:
            return AnswerFailure("truncated", "the reply hit the token limit mid-answer")
        return AnswerFailure("unparsable", "no complete JSON object in the reply")
    move = obj.get("move")
    if not isinstance(move, str):
        if cut:
            return AnswerFailure("truncated", "the reply hit the token limit mid-answer")
        what = 'no "move" field' if "move" not in obj else '"move" is not a string'
        return AnswerFailure("unparsable", f"the JSON object has {what}")
    move = move.strip()
    if move not in legal_ids:
        return AnswerFailure("illegal", f"{move[:80]!r} is not a legal move id now", move[:80])
    return Answer(
        move,
        _bounded(obj.get("reason"), REASON_MAX_CHARS),
        _bounded(obj.get("notes"), NOTES_MAX_CHARS),
    )


def feedback_text(failure: AnswerFailure, legal_ids: Sequence[str], lang: str = "en") -> str:
    """The re-prompt after a failed reply: what was wrong, then the legal ids again (the last
    line is ``Legal move ids: …``, as in every turn prompt)."""
    from bangarena.prompts.render import render_feedback

    return render_feedback(failure.kind, failure.move, legal_ids, lang)
