"""The mutable state of one game: plain slotted classes of ints, strings and lists.

The engine mutates a :class:`GameState` in place; :meth:`GameState.clone` copies it cheaply and
:func:`state_to_dict` / :func:`state_from_dict` round-trip it through JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .events import Event, event_from_dict, log_dicts

PUBLIC_BIT = 1 << 8  # bit of the card-knowledge mask meaning "known to everyone"


@dataclass(slots=True)
class Player:
    """One seat. ``hand`` is in acquisition order; cards are indexes into ``cards.DECK``."""

    seat: int
    role: str
    character: str
    life: int
    max_life: int
    hand: list[int] = field(default_factory=list)
    in_play: list[int] = field(default_factory=list)
    weapon: int = -1
    stars: list[str] = field(default_factory=list)
    alive: bool = True
    tokens: int = 0  # Load tokens on the character (Armed & Dangerous)
    # Not state: bumped by the engine whenever what anyone sees of this seat may have changed
    # (life, hand size, cards in play, weapon, stars, alive), so Game.view can reuse the
    # PlayerView it built before. Never compared or saved.
    v: int = field(default=0, compare=False, repr=False)

    def copy(self) -> Player:
        """A copy with its own lists (``v`` starts again at 0: a copy's views are built anew)."""
        # Slot by slot: half the cost of the dataclass __init__ (states are cloned at every
        # step of a search bot's rollouts). Every field is set: see test_engine_clone.py.
        q = Player.__new__(Player)
        q.seat = self.seat
        q.role = self.role
        q.character = self.character
        q.life = self.life
        q.max_life = self.max_life
        q.hand = self.hand[:]
        q.in_play = self.in_play[:]
        q.weapon = self.weapon
        q.stars = self.stars[:]
        q.alive = self.alive
        q.tokens = self.tokens
        q.v = 0
        return q


@dataclass(slots=True)
class GameState:
    """Everything about one game. ``stack`` holds the pending work (tasks as lists), ``pending``
    the decision the game waits for as ``[kind, seat, *context]``."""

    seats: int
    mode: str
    max_rounds: int
    seed: int
    players: list[Player]
    deck: list[int]  # the top of the deck is the END of the list
    discard: list[int]  # the top of the pile is the END of the list
    rng: list[int]
    sheriff: int
    named_deputies: list[int] = field(default_factory=list)
    coins: list[bool] = field(default_factory=list)  # scripted outcomes (scenarios)
    limbo: list[int] = field(default_factory=list)  # cards looked at / being resolved
    known: list[int] = field(default_factory=list)  # per card: bitmask of seats that know it
    turn: int = -1
    round: int = 0
    high_noon: bool = False
    shots: int = 0
    jailed: int = 0  # 0 free, 1 cannot play, 2 loses the whole turn (old_classic)
    stack: list[list[Any]] = field(default_factory=list)
    pending: list[Any] | None = None
    log: list[Event] = field(default_factory=list)
    history: list[list[Any]] = field(default_factory=list)  # [seat, move_id] chosen by players
    forced: int = 0
    over: bool = False
    winning_team: str | None = None
    winners: list[int] = field(default_factory=list)
    end_reason: str | None = None
    # Armed & Dangerous (empty or zero in base games, and then left out of the JSON form):
    expansions: list[str] = field(default_factory=list)
    supply: int = 0  # Load tokens in the common supply
    loads: list[int] = field(default_factory=list)  # per card: Load tokens on it
    used: list[str] = field(default_factory=list)  # once-per-turn effects used this turn
    bell: bool = False  # Bell Tower: the next card played sees everyone at distance 1
    # Scripted outcomes of random hand picks (scenarios), as card numbers; left out when empty.
    picks: list[int] = field(default_factory=list)
    # Not state: the distance table per seat (table.seat_distances) and the seat lists derived
    # from it (table.living_others, table.in_range, under negative keys), kept until a Horse
    # or a Scope may have moved or someone died (the engine then sets it to None). Never
    # copied, compared or saved.
    memo: dict[int, list[int]] | None = field(default=None, compare=False, repr=False)

    def clone(self) -> GameState:
        """A deep copy of everything that changes (events are immutable once logged; so are
        the history's entries). ``memo`` starts empty."""
        c = GameState.__new__(GameState)  # slot by slot, as Player.copy
        c.seats = self.seats
        c.mode = self.mode
        c.max_rounds = self.max_rounds
        c.seed = self.seed
        c.players = [p.copy() for p in self.players]
        c.deck = self.deck[:]
        c.discard = self.discard[:]
        c.rng = self.rng[:]
        c.sheriff = self.sheriff
        c.named_deputies = self.named_deputies[:]
        c.coins = self.coins[:]
        c.limbo = self.limbo[:]
        c.known = self.known[:]
        c.turn = self.turn
        c.round = self.round
        c.high_noon = self.high_noon
        c.shots = self.shots
        c.jailed = self.jailed
        c.stack = [t[:] for t in self.stack]
        c.pending = None if self.pending is None else self.pending[:]
        c.log = self.log[:]
        c.history = self.history[:]
        c.forced = self.forced
        c.over = self.over
        c.winning_team = self.winning_team
        c.winners = self.winners[:]
        c.end_reason = self.end_reason
        c.expansions = self.expansions[:]
        c.supply = self.supply
        c.loads = self.loads[:]
        c.used = self.used[:]
        c.bell = self.bell
        c.picks = self.picks[:]
        c.memo = None
        return c


def new_player(seat: int, role: str, character: str, life: int, max_life: int) -> Player:
    """``Player(seat, role, character, life, max_life)``, every other field at its default,
    set slot by slot: in the compiled build the dataclass ``__init__`` imports the
    ``dataclasses`` module once per default-factory field (Cython 3.3), ~2,400 instructions
    each, and a deal makes one per seat (test_engine_clone.py compares the two)."""
    q = Player.__new__(Player)
    q.seat = seat
    q.role = role
    q.character = character
    q.life = life
    q.max_life = max_life
    q.hand = []
    q.in_play = []
    q.weapon = -1
    q.stars = []
    q.alive = True
    q.tokens = 0
    q.v = 0
    return q


def new_state(
    seats: int, mode: str, max_rounds: int, seed: int, players: list[Player], deck: list[int],
    rng: list[int], sheriff: int, known: list[int],
) -> GameState:  # fmt: skip
    """``GameState(seats, mode, max_rounds, seed, players, deck, [], rng, sheriff,
    known=known)``, every other field at its default, set slot by slot as :func:`new_player`
    (twelve default-factory fields: ~28,000 instructions saved per deal, compiled)."""
    c = GameState.__new__(GameState)
    c.seats = seats
    c.mode = mode
    c.max_rounds = max_rounds
    c.seed = seed
    c.players = players
    c.deck = deck
    c.discard = []
    c.rng = rng
    c.sheriff = sheriff
    c.named_deputies = []
    c.coins = []
    c.limbo = []
    c.known = known
    c.turn = -1
    c.round = 0
    c.high_noon = False
    c.shots = 0
    c.jailed = 0
    c.stack = []
    c.pending = None
    c.log = []
    c.history = []
    c.forced = 0
    c.over = False
    c.winning_team = None
    c.winners = []
    c.end_reason = None
    c.expansions = []
    c.supply = 0
    c.loads = []
    c.used = []
    c.bell = False
    c.picks = []
    c.memo = None
    return c


# The JSON form's keys: a player's, and the state's besides "players" and "log".
PLAYER_FIELDS = (
    "seat",
    "role",
    "character",
    "life",
    "max_life",
    "hand",
    "in_play",
    "weapon",
    "stars",
    "alive",
)
STATE_FIELDS = (
    "seats", "mode", "max_rounds", "seed", "deck", "discard", "rng", "sheriff", "named_deputies",
    "coins", "limbo", "known", "turn", "round", "high_noon", "shots", "jailed", "stack", "pending",
    "history", "forced", "over", "winning_team", "winners", "end_reason",
)  # fmt: skip


# Present only in games with an expansion (base-game states, hashes and goldens are unchanged).
EXPANSION_STATE_FIELDS = ("expansions", "supply", "loads", "used", "bell")
EXPANSION_PLAYER_FIELDS = ("tokens",)
OPTIONAL_STATE_FIELDS = ("picks",)  # present only when not empty


def state_to_dict(g: GameState, with_log: bool = True) -> dict[str, Any]:
    """The whole state as JSON-ready data (the full log included unless ``with_log`` is False)."""
    d: dict[str, Any] = {k: _copy(getattr(g, k)) for k in STATE_FIELDS}
    pf = PLAYER_FIELDS + EXPANSION_PLAYER_FIELDS if g.expansions else PLAYER_FIELDS
    d["players"] = [{k: _copy(getattr(p, k)) for k in pf} for p in g.players]
    if g.expansions:
        for k in EXPANSION_STATE_FIELDS:
            d[k] = _copy(getattr(g, k))
    if g.picks:
        d["picks"] = g.picks[:]
    if with_log:
        d["log"] = log_dicts(g.log)
    return d


def state_from_dict(d: dict[str, Any]) -> GameState:
    """Inverse of :func:`state_to_dict`."""
    pf = PLAYER_FIELDS + EXPANSION_PLAYER_FIELDS
    players = [Player(**{k: _copy(p[k]) for k in pf if k in p}) for p in d["players"]]
    names = STATE_FIELDS + EXPANSION_STATE_FIELDS + OPTIONAL_STATE_FIELDS
    kwargs = {k: _copy(d[k]) for k in names if k in d}
    g = GameState(players=players, **kwargs)
    g.log = [event_from_dict(e) for e in d.get("log", [])]
    return g


def _copy(v: Any) -> Any:
    """A copy of ``v``'s lists, at every depth (the state's other values are immutable)."""
    if isinstance(v, list):
        # Most lists hold ints (the deck, hands): one scan and a slice, not a call per item.
        for x in v:
            if isinstance(x, list):
                return [_copy(x) for x in v]
        return v[:]
    return v
