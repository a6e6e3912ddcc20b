"""Views: the only window on a game. ``build_view(g, seat)`` holds exactly what ``seat`` may
know (rules.md §1); ``seat=None`` is a spectator, who sees only public information."""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field, fields
from typing import Any

from .cards import CARD_IDS
from .events import event_dict
from .roles import DOUBLE_AGENT, OUTLAW
from .state import GameState
from .table import seat_distances


@dataclass(slots=True)
class PlayerView:
    """What anyone may see of one seat; ``role`` is the role this viewer knows (the sheriff's,
    a revealed one, its own, or one its role lets it know), ``revealed`` whether it is public."""

    seat: int
    character: str
    alive: bool
    life: int
    max_life: int
    hand_size: int
    distance: int | None
    in_play: list[str]
    weapon: str | None
    stars: list[str | None]
    role: str | None
    revealed: bool
    # Armed & Dangerous (None in base games, and then left out by view_to_dict): Load tokens on
    # the character, and on each Dangerous card in front of the player (by card id).
    tokens: int | None = None
    loads: dict[str, int] | None = None


@dataclass(slots=True)
class DecisionInfo:
    """The pending decision as everyone sees it (the legal moves go only to its seat)."""

    seat: int
    kind: str
    source: int | None = None
    needed: int | None = None
    card: str | None = None


@dataclass(slots=True, eq=False)
class SeatView:
    """One seat's information set. ``events`` are the events since ``since`` as this seat saw
    them; ``cursor`` is the value to pass as ``since`` next time.

    Read-only: views of one game share their event dicts, and successive views of a seat share
    the PlayerViews of seats that did not change (copy before editing, e.g. ``view_to_dict``)."""

    seat: int | None
    mode: str
    seats: int
    role: str | None
    hand: list[str]
    named_deputies: list[int]
    players: list[PlayerView]
    turn: int
    decision: DecisionInfo | None
    round: int
    high_noon: bool
    deck_size: int
    discard_size: int
    discard_top: str | None
    over: bool
    winning_team: str | None
    winners: list[int]
    events: list[dict[str, Any]] = field(default_factory=list)
    since: int = 0
    cursor: int = 0
    supply: int | None = None  # Armed & Dangerous: Load tokens in the common supply
    expansions: list[str] | None = None  # the game's expansions (None in base games)

    def __eq__(self, other: object) -> bool:
        # By field, as the generated __eq__ would, but across the lazy subclass too (a view
        # from Game.view equals one built from scratch).
        if not isinstance(other, SeatView):
            return NotImplemented
        for name in _VIEW_FIELDS:
            if getattr(self, name) != getattr(other, name):
                return False
        return True

    def events_of(self, kinds: Container[str], since: int | None = None) -> list[dict[str, Any]]:
        """The events of :attr:`events` whose ``kind`` is in ``kinds``, from the log index
        ``since`` on (None, or one before the view's own ``since``: all of them), in order.

        For a reader that handles a few kinds of event (the rule bot's role inference reads
        about a quarter of them): a view from :meth:`Game.view` renders only those, not the
        rest of its events, when they were not read yet; for a ``frozenset`` of kinds, the
        game finds their events in its log once for all its views."""
        return _of_kinds(self.events, self.since, since, kinds)


class LazySeatView(SeatView):
    """A :class:`SeatView` whose ``events`` are rendered on first read (what :meth:`Game.view`
    returns): they are the dearest part of a view, and a reader that never looks at them does
    not pay for them. A logged event never changes and the log only grows, so rendering them
    later gives the very events of the moment the view was taken."""

    __slots__ = ("_ev", "_src")

    # A property, not __getattr__ on the unset slot: a failed slot read builds an
    # AttributeError first, which costs more than rendering the events.
    @property  # type: ignore[override]
    def events(self) -> list[dict[str, Any]]:
        ev = self._ev
        if ev is None:
            game, log = self._src
            self._src = None
            if game.state.log is log:
                ev = game._view_events(self.seat, self.since, self.cursor)
            else:  # the game's log was replaced since: render from the one of the view
                ev = _events(log[: self.cursor], self.since, self.seat)
            self._ev = ev
        return ev

    @events.setter
    def events(self, value: list[dict[str, Any]] | None) -> None:
        self._ev = value

    def events_of(self, kinds: Container[str], since: int | None = None) -> list[dict[str, Any]]:
        """:meth:`SeatView.events_of`, rendering only the events of ``kinds`` when the events
        were not read yet (from the view's own log: a logged event never changes)."""
        # (not through SeatView.events_of: in the compiled build, its ``self.events`` is the
        # extension type's own field, which a lazy view leaves empty)
        return _lazy_events_of(self, self._ev, self._src, kinds, since)

    def __reduce__(self) -> Any:
        # Copies and pickles are plain SeatViews with their events rendered.
        return (SeatView, tuple(getattr(self, name) for name in _VIEW_FIELDS))


