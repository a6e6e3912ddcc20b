"""Model answers: take exactly one JSON object out of a reply, check its move against the legal
list, and classify every failure. A move is never guessed from prose.

The failure classes are the ones evals report apart (transport and timeout come from the call,
the rest from the reply); :func:`feedback_text` tells the model what was wrong and repeats the
legal ids, in the seat's language.

Replies are hostile input: parsing never raises, takes time linear in the reply
(:mod:`.json_scan`), is bounded in size (:data:`MAX_REPLY_CHARS`) and in nesting
(:data:`~.json_scan.MAX_DEPTH`), and nothing it echoes back is longer than a few hundred
characters.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from .json_scan import MAX_DEPTH, last_json_object, scan_json

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
MAX_REPLY_CHARS: Final = 65_536
"""A reply longer than this (64 KiB of text, some 16,000 tokens) is not parsed: ``truncated``
when the provider cut it at the token limit, else ``unparsable``. An answer is a few hundred
characters; the bound keeps one hostile reply from holding the event loop."""
ID_ECHO_MAX_CHARS: Final = 80
"""A move id sent by the model is echoed back (feedback, records) cut to this length."""
REPLY_ECHO_MAX_CHARS: Final = 4_000
"""A failed reply is shown back to the model as its own turn cut to this length."""


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


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def clip_reply(text: str, limit: int = MAX_REPLY_CHARS) -> str:
    """A reply cut to ``limit`` characters for records and echoes, saying how much was cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [{len(text) - limit:,} more characters cut]"


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
    answer into ``truncated``; a refusal (field or finish reason) is ``refusal``. A reply over
    :data:`MAX_REPLY_CHARS` is not read (``truncated`` at the token limit, else
    ``unparsable``). Never raises."""
    if refusal or finish_reason in ("refusal", "content_filter"):
        return AnswerFailure("refusal", clip(refusal or f"finish_reason={finish_reason}", 300))
    cut = finish_reason == "length"
    if text is None or not text.strip():
        if cut:
            return AnswerFailure("truncated", "the reply hit the token limit before any text")
        return AnswerFailure("empty", "the reply was empty")
    if len(text) > MAX_REPLY_CHARS:
        size = f"the reply is {len(text):,} characters, over the {MAX_REPLY_CHARS:,} limit"
        return AnswerFailure("truncated" if cut else "unparsable", size)
    scan = scan_json(text)
    obj = scan.obj
    if obj is None:
        if cut:
            return AnswerFailure("truncated", "the reply hit the token limit mid-answer")
        if scan.too_deep:
            return AnswerFailure("unparsable", f"the JSON is nested deeper than {MAX_DEPTH} levels")
        if scan.gave_up:
            return AnswerFailure("unparsable", "too many broken JSON objects in the reply")
        return AnswerFailure("unparsable", "no complete JSON object in the reply")
    move = obj.get("move")
    if not isinstance(move, str):
        if cut:
            return AnswerFailure("truncated", "the reply hit the token limit mid-answer")
        what = 'no "move" field' if "move" not in obj else '"move" is not a string'
        return AnswerFailure("unparsable", f"the JSON object has {what}")
    move = move.strip()
    if move not in legal_ids:
        return illegal(move)
    return Answer(
        move,
        _bounded(obj.get("reason"), REASON_MAX_CHARS),
        _bounded(obj.get("notes"), NOTES_MAX_CHARS),
    )


def illegal(move: str) -> AnswerFailure:
    """The ``illegal`` failure for an id that is not legal now (the id echoed bounded)."""
    shown = clip(move, ID_ECHO_MAX_CHARS)
    quoted = clip(repr(shown), 2 * ID_ECHO_MAX_CHARS)  # escapes can make the repr long
    return AnswerFailure("illegal", f"{quoted} is not a legal move id now", shown)


def feedback_text(failure: AnswerFailure, legal_ids: Sequence[str], lang: str = "en") -> str:
    """The re-prompt after a failed reply: what was wrong, then the legal ids again (the last
    line is ``Legal move ids: …``, as in every turn prompt). The id echoed is bounded."""
    from bangarena.prompts.render import render_feedback

    move = None if failure.move is None else clip(failure.move, ID_ECHO_MAX_CHARS)
    return render_feedback(failure.kind, move, legal_ids, lang)


__all__ = [
    "FAILURE_KINDS",
    "ID_ECHO_MAX_CHARS",
    "MAX_REPLY_CHARS",
    "NOTES_MAX_CHARS",
    "REPLY_ECHO_MAX_CHARS",
    "REPLY_FAILURES",
    "Answer",
    "AnswerFailure",
    "FailureKind",
    "clip",
    "clip_reply",
    "feedback_text",
    "illegal",
    "last_json_object",
    "parse_answer",
]
