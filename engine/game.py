"""The public engine API: :func:`new_game`, :class:`Game` (decision, apply, view, clone, hash,
serialization) and :func:`replay`."""

from __future__ import annotations

import hashlib
import json
from bisect import bisect_left
from typing import Any

from . import rng
from .cards import CARD_IDS, game_deck_size
from .characters import CHARACTER_BY_ID, game_characters
from .config import GameConfig
from .errors import (
    ConfigError,
    GameOverError,
    IllegalMove,
    InvalidCursor,
    InvalidSeat,
    MoveSyntaxError,
    NotYourDecision,
    SeedError,
    StateError,
    shown,
)
from .events import (
    MOVE_EVENTS,
    DeputiesNamed,
    Drew,
    Event,
    GameStarted,
    RoleDealt,
    RoleKnown,
    event_dict,
    event_form,
    move_event,
)
from .flow import RESOLVERS, advance
from .legal import autopilot_move, legal_moves
from .moves import Decision, Move
from .roles import (
    DEPUTY,
    DOUBLE_AGENT,
    OLD_CLASSIC,
    OLD_CLASSIC_SHERIFF_LIFE_BONUS,
    OUTLAW,
    SHERIFF,
    SHERIFF_HAND_ADJUST,
    SHERIFF_LIFE_BONUS,
    roles_for,
)
from .state import GameState, new_player, new_state, state_from_dict, state_to_dict
from .version import ENGINE_VERSION, rules_version
from .views import SeatView, build_view, decision_context, pending_info

DEAL = rng.STREAMS.index("deal")


