"""Views: the only window on a game. ``build_view(g, seat)`` holds exactly what ``seat`` may
know (rules.md §1); ``seat=None`` is a spectator, who sees only public information."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import CARD_IDS
from .events import event_dict
from .roles import DOUBLE_AGENT, OUTLAW
from .state import GameState
from .table import distances_from


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


@dataclass(slots=True)
class DecisionInfo:
    """The pending decision as everyone sees it (the legal moves go only to its seat)."""

    seat: int
    kind: str
    source: int | None = None
    needed: int | None = None
    card: str | None = None


@dataclass(slots=True)
class SeatView:
    """One seat's information set. ``events`` are the events since ``since`` as this seat saw
    them; ``cursor`` is the value to pass as ``since`` next time."""

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


def known_roles(g: GameState, seat: int | None) -> dict[int, str]:
    """Roles ``seat`` knows beyond the public ones (its own, double_agent knowledge)."""
    if seat is None:
        return {}
    out = {seat: g.players[seat].role}
    me = g.players[seat].role
    if me in (DOUBLE_AGENT, OUTLAW):
        for p in g.players:
            if p.role == (OUTLAW if me == DOUBLE_AGENT else DOUBLE_AGENT):
                out[p.seat] = p.role
    return out


def decision_info(g: GameState) -> DecisionInfo | None:
    pend = g.pending
    if pend is None:
        return None
    kind = pend[0]
    if kind == "answer_shot":
        return DecisionInfo(pend[1], kind, source=pend[2], needed=pend[3], card=pend[4])
    if kind in ("answer_raid", "answer_duel"):
        return DecisionInfo(
            pend[1], kind, source=pend[2], card="raid" if kind == "answer_raid" else "duel"
        )
    if kind == "brace":
        return DecisionInfo(pend[1], kind, needed=pend[3], card=pend[4])
    if kind == "pick_card":
        return DecisionInfo(pend[1], kind, source=pend[2], card=pend[3])
    if kind == "bounty_pick":
        return DecisionInfo(pend[1], kind, source=pend[2])
    return DecisionInfo(pend[1], kind)


def build_view(g: GameState, seat: int | None, since: int = 0) -> SeatView:
    """The information set of ``seat`` (None: spectator), with events from ``since``."""
    dist = distances_from(g, seat) if seat is not None and g.players[seat].alive else None
    known = (
        known_roles(g, seat)
        if g.mode == "double_agent"
        else ({seat: g.players[seat].role} if seat is not None else {})
    )
    players = []
    for p in g.players:
        public = p.seat == g.sheriff or not p.alive or g.over
        players.append(
            PlayerView(
                seat=p.seat,
                character=p.character,
                alive=p.alive,
                life=p.life,
                max_life=p.max_life,
                hand_size=len(p.hand),
                distance=None if dist is None or p.seat == seat or not p.alive else dist[p.seat],
                in_play=[CARD_IDS[c] for c in p.in_play],
                weapon=CARD_IDS[p.weapon] if p.weapon >= 0 else None,
                stars=[s or None for s in p.stars],
                role=p.role if public else known.get(p.seat),
                revealed=public,
            )
        )
    me = g.players[seat] if seat is not None else None
    named = list(g.named_deputies) if seat is not None and seat == g.sheriff else []
    log = g.log
    return SeatView(
        seat=seat,
        mode=g.mode,
        seats=g.seats,
        role=me.role if me else None,
        hand=[CARD_IDS[c] for c in me.hand] if me else [],
        named_deputies=named,
        players=players,
        turn=g.turn,
        decision=decision_info(g),
        round=g.round,
        high_noon=g.high_noon,
        deck_size=len(g.deck),
        discard_size=len(g.discard),
        discard_top=CARD_IDS[g.discard[-1]] if g.discard else None,
        over=g.over,
        winning_team=g.winning_team,
        winners=list(g.winners),
        events=[event_dict(e, seat) for e in log[since:]],
        since=since,
        cursor=len(log),
    )


def card_kind(card_id: str) -> str:
    """The kind of a card id (``shot_07`` → ``shot``)."""
    return card_id.rsplit("_", 1)[0]


def view_to_dict(v: SeatView) -> dict[str, Any]:
    """A JSON-ready dict of a view."""
    from dataclasses import asdict

    return asdict(v)