def known_roles(g: GameState, seat: int | None) -> dict[int, str]:
    """Roles ``seat`` knows beyond the public ones (its own, double_agent knowledge)."""
    if seat is None:
        return {}
    out = {seat: g.players[seat].role}
    me = g.players[seat].role
    if me == DOUBLE_AGENT or me == OUTLAW:  # noqa: SIM109 - ``in`` builds a tuple of names per call
        for p in g.players:
            if p.role == (OUTLAW if me == DOUBLE_AGENT else DOUBLE_AGENT):
                out[p.seat] = p.role
    return out


def decision_context(pend: list) -> tuple[int | None, int | None, str | None]:
    """``(source, needed, card)`` of a pending decision ``[kind, seat, *context]``."""
    kind = pend[0]
    if kind == "answer_shot":
        return pend[2], pend[3], pend[4]
    if kind == "answer_raid":
        return pend[2], None, "raid"
    if kind == "answer_duel":
        return pend[2], None, "duel"
    if kind == "brace":
        return None, pend[3], pend[4]
    if kind == "pick_card":
        return pend[2], None, pend[3]
    if kind == "bounty_pick":
        return pend[2], None, None
    if kind == "optional_effect":
        return pend[3], None, pend[2]
    if kind == "pay_token":
        return None, pend[2], pend[3]
    if kind == "load_token":
        return None, pend[2], pend[4]
    if kind == "discard_card":
        return None, None, pend[2]
    if kind == "take_token":
        return None, None, "frankie_canton"
    if kind == "pass_bomb":
        return None, None, "bomb"
    return None, None, None


def decision_info(g: GameState) -> DecisionInfo | None:
    pend = g.pending
    if pend is None:
        return None
    return pending_info(pend)


def pending_info(pend: list) -> DecisionInfo:
    """The :class:`DecisionInfo` of a pending decision ``[kind, seat, *context]``: one per view,
    filled field by field on a bare instance (struct writes in the compiled build)."""
    info = DecisionInfo.__new__(DecisionInfo)
    info.seat = pend[1]
    info.kind = pend[0]
    info.source, info.needed, info.card = decision_context(pend)
    return info


