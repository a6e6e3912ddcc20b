"""Pydantic mirrors of the engine's dataclasses, refined with the engine's own data.

Each model is built from a dataclass's field list and type hints (``dataclasses.fields`` and
``typing.get_type_hints``), in the same order, with every field required and no extra field
allowed (``dataclasses.asdict`` and ``event_dict`` always emit every field). Where the engine's
type is broader than its values, the field is narrowed with engine data: card kinds, seats,
modes, roles, characters, upgrades, the id pattern of each move kind. A field the engine adds or
renames changes the models (and the published schemas) with it; an override naming a field the
dataclass no longer has raises at import.
"""

from __future__ import annotations

import dataclasses
import typing
from functools import cache
from types import SimpleNamespace
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, create_model

from bangarena.engine import texts
from bangarena.engine.cards import AD_KIND_IDS, KIND_IDS
from bangarena.engine.characters import AD_CHARACTER_IDS, CHARACTER_IDS
from bangarena.engine.config import GameConfig
from bangarena.engine.events import AD_EVENT_TYPES, EVENT_TYPES, Event, event_fields
from bangarena.engine.moves import (
    ALL_DECISION_KINDS,
    ALL_MOVE_KINDS,
    DECISION_KINDS,
    MOVE_KINDS,
    Decision,
    Move,
)
from bangarena.engine.roles import DRAW, MAX_SEATS, MIN_SEATS, MODES, ROLES, TEAMS, UPGRADES
from bangarena.engine.views import DecisionInfo, PlayerView, SeatView

from .ids import decision_moves, move_id_patterns, move_kind_regex, pattern_regex

_FORBID = ConfigDict(extra="forbid")

Seat = Annotated[int, Field(ge=0, le=MAX_SEATS - 1)]
NonNegative = Annotated[int, Field(ge=0)]
Positive = Annotated[int, Field(ge=1)]
SeatCount = Annotated[int, Field(ge=MIN_SEATS, le=MAX_SEATS)]
CardKind = Literal[KIND_IDS]  # type: ignore[valid-type]
CardId = Annotated[str, Field(pattern=pattern_regex("<card_id>"))]
ModeId = Literal[MODES]  # type: ignore[valid-type]
RoleId = Literal[ROLES]  # type: ignore[valid-type]
CharacterId = Literal[CHARACTER_IDS]  # type: ignore[valid-type]
UpgradeId = Literal[UPGRADES]  # type: ignore[valid-type]
WinningTeam = Literal[TEAMS + (DRAW,)]  # type: ignore[valid-type]
DecisionKind = Literal[DECISION_KINDS]  # type: ignore[valid-type]


def camel(snake: str) -> str:
    """``answer_shot`` → ``AnswerShot``."""
    return "".join(w.capitalize() for w in snake.split("_"))


def _doc(cls: type) -> str | None:
    """A dataclass's own docstring as one line (None for the generated signature)."""
    doc = cls.__doc__
    if not doc or doc.startswith(cls.__name__ + "("):
        return None
    return " ".join(doc.replace("``", "`").split())


def mirror(
    cls: type,
    name: str,
    overrides: dict[str, Any] | None = None,
    *,
    doc: str | None = None,
    first: dict[str, Any] | None = None,
    skip: tuple[str, ...] = (),
    optional: dict[str, Any] | None = None,
) -> type[BaseModel]:
    """A pydantic model with the fields of dataclass ``cls`` (``first`` before them, ``skip``
    left out, ``optional`` after them and not required), types from ``overrides`` or the
    dataclass's own hints."""
    overrides = overrides or {}
    names = [f.name for f in dataclasses.fields(cls)]
    unknown = set(overrides) - set(names)
    if unknown:
        raise ValueError(f"{cls.__name__} has no field(s) {sorted(unknown)}")
    hints = typing.get_type_hints(cls)
    fields: dict[str, Any] = {k: (v, ...) for k, v in (first or {}).items()}
    for n in names:
        if n in skip:
            continue
        if n not in overrides and n not in hints:
            # The compiled build's extension types (views.pxd, moves.pxd) keep no annotations
            raise TypeError(f"{cls.__name__}.{n} has no type hint here: name its type in overrides")
        fields[n] = (overrides[n] if n in overrides else hints[n], ...)
    for k, v in (optional or {}).items():
        fields[k] = (v, None)
    return create_model(name, __config__=_FORBID, __doc__=doc or _doc(cls), **fields)


