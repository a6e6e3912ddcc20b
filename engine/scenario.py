"""Scenarios: build a game from an exact, declarative position (docs/scenarios.md).

A scenario names the mode, every seat (role, character, life, hand, in-play cards, weapon,
stars), the deck order from the top, the discard pile, the outcomes of the next coin tosses, and
whose turn it is at which step. Cards are named by id (``shot_07``) or by kind (``shot``: the
lowest-numbered unused copy); cards not placed go to the deck under the listed ones, in a seeded
order. Anything unknown or impossible raises :class:`ScenarioError` with a precise message.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from . import rng
from .cards import BLUE, CARD_BY_ID, CARD_KIND_OF, DECK, KIND_BY_ID, WEAPON
from .characters import CHARACTER_BY_ID, CHARACTER_IDS
from .config import DEFAULT_MAX_ROUNDS, GameConfig
from .errors import ConfigError, ScenarioError
from .events import DeputiesNamed, GameStarted, RoleDealt, RoleKnown
from .game import Game
from .roles import (
    DEPUTY,
    DOUBLE_AGENT,
    DOUBLE_AGENT_MODE,
    HIGH_NOON_ROUND,
    OLD_CLASSIC,
    OLD_CLASSIC_SHERIFF_LIFE_BONUS,
    OUTLAW,
    ROLES,
    SHERIFF,
    SHERIFF_LIFE_BONUS,
    UPGRADES,
)
from .state import PUBLIC_BIT, GameState, Player

Step = Literal["turn_start", "draw", "play"]


class SeatSpec(BaseModel):
    """One seat of a scenario. Omitted: a seeded unused character; max life from the character
    (+ the sheriff's bonus); life = max life; empty hand and play area."""

    model_config = ConfigDict(extra="forbid")
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

    model_config = ConfigDict(extra="forbid")
    mode: str = "classic"
    seed: int = 0
    max_rounds: int = DEFAULT_MAX_ROUNDS
    seats: list[SeatSpec]
    deck: list[str] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)
    coins: list[bool] = Field(default_factory=list)
    turn: int | None = None
    step: Step = "play"
    round: int = 1
    shots: int = 0
    named_deputies: list[int] | None = None


