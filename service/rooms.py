"""Rooms: the web table's lobby and everything a host controls, wrapped around the match
registry (rules.md §10).

A room has a code (and a link), a table (seats, mode, time per move, speed) and one chair per
seat: empty, a person (a member of the room), a bot or a model participant of the server. Its
host fills chairs with bots, seats a bot or a model in one chair, replaces a person with a bot
or removes one, starts the game, changes the speed during it, hands an absent player's seat to
a bot and gives it back. A host absent for :attr:`RoomSettings.host_absent_s` (30 s) loses the
role to the first person present.

A game of the room is an ordinary match of the registry, made with the same
:class:`~bangarena.service.models.CreateMatch` the API takes: people are ``human`` seats (a
seat token each, which the browser holds in the service's HttpOnly cookie), so their clock,
autopilot, attempts and isolation are the API's. The room adds, around the match:

- the speed: bot seats are wrapped in a :class:`PacedBotSeat` that pauses before answering
  (the host can change the pause while the game runs);
- "hand to a bot": a :class:`StandIn` answers the person's decisions through the seat's own
  :meth:`~bangarena.harness.seats.remote_seat.RemoteSeat.submit`, with a rule bot that reads only
  that seat's view; "return" stops it;
- the autopilot notices: which seat was played by the autopilot and why (table talk, rules.md
  §3), read from the match's move notices — never the move of a seat's secret decision;
- the signals (:mod:`bangarena.service.signals`), kept beside the match, never in it.

Members are known by a room token (256 bits, kept as a SHA-256 digest) in the HttpOnly cookie
:data:`MEMBER_COOKIE`. Everything here runs in the service's event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from bangarena.engine import DEFAULT_MAX_ROUNDS
from bangarena.harness.match import MoveNotice
from bangarena.harness.seats.bot_seat import BotSeat

from .models import CreateMatch
from .registry import CreateError, LiveMatch, MatchRegistry
from .room_seats import HANDED_NOTE, PacedBotSeat, StandIn
from .settings import new_token
from .signals import SignalBook

MEMBER_COOKIE: Final = "bangarena_member"
SPEEDS: Final = ("slow", "normal", "fast")
CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Room codes avoid look-alikes (0/O, 1/I/L): they are read aloud and typed."""
CODE_LENGTH: Final = 6
ChairKind = Literal["empty", "human", "bot", "model"]
RoomState = Literal["lobby", "playing", "over"]


class RoomSettings(BaseModel):
    """How the web tables behave (tests shorten the clocks)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pause_s: dict[str, float] = Field(
        default_factory=lambda: {"slow": 1.6, "normal": 0.8, "fast": 0.3},
        description="the pause before a bot's move, per speed",
    )
    host_absent_s: float = Field(default=30.0, gt=0, description="then another person hosts")
    start_wait_s: float = Field(
        default=20.0, gt=0, description="a started game waits this long for people to sit down"
    )
    max_rooms: int = Field(default=500, ge=1)
    max_rounds: int = Field(
        default=DEFAULT_MAX_ROUNDS, ge=1, le=1000, description="a web game's round cap"
    )


class RoomError(Exception):
    """A room request that cannot be done: HTTP ``status``, ``code`` and the reason."""

    def __init__(self, status: int, code: str, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.code = code
        self.reason = reason


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


@dataclass
class Member:
    """A person in a room."""

    id: str
    name: str
    digest: bytes
    chair: int | None
    last_seen: float
    active: int = 0
    tab: str | None = None
    seat_tokens: dict[str, str] = field(default_factory=dict, repr=False)
    """Per match id: this member's seat token (handed to the browser as a cookie only)."""

    def present(self, now: float, grace_s: float) -> bool:
        return self.active > 0 or now - self.last_seen < grace_s


@dataclass
class Chair:
    """One chair of the table as the room sees it."""

    kind: ChairKind = "empty"
    spec: str = "rule"
    participant: str | None = None
    member: str | None = None
    """The member id of a ``human`` chair."""