def build(expansions: tuple[str, ...] = ()) -> SimpleNamespace:
    """The models of a game with ``expansions`` (the base game's for ``()``): moves, decisions,
    events, views and the config, each narrowed with that game's kinds and ids."""
    ad = bool(expansions)
    KIND_IDS_ = KIND_IDS + AD_KIND_IDS if ad else KIND_IDS
    CardKind = Literal[KIND_IDS_]  # type: ignore[valid-type]
    CardId = Annotated[str, Field(pattern=pattern_regex("<card_id>", expansions))]
    CharacterId = Literal[CHARACTER_IDS + AD_CHARACTER_IDS if ad else CHARACTER_IDS]  # type: ignore[valid-type]
    DECISION_KINDS_ = ALL_DECISION_KINDS if ad else DECISION_KINDS
    DecisionKind = Literal[DECISION_KINDS_]  # type: ignore[valid-type]
    MOVE_KINDS_ = ALL_MOVE_KINDS if ad else MOVE_KINDS
    MOVE_ID_PATTERNS_ = move_id_patterns(expansions)
    DECISION_MOVES_ = decision_moves(expansions)
    EVENT_TYPES_ = EVENT_TYPES + AD_EVENT_TYPES if ad else EVENT_TYPES
    move_texts = texts.merged("move_kinds", expansions)
    decision_texts = texts.merged("decision_kinds", expansions)
    decision_help = texts.merged("decision_help", expansions)

    # -- moves -------------------------------------------------------------------------------------
    _NULL: Any = None
    _MOVE_SHAPES: dict[str, dict[str, Any]] = {
        "end_turn": {},
        "play": {"card": CardKind, "target": Seat | None},
        "play_as": {"card": Literal["ricochet"], "target": Seat, "option": Literal["shot"]},
        "answer": {
            "card": Literal["ricochet", "shot", "canteen"],
            "option": Literal["ricochet", "shot"] | None,
        },
        "take_hit": {},
        "heal": {},
        "discard": {"card": CardKind},
        "draw": {"target": Seat | None, "option": Literal["deck", "discard", "grip"]},
        "return": {"card": CardId},
        "pick": {"card": CardKind | None, "option": Literal["hand", "in_play"]},
        "upgrade": {"option": UpgradeId},
        "bounty": {"option": Literal[UPGRADES + ("none",)]},  # type: ignore[misc]
    }
    if ad:
        _MOVE_SHAPES["answer"] = {
            "card": Literal["ricochet", "shot", "canteen", "duck"],
            "option": Literal["ricochet", "shot"] | None,
        }
        _MOVE_SHAPES |= {
            "pass": {},
            "use": {"card": str, "target": Seat | None},
            "pay": {"card": str},
            "load": {"card": str},
            "take": {"card": str, "target": Seat},
            "give": {"target": Seat},
        }
    """The value types of each move kind's fields (a field not listed is always null)."""

    def _move_model(kind: str) -> type[BaseModel]:
        shape = _MOVE_SHAPES[kind]
        overrides: dict[str, Any] = {
            "id": Annotated[str, Field(pattern=move_kind_regex(kind, expansions))],
            "kind": Literal[kind],
        }
        for f in dataclasses.fields(Move):
            if f.name not in overrides:
                overrides[f.name] = shape.get(f.name, _NULL)
        doc = f"Move kind `{kind}`, ids {MOVE_ID_PATTERNS_[kind]}: {move_texts[kind].en}"
        return mirror(Move, "Move" + camel(kind), overrides, doc=doc)

    MOVE_MODELS: dict[str, type[BaseModel]] = {k: _move_model(k) for k in MOVE_KINDS_}

    def _union(models: list[type[BaseModel]], discriminator: str = "kind") -> Any:
        if len(models) == 1:
            return models[0]
        return Annotated[Union[tuple(models)], Field(discriminator=discriminator)]  # noqa: UP007

    MoveUnion = _union(list(MOVE_MODELS.values()))

    # -- decisions ---------------------------------------------------------------------------------
    _CONTEXT_TYPES: dict[str, dict[str, Any]] = {
        "answer_shot": {
            "source": Seat,
            "needed": Annotated[int, Field(ge=1, le=2)],
            "card": Literal["shot", "buckshot"],
        },
        "answer_raid": {"source": Seat, "card": Literal["raid"]},
        "answer_duel": {"source": Seat, "card": Literal["duel"]},
        "brace": {"needed": Positive, "card": str},
        "pick_card": {"source": Seat, "card": Literal["snatch", "knock_off"]},
        "bounty_pick": {"source": Seat},
    }
    if ad:
        _CONTEXT_TYPES |= {
            "answer_shot": {
                "source": Seat,
                "needed": Annotated[int, Field(ge=1, le=3)],
                "card": Literal[
                    "shot", "buckshot", "quick_shot", "flintlock", "mexicali_kid", "julie_cutter"
                ],
            },
            "answer_raid": {"source": Seat, "card": Literal["raid", "arrow"]},
            "pick_card": {
                "source": Seat,
                "card": Literal["snatch", "knock_off", "whip", "squaw", "squaw_take"],
            },
            "optional_effect": {"source": Seat | None, "card": str},
            "pay_token": {"needed": Positive, "card": str},
            "load_token": {"needed": Positive, "card": str},
            "discard_card": {"card": str},
            "take_token": {"card": Literal["frankie_canton"]},
            "pass_bomb": {"card": Literal["bomb"]},
        }
    """Decision kinds whose context fields are set, and their types (others are null)."""

    def _decision_model(kind: str) -> type[BaseModel]:
        allowed = [
            MOVE_MODELS[k] for k in MOVE_KINDS_ if any(k == m for m, _ in DECISION_MOVES_[kind])
        ]
        ctx = _CONTEXT_TYPES.get(kind, {})
        overrides: dict[str, Any] = {
            "seat": Seat,
            "kind": Literal[kind],
            # A decision with a single legal move is never asked: the engine applies it itself.
            "moves": Annotated[list[_union(allowed)], Field(min_length=2)],  # type: ignore[misc]
            "source": ctx.get("source", _NULL),
            "needed": ctx.get("needed", _NULL),
            "card": ctx.get("card", _NULL),
        }
        doc = f"Decision kind `{kind}` ({decision_texts[kind].en}): {decision_help[kind].en}"
        return mirror(Decision, "Decision" + camel(kind), overrides, doc=doc)

    DECISION_MODELS: dict[str, type[BaseModel]] = {k: _decision_model(k) for k in DECISION_KINDS_}
    DecisionUnion = _union(list(DECISION_MODELS.values()))

    # -- events ------------------------------------------------------------------------------------
    _SEAT_FIELDS = frozenset(
        {
            "seat",
            "sheriff",
            "viewer",
            "victim",
            "owner",
            "to",
            "killer",
            "source",
            "target",
            "against",
        }
    )
    _SEAT_LIST_FIELDS = frozenset({"winners", "seats"})

    def _event_field_type(name: str, hint: Any) -> Any:
        if name == "move_kind" and hint is str:
            return Literal[MOVE_KINDS_]  # type: ignore[valid-type]
        if name in _SEAT_FIELDS:
            if hint is int:
                return Seat
            if hint == (int | None):
                return Seat | None
        if name in _SEAT_LIST_FIELDS:
            if hint == list[int]:
                return list[Seat]
            if hint == (list[int] | None):
                return list[Seat] | None
        return hint

    def _event_model(cls: type[Event]) -> type[BaseModel]:
        """``kind``, then the payload fields the engine renders (``event_fields``), then the
        optional ``private_to`` of the full form."""
        hints = typing.get_type_hints(cls)
        hidden = ", ".join(f"`{h}`" for h in cls.HIDDEN)
        doc = _doc(cls) or f"The `{cls.KIND}` event."
        if hidden:
            doc += f" Hidden from other viewers (null in their form): {hidden}."
        fields: dict[str, Any] = {"kind": (Literal[cls.KIND], ...)}
        for n in event_fields(cls):
            fields[n] = (_event_field_type(n, hints[n]), ...)
        fields["private_to"] = (list[Seat], None)
        return create_model("Event" + camel(cls.KIND), __config__=_FORBID, __doc__=doc, **fields)

    EVENT_MODELS: dict[str, type[BaseModel]] = {c.KIND: _event_model(c) for c in EVENT_TYPES_}
    EventUnion = _union(list(EVENT_MODELS.values()))

    # -- views -------------------------------------------------------------------------------------
    PlayerViewModel = mirror(
        PlayerView,
        "PlayerView",
        {
            "seat": Seat,
            "character": CharacterId,
            "life": NonNegative,
            "max_life": Positive,
            "hand_size": NonNegative,
            "distance": Positive | None,
            "in_play": list[CardId],
            "weapon": CardId | None,
            "stars": list[UpgradeId | None],
            "role": RoleId | None,
            # Every field named: the compiled build's PlayerView (an extension type) keeps no
            # annotations to read the rest from
            "alive": bool,
            "revealed": bool,
            "tokens": int | None,
            "loads": dict[str, int] | None,
        },
        skip=() if ad else ("tokens", "loads"),  # Armed & Dangerous only
    )
    DecisionInfoModel = mirror(
        DecisionInfo,
        "DecisionInfo",
        {
            "seat": Seat,
            "kind": DecisionKind,
            "source": Seat | None,
            "needed": Positive | None,
            "card": str | None,  # every field named, as for PlayerView (an extension type)
        },
    )
    SeatViewModel = mirror(
        SeatView,
        "SeatView",
        {
            "seat": Seat | None,
            "mode": ModeId,
            "seats": SeatCount,
            "role": RoleId | None,
            "hand": list[CardId],
            "named_deputies": list[Seat],
            "players": list[PlayerViewModel],  # type: ignore[valid-type]
            "turn": Seat,
            "decision": DecisionInfoModel | None,  # type: ignore[valid-type]
            "round": NonNegative,
            "deck_size": NonNegative,
            "discard_size": NonNegative,
            "discard_top": CardId | None,
            "winning_team": WinningTeam | None,
            "winners": list[Seat],
            "events": list[EventUnion],  # type: ignore[valid-type]
            "since": NonNegative,
            "cursor": NonNegative,
            "high_noon": bool,  # every field named, as for PlayerView (an extension type)
            "over": bool,
            "supply": int | None,
            "expansions": list[str] | None,
        },
        skip=() if ad else ("supply", "expansions"),  # Armed & Dangerous only
    )

    # -- game records ------------------------------------------------------------------------------
    GameConfigModel = mirror(
        GameConfig,
        "GameConfig",
        {"seats": SeatCount, "mode": ModeId, "max_rounds": Positive},
        skip=() if ad else ("expansions",),  # present only in games with an expansion
        doc="`max_rounds` is the declared cap on game length: a game still running after the"
        " sheriff's `max_rounds`-th turn ends as a draw (rules.md §11).",
    )

    return SimpleNamespace(**{k: v for k, v in locals().items() if k[0].isupper()})