def build_view(
    g: GameState,
    seat: int | None,
    since: int = 0,
    events: list[dict[str, Any]] | None = None,
    reuse: list[Any] | None = None,
    info: DecisionInfo | None = None,
    lazy_events: Any = None,
) -> SeatView:
    """The information set of ``seat`` (None: spectator), with events from ``since``
    (``events``: those events already rendered, as :meth:`Game.view` keeps them; ``info``:
    the pending decision's public part, when the caller has it).

    ``reuse`` (one slot per seat, kept by :meth:`Game.view` for one viewer) holds the
    PlayerViews of this viewer's previous view: one is reused when its seat did not change
    (``Player.v``) and neither did its distance. What the viewer knows of a role changes only
    with a death (which changes ``Player.v``) or the end of the game (no reuse then). A view is
    read-only: successive views of one seat share their unchanged PlayerViews.

    ``lazy_events`` (``(game, log)``): leave ``events`` unrendered, a :class:`LazySeatView`
    renders them from the game's log on first read.
    """
    players = g.players
    me = players[seat] if seat is not None else None
    dist = seat_distances(g, seat) if me is not None and me.alive else [0] * g.seats
    # Outside double_agent a seat knows only its own role (besides the public ones).
    known = known_roles(g, seat) if g.mode == "double_agent" else None
    sheriff, over = g.sheriff, g.over
    ids = CARD_IDS
    expansion = bool(g.expansions)
    loads = g.loads
    pviews = []
    add = pviews.append
    reusable = reuse is not None and not over
    for s, p in enumerate(players):
        d = dist[s]
        if reusable:
            kept = reuse[s]  # type: ignore[index]
            if kept is not None and kept[0] == p.v and kept[1] == d:
                add(kept[2])
                continue
        alive = p.alive
        public = over or not alive or s == sheriff
        if public or s == seat:
            role = p.role
        else:
            role = known.get(s) if known is not None else None
        in_play = p.in_play
        stars = p.stars
        weapon = p.weapon
        # Field by field on a bare instance, not through __init__ (~2.5 a view): in the
        # compiled build these are struct writes, where a call parses twelve arguments first.
        pv = PlayerView.__new__(PlayerView)
        pv.seat = s
        pv.character = p.character
        pv.alive = alive
        pv.life = p.life
        pv.max_life = p.max_life
        pv.hand_size = len(p.hand)
        pv.distance = d or None
        pv.in_play = [ids[c] for c in in_play] if in_play else []
        pv.weapon = ids[weapon] if weapon >= 0 else None
        pv.stars = [x or None for x in stars] if stars else []
        pv.role = role
        pv.revealed = public
        if expansion:
            pv.tokens = p.tokens
            pv.loads = {ids[c]: loads[c] for c in in_play if loads[c]}
            if weapon >= 0 and loads[weapon]:
                pv.loads[ids[weapon]] = loads[weapon]
        else:
            pv.tokens = pv.loads = None
        if reuse is not None:
            reuse[s] = (p.v, d, pv)
        add(pv)
    log = g.log
    if lazy_events is not None:
        # Slot by slot, not through __init__: its ``self.events = ...`` would call the
        # property's setter, which costs about as much as the rest of the view's fields.
        v = _new_view(LazySeatView)
        v.seat = seat
        v.mode = g.mode
        v.seats = g.seats
        v.role = me.role if me is not None else None
        v.hand = [ids[c] for c in me.hand] if me is not None else []
        v.named_deputies = list(g.named_deputies) if me is not None and seat == sheriff else []
        v.players = pviews
        v.turn = g.turn
        v.decision = decision_info(g) if info is None else info
        v.round = g.round
        v.high_noon = g.high_noon
        v.deck_size = len(g.deck)
        v.discard_size = len(g.discard)
        v.discard_top = ids[g.discard[-1]] if g.discard else None
        v.over = over
        v.winning_team = g.winning_team
        v.winners = list(g.winners)
        v._ev = None  # rendered on first read
        v._src = lazy_events
        v.since = since
        v.cursor = len(log)
        v.supply = g.supply if expansion else None
        v.expansions = list(g.expansions) if expansion else None
        return v
    return SeatView(
        seat,
        g.mode,
        g.seats,
        me.role if me is not None else None,
        [ids[c] for c in me.hand] if me is not None else [],
        list(g.named_deputies) if me is not None and seat == sheriff else [],
        pviews,
        g.turn,
        decision_info(g) if info is None else info,
        g.round,
        g.high_noon,
        len(g.deck),
        len(g.discard),
        ids[g.discard[-1]] if g.discard else None,
        over,
        g.winning_team,
        list(g.winners),
        _events(log, since, seat) if events is None else events,
        since,
        len(log),
        g.supply if expansion else None,
        list(g.expansions) if expansion else None,
    )


# object.__new__ in pure Python; in the compiled build the extension type's own, which sets up
# its C fields (object.__new__ refuses a subclass of an extension type)
_new_view = LazySeatView.__new__


def _events(log: list, since: int, seat: int | None) -> list[dict[str, Any]]:
    """The events from ``since`` as ``seat`` sees them (the cached forms, inlined for speed)."""
    out = []
    add = out.append
    for e in log[since:]:
        forms = e.forms
        if forms is not None:
            pt = e.private_to
            d = forms[pt is None or (seat is not None and seat in pt)]
            if d is not None:
                add(d)
                continue
        add(event_dict(e, seat))
    return out


