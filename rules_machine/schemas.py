"""JSON Schemas (Draft 2020-12) generated with pydantic from :mod:`.models`, and the answer
schemas a model seat sends to its provider.

The general schemas (``Move``, ``Decision``, ``SeatView``, ``Event``, ``GameRecord``) carry
``$schema``; the answer schemas are bare, because they are sent to providers as they are: both
are accepted by OpenAI strict structured outputs and as an Anthropic tool ``input_schema``
(every property required, ``additionalProperties: false``, nullable fields as ``anyOf`` with a
``null`` branch, enums of strings, no length bounds).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from pydantic import BaseModel

# pydantic and the models (built at their import, ~0.15 s) load on the first schema asked for, so
# that importing this module for its names costs nothing.

DRAFT_2020_12: Final = "https://json-schema.org/draft/2020-12/schema"

SCHEMA_NAMES: Final[tuple[str, ...]] = (
    "Move",
    "Decision",
    "SeatView",
    "Event",
    "GameRecord",
    "AnswerFixed",
    "AnswerFixedNotes",
)
"""The names :func:`schema` accepts (the constrained answer schema is :func:`answer_schema`)."""

SCHEMA_FILES: Final[dict[str, str]] = {
    "Move": "move.schema.json",
    "Decision": "decision.schema.json",
    "SeatView": "seat-view.schema.json",
    "Event": "event.schema.json",
    "GameRecord": "game-record.schema.json",
    "AnswerFixed": "answer-fixed.schema.json",
    "AnswerFixedNotes": "answer-fixed-notes.schema.json",
}
"""The published file of each schema (under ``rules_machine/published/``)."""

_DESCRIPTIONS: Final[dict[str, str]] = {
    "Move": (
        "One legal move of BangArena, as the engine lists it for a decision "
        "(`dataclasses.asdict(move)`); `kind` selects the shape."
    ),
    "Decision": (
        "The pending decision with its legal moves (`dataclasses.asdict(game.decision)`): "
        "whose it is, its kind, at least two legal moves, and public context "
        "(`source`, `needed`, `card`)."
    ),
    "SeatView": (
        "One seat's information set (`view_to_dict(game.view(seat, since))`), with the events "
        "since `since` as this seat saw them."
    ),
    "Event": (
        "One event as a viewer sees it (`event_dict(event, viewer)`): hidden fields are null "
        "for other viewers; the full form adds `private_to` on private events."
    ),
    "GameRecord": "The engine's game record (`game.omniscient_record()`).",
}

_KEY_ORDER: Final = (
    "$schema",
    "$id",
    "title",
    "description",
    "type",
    "const",
    "enum",
    "pattern",
    "minimum",
    "maximum",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "properties",
    "required",
    "additionalProperties",
    "anyOf",
    "oneOf",
    "discriminator",
    "$ref",
    "$defs",
)
_SUBSCHEMA_MAPS: Final = ("properties", "$defs")
_SUBSCHEMA_LISTS: Final = ("anyOf", "oneOf", "allOf", "prefixItems")


def tidy(node: Any) -> Any:
    """Drop pydantic's titles and defaults and order each schema's keys for reading."""
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("title", "default"):
            continue
        if key in _SUBSCHEMA_MAPS:
            value = {k: tidy(v) for k, v in value.items()}
        elif key in _SUBSCHEMA_LISTS:
            value = [tidy(v) for v in value]
        elif key in ("items", "additionalProperties") and isinstance(value, dict):
            value = tidy(value)
        out[key] = value
    rank = {k: i for i, k in enumerate(_KEY_ORDER)}
    return dict(sorted(out.items(), key=lambda kv: rank.get(kv[0], len(rank))))


def merge_nullable(node: Any) -> Any:
    """``anyOf: [X, {type: null}]`` → X with ``null`` added to its type (and enum), where X is a
    plain typed schema: the same values, read at a glance and checked faster by validators."""
    if isinstance(node, list):
        return [merge_nullable(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: merge_nullable(v) for k, v in node.items()}
    branches = out.get("anyOf")
    if isinstance(branches, list) and len(branches) == 2 and {"type": "null"} in branches:
        other = branches[0] if branches[1] == {"type": "null"} else branches[1]
        if isinstance(other.get("type"), str) and not {"$ref", "anyOf", "oneOf"} & set(other):
            merged = dict(other)
            merged["type"] = [other["type"], "null"]
            if "const" in merged:
                merged["enum"] = [merged.pop("const")]
            if "enum" in merged:
                merged["enum"] = [*merged["enum"], None]
            del out["anyOf"]
            out.update(merged)
    return out


def _generate(tp: Any, nullable_types: bool = True) -> dict[str, Any]:
    from pydantic import TypeAdapter

    raw = TypeAdapter(tp).json_schema(ref_template="#/$defs/{model}")
    return tidy(merge_nullable(raw) if nullable_types else raw)


_TYPES: Final[dict[str, str]] = {
    "Move": "MoveUnion",
    "Decision": "DecisionUnion",
    "SeatView": "SeatViewModel",
    "Event": "EventUnion",
    "GameRecord": "GameRecord",
}
"""The type in :mod:`.models` behind each general schema."""


@cache
def _schema(name: str, expansions: tuple[str, ...] = ()) -> dict[str, Any]:
    if name in ("AnswerFixed", "AnswerFixedNotes"):
        return _answer_base(name == "AnswerFixedNotes")
    from . import models

    source = models if not expansions else models.models_for(expansions)
    body = _generate(getattr(source, _TYPES[name]))
    body.pop("description", None)
    description = _DESCRIPTIONS[name]
    if expansions:
        description += " Games with the expansions: " + ", ".join(expansions) + "."
    head = {"$schema": DRAFT_2020_12, "title": name, "description": description}
    return {**head, **body}


def schema(name: str, expansions: tuple[str, ...] = ()) -> dict[str, Any]:
    """The JSON Schema called ``name`` (one of :data:`SCHEMA_NAMES`) of the base game, or of a
    game with ``expansions``; a fresh copy."""
    if name not in SCHEMA_NAMES:
        raise KeyError(f"unknown schema {name!r}; valid names: {', '.join(SCHEMA_NAMES)}")
    return copy.deepcopy(_schema(name, tuple(expansions)))


@cache
def _answer_base(notes: bool) -> dict[str, Any]:
    from . import models

    model: type[BaseModel] = models.AnswerFixedNotes if notes else models.AnswerFixed
    # Answers keep `anyOf` for nullable fields: Anthropic's schema helper rejects type lists.
    body = _generate(model, nullable_types=False)
    body.pop("description", None)
    return body


def answer_schema(legal_ids: Sequence[str] | None = None, notes: bool = False) -> dict[str, Any]:
    """The JSON Schema of a model's answer: ``reason`` (string or null), then ``notes`` (string
    or null, only with ``notes=True``), then ``move``; all required, no other property.

    Without ``legal_ids`` it is the fixed schema (the same for every decision, so provider
    prompt caches keep working; the harness checks the id). With ``legal_ids`` ``move`` is an
    enum of exactly those ids (the constrained schema of one live decision).
    """
    out = copy.deepcopy(_answer_base(notes))
    if legal_ids is None:
        return out
    if isinstance(legal_ids, str):
        raise TypeError("legal_ids must be a sequence of move ids, not one string")
    ids = list(dict.fromkeys(legal_ids))
    if not ids:
        raise ValueError("a constrained answer schema needs at least one legal id")
    if not all(isinstance(i, str) and i for i in ids):
        raise ValueError("legal ids must be non-empty strings")
    move = out["properties"]["move"]
    move["enum"] = ids
    out["properties"]["move"] = tidy(move)
    return out