_BASE = build(())
MOVE_MODELS = _BASE.MOVE_MODELS
MoveUnion = _BASE.MoveUnion
DECISION_MODELS = _BASE.DECISION_MODELS
DecisionUnion = _BASE.DecisionUnion
EVENT_MODELS = _BASE.EVENT_MODELS
EventUnion = _BASE.EventUnion
PlayerViewModel = _BASE.PlayerViewModel
DecisionInfoModel = _BASE.DecisionInfoModel
SeatViewModel = _BASE.SeatViewModel
GameConfigModel = _BASE.GameConfigModel


class GameResult(BaseModel):
    """How a game ended (``Game.result()``): the winning team (``draw`` at the round cap), the
    winning seats, why, the rounds played, every seat's role, and the counts of decisions asked
    and of forced moves the engine applied itself."""

    model_config = _FORBID

    winning_team: WinningTeam  # type: ignore[valid-type]
    winners: list[Seat]
    reason: str
    rounds: NonNegative
    roles: list[RoleId]  # type: ignore[valid-type]
    decisions: NonNegative
    forced: NonNegative


class GameRecord(BaseModel):
    """The engine's game record (``Game.omniscient_record()``): the versions, the config, the seed, the
    moves players chose (``[seat, move id]``; forced moves are replayed by the engine), every
    event in full form (``private_to`` on private ones) and the result (null while running)."""

    model_config = _FORBID

    rules_version: Annotated[str, Field(pattern="^[0-9a-f]{16}$")]
    engine_version: Annotated[str, Field(pattern=r"^[0-9]+\.[0-9]+\.[0-9]+$")]
    config: GameConfigModel  # type: ignore[valid-type]
    seed: int
    moves: list[tuple[Seat, str]]
    events: list[EventUnion]  # type: ignore[valid-type]
    result: GameResult | None


