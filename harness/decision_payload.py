"""The decision as an agent outside the process gets it: one JSON object with the seat's view,
the decision's kind and context, the legal moves (id and text), the answer's JSON Schema, the
prompts the harness would give a model, and the time left.

The same payload serves every agent that is not in the process: the seat service's long-poll
(``GET /v1/matches/{id}/decision``), push agents over plain HTTP and A2A. It is built only from
the seat's own view and its pending decision, so it cannot carry what the seat may not know.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bangarena.engine import Decision, SeatView
from bangarena.engine.views import view_to_dict
from bangarena.prompts.catalog import catalog
from bangarena.prompts.memory import PromptMemory
from bangarena.prompts.render import move_text, render_system, render_turn
from bangarena.prompts.warm import warm_prompts


class MoveOption(BaseModel):
    """One legal move: its id (what the agent answers) and its text in the table's language."""

    model_config = ConfigDict(extra="forbid")

    id: str
    text: str


class PromptPair(BaseModel):
    """The prompts the harness would send a model for this decision (for agents that want ours):
    ``system`` is fixed for the whole match, ``turn`` is this decision's."""

    model_config = ConfigDict(extra="forbid")

    system: str
    turn: str


class DecisionPayload(BaseModel):
    """One pending decision of one seat. ``decision_id`` is the decision's index in the match
    record (and the engine's move history): an answer names it, so a late answer to an old
    decision is told apart from an answer to the current one."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    match_id: str
    decision_id: int = Field(ge=0)
    seat: int = Field(ge=0)
    kind: str
    source: int | None = None
    needed: int | None = None
    card: str | None = None
    moves: list[MoveOption]
    view: dict[str, Any]
    answer_schema: dict[str, Any] = Field(alias="schema", serialization_alias="schema")
    prompt: PromptPair
    deadline_s: float
    lang: str = "en"


class MoveAnswer(BaseModel):
    """An agent's answer to a decision: the decision it answers and the id of its move. Strict:
    ``true`` is not decision 1, ``"3"`` is not decision 3."""

    model_config = ConfigDict(extra="forbid", strict=True)

    decision_id: int = Field(ge=0)
    move_id: str = Field(min_length=1, max_length=200)


@cache
def _schema_parts(notes: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """The constrained answer schema with a placeholder enum, and its ``move`` property: the
    parts :func:`constrained_schema` copies (the schema differs between decisions only in the
    enum of legal ids)."""
    from bangarena.rules_machine.schemas import answer_schema

    whole = answer_schema(["\0"], notes=notes)
    return whole, whole["properties"]["move"]


def constrained_schema(legal_ids: Sequence[str], notes: bool = False) -> dict[str, Any]:
    """``answer_schema(legal_ids, notes)`` (equal to it, key order included) without its deep
    copy of the whole schema and its re-tidying: only the dicts on the path to ``move.enum``
    are new, the rest is shared with every other decision's schema, so treat it as read-only.
    """
    ids = list(dict.fromkeys(legal_ids))
    if not ids or not all(type(i) is str and i for i in ids):
        raise ValueError("a constrained answer schema needs non-empty string ids")
    whole, move = _schema_parts(notes)
    out = dict(whole)
    out["properties"] = {**whole["properties"], "move": {**move, "enum": ids}}
    return out


class DecisionPrompter:
    """Builds one seat's payloads in order. It keeps the seat's prompt memory (the events seen
    at earlier decisions), so call :meth:`payload` exactly once per decision of the seat."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self.memory = PromptMemory()
        self.system: str | None = None
        warm_prompts(lang)  # the process's first payload would pay ~70 ms on the seat's clock

    def payload(
        self,
        match_id: str,
        decision_id: int,
        view: SeatView,
        decision: Decision,
        deadline_s: float,
    ) -> DecisionPayload:
        """The payload of ``decision`` for ``view.seat`` (``view.events``: the events since the
        seat's previous decision)."""
        if view.seat is None or view.seat != decision.seat:
            raise ValueError("a decision payload is built from the deciding seat's own view")
        if self.system is None:
            self.system = render_system(view, self.lang)
        cat = catalog(self.lang)
        turn = render_turn(view, decision, self.memory, self.lang)
        # Built without validation (``model_construct``): every field comes from the engine's
        # view and decision in the declared shapes (tests/test_service_fast_path.py checks that
        # a validated copy is equal), and validating them again is pure cost, once per decision.
        option, pair = MoveOption.model_construct, PromptPair.model_construct
        return DecisionPayload.model_construct(
            match_id=match_id,
            decision_id=decision_id,
            seat=decision.seat,
            kind=decision.kind,
            source=decision.source,
            needed=decision.needed,
            card=decision.card,
            moves=[option(id=m.id, text=move_text(m, view, cat)) for m in decision.moves],
            view=view_to_dict(view),
            answer_schema=constrained_schema(decision.ids),
            prompt=pair(system=self.system, turn=turn),
            deadline_s=round(max(0.0, deadline_s), 3),
            lang=self.lang,
        )
