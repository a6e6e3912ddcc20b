"""The decision as an agent outside the process gets it: one JSON object with the seat's view,
the decision's kind and context, the legal moves (id and text), the answer's JSON Schema, the
prompts the harness would give a model, and the time left.

The same payload serves every agent that is not in the process: the seat service's long-poll
(``GET /v1/matches/{id}/decision``), push agents over plain HTTP and A2A. It is built only from
the seat's own view and its pending decision, so it cannot carry what the seat may not know.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final, Literal, cast, get_args

import orjson
from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import to_json

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


PromptPart = Literal["full", "turn", "none"]
"""Which of our prompts a payload carries: both (``full``, the default), the ``turn`` prompt
alone (the system prompt is fixed for the match: an agent keeps it from its first poll), or
``none`` (an agent with prompts of its own; the turn prompt is then not even rendered)."""
PROMPT_PARTS: Final = cast(tuple[PromptPart, ...], get_args(PromptPart))


class PromptPair(BaseModel):
    """The prompts the harness would send a model for this decision (for agents that want ours):
    ``system`` is fixed for the whole match (null when the poll asked for the ``turn`` prompt
    alone), ``turn`` is this decision's."""

    model_config = ConfigDict(extra="forbid")

    system: str | None
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
    prompt: PromptPair | None
    """Our prompts; null when the poll asked for none (``prompt=none``)."""
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


def plain_json(data: dict[str, Any]) -> bytes:
    """``to_json(data)`` for plain data (dicts, lists, strings, numbers): the same bytes, by
    orjson, ~4× faster on a payload's view and moves, the largest serialisation of a remote
    decision (tests/test_service_fast_path.py checks the poll's bytes against the model's JSON
    in base and expansion games); what orjson does not take (a set, an int beyond 64 bits, a
    key that is not a string) goes to ``to_json``. (orjson's ``OPT_NON_STR_KEYS`` would take
    int keys, but it halves orjson's speed on every dict, and the engine's dicts have none.)"""
    try:
        return orjson.dumps(data)
    except TypeError:
        return to_json(data)


@dataclass(slots=True, eq=False)
class PreparedPayload:
    """One decision's payload, made once (:meth:`DecisionPrompter.prepare`): its JSON without
    ``deadline_s`` (what a poll sends, with the time left put in front), and the
    :class:`DecisionPayload` model on demand (built then: most decisions are only polled).
    The turn prompt is rendered at its first use (:meth:`turn_prompt`), so a decision nobody
    asks our prompts for never renders one.
    Read-only: the view's parts and the schema are shared with the game and other decisions."""

    match_id: str
    decision_id: int
    view: SeatView
    decision: Decision
    moves: list[dict[str, str]]
    view_dict: dict[str, Any]
    """The view as :func:`view_to_dict` makes it, but sharing the view's own lists (no copy)."""
    schema: dict[str, Any]
    prompter: DecisionPrompter
    lang: str
    turn: str | None = None
    """The turn prompt once rendered (:meth:`turn_prompt`)."""
    head: bytes = b""
    """The JSON of the fields before ``prompt``, without its closing brace (made at the first
    :meth:`json`)."""
    bodies: dict[str, bytes] = field(default_factory=dict)
    """Per prompt part, the JSON of every field but ``deadline_s`` (made at first use)."""

    @property
    def system(self) -> str:
        """The seat's system prompt (the same for the whole match)."""
        return self.prompter.system_prompt()

    def turn_prompt(self) -> str:
        """The turn prompt, rendered at the first call (:meth:`DecisionPrompter.render`)."""
        if self.turn is None:
            self.turn = self.prompter.render(self)
        return self.turn

    def json(self, deadline_s: float, prompt: PromptPart = "full") -> bytes:
        """The payload's JSON with ``deadline_s`` first: the bytes of
        ``model(deadline_s, prompt).model_dump_json(by_alias=True)`` with that key moved to the
        front, the rest serialised once per decision and prompt part."""
        body = self.bodies.get(prompt)
        if body is None:
            body = self.bodies[prompt] = self._body(prompt)
        # joined from a view of the body: one copy of its ~13 KB, not two
        deadline = repr(float(round(deadline_s, 3))).encode()
        return b"".join((b'{"deadline_s":', deadline, b",", memoryview(body)[1:]))

    def _body(self, prompt: PromptPart) -> bytes:
        if not self.head:
            d = self.decision
            self.head = plain_json({
                "match_id": self.match_id, "decision_id": self.decision_id, "seat": d.seat,
                "kind": d.kind, "source": d.source, "needed": d.needed, "card": d.card,
                "moves": self.moves, "view": self.view_dict, "schema": self.schema,
            })[:-1]  # fmt: skip
        if prompt == "none":
            parts: tuple[bytes, ...] = (b',"prompt":null',)
        else:
            # The system prompt (~9 KB, fixed for the match) is serialised once per seat.
            system = self.prompter.system_json() if prompt == "full" else b"null"
            turn = to_json(self.turn_prompt())
            parts = (b',"prompt":{"system":', system, b',"turn":', turn, b"}")
        return b"".join((self.head, *parts, b',"lang":', to_json(self.lang), b"}"))

    def model(self, deadline_s: float, prompt: PromptPart = "full") -> DecisionPayload:
        """The payload as a model, with ``deadline_s`` (a fresh copy of the view's data)."""
        d = self.decision
        # Built without validation (``model_construct``): every field comes from the engine's
        # view and decision in the declared shapes (tests/test_service_fast_path.py checks that
        # a validated copy is equal, and that the JSON is the model's).
        option = MoveOption.model_construct
        pair = None
        if prompt != "none":
            system = self.system if prompt == "full" else None
            pair = PromptPair.model_construct(system=system, turn=self.turn_prompt())
        return DecisionPayload.model_construct(
            match_id=self.match_id,
            decision_id=self.decision_id,
            seat=d.seat,
            kind=d.kind,
            source=d.source,
            needed=d.needed,
            card=d.card,
            moves=[option(id=m["id"], text=m["text"]) for m in self.moves],
            view=view_to_dict(self.view),
            answer_schema=self.schema,
            prompt=pair,
            deadline_s=round(max(0.0, deadline_s), 3),
            lang=self.lang,
        )