class _Cards:
    """Hands out cards named by id or kind, refusing duplicates and unknown names."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def take(self, name: str, where: str) -> int:
        if name in CARD_BY_ID:
            c = CARD_BY_ID[name].index
            if c in self.used:
                raise ScenarioError(f"{where}: card {name} is placed twice")
        elif name in KIND_BY_ID:
            free = [c.index for c in DECK if c.kind == name and c.index not in self.used]
            if not free:
                raise ScenarioError(
                    f"{where}: no copy of {name!r} left (the deck has {KIND_BY_ID[name].copies})"
                )
            c = free[0]
        else:
            raise ScenarioError(
                f"{where}: unknown card {name!r} (use a card id such as shot_07 or a card kind)"
            )
        self.used.add(c)
        return c


def load_scenario(data: dict[str, Any] | Scenario) -> Game:
    """Build the game a scenario describes; the engine then runs to the first real decision."""
    try:
        sc = data if isinstance(data, Scenario) else Scenario.model_validate(data)
    except ValidationError as e:
        raise ScenarioError(_pydantic_message(e)) from None
    try:
        config = GameConfig(seats=len(sc.seats), mode=sc.mode, max_rounds=sc.max_rounds)
    except ConfigError as e:
        raise ScenarioError(str(e)) from None
    n = len(sc.seats)
    roles = [s.role for s in sc.seats]
    for i, r in enumerate(roles):
        if r not in ROLES:
            raise ScenarioError(f"seat {i}: unknown role {r!r}; valid roles: {', '.join(ROLES)}")
    sheriffs = [i for i, r in enumerate(roles) if r == SHERIFF]
    if len(sheriffs) != 1:
        raise ScenarioError(
            f"a table needs exactly one sheriff, this one has {len(sheriffs)} (seats {sheriffs})"
        )
    if DOUBLE_AGENT in roles and sc.mode != DOUBLE_AGENT_MODE:
        raise ScenarioError("the double_agent role exists only in double_agent mode")
    sheriff = roles.index(SHERIFF)
    streams = [rng.stream_seed(sc.seed, s) for s in rng.STREAMS]
    deal = rng.STREAMS.index("deal")

    chosen = [s.character for s in sc.seats]
    for i, ch in enumerate(chosen):
        if ch is not None and ch not in CHARACTER_BY_ID:
            raise ScenarioError(
                f"seat {i}: unknown character {ch!r}; valid: {', '.join(CHARACTER_IDS)}"
            )
    named = [c for c in chosen if c]
    for ch in set(named):
        seats_with = [i for i, c in enumerate(chosen) if c == ch]
        if len(seats_with) > 1:
            raise ScenarioError(
                f"seats {seats_with} all have character {ch!r} (characters are dealt without repetition)"
            )
    spare = [c for c in CHARACTER_IDS if c not in named]
    rng.shuffle(streams, deal, spare)

    cards = _Cards()
    players: list[Player] = []
    for i, s in enumerate(sc.seats):
        ch = CHARACTER_BY_ID[s.character or spare.pop()]
        base = ch.old_classic_life if sc.mode == OLD_CLASSIC else ch.life
        if i == sheriff:
            base += (
                OLD_CLASSIC_SHERIFF_LIFE_BONUS if sc.mode == OLD_CLASSIC else SHERIFF_LIFE_BONUS[n]
            )
        max_life = s.max_life if s.max_life is not None else base
        life = s.life if s.life is not None else (max_life if s.alive else 0)
        if max_life < 1:
            raise ScenarioError(f"seat {i}: max_life must be at least 1")
        if not 0 <= life <= max_life:
            raise ScenarioError(f"seat {i}: life {life} is outside 0..{max_life}")
        if s.alive and life == 0:
            raise ScenarioError(f"seat {i}: a living player needs life ≥ 1")
        if not s.alive and life != 0:
            raise ScenarioError(f"seat {i}: an eliminated player has life 0")
        p = Player(i, s.role, ch.id, life, max_life, alive=s.alive)
        p.hand = [cards.take(x, f"seat {i} hand") for x in s.hand]
        for x in s.in_play:
            c = cards.take(x, f"seat {i} in_play")
            kind = CARD_KIND_OF[c]
            if KIND_BY_ID[kind].color != BLUE:
                raise ScenarioError(
                    f"seat {i} in_play: {x} is not a blue card (weapons go in 'weapon')"
                )
            if any(CARD_KIND_OF[o] == kind for o in p.in_play):
                raise ScenarioError(f"seat {i} in_play: two copies of {kind}")
            if kind == "jail" and i == sheriff:
                raise ScenarioError(f"seat {i} in_play: the sheriff cannot be jailed")
            p.in_play.append(c)
        if s.weapon is not None:
            c = cards.take(s.weapon, f"seat {i} weapon")
            if KIND_BY_ID[CARD_KIND_OF[c]].color != WEAPON:
                raise ScenarioError(f"seat {i} weapon: {s.weapon} is not a weapon")
            p.weapon = c
        for up in s.stars:
            if up is not None and up not in UPGRADES:
                raise ScenarioError(
                    f"seat {i} stars: unknown upgrade {up!r}; valid: {', '.join(UPGRADES)}"
                )
        p.stars = [u or "" for u in s.stars]
        if not s.alive and (p.hand or p.in_play or p.weapon >= 0):
            raise ScenarioError(f"seat {i}: an eliminated player holds no cards")
        players.append(p)
    if not players[sheriff].alive:
        raise ScenarioError("the sheriff must be alive (a dead sheriff means the game is over)")

    top = [cards.take(x, "deck") for x in sc.deck]
    discard = [cards.take(x, "discard") for x in sc.discard]
    rest = [c for c in range(len(DECK)) if c not in cards.used]
    rng.shuffle(streams, deal, rest)
    deck = rest + list(reversed(top))  # the end of the list is the top

    turn = sheriff if sc.turn is None else sc.turn
    if not 0 <= turn < n or not players[turn].alive:
        raise ScenarioError(f"turn: seat {turn} is not a living seat")
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
    if sc.round < 1:
        raise ScenarioError("round starts at 1")
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
        raise ScenarioError("named_deputies must list one deputy and the double agent")
    g.named_deputies = list(named)
    g.log.append(DeputiesNamed(sheriff=g.sheriff, seats=list(named), private_to=[g.sheriff]))


def _pydantic_message(e: ValidationError) -> str:
    parts = []
    for err in e.errors():
        loc = ".".join(str(x) for x in err["loc"])
        parts.append(f"{loc}: {err['msg']}")
    return "invalid scenario: " + "; ".join(parts)


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of scenario files."""
    return Scenario.model_json_schema()
