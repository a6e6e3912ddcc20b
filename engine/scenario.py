"""Scenarios: build a game from an exact, declarative position (docs/scenarios.md).

A scenario names the mode, every seat (role, character, life, hand, in-play cards, weapon,
stars), the deck order from the top, the discard pile, the outcomes of the next coin tosses, and
whose turn it is at which step. Cards are named by id (``shot_07``) or by kind (``shot``: the
lowest-numbered unused copy); cards not placed go to the deck under the listed ones, in a seeded
order. Anything unknown or impossible raises :class:`ScenarioError` with a location (the
field, ``seat 2 hand``, or ``<root>``) and a precise message; so does a position that is already
over, or one no game of its mode can reach (docs/scenarios.md lists the checks).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from . import rng
from .cards import BLUE, CARD_BY_ID, CARD_KIND_OF, DECK, KIND_BY_ID, WEAPON
from .characters import CHARACTER_BY_ID, CHARACTER_IDS
from .config import DEFAULT_MAX_ROUNDS, GameConfig
from .errors import ScenarioError, shown
from .events import DeputiesNamed, GameStarted, RoleDealt, RoleKnown
from .game import Game
from .roles import (
    DEPUTY,
    DOUBLE_AGENT,
    DOUBLE_AGENT_MODE,
    HIGH_NOON_ROUND,
    MAX_SEATS,
    MIN_SEATS,
    MODES,
    OLD_CLASSIC,
    OLD_CLASSIC_SHERIFF_LIFE_BONUS,
    OUTLAW,
    ROLES,
    SHERIFF,
    SHERIFF_LIFE_BONUS,
    UPGRADES,
)
from .state import PUBLIC_BIT, GameState, Player
from .victory import outcome

Step = Literal["turn_start", "draw", "play"]

# The Shots one turn can hold: every Shot card and every Ricochet played as a Shot. ``shots``
# only tells "none yet" from "some" (rules.md §4), so a larger count describes nothing.
MAX_SHOTS = KIND_BY_ID["shot"].copies + KIND_BY_ID["ricochet"].copies


class SeatSpec(BaseModel):
    """One seat of a scenario. Omitted: a seeded unused character; max life from the character
    (+ the sheriff's bonus); life = max life; empty hand and play area."""

    # strict: "3" is not a life and true is not a seat (pydantic's lax mode would take both).
    model_config = ConfigDict(extra="forbid", strict=True)
    role: str
    character: str | None = None
    life: int | None = None
    max_life: int | None = None
    alive: bool = True
    hand: list[str] = Field(default_factory=list)
    in_play: list[str] = Field(default_factory=list)
    weapon: str | None = None
    stars: list[str | None] = Field(default_factory=list)


class Scenario(BaseModel):
    """A whole position. ``deck`` lists cards from the top; ``discard`` from bottom to top;
    ``coins`` the outcomes (true = lucky) of the next coin tosses before the RNG takes over."""

    model_config = ConfigDict(extra="forbid", strict=True)
    mode: str = "classic"
    seed: int = Field(0, ge=0, lt=rng.SEED_LIMIT)
    max_rounds: int = Field(DEFAULT_MAX_ROUNDS, ge=1)
    seats: list[SeatSpec]
    deck: list[str] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)
    coins: list[bool] = Field(default_factory=list)
    turn: int | None = None
    step: Step = "play"
    round: int = Field(1, ge=1)
    shots: int = Field(0, ge=0, le=MAX_SHOTS)
    named_deputies: list[int] | None = None