class DecisionPrompter:
    """Builds one seat's payloads in order. It keeps the seat's prompt memory (the events seen
    at earlier decisions), so call :meth:`payload` or :meth:`prepare` exactly once per decision
    of the seat.

    Turn prompts are rendered lazily: a decision's events wait in :attr:`unseen` until a later
    turn prompt is rendered, and are then fed to the memory in order, so a rendered prompt is
    the same text whether or not the earlier ones were rendered (tests/test_service_fast_path.py).
    Only the latest decision's prompt can still be rendered."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self.memory = PromptMemory()
        self._first: SeatView | None = None
        """The view of the seat's first decision: its system prompt is rendered from it, at
        the first use (an agent with prompts of its own never asks for it)."""
        self._system: str | None = None
        self._system_json = b""
        self._players: dict[int, tuple[Any, dict[str, Any]]] = {}
        self.unseen: list[list[dict[str, Any]]] = []
        """The events of earlier decisions whose turn prompt was never rendered, in order (the
        engine's shared event dicts: a list of references per decision)."""
        self.latest: PreparedPayload | None = None
        self._closed = False
        warm_prompts(lang)  # the process's first payload would pay ~70 ms on the seat's clock

    def prepare(
        self, match_id: str, decision_id: int, view: SeatView, decision: Decision
    ) -> PreparedPayload:
        """The payload of ``decision`` for ``view.seat`` (``view.events``: the events since the
        seat's previous decision): the move texts and the view now, the turn prompt and the JSON at
        their first use."""
        if view.seat is None or view.seat != decision.seat:
            raise ValueError("a decision payload is built from the deciding seat's own view")
        if self._closed:
            raise RuntimeError("the prompter was closed: its seat has no decision to come")
        if self._first is None:
            self._first = view
        previous = self.latest
        if previous is not None and previous.turn is None:
            self.unseen.append(previous.view.events)
        cat = catalog(self.lang)
        texts = [move_text(m, view, cat) for m in decision.moves]
        self.latest = PreparedPayload(
            match_id=match_id,
            decision_id=decision_id,
            view=view,
            decision=decision,
            moves=[{"id": m.id, "text": t} for m, t in zip(decision.moves, texts, strict=True)],
            view_dict=view_to_dict(view, copy=False, players=self._players),
            schema=constrained_schema(decision.ids),
            prompter=self,
            lang=self.lang,
        )
        return self.latest

    def close(self) -> None:
        """Let the memory, the views, the prompts and the latest payload go: the seat has no
        decision to come and its record is made (it names the system prompt given).
        :meth:`prepare` refuses from then on."""
        self.memory = PromptMemory()
        self._first = None
        self._system, self._system_json = None, b""
        self._players = {}
        self.unseen = []
        self.latest = None
        self._closed = True

    @property
    def system(self) -> str | None:
        """The seat's system prompt (None before its first decision)."""
        return None if self._first is None else self.system_prompt()

    @property
    def system_given(self) -> str | None:
        """The system prompt if it was rendered (a payload with it was made), else None."""
        return self._system

    def system_prompt(self) -> str:
        """The seat's system prompt, rendered from its first decision's view at the first call."""
        if self._system is None:
            if self._first is None:
                raise RuntimeError("the system prompt is rendered from the seat's first view")
            self._system = render_system(self._first, self.lang)
        return self._system

    def system_json(self) -> bytes:
        """:meth:`system_prompt` as a JSON string (made once: ~9 KB)."""
        if not self._system_json:
            self._system_json = to_json(self.system_prompt())
        return self._system_json

    def render(self, prepared: PreparedPayload) -> str:
        """The turn prompt of ``prepared``, the latest decision prepared (the memory first takes
        the events of the earlier decisions nobody rendered a prompt for)."""
        if prepared.turn is not None:
            return prepared.turn
        if prepared is not self.latest:
            raise RuntimeError(
                f"decision {prepared.decision_id}'s turn prompt was not rendered while it was "
                "the seat's latest; the prompt memory has moved past it"
            )
        cat = catalog(self.lang)
        for events in self.unseen:
            self.memory.observe(events, cat)
        self.unseen.clear()
        texts = [m["text"] for m in prepared.moves]
        return render_turn(
            prepared.view, prepared.decision, self.memory, self.lang, move_texts=texts
        )

    def payload(
        self,
        match_id: str,
        decision_id: int,
        view: SeatView,
        decision: Decision,
        deadline_s: float,
    ) -> DecisionPayload:
        """The payload of ``decision`` for ``view.seat`` as a model (see :meth:`prepare`)."""
        return self.prepare(match_id, decision_id, view, decision).model(deadline_s)