# -- answers -----------------------------------------------------------------------------------
REASON_DESCRIPTION = "Why you choose this move, in a sentence or two; null to give no reason."
NOTES_DESCRIPTION = (
    "Private notes you keep for your next decisions (they replace your previous notes); "
    "null to keep none."
)
MOVE_DESCRIPTION = "The id of your move: exactly one of the legal move ids of this decision."


class AnswerFixed(BaseModel):
    """A model's answer to any decision: the reason first, then the move id (checked against
    the legal ids by the harness)."""

    model_config = _FORBID

    reason: str | None = Field(description=REASON_DESCRIPTION)
    move: str = Field(description=MOVE_DESCRIPTION)


class AnswerFixedNotes(BaseModel):
    """A model's answer with private notes: reason, notes, then the move id."""

    model_config = _FORBID

    reason: str | None = Field(description=REASON_DESCRIPTION)
    notes: str | None = Field(description=NOTES_DESCRIPTION)
    move: str = Field(description=MOVE_DESCRIPTION)


@cache
def models_for(expansions: tuple[str, ...] = ()) -> SimpleNamespace:
    """The models of a game with ``expansions`` (cached), the game record's included."""
    if not expansions:
        ns = _BASE
        ns.GameRecord = GameRecord
        return ns
    ns = build(expansions)

    class GameRecordAD(GameRecord):
        __doc__ = GameRecord.__doc__
        config: ns.GameConfigModel  # type: ignore[name-defined]
        events: list[ns.EventUnion]  # type: ignore[name-defined]

    GameRecordAD.__name__ = "GameRecord"
    ns.GameRecord = GameRecordAD
    return ns
