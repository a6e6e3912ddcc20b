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
from .cards import (
    ALL_CARD_BY_ID,
    BLUE,
    CARD_KIND_OF,
    EXPANSIONS,
    IS_DANGEROUS,
    KIND_BY_ID,
    WEAPON,
    game_cards,
)
from .characters import CHARACTER_BY_ID, game_characters
from .config import DEFAULT_MAX_ROUNDS, GameConfig
from .errors import ConfigError, ScenarioError, shown
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
    # Armed & Dangerous: Load tokens on the character, and on each Dangerous card in play
    # (card id or kind as named in ``in_play``/``weapon`` → tokens, 1..4).
    tokens: int = Field(0, ge=0)
    loads: dict[str, int] = Field(default_factory=dict)


class Resolving(BaseModel):
    """A resolution the scenario starts inside, on top of the play step of ``turn``: an answer
    window of a Shot-symbol hit (``answer_shot``: ``seat`` answers ``source``'s ``card`` and
    needs ``needed`` Ricochets; ``rest``: the seats a Buckshot still hits after it, in order), a
    Raid (``answer_raid``, ``rest`` likewise) or a Duel round (``answer_duel``: ``seat`` must
    discard a Shot against ``source``)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["answer_shot", "answer_raid", "answer_duel"]
    seat: int
    source: int
    card: str = "shot"
    needed: int = Field(1, ge=1, le=3)
    rest: list[int] = Field(default_factory=list)


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
    expansions: list[str] = Field(default_factory=list)
    # Outcomes of the next random hand picks (Snatch or Knock Off from the hand, Grip,
    # Collector, Lockpick), as card ids or kinds in a hand; then the RNG.
    picks: list[str] = Field(default_factory=list)
    resolving: Resolving | None = None
    used: list[str] = Field(default_factory=list)  # once-per-turn effects used this turn


class _Cards:
    """Hands out cards named by id or kind, refusing duplicates and unknown names (and the
    cards of an expansion the scenario does not have)."""

    def __init__(self, expansions: tuple[str, ...]) -> None:
        self.used: set[int] = set()
        self.cards = game_cards(expansions)
        self.by_id = {c.id: c for c in self.cards}
        self.expansions = expansions

    def take(self, name: str, where: str) -> int:
        c = self.find(name, where)
        if c in self.used:
            raise ScenarioError(where, f"card {g_id(c)} is placed twice")
        self.used.add(c)
        return c

    def find(self, name: str, where: str, free: bool = True) -> int:
        if name in self.by_id:
            return self.by_id[name].index
        kind = KIND_BY_ID.get(name)
        if kind is not None and (not kind.expansion or kind.expansion in self.expansions):
            copies = [
                c.index
                for c in self.cards
                if c.kind == name and (not free or c.index not in self.used)
            ]
            if not copies:
                total = sum(c.kind == name for c in self.cards)
                raise ScenarioError(where, f"no copy of {name!r} left (the deck has {total})")
            return copies[0]
        exp = _expansion_of(name)
        if exp:
            raise ScenarioError(
                where,
                f"card {shown(name)} belongs to the {exp} expansion, which this scenario does not"
                f' have (add "expansions": ["{exp}"])',
            )
        raise ScenarioError(
            where, f"unknown card {shown(name)} (use a card id such as shot_07 or a card kind)"
        )


def _expansion_of(name: str) -> str:
    """The expansion a card id or kind belongs to ("" if none or unknown)."""
    card = ALL_CARD_BY_ID.get(name)
    if card is not None and card.index >= len(game_cards(())):
        return EXPANSIONS[0]
    kind = KIND_BY_ID.get(name)
    return kind.expansion if kind is not None else ""


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
    try:
        config = GameConfig(
            seats=n, mode=sc.mode, max_rounds=sc.max_rounds, expansions=tuple(sc.expansions)
        )
    except ConfigError as e:
        raise ScenarioError("expansions", str(e)) from None
    exps = config.expansions
    pool = game_characters(exps)
    roles = [s.role for s in sc.seats]
    _check_roles(roles, sc)
    sheriff = roles.index(SHERIFF)
    streams = [rng.stream_seed(sc.seed, s) for s in rng.STREAMS]
    deal = rng.STREAMS.index("deal")

    chosen = [s.character for s in sc.seats]
    for i, ch in enumerate(chosen):
        if ch is not None and ch not in pool:
            known = CHARACTER_BY_ID.get(ch)
            if known is not None and known.expansion:
                raise ScenarioError(
                    f"seat {i} character",
                    f"character {ch!r} belongs to the {known.expansion} expansion, which this"
                    f' scenario does not have (add "expansions": ["{known.expansion}"])',
                )
            raise ScenarioError(
                f"seat {i} character",
                f"unknown character {shown(ch)}; valid: {', '.join(pool)}",
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
    spare = [c for c in pool if c not in named]
    rng.shuffle(streams, deal, spare)

    cards = _Cards(exps)
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
    size = len(cards.cards)
    rest = [c for c in range(size) if c not in cards.used]
    rng.shuffle(streams, deal, rest)
    deck = rest + list(reversed(top))  # the end of the list is the top

    turn = sheriff if sc.turn is None else sc.turn
    if not 0 <= turn < n or not players[turn].alive:
        raise ScenarioError("turn", f"seat {turn} is not a living seat")
    known = [0] * size
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
    g.picks = [cards.find(x, "picks", free=False) for x in sc.picks]
    if exps:
        _tokens(g, sc, players, cards)
    elif any(s.tokens or s.loads for s in sc.seats) or sc.used:
        where = next(
            (f"seat {i} tokens" for i, s in enumerate(sc.seats) if s.tokens or s.loads), "used"
        )
        raise ScenarioError(
            where, 'Load tokens exist only in games with "expansions": ["armed_dangerous"]'
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
    if sc.resolving is not None:
        _resolving(g, sc)
    return Game(g, config)


def _tokens(g: GameState, sc: Scenario, players: list[Player], cards: _Cards) -> None:
    """The expansion's token supply, holders and per-turn state, checked: at most 4 per holder,
    on Dangerous cards in play only (each with at least 1: an exhausted one is discarded), and
    never more than the 32 of the supply."""
    from .loads import MAX_LOAD, SUPPLY

    g.expansions = list(sc.expansions)
    g.loads = [0] * len(g.known)
    used_tokens = 0
    for i, (spec, p) in enumerate(zip(sc.seats, players, strict=True)):
        if spec.tokens > MAX_LOAD:
            raise ScenarioError(
                f"seat {i} tokens", f"{spec.tokens} tokens on a character: at most {MAX_LOAD}"
            )
        if spec.tokens and not p.alive:
            raise ScenarioError(f"seat {i} tokens", "an eliminated character holds no tokens")
        p.tokens = spec.tokens
        used_tokens += spec.tokens
        here = p.in_play + ([p.weapon] if p.weapon >= 0 else [])
        for name, n in spec.loads.items():
            where = f"seat {i} loads"
            c = cards.find(name, where, free=False)
            if c not in here:
                c = next((x for x in here if CARD_KIND_OF[x] == name), c)
            if c not in here or not IS_DANGEROUS[c]:
                raise ScenarioError(where, f"{shown(name)} is not a Dangerous card in play here")
            if type(n) is not int or not 1 <= n <= MAX_LOAD:
                raise ScenarioError(
                    where, f"{shown(n)} tokens on {name}: a Dangerous card in play has 1 to"
                    f" {MAX_LOAD}",
                )  # fmt: skip
            g.loads[c] = n
            used_tokens += n
        for c in here:
            if IS_DANGEROUS[c] and not g.loads[c]:
                raise ScenarioError(
                    f"seat {i} loads",
                    f"Dangerous card {g_id(c)} in play needs its tokens (1..{MAX_LOAD}) in"
                    " 'loads' (one without tokens is discarded at once)",
                )
    if used_tokens > SUPPLY:
        raise ScenarioError(
            "seats", f"{used_tokens} Load tokens on holders: the supply has only {SUPPLY}"
        )
    g.supply = SUPPLY - used_tokens
    g.used = list(sc.used)


def g_id(c: int) -> str:
    from .cards import CARD_IDS

    return CARD_IDS[c]


def _resolving(g: GameState, sc: Scenario) -> None:
    """Start inside an attack's resolution (see :class:`Resolving`)."""
    from .moves import ANSWER_SHOT

    r = sc.resolving
    assert r is not None
    if sc.step != "play":
        raise ScenarioError("resolving", f"a resolution happens in the play step, not {sc.step}")
    n = len(g.players)
    for where, s in [("resolving.seat", r.seat), ("resolving.source", r.source)] + [
        ("resolving.rest", x) for x in r.rest
    ]:
        if not 0 <= s < n or not g.players[s].alive:
            raise ScenarioError(where, f"seat {s} is not a living seat")
    if r.seat == r.source or r.source in r.rest or r.seat in r.rest:
        raise ScenarioError("resolving", "the attacker and the attacked are different seats")
    if r.kind != "answer_duel" and r.source != g.turn:
        raise ScenarioError(
            "resolving.source", f"seat {r.source} attacks on its own turn (turn is {g.turn})"
        )
    if r.kind == "answer_duel" and g.turn not in (r.seat, r.source):
        raise ScenarioError(
            "resolving", f"a Duel is fought by the seat whose turn it is ({g.turn})"
        )
    cards = ("shot", "buckshot") + (("quick_shot", "flintlock") if g.expansions else ())
    if r.kind == "answer_shot":
        if r.card not in cards:
            raise ScenarioError(
                "resolving.card", f"an answer_shot answers one of {', '.join(cards)}"
            )
        if r.rest and r.card != "buckshot":
            raise ScenarioError("resolving.rest", "only a Buckshot hits several seats in turn")
        for t in reversed(r.rest):
            g.stack.append(["shot", r.source, t, "buckshot"])
        g.stack.append(["window", ANSWER_SHOT, r.seat, r.source, r.needed, r.card])
    elif r.kind == "answer_raid":
        for t in reversed(r.rest):
            g.stack.append(["raid", r.source, t])
        g.stack.append(["raid", r.source, r.seat])
    else:
        if r.rest:
            raise ScenarioError("resolving.rest", "a Duel has two duellists")
        g.stack.append(["duel", r.seat, r.source])


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
