"""Everything that happens in a game, as one tagged union of small event records.

An event has a public form and, when it carries something hidden (the cards of a draw, the card
taken from a hand), a private form for the seats in ``private_to``. :func:`event_dict` renders the
form a given viewer may see; the log itself always holds the full events.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .moves import SECRET_MOVE_KINDS, Move
from .roles import MAX_SEATS


@dataclass(slots=True, kw_only=True)
class Event:
    """Base of every event. ``private_to`` is None for a fully public event."""

    KIND: ClassVar[str] = ""
    HIDDEN: ClassVar[tuple[str, ...]] = ()
    EXPANSION: ClassVar[str] = ""  # the expansion whose games have this event ("" for all)
    private_to: list[int] | None = None
    # The rendered [public, private] forms, built once: a logged event never changes.
    forms: list[dict[str, Any] | None] | None = field(default=None, compare=False, repr=False)

    if TYPE_CHECKING:

        @classmethod
        def make(cls: type[E], **fields: Any) -> E:
            """The event ``cls(**fields)`` makes, made faster (``_maker`` below)."""


E = TypeVar("E", bound=Event)


def _event(kind: str, hidden: tuple[str, ...] = (), expansion: str = ""):
    def wrap(cls):
        cls.KIND = kind
        cls.HIDDEN = hidden
        cls.EXPANSION = expansion
        made = dataclass(slots=True, kw_only=True)(cls)
        made.make = staticmethod(_maker(made))
        return made

    return wrap


def _maker(cls: type[Event]) -> Callable[..., Event]:
    """``cls.make``: a function that takes the fields as ``cls(...)`` does (keywords only, the
    same defaults) and gives the same event, the slots set on a bare instance.

    The engine makes two or three events per decision. Calling a class with keywords goes
    through the type's generic call (a dict of the keywords, then the dataclass's ``__init__``);
    a function takes them as they are passed: 0.5 µs an event instead of 1.3 (6 % of a
    random-legal decision's instructions, 8 % compiled), generated once per class at import,
    like the renderers below."""
    params, sets = [], []
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    for f in fields(cls):
        if f.default is not MISSING:
            namespace[f"_d_{f.name}"] = f.default
            params.append(f"{f.name}=_d_{f.name}")
        elif f.default_factory is not MISSING:  # pragma: no cover - no event has one today
            namespace[f"_f_{f.name}"] = f.default_factory
            params.append(f"{f.name}=new")  # ``new``: the marker of "not given"
            sets.append(f"    if {f.name} is new:\n        {f.name} = _f_{f.name}()")
        else:
            params.append(f.name)
        sets.append(f"    e.{f.name} = {f.name}")
    src = (
        f"def make(*, {', '.join(params)}):\n    e = new(cls)\n"
        + "\n".join(sets)
        + "\n    return e\n"
    )
    exec(src, namespace)  # noqa: S102 - code built from the class's own field names
    return namespace["make"]


@_event("game_started")
class GameStarted(Event):
    """The deal: seats, mode, characters and the public sheriff."""

    mode: str
    seats: int
    sheriff: int
    characters: list[str]
    life: list[int]
    roles_at_table: list[str]


@_event("role_dealt", hidden=("role",))
class RoleDealt(Event):
    """A seat learns its role (private to that seat)."""

    seat: int
    role: str | None


@_event("role_known", hidden=("role",))
class RoleKnown(Event):
    """double_agent: ``viewer`` learns the role of ``seat`` (private to viewer)."""

    viewer: int
    seat: int
    role: str | None


@_event("deputies_named", hidden=("seats",))
class DeputiesNamed(Event):
    """double_agent: the sheriff is told two seats, one deputy and the agent (random order)."""

    sheriff: int
    seats: list[int] | None


@_event("turn_started")
class TurnStarted(Event):
    seat: int
    round: int
    high_noon: bool


@_event("high_noon")
class HighNoon(Event):
    """From this round on: no Shot limit, no Cover, no healing."""

    round: int


@_event("check")
class Check(Event):
    """A check for ``seat``: a flip of the deck's top card (jail, dynamite, old_classic cover)
    or a coin (cover). ``cards``/``coins`` hold every try (Lucky has two)."""

    seat: int
    reason: str  # jail | dynamite | cover
    cards: list[str]
    coins: list[bool]
    success: bool


@_event("dynamite_passed")
class DynamitePassed(Event):
    seat: int
    to: int


@_event("dynamite_exploded")
class DynamiteExploded(Event):
    seat: int


@_event("jail_result")
class JailResult(Event):
    seat: int
    escaped: bool


@_event("drew", hidden=("cards",))
class Drew(Event):
    """``seat`` took ``count`` cards from ``source`` (deck, discard, or a seat's hand for Grip).
    A card taken from the discard pile is public."""

    seat: int
    count: int
    source: str
    reason: str
    cards: list[str] | None


@_event("looked", hidden=("cards",))
class Looked(Event):
    """Three Eyes / instinct looked at the top cards of the deck."""

    seat: int
    count: int
    cards: list[str] | None


@_event("put_back", hidden=("card",))
class PutBack(Event):
    """A card went back on top of the deck (seen only by the seat that chose it)."""

    seat: int
    card: str | None


@_event("revealed")
class Revealed(Event):
    """Red Suit shows his second card to everyone."""

    seat: int
    card: str
    extra: bool


@_event("played")
class Played(Event):
    """A card played from the hand; ``as_kind`` when Two-Face plays one card as another."""

    seat: int
    card: str
    target: int | None
    as_kind: str | None


@_event("equipped")
class Equipped(Event):
    """A blue card or weapon put in play in front of ``owner``; ``replaced`` went to the discard."""

    seat: int
    owner: int
    card: str
    replaced: str | None


@_event("answered")
class Answered(Event):
    """An answer card: Ricochet (or a Shot as Ricochet), Canteen, or a Shot in a Raid/Duel."""

    seat: int
    card: str
    as_kind: str | None
    against: int | None


@_event("cancelled")
class Cancelled(Event):
    """A hit on ``seat`` was cancelled (by Cover, Ricochets or Canteen)."""

    seat: int
    source: int | None
    by: str


@_event("hit")
class Hit(Event):
    """``seat`` lost ``amount`` life; ``source`` is the player who caused it (None: Dynamite)."""

    seat: int
    source: int | None
    amount: int
    cause: str
    life: int


@_event("healed")
class Healed(Event):
    seat: int
    amount: int
    life: int
    cause: str


@_event("discarded")
class Discarded(Event):
    """Cards went from ``seat``'s hand or play area to the discard pile."""

    seat: int
    cards: list[str]
    reason: str


@_event("stole", hidden=("card",))
class Stole(Event):
    """``seat`` took a card from ``victim``. A card from the hand is known only to the two of
    them (``from_hand``); a card from play is public."""

    seat: int
    victim: int
    from_hand: bool
    reason: str
    card: str | None


@_event("reshuffled")
class Reshuffled(Event):
    deck_size: int


@_event("eliminated")
class Eliminated(Event):
    seat: int
    role: str
    killer: int | None


@_event("scavenged", hidden=("hand_cards",))
class Scavenged(Event):
    """Scavenger took a victim's cards: in-play cards public, hand cards private to him."""

    seat: int
    victim: int
    hand_count: int
    in_play: list[str]
    hand_cards: list[str] | None


@_event("penalty")
class Penalty(Event):
    """The sheriff eliminated his own deputy and discards everything."""

    seat: int
    cards: list[str]


@_event("star_gained")
class StarGained(Event):
    seat: int
    upgrade: str | None
    reason: str  # elimination | bounty | last_bullet


@_event("move", hidden=("move",))
class MoveMade(Event):
    """A move of ``seat``; ``auto`` when the engine applied a forced (single) move.
    Secret moves (the card put back on the deck) show only their kind to others."""

    seat: int
    move_kind: str
    auto: bool
    move: str | None


@_event("turn_ended")
class TurnEnded(Event):
    seat: int


@_event("game_over")
class GameOver(Event):
    """``winning_team``: law | outlaws | renegade | draw; ``roles`` every seat's role."""

    winning_team: str
    winners: list[int]
    reason: str
    roles: list[str]


# -- Armed & Dangerous -----------------------------------------------------------------------
_AD = "armed_dangerous"


@_event("tokens", expansion=_AD)
class Tokens(Event):
    """Load tokens on one holder changed: ``holder`` is ``character`` (``seat``'s character) or
    the id of a Dangerous card in front of ``seat``; ``change`` how many came (+) or went (−),
    ``tokens`` how many it now has, ``supply`` how many the common supply now has."""

    seat: int
    holder: str
    change: int
    tokens: int
    supply: int
    reason: str


@_event("used", expansion=_AD)
class Used(Event):
    """``seat`` used an effect: a Dangerous card's (``what`` its card id), a character's
    ability (``what`` the character) or a brown card's upgrade (``what`` its card kind);
    ``target`` the seat it aims at, if any."""

    seat: int
    what: str
    target: int | None


@_event("bomb_passed", expansion=_AD)
class BombPassed(Event):
    seat: int
    to: int


@_event("bomb_exploded", expansion=_AD)
class BombExploded(Event):
    seat: int


@_event("ignored", expansion=_AD)
class Ignored(Event):
    """Ms. Abigail ignored a brown card of rank J, Q, K or A aimed at her alone."""

    seat: int
    source: int
    card: str


ALL_EVENT_TYPES: tuple[type[Event], ...] = tuple(
    c for c in list(globals().values()) if isinstance(c, type) and issubclass(c, Event) and c.KIND
)
EVENT_TYPES: tuple[type[Event], ...] = tuple(c for c in ALL_EVENT_TYPES if not c.EXPANSION)
"""The base game's events (what the base schemas and rules describe)."""
AD_EVENT_TYPES: tuple[type[Event], ...] = tuple(c for c in ALL_EVENT_TYPES if c.EXPANSION == _AD)
EVENT_BY_KIND: dict[str, type[Event]] = {c.KIND: c for c in ALL_EVENT_TYPES}
_FIELDS: dict[type[Event], tuple[str, ...]] = {
    c: tuple(f.name for f in fields(c) if f.name not in ("private_to", "forms"))
    for c in ALL_EVENT_TYPES
}


def event_fields(cls: type[Event]) -> tuple[str, ...]:
    """The payload fields of an event class, in declaration order."""
    return _FIELDS[cls]


def event_dict(ev: Event, viewer: int | None, full: bool = False) -> dict[str, Any]:
    """The event as ``viewer`` sees it (None: a spectator; ``full``: the whole event).

    The public and private forms are built once per event and shared: treat them as read-only.
    """
    if full:
        d = _build(ev, False)
        if ev.private_to is not None:
            d["private_to"] = list(ev.private_to)
        return d
    return event_form(ev, ev.private_to is None or (viewer is not None and viewer in ev.private_to))


def event_form(ev: Event, shown: bool) -> dict[str, Any]:
    """The shared form of ``ev``: in full (``shown``: a public event, or one addressed to the
    viewer) or with its hidden fields blanked. Built on first use, then kept on the event."""
    forms = ev.forms
    if forms is None:
        forms = ev.forms = [None, None]
    d = forms[shown]
    if d is None:
        d = forms[shown] = _BUILDERS[type(ev)][not shown](ev)
    return d


def _builder(cls: type[Event], hide: bool) -> Callable[[Event], dict[str, Any]]:
    """A function rendering one form of ``cls`` events as a dict: ``{"kind": ..., field: value}``
    in declaration order, hidden fields None when ``hide``, lists copied (the log's own lists
    never leave the engine).

    Every view renders a few events, so each class gets straight-line code (generated once, at
    import) instead of a loop over its fields: rendering is about twice as fast.
    """
    items = [f'"kind": {cls.KIND!r}']
    hidden = cls.HIDDEN if hide else ()
    types = {f.name: str(f.type) for f in fields(cls)}
    for name in _FIELDS[cls]:
        if name in hidden:
            value = "None"
        elif "list" in types[name] or "Any" in types[name]:
            value = f"(ev.{name}[:] if type(ev.{name}) is list else ev.{name})"
        else:
            value = f"ev.{name}"
        items.append(f"{name!r}: {value}")
    src = f"def build(ev):\n    return {{{', '.join(items)}}}\n"
    namespace: dict[str, Any] = {}
    exec(src, {"list": list, "type": type}, namespace)  # noqa: S102 - code built from field names
    return namespace["build"]


# Per event class: (the full form's renderer, the hidden form's renderer).
_BUILDERS: dict[type[Event], tuple[Callable[[Event], dict[str, Any]], ...]] = {
    c: (_builder(c, False), _builder(c, True)) for c in ALL_EVENT_TYPES
}


def _build(ev: Event, hide: bool) -> dict[str, Any]:
    return _BUILDERS[type(ev)][hide](ev)


_FULL: dict[type[Event], Callable[[Event], dict[str, Any]]] = {
    c: b[False] for c, b in _BUILDERS.items()
}


def log_dicts(log: list[Event]) -> list[dict[str, Any]]:
    """The full forms of a log's events, ``[event_dict(e, None, full=True) for e in log]``
    with the two calls per event inlined: a state's JSON form (hashes, records, the conformance
    suite's round trips) renders the whole log."""
    full = _FULL
    out = []
    for e in log:
        d = full[type(e)](e)
        if e.private_to is not None:
            d["private_to"] = list(e.private_to)
        out.append(d)
    return out


# The most frequent events have few possible values (a third of a log is MoveMade): they are
# shared, like moves, so each is built and rendered once per process. A logged event never
# changes, so sharing one between logs (as cloned states already do) is safe.
_SHARED: dict[tuple[Any, ...], Event] = {}


def move_made(seat: int, move_kind: str, auto: bool, move: str, secret: bool) -> MoveMade:
    """The :class:`MoveMade` event (shared); ``secret``: only ``seat`` sees which move."""
    key = (seat, move, move_kind, auto)
    ev = _SHARED.get(key)
    if ev is None:
        ev = _SHARED[key] = MoveMade.make(
            seat=seat, move_kind=move_kind, auto=auto, move=move,
            private_to=[seat] if secret else None,
        )  # fmt: skip
    return ev  # type: ignore[return-value]


# Per seat and ``auto``, the MoveMade events by move id: one dict lookup per move instead of a
# tuple key. An id names the same move in nearly every decision; the few that two move kinds
# share ("canteen": a play or an answer) are told apart by the event's move_kind.
MOVE_EVENTS: list[dict[str, MoveMade]] = [{} for _ in range(2 * MAX_SEATS)]


def move_event(seat: int, move: Move, auto: bool) -> MoveMade:
    """:func:`move_made` for a :class:`~.moves.Move` (the same shared event)."""
    by_id = MOVE_EVENTS[seat + seat + auto]
    ev = by_id.get(move.id)
    if ev is None or ev.move_kind != move.kind:
        kind = move.kind
        ev = move_made(seat, kind, auto, move.id, kind in SECRET_MOVE_KINDS)
        by_id.setdefault(move.id, ev)
    return ev


def shared_event(cls: type[E], *values: Any) -> E:
    """The public event ``cls`` with these (hashable) field values, in declaration order,
    shared (turn starts and ends)."""
    key = (cls, *values)
    ev = _SHARED.get(key)
    if ev is None:
        ev = _SHARED[key] = cls(**dict(zip(_FIELDS[cls], values, strict=True)))
    return ev  # type: ignore[return-value]


# The turn's bounds, the most frequent events after moves (shared as shared_event shares them).
TURN_ENDED: list[TurnEnded] = [shared_event(TurnEnded, s) for s in range(MAX_SEATS)]
TURN_STARTED: dict[tuple[int, int, bool], TurnStarted] = {}


def turn_ended(seat: int) -> TurnEnded:
    """``shared_event(TurnEnded, seat)``."""
    return TURN_ENDED[seat]


def turn_started(seat: int, round_no: int, high_noon: bool) -> TurnStarted:
    """``shared_event(TurnStarted, seat, round, high_noon)``."""
    key = (seat, round_no, high_noon)
    ev = TURN_STARTED.get(key)
    if ev is None:
        ev = TURN_STARTED[key] = shared_event(TurnStarted, seat, round_no, high_noon)
    return ev


def _loader(cls: type[Event]) -> Callable[[dict[str, Any]], Event]:
    """:func:`event_from_dict` for ``cls``: every slot set from the form's keys on a bare
    instance, as ``make`` sets them from keywords (generated once, at import: a state's JSON
    form holds hundreds of events: ~1.1 µs an event instead of ~3.1 for a dict of keywords
    and a call)."""
    sets = "".join(f"    e.{name} = d[{name!r}]\n" for name in _FIELDS[cls])
    src = (
        f"def load(d):\n    e = new(cls)\n{sets}"
        "    e.private_to = d.get('private_to')\n    e.forms = None\n    return e\n"
    )
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    exec(src, namespace)  # noqa: S102 - code built from the class's own field names
    return namespace["load"]


_LOADERS: dict[str, Callable[[dict[str, Any]], Event]] = {
    c.KIND: _loader(c) for c in ALL_EVENT_TYPES
}


def event_from_dict(d: dict[str, Any]) -> Event:
    """Rebuild a full event from :func:`event_dict` (``full=True``) output."""
    return _LOADERS[d["kind"]](d)