@dataclass
class Room:
    """One room: its table, chairs, members, host, current match and signals."""

    code: str
    seats: int
    mode: str
    time_per_move: float
    speed: str
    settings: RoomSettings
    chairs: list[Chair]
    lang: str = "en"
    members: dict[str, Member] = field(default_factory=dict)
    host: str | None = None
    live: LiveMatch | None = None
    matches: list[str] = field(default_factory=list)
    signals: SignalBook | None = None
    handed: dict[int, StandIn] = field(default_factory=dict)
    notices: list[dict[str, Any]] = field(default_factory=list)
    spectator_token: str | None = field(default=None, repr=False)
    version: int = 0
    created: float = field(default_factory=time.monotonic)
    _tick: asyncio.Event = field(default_factory=asyncio.Event)

    # -- the change signal -------------------------------------------------------------------
    def notify(self) -> None:
        """Wake every stream of the room (and of its match)."""
        self.version += 1
        old, self._tick = self._tick, asyncio.Event()
        old.set()
        if self.live is not None:
            self.live.notify()

    async def wait_change(self, version: int, timeout: float) -> None:
        """Return once the room's version differs from ``version`` (or after ``timeout``)."""
        if self.version != version:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._tick.wait(), timeout)

    # -- what the room is --------------------------------------------------------------------
    @property
    def state(self) -> RoomState:
        if self.live is None:
            return "lobby"
        return "over" if self.live.ended else "playing"

    @property
    def match_id(self) -> str | None:
        return self.live.match_id if self.live is not None else None

    def pause(self) -> float:
        return max(0.0, float(self.settings.pause_s.get(self.speed, 0.0)))

    def member_at(self, chair: int) -> Member | None:
        mid = self.chairs[chair].member if 0 <= chair < len(self.chairs) else None
        return self.members.get(mid) if mid else None

    def free_chair(self) -> int | None:
        return next((i for i, c in enumerate(self.chairs) if c.kind == "empty"), None)

    def is_host(self, member: Member | None) -> bool:
        return member is not None and member.id == self.host

    def check_host(self, now: float | None = None) -> bool:
        """Hand the host role on when the host has been absent for ``host_absent_s``: to the
        first person present, in chair order. True if it changed."""
        now = time.monotonic() if now is None else now
        grace = self.settings.host_absent_s
        host = self.members.get(self.host or "")
        if host is not None and host.present(now, grace):
            return False
        for i in range(len(self.chairs)):
            m = self.member_at(i)
            if m is not None and m is not host and m.present(now, 1.0):
                self.host = m.id
                self.notify()
                return True
        return False

    def record_notice(self, notice: MoveNotice) -> None:
        """Keep what is public about an autopiloted decision (never the move of a secret one:
        only its seat, decision kind and why)."""
        if notice.how != "autopilot":
            return
        self.notices.append(
            {"index": notice.index, "seat": notice.seat, "decision": notice.decision,
             "reason": notice.autopilot_reason or "no_answer"}
        )  # fmt: skip
        del self.notices[:-20]
        self.notify()


def _badges(room: Room) -> list[str]:
    """Each chair's controller badge: the person's name, "Bot N", "AI N"."""
    out: list[str] = []
    ai = 0
    for i, c in enumerate(room.chairs):
        if c.kind == "bot":
            out.append(f"Bot {i + 1}")
        elif c.kind == "model":
            ai += 1
            out.append(f"AI {ai}")
        else:
            out.append("")
    return out


def room_status(room: Room, member: Member | None, now: float | None = None) -> dict[str, Any]:
    """What anyone in the room may know about it (no token: chairs, host, match), plus
    ``you`` (the caller's chair and host flag)."""
    now = time.monotonic() if now is None else now
    badges = _badges(room)
    chairs = []
    for i, c in enumerate(room.chairs):
        m = room.member_at(i)
        chairs.append(
            {
                "chair": i,
                "kind": c.kind,
                "name": m.name if m else (badges[i] if c.kind != "empty" else ""),
                "badge": badges[i] or ("human" if c.kind == "human" else ""),
                "model": c.participant if c.kind == "model" else None,
                "present": m.present(now, 8.0) if m else None,
                "host": m is not None and m.id == room.host,
                "handed": i in room.handed,
            }
        )
    return {
        "code": room.code,
        "seats": room.seats,
        "mode": room.mode,
        "time_per_move": room.time_per_move,
        "speed": room.speed,
        "state": room.state,
        "match_id": room.match_id,
        "chairs": chairs,
        "notices": list(room.notices[-5:]),
        "you": {
            "chair": member.chair if member else None,
            "host": room.is_host(member),
            "name": member.name if member else None,
        },
    }