class _Cards:
    """Hands out cards named by id or kind, refusing duplicates and unknown names."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def take(self, name: str, where: str) -> int:
        if name in CARD_BY_ID:
            c = CARD_BY_ID[name].index
            if c in self.used:
                raise ScenarioError(where, f"card {name} is placed twice")
        elif name in KIND_BY_ID:
            free = [c.index for c in DECK if c.kind == name and c.index not in self.used]
            if not free:
                raise ScenarioError(
                    where, f"no copy of {name!r} left (the deck has {KIND_BY_ID[name].copies})"
                )
            c = free[0]
        else:
            raise ScenarioError(
                where, f"unknown card {shown(name)} (use a card id such as shot_07 or a card kind)"
            )
        self.used.add(c)
        return c


def load_scenario(data: dict[str, Any] | Scenario) -> Game:
    """Build the game a scenario describes; the engine then runs to the first real decision.

    Raises :class:`ScenarioError` (with ``location``) for anything unknown or impossible."""
    try:
        sc = data if isinstance(data, Scenario) else Scenario.model_validate(data)
    except ValidationError as e:
        raise _pydantic_error(e) from None
    n = len(sc.seats)
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise ScenarioError("seats", f"a table has {MIN_SEATS} to {MAX_SEATS} seats, not {n}")
    if sc.mode not in MODES:
        raise ScenarioError(
            "mode", f"unknown mode {shown(sc.mode)}; valid modes: {', '.join(MODES)}"
        )
    if sc.round > sc.max_rounds:
        raise ScenarioError(
            "round", f"round {sc.round} is past the round cap (max_rounds {sc.max_rounds})"
        )
    if sc.shots and sc.step != "play":
        raise ScenarioError("shots", f"Shots are counted in the play step, not at {sc.step}")
    config = GameConfig(seats=n, mode=sc.mode, max_rounds=sc.max_rounds)
    roles = [s.role for s in sc.seats]
    _check_roles(roles, sc)
    sheriff = roles.index(SHERIFF)
    streams = [rng.stream_seed(sc.seed, s) for s in rng.STREAMS]
    deal = rng.STREAMS.index("deal")

    chosen = [s.character for s in sc.seats]
    for i, ch in enumerate(chosen):
        if ch is not None and ch not in CHARACTER_BY_ID:
            raise ScenarioError(
                f"seat {i} character",
                f"unknown character {shown(ch)}; valid: {', '.join(CHARACTER_IDS)}",
            )
    named = [c for c in chosen if c]
    for ch in set(named):
        seats_with = [i for i, c in enumerate(chosen) if c == ch]
        if len(seats_with) > 1:
            raise ScenarioError(
                f"seat {seats_with[1]} character",
                f"seats {seats_with} all have character {ch!r} (characters are dealt without"
                " repetition)",
            )
    spare = [c for c in CHARACTER_IDS if c not in named]
    rng.shuffle(streams, deal, spare)

    cards = _Cards()
    players = [
        _player(i, s, CHARACTER_BY_ID[s.character or spare.pop()], sc, sheriff, cards)
        for i, s in enumerate(sc.seats)
    ]
    if not players[sheriff].alive:
        raise ScenarioError(
            f"seat {sheriff} alive", "the sheriff must be alive (a dead sheriff ends the game)"
        )

    top = [cards.take(x, "deck") for x in sc.deck]
    discard = [cards.take(x, "discard") for x in sc.discard]
    rest = [c for c in range(len(DECK)) if c not in cards.used]
    rng.shuffle(streams, deal, rest)
    deck = rest + list(reversed(top))  # the end of the list is the top

    turn = sheriff if sc.turn is None else sc.turn
    if not 0 <= turn < n or not players[turn].alive:
        raise ScenarioError("turn", f"seat {turn} is not a living seat")
    known = [0] * len(DECK)
    for p in players:
        for c in p.hand:
            known[c] = 1 << p.seat
        for c in p.in_play + ([p.weapon] if p.weapon >= 0 else []):
            known[c] = PUBLIC_BIT
    for c in discard:
        known[c] = PUBLIC_BIT
    g = GameState(
        n,
        sc.mode,
        sc.max_rounds,
        sc.seed,
        players,
        deck,
        discard,
        streams,
        sheriff,
        coins=list(sc.coins),
        known=known,
    )
    won = outcome(g)
    if won is not None:
        team, _, reason = won
        raise ScenarioError(
            "seats", f"the position is already over (team {team} has won: {reason}); a"
            " scenario is a game in progress",
        )  # fmt: skip
    g.log.append(
        GameStarted(
            mode=sc.mode, seats=n, sheriff=sheriff, characters=[p.character for p in players],
            life=[p.life for p in players], roles_at_table=sorted(roles),
        )
    )  # fmt: skip
    for p in players:
        g.log.append(RoleDealt(seat=p.seat, role=p.role, private_to=[p.seat]))
    if DOUBLE_AGENT in roles:
        _double_agent(g, sc.named_deputies)
    g.round = sc.round
    g.high_noon = sc.mode != OLD_CLASSIC and sc.round >= HIGH_NOON_ROUND
    g.turn = turn
    if sc.step == "turn_start":
        if turn == sheriff:
            g.round -= 1
            g.high_noon = sc.mode != OLD_CLASSIC and g.round >= HIGH_NOON_ROUND
        g.stack = [["turn", turn]]
    elif sc.step == "draw":
        g.stack = [["end_turn", turn], ["play", turn], ["draw", turn]]
    else:
        g.shots = sc.shots
        g.stack = [["end_turn", turn], ["play", turn]]
    return Game(g, config)


def _check_roles(roles: list[str], sc: Scenario) -> None:
    """Known roles, one sheriff, and the double agent only where rules.md §2 deals one: in
    double_agent mode, from 5 seats, one at most (it replaces one outlaw of the classic table;
    at 4 seats the mode plays classic)."""
    for i, r in enumerate(roles):
        if r not in ROLES:
            raise ScenarioError(
                f"seat {i} role", f"unknown role {shown(r)}; valid roles: {', '.join(ROLES)}"
            )
    sheriffs = [i for i, r in enumerate(roles) if r == SHERIFF]
    if len(sheriffs) != 1:
        raise ScenarioError(
            "seats",
            f"a table needs exactly one sheriff, this one has {len(sheriffs)} (seats {sheriffs})",
        )
    agents = [i for i, r in enumerate(roles) if r == DOUBLE_AGENT]
    if agents and sc.mode != DOUBLE_AGENT_MODE:
        raise ScenarioError(
            f"seat {agents[0]} role", "the double_agent role exists only in double_agent mode"
        )
    if agents and len(roles) < 5:
        raise ScenarioError(
            f"seat {agents[0]} role",
            "double_agent mode deals a double agent from 5 seats (at 4 it plays classic)",
        )
    if len(agents) > 1:
        raise ScenarioError(
            f"seat {agents[1]} role",
            f"one double agent at most (it replaces one outlaw), seats {agents} have the role",
        )
    if sc.named_deputies is not None and not agents:
        raise ScenarioError(
            "named_deputies",
            "named_deputies are told to the sheriff only when a double agent is at the table"
            " (double_agent mode)",
        )


def _player(i: int, s: SeatSpec, ch: Any, sc: Scenario, sheriff: int, cards: _Cards) -> Player:
    """Seat ``i`` of the scenario, its cards taken from ``cards``."""
    n = len(sc.seats)
    base = ch.old_classic_life if sc.mode == OLD_CLASSIC else ch.life
    if i == sheriff:
        base += OLD_CLASSIC_SHERIFF_LIFE_BONUS if sc.mode == OLD_CLASSIC else SHERIFF_LIFE_BONUS[n]
    max_life = s.max_life if s.max_life is not None else base
    life = s.life if s.life is not None else (max_life if s.alive else 0)
    if max_life < 1:
        raise ScenarioError(f"seat {i} max_life", "max_life must be at least 1")
    if not 0 <= life <= max_life:
        raise ScenarioError(f"seat {i} life", f"life {life} is outside 0..{max_life}")
    if s.alive and life == 0:
        raise ScenarioError(f"seat {i} life", "a living player needs life ≥ 1")
    if not s.alive and life != 0:
        raise ScenarioError(f"seat {i} life", "an eliminated player has life 0")
    p = Player(i, s.role, ch.id, life, max_life, alive=s.alive)
    p.hand = [cards.take(x, f"seat {i} hand") for x in s.hand]
    for x in s.in_play:
        c = cards.take(x, f"seat {i} in_play")
        kind = CARD_KIND_OF[c]
        if KIND_BY_ID[kind].color != BLUE:
            raise ScenarioError(
                f"seat {i} in_play", f"{x} is not a blue card (weapons go in 'weapon')"
            )
        if any(CARD_KIND_OF[o] == kind for o in p.in_play):
            raise ScenarioError(f"seat {i} in_play", f"two copies of {kind}")
        if kind == "jail" and i == sheriff:
            raise ScenarioError(f"seat {i} in_play", "the sheriff cannot be jailed")
        p.in_play.append(c)
    if s.weapon is not None:
        c = cards.take(s.weapon, f"seat {i} weapon")
        if KIND_BY_ID[CARD_KIND_OF[c]].color != WEAPON:
            raise ScenarioError(f"seat {i} weapon", f"{s.weapon} is not a weapon")
        p.weapon = c
    if s.stars and sc.mode == OLD_CLASSIC:
        raise ScenarioError(f"seat {i} stars", "old_classic has no glory stars (rules.md §7)")
    for up in s.stars:
        if up is not None and up not in UPGRADES:
            raise ScenarioError(
                f"seat {i} stars", f"unknown upgrade {shown(up)}; valid: {', '.join(UPGRADES)}"
            )
    p.stars = [u or "" for u in s.stars]
    if not s.alive and (p.hand or p.in_play or p.weapon >= 0):
        raise ScenarioError(f"seat {i} alive", "an eliminated player holds no cards")
    return p


def _double_agent(g: GameState, named: list[int] | None) -> None:
    agent = next(p for p in g.players if p.role == DOUBLE_AGENT)
    for o in (p for p in g.players if p.role == OUTLAW):
        g.log.append(
            RoleKnown(viewer=agent.seat, seat=o.seat, role=OUTLAW, private_to=[agent.seat])
        )
        g.log.append(
            RoleKnown(viewer=o.seat, seat=agent.seat, role=DOUBLE_AGENT, private_to=[o.seat])
        )
    deputies = [p.seat for p in g.players if p.role == DEPUTY]
    if named is None:
        named = ([deputies[0]] if deputies else []) + [agent.seat]
    elif (
        sorted(named) != sorted(set(named))
        or agent.seat not in named
        or len(named) != 2
        or not any(s in deputies for s in named)
    ):
        raise ScenarioError("named_deputies", "list one deputy and the double agent")
    g.named_deputies = list(named)
    g.log.append(DeputiesNamed(sheriff=g.sheriff, seats=list(named), private_to=[g.sheriff]))


_SHOWN_ERRORS = 5  # pydantic errors repeated in one message (a list of 10⁶ bad cards has 10⁶)


def _pydantic_error(e: ValidationError) -> ScenarioError:
    """One ScenarioError for a failed validation: located at the first error's field
    (``<root>`` when the document itself is wrong, e.g. not an object), with up to
    :data:`_SHOWN_ERRORS` errors, each location cut to a readable length."""
    errors = e.errors()

    def where(err: Any) -> str:
        loc = ".".join(str(x)[:40] for x in err["loc"])
        return loc or "<root>"

    first = errors[0]
    parts = [first["msg"]] + [f"{where(x)}: {x['msg']}" for x in errors[1:_SHOWN_ERRORS]]
    more = f" (and {len(errors) - _SHOWN_ERRORS} more)" if len(errors) > _SHOWN_ERRORS else ""
    return ScenarioError(where(first), "invalid scenario: " + "; ".join(parts) + more)


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of scenario files."""
    return Scenario.model_json_schema()