class Game:
    """One game. Exactly one decision is pending until the game is over.

    ``legal_moves``: the pending decision's legal moves (empty when the game is over), a
    tuple the engine replaces after every move; ``over``: whether the game is over (the
    state's ``over``, kept in step by every method that moves the game). Read-only to everyone
    else; attributes, not properties: playouts read both at every decision."""

    __slots__ = (
        "state",
        "config",
        "legal_moves",
        "over",
        "_decision",
        "_log",
        "_shared",
        "_private",
        "_reuse",
        "_kinds",
    )

    def __init__(self, state: GameState, config: GameConfig) -> None:
        self.state = state
        self.config = config
        self.legal_moves: tuple[Move, ...] = tuple(advance(state)) if not state.over else ()
        self.over: bool = state.over
        self._decision: Decision | None = None
        self._forget_forms()

    def _forget_forms(self) -> None:
        # A cache for views, not state: per logged event the form everyone may see
        # (``_shared``, aligned with the log) and per seat the indexes of the private events
        # addressed to it (the ones its views show in full).
        self._log: list[Event] | None = None
        self._shared: list[dict[str, Any]] = []
        self._private: dict[int, list[int]] = {}
        # Per viewer, the PlayerViews of its last view (see build_view's ``reuse``).
        self._reuse: dict[int | None, list[Any]] = {}
        # Per set of event kinds a reader asked for (``SeatView.events_of``): how far the log
        # was scanned (one scan per game, not per view), the log indexes of those events, and
        # beside them their ``private_to`` and forms' lists (see _view_events_of).
        self._kinds: dict[frozenset[str], list[Any]] = {}

    # -- the decision ------------------------------------------------------------------------
    @property
    def _moves(self) -> tuple[Move, ...]:
        """:attr:`legal_moves` under its former name (conformance.py sets it)."""
        return self.legal_moves

    @_moves.setter
    def _moves(self, moves: tuple[Move, ...]) -> None:
        self.legal_moves = moves

    @property
    def decision(self) -> Decision | None:
        """The pending decision, or None when the game is over."""
        if self.state.over:
            return None
        if self._decision is None:
            pend = self.state.pending
            self._decision = _decision_of(pend, self.legal_moves)
        return self._decision

    @property
    def to_move(self) -> int | None:
        """The seat whose decision is pending."""
        p = self.state.pending
        return None if p is None or self.state.over else p[1]

    def apply(self, seat: int, move_id: str) -> list[Event]:
        """Apply the move ``move_id`` of ``seat``; returns the events it caused (full forms).

        Raises, without changing anything: :class:`InvalidSeat` (not an int in 0..seats-1; a
        bool or a float is not a seat), :class:`MoveSyntaxError` (an id that is not a str),
        :class:`GameOverError`, :class:`NotYourDecision`, :class:`IllegalMove`.
        """
        g = self.state
        # Two type checks per decision (~0.1 µs): 1.0 == 1 and True == 1, and the history
        # would record the float or the bool, changing the state hash and the records.
        if type(seat) is not int or not 0 <= seat < g.seats:
            raise InvalidSeat(seat, g.seats)
        if type(move_id) is not str:
            raise MoveSyntaxError(move_id, "a move id is a string")
        if g.over:
            raise GameOverError("the game is over")
        if seat != g.pending[1]:
            raise NotYourDecision(seat, g.pending[1])
        for m in self.legal_moves:
            if m.id == move_id:
                break
        else:
            # (a list, not a generator: a cpdef method in the compiled build takes no closure)
            raise IllegalMove(move_id, tuple([m.id for m in self.legal_moves]))
        start = len(g.log)
        # The move (as apply_fast applies it, inlined: bots apply one per decision)
        pending = g.pending
        g.history.append([seat, m.id])
        ev = MOVE_EVENTS[seat + seat].get(move_id)
        if ev is None or ev.move_kind != m.kind:
            ev = move_event(seat, m, False)
        g.log.append(ev)
        g.pending = None
        RESOLVERS[pending[0]](g, pending, m)
        self.legal_moves = tuple(advance(g))
        self.over = g.over
        self._decision = None
        return g.log[start:]

    def apply_fast(self, move: Move) -> None:
        """Apply a move object taken from :attr:`legal_moves`, for playouts inside the engine
        and the bots' searches. Internal: nothing is checked (not the seat, not that ``move``
        is legal), and a move from elsewhere corrupts the game. Anything holding input from
        outside the process uses :meth:`apply`."""
        # The move in the history and the log, resolved, then the game advanced to the next
        # real decision (flow.resolve and flow.advance; resolve inlined: once per decision)
        g = self.state
        pending = g.pending
        seat = pending[1]
        mid = move.id  # read once: a generic attribute read in the compiled build
        g.history.append([seat, mid])
        ev = MOVE_EVENTS[seat + seat].get(mid)
        if ev is None or ev.move_kind != move.kind:
            ev = move_event(seat, move, False)
        g.log.append(ev)
        g.pending = None
        RESOLVERS[pending[0]](g, pending, move)
        self.legal_moves = tuple(advance(g))
        self.over = g.over
        self._decision = None

    def autopilot(self) -> Move:
        """The move the server makes for a seat that timed out (rules.md §3)."""
        return autopilot_move(self.legal_moves)

    # -- views and records -------------------------------------------------------------------
    def view(self, seat: int | None, since: int = 0) -> SeatView:
        """What ``seat`` may know (None: a spectator), with its events from ``since`` (a
        previous view's ``cursor``; past the end of the log: no events).

        Raises :class:`InvalidSeat` or :class:`InvalidCursor` for anything else (bools and
        negative numbers included: Python's indexing would read them as other seats)."""
        # _check_viewer inlined: a method call would cost as much as the checks (one view per
        # decision in bot games).
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.state.seats):
            raise InvalidSeat(seat, self.state.seats, spectator=True)
        if type(since) is not int or since < 0:
            raise InvalidCursor(since)
        g = self.state
        log = g.log
        if log is not self._log or len(log) < len(self._shared):
            self._forget_forms()  # a new log: the caches were built for the old one
            self._log = log
        # The events are rendered when first read (LazySeatView): a log only grows, so the
        # view's slice of it stays what it was. Per viewer, the PlayerViews of its last view.
        reuse = self._reuse.get(seat)
        if reuse is None:
            reuse = self._reuse[seat] = [None] * g.seats
        pend = g.pending
        info = None if g.over else pending_info(pend)
        return build_view(g, seat, since, None, reuse, info, (self, log))

    def _check_viewer(self, seat: Any, since: Any) -> None:
        """Raise unless ``seat`` is None or an int seat of this table and ``since`` an int ≥ 0
        (``type(...) is int``: a bool is an int to isinstance; ~0.1 µs per view)."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.state.seats):
            raise InvalidSeat(seat, self.state.seats, spectator=True)
        if type(since) is not int or since < 0:
            raise InvalidCursor(since)

    def _view_events(
        self, seat: int | None, since: int, end: int | None = None
    ) -> list[dict[str, Any]]:
        """The events ``since:end`` (end: the log's) as ``seat`` sees them: a slice of the forms
        everyone may see, with this seat's own private events swapped in (the same dicts as
        :func:`event_dict` gives). Every view asks for ~17 events, most of them public, so one
        slice beats a loop over them. Each form is rendered once per game (the shared ones
        when first asked for, the private ones kept on their events)."""
        log = self.state.log
        if log is not self._log or len(log) < len(self._shared):
            self._forget_forms()
            self._log = log
        if end is None or end > len(log):
            end = len(log)
        shared = self._shared
        private = self._private
        if len(shared) < end:
            for i in range(len(shared), end):
                e = log[i]
                pt = e.private_to
                if pt is not None:
                    for s in pt:
                        if s in private:
                            private[s].append(i)
                        else:
                            private[s] = [i]
                shared.append(event_form(e, pt is None))
        if since >= end:
            return []
        out = shared[since:end]
        mine = private.get(seat) if seat is not None else None
        if mine and mine[-1] >= since:
            for i in mine[bisect_left(mine, since) :]:
                if i >= end:
                    break
                out[i - since] = event_form(log[i], True)
        return out

    def _view_events_of(
        self, seat: int | None, start: int, end: int, kinds: frozenset[str]
    ) -> list[dict[str, Any]]:
        """The events ``start:end`` of the kinds ``kinds`` as ``seat`` sees them (the forms of
        :meth:`_view_events`). Seven seats read every event of a game, and a reader of a few
        kinds skips most of them: the log is scanned for ``kinds`` once per game, and each
        view takes its range of the indexes found."""
        log = self.state.log
        if log is not self._log or len(log) < len(self._shared):
            self._forget_forms()
            self._log = log
        if end > len(log):
            end = len(log)
        # Per set of kinds: how far the log was scanned, the indexes of those events, and
        # beside each its ``private_to`` and its forms' list (event_form's cache on the event,
        # made here): seven views read each event, and the lists are read by index where the
        # event's attributes would be generic reads in the compiled build.
        found = self._kinds.get(kinds)
        if found is None or found[0] > len(log):
            found = self._kinds[kinds] = [0, [], [], []]
        at, pts, fls = found[1], found[2], found[3]
        if found[0] < end:
            for i in range(found[0], end):
                e = log[i]
                if e.KIND in kinds:
                    at.append(i)
                    pts.append(e.private_to)
                    forms = e.forms
                    if forms is None:
                        forms = e.forms = [None, None]
                    fls.append(forms)
            found[0] = end
        out = []
        for j in range(bisect_left(at, start) if start else 0, len(at)):
            i = at[j]
            if i >= end:
                break
            pt = pts[j]
            # event_dict(e, seat), inlined (a call more per event is +0.5 % of a rule-bot
            # decision, compiled), and event_form's read of the kept form
            shown = pt is None or (seat is not None and seat in pt)
            d = fls[j][shown]
            out.append(d if d is not None else event_form(log[i], shown))
        return out

    def events(self, viewer: int | None, since: int = 0) -> list[dict[str, Any]]:
        """The log from ``since`` as ``viewer`` saw it (None: a spectator); the same seat and
        cursor checks as :meth:`view`."""
        self._check_viewer(viewer, since)
        return [event_dict(e, viewer) for e in self.state.log[since:]]

    def omniscient_events(self, since: int = 0) -> list[dict[str, Any]]:
        """The whole truth of the log from ``since`` (every private event in full): for records
        and referees, never for a seat."""
        self._check_viewer(None, since)
        return [event_dict(e, None, full=True) for e in self.state.log[since:]]

    @property
    def history(self) -> list[tuple[int, str]]:
        """The moves chosen by players, in order (forced moves are replayed by the engine)."""
        return [(s, m) for s, m in self.state.history]

    def result(self) -> dict[str, Any] | None:
        g = self.state
        if not g.over:
            return None
        return {
            "winning_team": g.winning_team,
            "winners": list(g.winners),
            "reason": g.end_reason,
            "rounds": g.round,
            "roles": [p.role for p in g.players],
            "decisions": len(g.history),
            "forced": g.forced,
        }

    def omniscient_record(self) -> dict[str, Any]:
        """The engine's game record (the whole truth): versions, config, seed, moves, events,
        result."""
        return {
            "rules_version": rules_version(self.config.expansions),
            "engine_version": ENGINE_VERSION,
            "config": self.config.to_dict(),
            "seed": self.state.seed,
            "moves": [[s, m] for s, m in self.state.history],
            "events": self.omniscient_events(),
            "result": self.result(),
        }

    def clone(self) -> Game:
        """An independent copy (cheap: plain lists and ints)."""
        g = Game.__new__(Game)
        g.state = self.state.clone()
        g.config = self.config
        g.legal_moves = self.legal_moves
        g.over = self.over
        g._decision = self._decision
        g._log = g.state.log if self._log is self.state.log else None
        g._shared = self._shared[:] if g._log is not None else []
        g._private = {s: ix[:] for s, ix in self._private.items()} if g._log is not None else {}
        g._reuse = {}  # never shared: a resampled copy must build its views afresh
        g._kinds = {}
        return g

    def omniscient_state(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (hidden information included)."""
        return {"config": self.config.to_dict(), "state": state_to_dict(self.state)}

    @classmethod
    def from_omniscient_state(cls, d: dict[str, Any]) -> Game:
        """Rebuild a game from :meth:`omniscient_state` output.

        Raises :class:`StateError` (listing every problem) for a document that is malformed or
        describes a position no game reaches: the conformance suite's invariants
        (``invariants.py``: card conservation, life bounds, one sheriff, cards where they
        belong, a real choice pending), agreement with the config, and every legal move
        applying on a copy (a bad config is a StateError too: one error for one document)."""
        from .invariants import (  # here: invariants.py imports the engine's modules
            all_moves_apply,
            decision_violations,
            state_shape_violations,
            state_violations,
        )

        bad = state_shape_violations(d)
        if bad:
            raise StateError(bad)
        try:
            config = GameConfig(**d["config"])
        except TypeError:  # unknown or missing keys
            raise StateError(
                ["config has the keys seats, mode and max_rounds (and expansions)"]
            ) from None
        except ConfigError as e:
            raise StateError([f"config: {e}"]) from None
        g = state_from_dict(d["state"])
        bad = state_violations(g)
        if (g.seats, g.mode, g.max_rounds, tuple(g.expansions)) != (
            config.seats, config.mode, config.max_rounds, config.expansions
        ):  # fmt: skip
            bad.append("the state's seats, mode, max_rounds or expansions differ from its config")
        if bad:
            raise StateError(bad)
        # The pending decision's context is checked by generating its moves; a tampered one
        # surfaces as a lookup or type error here, before advance() could act on it.
        try:
            moves = () if g.over else tuple(legal_moves(g))
        except (LookupError, TypeError, ValueError, AttributeError) as e:
            raise StateError([f"the pending decision cannot be resumed: {e!r}"]) from e
        bad = decision_violations(g, moves)
        if bad:
            raise StateError(bad)
        game = cls(g, config)
        bad = all_moves_apply(game)
        if bad:
            raise StateError(bad)
        return game

    def state_hash(self) -> str:
        """A hash of the whole state (log included): equal iff the games are identical."""
        blob = json.dumps(state_to_dict(self.state), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()


def new_game(config: GameConfig, seed: int) -> Game:
    """Deal a new game: roles, characters, deck order and hands all from ``seed``, an int with
    ``0 ≤ seed < 2**64`` (:class:`SeedError` otherwise: the streams use the seed modulo 2**64,
    so a larger or negative one would deal another seed's game under its own number)."""
    check_seed(seed)
    if not isinstance(config, GameConfig):
        raise ConfigError(f"config must be a GameConfig, got {shown(config)}")
    n, mode = config.seats, config.mode
    streams = [rng.stream_seed(seed, s) for s in rng.STREAMS]
    roles = list(roles_for(n, mode))
    rng.shuffle(streams, DEAL, roles)
    chars = list(game_characters(config.expansions))
    rng.shuffle(streams, DEAL, chars)
    size = game_deck_size(config.expansions)
    deck = list(range(size))
    rng.shuffle(streams, DEAL, deck)
    players = []
    sheriff = roles.index(SHERIFF)
    for seat in range(n):
        ch = CHARACTER_BY_ID[chars[seat]]
        life = ch.old_classic_life if mode == OLD_CLASSIC else ch.life
        if seat == sheriff:
            life += OLD_CLASSIC_SHERIFF_LIFE_BONUS if mode == OLD_CLASSIC else SHERIFF_LIFE_BONUS[n]
        players.append(new_player(seat, roles[seat], ch.id, life, life))
    g = new_state(n, mode, config.max_rounds, seed, players, deck, streams, sheriff, [0] * size)
    if config.expansions:
        start_expansions(g, config.expansions)
    g.log.append(
        GameStarted.make(
            mode=mode, seats=n, sheriff=sheriff, characters=[p.character for p in players],
            life=[p.life for p in players], roles_at_table=sorted(roles),
        )
    )  # fmt: skip
    for p in players:
        g.log.append(RoleDealt.make(seat=p.seat, role=p.role, private_to=[p.seat]))
    if DOUBLE_AGENT in roles:
        _double_agent_knowledge(g)
    known = g.known
    for p in players:
        size = p.life
        if p.seat == sheriff and mode != OLD_CLASSIC:
            size += SHERIFF_HAND_ADJUST[n]
        # The top ``size`` cards one by one (the deck's top is its end): a slice, not pops
        cards = deck[: -size - 1 : -1]
        del deck[-size:]
        p.hand.extend(cards)
        bit = 1 << p.seat
        for c in cards:
            known[c] = bit
        g.log.append(
            Drew.make(seat=p.seat, count=len(cards), source="deck", reason="deal",
                 cards=[CARD_IDS[c] for c in cards], private_to=[p.seat])
        )  # fmt: skip
    g.stack.append(["turn", sheriff])
    return Game(g, config)


def _decision_of(pend: list, moves: tuple[Move, ...]) -> Decision:
    """The :class:`Decision` of a pending decision with its legal moves: one per decision in bot
    games, filled field by field on a bare instance (struct writes in the compiled build)."""
    d = Decision.__new__(Decision)
    d.seat = pend[1]
    d.kind = pend[0]
    d.moves = moves
    d.source, d.needed, d.card = decision_context(pend)
    return d


def start_expansions(g: GameState, expansions: tuple[str, ...]) -> None:
    """Armed & Dangerous at the deal: the supply of 32 Load tokens, none on any card, and the
    characters that start with tokens (Red Ringo: 4)."""
    from .loads import SUPPLY, gain

    g.expansions = list(expansions)
    g.supply = SUPPLY
    g.loads = [0] * len(g.known)
    for p in g.players:
        start = CHARACTER_BY_ID[p.character].start_tokens
        if start:
            gain(g, p, -1, start, "deal")


def check_seed(seed: Any) -> None:
    """Raise :class:`SeedError` unless ``seed`` is an int (not a bool) in ``0..2**64-1``."""
    if type(seed) is not int or not 0 <= seed < rng.SEED_LIMIT:
        raise SeedError(seed)


def _double_agent_knowledge(g: GameState) -> None:
    agent = next(p for p in g.players if p.role == DOUBLE_AGENT)
    outlaws = [p for p in g.players if p.role == OUTLAW]
    for o in outlaws:
        g.log.append(
            RoleKnown.make(viewer=agent.seat, seat=o.seat, role=OUTLAW, private_to=[agent.seat])
        )
        g.log.append(
            RoleKnown.make(viewer=o.seat, seat=agent.seat, role=DOUBLE_AGENT, private_to=[o.seat])
        )
    deputies = [p.seat for p in g.players if p.role == DEPUTY]
    deputy = deputies[rng.below(g.rng, DEAL, len(deputies))]
    named = [deputy, agent.seat]
    rng.shuffle(g.rng, DEAL, named)
    g.named_deputies = named
    g.log.append(DeputiesNamed.make(sheriff=g.sheriff, seats=named, private_to=[g.sheriff]))


def replay(config: GameConfig, seed: int, moves: list[tuple[int, str]] | list[list[Any]]) -> Game:
    """Rebuild a game from its config, seed and chosen moves (``[seat, move_id]`` pairs, each
    checked as :meth:`Game.apply` checks it)."""
    game = new_game(config, seed)
    for entry in moves:
        if not isinstance(entry, (list, tuple)) or len(entry) != 2:
            raise MoveSyntaxError(entry, "a replayed move is a [seat, move_id] pair")
        game.apply(entry[0], entry[1])
    return game