class RoomBook:
    """Every room of one service, by code, and by the matches they made."""

    def __init__(self, registry: MatchRegistry, settings: RoomSettings) -> None:
        self.registry = registry
        self.settings = settings
        self.rooms: dict[str, Room] = {}
        self.by_match: dict[str, Room] = {}
        self._members: dict[bytes, tuple[str, str]] = {}

    # -- rooms and members -------------------------------------------------------------------
    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms:
                return code

    def create(
        self, *, seats: int, mode: str, time_per_move: float, speed: str,
        host_name: str | None, lang: str = "en",
    ) -> tuple[Room, str | None]:  # fmt: skip
        """A new room (its host in chair 0 when ``host_name`` is given); returns the room and
        the host's member token (None for a room without people: a bot match to watch)."""
        if speed not in SPEEDS:
            raise RoomError(422, "invalid_request", f"speed is one of {', '.join(SPEEDS)}")
        self._drop_old()
        if len(self.rooms) >= self.settings.max_rooms:
            raise RoomError(503, "too_many_rooms", "the server holds too many rooms right now")
        room = Room(
            code=self._new_code(), seats=seats, mode=mode, time_per_move=time_per_move,
            speed=speed, settings=self.settings, chairs=[Chair() for _ in range(seats)],
            lang=lang,
        )  # fmt: skip
        self.rooms[room.code] = room
        token = None
        if host_name is not None:
            member, token = self._add_member(room, host_name, 0)
            room.host = member.id
        return room, token

    def _add_member(self, room: Room, name: str, chair: int) -> tuple[Member, str]:
        token = new_token()
        member = Member(
            id=secrets.token_hex(6), name=name, digest=_digest(token), chair=chair,
            last_seen=time.monotonic(),
        )  # fmt: skip
        room.members[member.id] = member
        room.chairs[chair] = Chair(kind="human", member=member.id)
        self._members[member.digest] = (room.code, member.id)
        room.notify()
        return member, token

    def get(self, code: str) -> Room:
        room = self.rooms.get(code.strip().upper())
        if room is None:
            raise RoomError(404, "unknown_room", f"there is no room {code[:12]!r}: check the code")
        return room

    def member(self, token: str | None) -> tuple[Room, Member] | None:
        """The room and member of a member token (None: unknown)."""
        if not token:
            return None
        found = self._members.get(_digest(token))
        if found is None:
            return None
        room = self.rooms.get(found[0])
        m = room.members.get(found[1]) if room else None
        if room is None or m is None:
            return None
        m.last_seen = time.monotonic()
        return room, m

    def join(self, code: str, name: str) -> tuple[Room, Member, str]:
        """A new member in the first free chair; refused for an unknown code, a room whose game
        has started, or a full room."""
        room = self.get(code)
        if room.state != "lobby":
            raise RoomError(409, "room_playing", "the game of this room has started: watch it")
        chair = room.free_chair()
        if chair is None:
            raise RoomError(409, "room_full", f"room {room.code} is full ({room.seats} seats)")
        member, token = self._add_member(room, name, chair)
        return room, member, token

    # -- host controls -----------------------------------------------------------------------
    @staticmethod
    def require_host(room: Room, member: Member | None) -> Member:
        if member is None or member.id not in room.members:
            raise RoomError(403, "not_a_member", "you are not in this room")
        room.check_host()
        if not room.is_host(member):
            raise RoomError(403, "not_host", "only the room's host can do this")
        return member

    def set_chair(
        self, room: Room, chair: int, kind: ChairKind, spec: str = "rule",
        participant: str | None = None,
    ) -> None:  # fmt: skip
        """Seat a bot or a model in a chair, or empty it (a person seated there is removed)."""
        if room.state == "playing":
            raise RoomError(409, "room_playing", "chairs change between games (hand to a bot)")
        if not 0 <= chair < room.seats:
            raise RoomError(422, "invalid_request", f"chair {chair} is not at this table")
        if kind == "model" and (
            participant is None or self.registry.settings.participant(participant) is None
        ):
            raise RoomError(422, "invalid_request", "no such model participant on this server")
        if kind == "human":
            raise RoomError(422, "invalid_request", "people take a chair by joining the room")
        old = room.member_at(chair)
        if old is not None:
            if old.id == room.host:
                raise RoomError(409, "is_host", "the host cannot remove their own chair")
            old.chair = None
            room.members.pop(old.id, None)
            self._members.pop(old.digest, None)
        room.chairs[chair] = Chair(kind=kind, spec=spec, participant=participant)
        room.notify()

    def fill(self, room: Room) -> None:
        """Every empty chair gets a rule bot."""
        if room.state == "playing":
            raise RoomError(409, "room_playing", "the game is on")
        for i, c in enumerate(room.chairs):
            if c.kind == "empty":
                room.chairs[i] = Chair(kind="bot")
        room.notify()

    def set_speed(self, room: Room, speed: str) -> None:
        if speed not in SPEEDS:
            raise RoomError(422, "invalid_request", f"speed is one of {', '.join(SPEEDS)}")
        room.speed = speed
        room.notify()

    def hand_to_bot(self, room: Room, chair: int) -> None:
        """A rule bot plays an absent person's seat (no poll or stream for the service's
        disconnect grace) until :meth:`give_back`."""
        live = self._playing(room)
        if chair not in live.remote or room.chairs[chair].kind != "human":
            raise RoomError(422, "invalid_request", "only a person's seat can be handed to a bot")
        if chair in room.handed:
            return
        if live.remote[chair].connected():
            raise RoomError(
                409, "player_present", "only an absent player's seat can be handed to a bot"
            )
        room.handed[chair] = StandIn(room, live, chair, live.settings.seed)
        room.notify()

    def give_back(self, room: Room, chair: int) -> None:
        stand_in = room.handed.pop(chair, None)
        if stand_in is not None:
            stand_in.stop()
        room.notify()

    def _playing(self, room: Room) -> LiveMatch:
        if room.live is None or room.live.ended:
            raise RoomError(409, "not_playing", "no game is being played in this room")
        return room.live

    # -- games -------------------------------------------------------------------------------
    def start(self, room: Room, seed: int | None = None) -> LiveMatch:
        """Make the room's game (every chair filled), wrap its bots in the table's speed and
        watch its autopilot notices. It begins once every person has sat down (their table page
        opened), or after ``start_wait_s``."""
        if room.state == "playing":
            raise RoomError(409, "room_playing", "the game of this room is on already")
        if any(c.kind == "empty" for c in room.chairs):
            raise RoomError(409, "empty_chairs", "fill the empty chairs first (Fill with bots)")
        for s in list(room.handed.values()):
            s.stop()
        room.handed.clear()
        players: list[dict[str, Any]] = []
        for i, c in enumerate(room.chairs):
            if c.kind == "human":
                m = room.member_at(i)
                players.append({"kind": "human", "name": m.name if m else f"Player {i + 1}"})
            elif c.kind == "model":
                players.append({"kind": "model", "participant": c.participant})
            else:
                players.append({"kind": "bot", "spec": c.spec})
        body = {
            "seats": room.seats, "mode": room.mode, "time_per_move": float(room.time_per_move),
            "players": players, "start": "connected", "lang": room.lang,
            "max_rounds": self.settings.max_rounds,
        }  # fmt: skip
        if seed is not None:
            body["seed"] = seed
        try:
            live, created = self.registry.create(CreateMatch.model_validate(body))
        except CreateError as exc:
            raise RoomError(422, "invalid_match", str(exc)) from None
        # No await since create(): a bots-only match's task has not run a step yet, so its
        # seats can still be wrapped.
        seats = live.match.seats
        for i, s in enumerate(seats):
            if isinstance(s, BotSeat):
                seats[i] = PacedBotSeat(s, room.pause)
        live.match.on_notice = room.record_notice
        for grant in created.seats:
            m = room.member_at(grant.seat)
            if m is not None and grant.token is not None:
                m.seat_tokens[live.match_id] = grant.token
        room.spectator_token = created.spectator_token
        room.live = live
        room.matches.append(live.match_id)
        room.signals = SignalBook(room.seats)
        room.notices = []
        self.by_match[live.match_id] = room
        if live.task is None:
            asyncio.get_running_loop().call_later(self.settings.start_wait_s, live.start)
        room.notify()
        return live

    def _drop_old(self) -> None:
        """Forget rooms idle for a day whose game is not running (bounded memory)."""
        now = time.monotonic()
        for code, room in list(self.rooms.items()):
            idle = now - max([room.created] + [m.last_seen for m in room.members.values()])
            if idle > 86_400 and room.state != "playing":
                del self.rooms[code]
                for m in room.members.values():
                    self._members.pop(m.digest, None)
                for mid in room.matches:
                    self.by_match.pop(mid, None)


__all__ = [
    "HANDED_NOTE",
    "MEMBER_COOKIE",
    "SPEEDS",
    "Chair",
    "Member",
    "PacedBotSeat",
    "Room",
    "RoomBook",
    "RoomError",
    "RoomSettings",
    "StandIn",
    "room_status",
]