def _lazy_events_of(
    v: SeatView, ev: list | None, src: Any, kinds: Container[str], since: int | None
) -> list[dict[str, Any]]:
    """:meth:`LazySeatView.events_of` of the view ``v`` (its events ``ev`` if rendered, else
    its ``(game, log)``): a function, so that the compiled build reads the view's fields as its
    C type's (views.pxd), where a method of the Python subclass reads them generically."""
    if ev is not None:
        return _of_kinds(ev, v.since, since, kinds)
    start = v.since if since is None or since < v.since else since
    game, log = src
    if type(kinds) is frozenset and game.state.log is log:
        return game._view_events_of(v.seat, start, v.cursor, kinds)
    return _events_of(log, start, v.cursor, v.seat, kinds)


def _of_kinds(
    events: list[dict[str, Any]], first: int, since: int | None, kinds: Container[str]
) -> list[dict[str, Any]]:
    """Of ``events`` (those from the log index ``first``), the ones from ``since`` on whose kind
    is in ``kinds``."""
    skip = 0 if since is None or since <= first else since - first
    out = []
    for e in events[skip:] if skip else events:
        if e["kind"] in kinds:
            out.append(e)
    return out


def _events_of(
    log: list, start: int, end: int, seat: int | None, kinds: Container[str]
) -> list[dict[str, Any]]:
    """The events ``start:end`` of ``log`` whose kind is in ``kinds``, as ``seat`` sees them
    (the forms of :func:`_events`: the same dicts every view gets)."""
    out = []
    for i in range(start, end):
        e = log[i]
        if e.KIND in kinds:
            out.append(event_dict(e, seat))
    return out


def card_kind(card_id: str) -> str:
    """The kind of a card id (``shot_07`` → ``shot``)."""
    return card_id.rsplit("_", 1)[0]


def _plain(x: Any) -> Any:
    """A copy of JSON-like data (dicts, lists, tuples of str/int/float/bool/None) — what
    ``dataclasses.asdict`` makes of a view's events, at a fraction of its cost."""
    t = type(x)
    if t is dict:
        return {k: _plain(v) for k, v in x.items()}
    if t is list or t is tuple:
        return t(_plain(v) for v in x)
    return x


_PLAYER_FIELDS = tuple(f.name for f in fields(PlayerView))
_DECISION_FIELDS = tuple(f.name for f in fields(DecisionInfo))
_VIEW_FIELDS = tuple(f.name for f in fields(SeatView))


def view_to_dict(
    v: SeatView,
    *,
    copy: bool = True,
    players: dict[int, tuple[PlayerView, dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """A JSON-ready dict of a view: a copy, equal to ``dataclasses.asdict(v)`` but for the
    expansion's fields, which exist only in games that have it (base views keep their shape).
    Written out by field because ``asdict`` deep-copies every value through ``copy.deepcopy``
    (most of a remote agent's decision payload).

    ``copy=False`` is for a reader that only serialises the dict: its lists and events are the
    view's own (shared with the game: never edit them). ``players`` then keeps each seat's
    dict while successive views hand out the same (unchanged) PlayerView object."""
    base = v.supply is None
    d: dict[str, Any] = {}
    for name in _VIEW_FIELDS:
        value = getattr(v, name)
        if name == "players":
            if players is None:
                value = [_player_dict(p, base, copy) for p in value]
            else:
                value = [_kept_player_dict(p, base, players) for p in value]
        elif name == "decision":
            value = None if value is None else {f: getattr(value, f) for f in _DECISION_FIELDS}
        elif name == "events":
            if copy:
                value = [_plain(e) for e in value]
        elif name in ("supply", "expansions") and base:
            continue
        elif copy and type(value) is list:
            value = list(value)
        d[name] = value
    return d


def _kept_player_dict(
    p: PlayerView, base: bool, kept: dict[int, tuple[PlayerView, dict[str, Any]]]
) -> dict[str, Any]:
    hit = kept.get(p.seat)
    if hit is not None and hit[0] is p:
        return hit[1]
    d = _player_dict(p, base, False)
    kept[p.seat] = (p, d)
    return d


def _player_dict(p: PlayerView, base: bool, copy: bool = True) -> dict[str, Any]:
    d: dict[str, Any] = {}
    for name in _PLAYER_FIELDS:
        value = getattr(p, name)
        if base and name in ("tokens", "loads"):
            continue
        if copy:
            t = type(value)
            if t is list:
                value = list(value)
            elif t is dict:
                value = dict(value)
        d[name] = value
    return d
