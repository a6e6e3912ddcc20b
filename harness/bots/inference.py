"""Role inference from public events only: who attacked or helped whom, revealed roles, the roles
still unaccounted for, and (double_agent) the sheriff's two named "deputies".

A :class:`Beliefs` object is fed the events of each view as they arrive (``observe``) and, on
demand, turns them into per-seat role probabilities (``probabilities``). Everything it reads is
part of the seat's own view: public events, and the private events addressed to this seat (its
own role; in double_agent, the roles its role lets it know).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from bangarena.engine.roles import DEPUTY, DOUBLE_AGENT, OUTLAW, RENEGADE, SHERIFF

from .card_sense import KIND_OF_ID

# How much one act of aggression weighs, by card (a Duel or a Jail is as deliberate as a Shot;
# Snatch and Knock Off are half-hearted: they are also played for the card).
AGGRESSION = {
    "shot": 1.0,
    "duel": 1.0,
    "jail": 1.0,
    "knock_off": 0.5,
    "snatch": 0.4,
    # Armed & Dangerous: Shot effects, the Bomb, and effects aimed at one player.
    "quick_shot": 1.0,
    "flintlock": 1.0,
    "arrow": 0.8,
    "squaw": 0.5,
    "bomb": 1.0,
    "whip": 0.5,
    "lockpick": 0.4,
    "mexicali_kid": 1.0,
}
# What attacking a seat of a known role says about the attacker (positive: outlaw-like).
ATTACK_SIGNAL = {SHERIFF: 2.0, DEPUTY: 1.0, OUTLAW: -1.0, DOUBLE_AGENT: -1.0, RENEGADE: -0.4}
# Unknown victims: attacking a seat that looks like an outlaw looks lawful, and vice versa.
UNKNOWN_SIGNAL = 0.6
# The sheriff's own aggression is a hint about its victims (he is the one public lawman).
SHERIFF_HINT = 0.25
# Likelihood slope of the behaviour score per role family.
SLOPE = 1.3
# Freeing someone from a Jail (or a Dynamite) counts as this much friendliness.
HELP = 1.0
OUTLAW_SIDE = (OUTLAW, DOUBLE_AGENT)


class Beliefs:
    """What one seat has learnt about the table from the events it saw.

    ``acts[(a, b)]`` is the net aggression of seat ``a`` towards seat ``b`` (attacks count
    positive, favours negative); ``version`` changes whenever a conclusion may have changed.
    """

    __slots__ = (
        "me",
        "n",
        "sheriff",
        "roles_at_table",
        "known",
        "named",
        "alive",
        "acts",
        "version",
        "_pick_actor",
        "_cache",
        "_odds",
        "_pool",
        "_frame",
    )

    def __init__(self, me: int) -> None:
        self.me = me
        self.n = 0
        self.sheriff = -1
        self.roles_at_table: list[str] = []
        self.known: dict[int, str] = {}  # seat -> role this seat knows (own, revealed, told)
        self.named: list[int] = []  # double_agent: the sheriff's two named seats
        self.alive: list[bool] = []
        self.acts: dict[tuple[int, int], float] = {}
        self.version = 0
        self._pick_actor = -1
        self._cache: list[dict[str, float]] | None = None
        self._odds: list[tuple[float, float, float, float]] | None = None
        self._pool: RoleCounts | None = None
        self._frame: _Frame | None = None

    def copy(self) -> Beliefs:
        """An independent copy (the search bot warms rollout bots once per sampled world and
        copies them per candidate move). What is only ever replaced, never edited in place (the
        table's roles, the kept conclusions), is shared."""
        b = Beliefs.__new__(Beliefs)
        b.me = self.me
        b.n = self.n
        b.sheriff = self.sheriff
        b.roles_at_table = self.roles_at_table
        b.known = dict(self.known)
        b.named = self.named
        b.alive = self.alive[:]
        b.acts = dict(self.acts)
        b.version = self.version
        b._pick_actor = self._pick_actor
        b._cache = self._cache
        b._odds = self._odds
        b._pool = self._pool
        b._frame = self._frame
        return b

    # -- feeding events --------------------------------------------------------------------
    def observe(self, events: list[dict]) -> None:
        """Update from the events of a view (only new events: the caller passes ``since``)."""
        get = _HANDLERS.get
        for e in events:
            # Most events (moves, draws, turns) say nothing about roles: test before calling.
            handler = get(e["kind"])
            if handler is not None:
                handler(self, e)

    def _changed(self) -> None:
        self.version += 1
        self._cache = self._odds = None

    def _learnt(self) -> None:
        # A role became known (or the table, or the named seats): what only depends on the
        # known roles is recomputed too.
        self._pool = self._frame = None
        self._changed()

    def _act(self, a: int, b: int, w: float) -> None:
        if a == self.me:
            return  # my own acts tell me nothing about the others
        key = (a, b)
        self.acts[key] = self.acts.get(key, 0.0) + w
        self.version += 1  # _changed(), inlined: acts are the most frequent change
        self._cache = self._odds = None

    def _start(self, e: dict) -> None:
        n = e["seats"]
        self.n = n
        self.sheriff = e["sheriff"]
        self.roles_at_table = list(e["roles_at_table"])
        self.known[self.sheriff] = SHERIFF
        self.alive = [True] * n
        self._learnt()

    def _role(self, e: dict) -> None:
        if e["role"] is not None:
            self.known[e["seat"]] = e["role"]
            self._learnt()

    def _named(self, e: dict) -> None:
        if e["seats"]:
            self.named = list(e["seats"])
            self._learnt()

    def _played(self, e: dict) -> None:
        target = e["target"]
        if target is None:
            return
        kind = "shot" if e["as_kind"] == "shot" else KIND_OF_ID[e["card"]]
        w = AGGRESSION.get(kind)
        if w is None:
            return
        if kind == "knock_off" or kind == "snatch":
            self._pick_actor = e["seat"]
        self._act(e["seat"], target, w)

    def _equipped(self, e: dict) -> None:
        if e["owner"] != e["seat"] and e["card"].startswith(("jail", "bomb")):
            self._act(e["seat"], e["owner"], AGGRESSION["jail"])

    def _used(self, e: dict) -> None:
        """Armed & Dangerous: an effect aimed at a seat (Whip, Lockpick, Mexicali Kid)."""
        target = e["target"]
        if target is None or target == e["seat"]:
            return
        w = AGGRESSION.get(KIND_OF_ID.get(e["what"], e["what"]))
        if w is not None:
            self._act(e["seat"], target, w)

    def _bomb_passed(self, e: dict) -> None:
        self._act(e["seat"], e["to"], AGGRESSION["bomb"])

    def _removed(self, actor: int, victim: int, card: str | None) -> None:
        # Taking a Jail or a Dynamite away from someone is a favour, not an attack.
        if actor >= 0 and card is not None and card.startswith(("jail", "dynamite")):
            self._act(actor, victim, -AGGRESSION["knock_off"] - HELP)

    def _discarded(self, e: dict) -> None:
        if e["reason"] == "knock_off":
            self._removed(self._pick_actor, e["seat"], e["cards"][0] if e["cards"] else None)

    def _stole(self, e: dict) -> None:
        if e["reason"] == "snatch" and not e["from_hand"]:
            self._removed(e["seat"], e["victim"], e["card"])

    def _eliminated(self, e: dict) -> None:
        seat = e["seat"]
        self.alive[seat] = False
        self.known[seat] = e["role"]
        self._learnt()

    # -- conclusions -----------------------------------------------------------------------
    def scores(self) -> list[float]:
        """Behaviour score per seat: positive looks like an outlaw, negative like the law."""
        n = self.n
        frame = self._known_frame()
        base = frame.base
        first = [0.0] * n
        acts = self.acts.items()
        for (a, b), w in acts:
            first[a] += w * base[b]
        value = base[:]
        for b in frame.unknown:
            f = first[b]
            value[b] = -UNKNOWN_SIGNAL * (-1.0 if f < -1.0 else (1.0 if f > 1.0 else f))
        out = [0.0] * n
        sh = self.sheriff
        for (a, b), w in acts:
            out[a] += w * value[b]
            if a == sh and w > 0:
                out[b] += SHERIFF_HINT * w
        return out

    def pool(self) -> RoleCounts:
        """Roles at the table not yet pinned on any seat (count per role, in the table's order
        of roles; a role not in the pool counts 0)."""
        if self._pool is None:
            pool: dict[str, int] = {}
            for r in self.roles_at_table:
                pool[r] = pool.get(r, 0) + 1
            for r in self.known.values():
                pool[r] = pool.get(r, 0) - 1
            self._pool = _positive(pool)
        return self._pool

    def probabilities(self) -> list[dict[str, float]]:
        """Per seat, the probability of each role (known seats: certainty). Roles still
        unaccounted for are spread over the unknown seats, weighted by behaviour; the sheriff
        of double_agent keeps his two named seats apart (one deputy, one agent)."""
        if self._cache is not None:
            return self._cache
        known = self.known
        out: list[dict[str, float]] = [{known[s]: 1.0} if s in known else {} for s in range(self.n)]
        groups = self._unknown_roles()
        if groups:
            score = self.scores()
            for seats, roles in groups:
                for s in seats:
                    out[s] = _posterior(roles, score[s])
        self._cache = out
        return out

    def odds(self) -> list[tuple[float, float, float, float]]:
        """Per seat, ``(outlaw side, deputy, renegade, sheriff)`` probabilities: the four sums
        the rule bot weighs, equal to those of :meth:`probabilities` (same float operations in
        the same order) without a dict per seat. Kept per :attr:`version`."""
        if self._odds is not None:
            return self._odds
        frame = self._known_frame()
        out = frame.certain[:]
        if frame.groups:
            score = self.scores()
            for seats, items in frame.groups:
                for s in seats:
                    out[s] = _odds(items, score[s])
        self._odds = out
        return out

    def _known_frame(self) -> _Frame:
        """What depends only on the known roles (not on the acts): recomputed when one is learnt,
        not after every attack."""
        if self._frame is None:
            known = self.known
            n = self.n
            self._frame = _Frame(
                [ATTACK_SIGNAL.get(known.get(b, ""), 0.0) for b in range(n)],
                [_CERTAIN.get(known.get(s), _NONE) for s in range(n)],
                [(seats, tuple(roles.items())) for seats, roles in self._unknown_roles()],
                [s for s in range(n) if s not in known],
            )
        return self._frame

    def _unknown_roles(self) -> list[tuple[list[int], RoleCounts]]:
        """The unknown seats in groups that share a pool of roles: one group, or for the sheriff
        of double_agent his two named seats (one deputy, one agent) and the rest."""
        known = self.known
        unknown = [s for s in range(self.n) if s not in known]
        if not unknown:
            return []
        pool = self.pool()
        if self.me == self.sheriff and self.named:
            named = [s for s in self.named if s not in known]
            counts = {DEPUTY: 1, DOUBLE_AGENT: 1}
            for s in self.named:
                if s in known:
                    counts[known[s]] = counts.get(known[s], 0) - 1
            named_pool = _positive(counts)
            rest = [s for s in unknown if s not in named]
            left = {r: c - named_pool[r] for r, c in pool.items()}
            return [(named, named_pool), (rest, _positive(left))]
        return [(unknown, pool)]


class RoleCounts(dict):
    """Roles and how many of each (``collections.Counter``'s reading: a missing role counts 0),
    as a plain dict: Counter's methods are Python code, even in the compiled build."""

    __slots__ = ()

    def __missing__(self, key: str) -> int:
        return 0


def _positive(counts: dict[str, int]) -> RoleCounts:
    """The roles of ``counts`` with a count above 0, in its order (``+Counter``)."""
    return RoleCounts({r: c for r, c in counts.items() if c > 0})


class _Frame(NamedTuple):
    """Per seat, the attack signal of its known role and its odds if known (else zeros); the
    unknown seats in groups with the pool of roles they share (in the pool's order); the
    unknown seats."""

    base: list[float]
    certain: list[tuple[float, float, float, float]]
    groups: list[tuple[list[int], tuple[tuple[str, int], ...]]]
    unknown: list[int]


def _posterior(pool: dict[str, int], score: float) -> dict[str, float]:
    x = score * SLOPE
    x = -4.0 if x < -4.0 else (4.0 if x > 4.0 else x)
    up = math.exp(x)
    weights = {}
    total = 0.0
    for r, c in pool.items():
        # Outlaws attack lawmen, deputies attack outlaws; the renegade may do either.
        w = c * (up if r in OUTLAW_SIDE else (1.0 / up if r == DEPUTY else 1.0))
        weights[r] = w
        total += w
    if total:
        for r in weights:
            weights[r] /= total
    return weights


def _odds(items: tuple[tuple[str, int], ...], score: float) -> tuple[float, float, float, float]:
    """:func:`_posterior` folded into the four sums (``items``: the pool's, in its order)."""
    x = score * SLOPE
    x = -4.0 if x < -4.0 else (4.0 if x > 4.0 else x)
    up = math.exp(x)
    total = 0.0
    wo = wa = wd = wr = ws = 0.0
    for r, c in items:
        if r == OUTLAW:
            w = wo = c * up
        elif r == DOUBLE_AGENT:
            w = wa = c * up
        elif r == DEPUTY:
            w = wd = c * (1.0 / up)
        else:
            w = c * 1.0
            if r == RENEGADE:
                wr = w
            elif r == SHERIFF:
                ws = w
        total += w
    if total:
        wo /= total
        wa /= total
        wd /= total
        wr /= total
        ws /= total
    return (wo + wa, wd, wr, ws)


_NONE = (0.0, 0.0, 0.0, 0.0)
# A known role as odds (the double agent counts on the outlaw side).
_CERTAIN = {
    OUTLAW: (1.0, 0.0, 0.0, 0.0),
    DOUBLE_AGENT: (1.0, 0.0, 0.0, 0.0),
    DEPUTY: (0.0, 1.0, 0.0, 0.0),
    RENEGADE: (0.0, 0.0, 1.0, 0.0),
    SHERIFF: (0.0, 0.0, 0.0, 1.0),
}


_HANDLERS = {
    "game_started": Beliefs._start,
    "role_dealt": Beliefs._role,
    "role_known": Beliefs._role,
    "deputies_named": Beliefs._named,
    "played": Beliefs._played,
    "equipped": Beliefs._equipped,
    "discarded": Beliefs._discarded,
    "stole": Beliefs._stole,
    "eliminated": Beliefs._eliminated,
    "used": Beliefs._used,
    "bomb_passed": Beliefs._bomb_passed,
}
OBSERVED_KINDS = frozenset(_HANDLERS)
"""The kinds of event :meth:`Beliefs.observe` learns from (it skips the others): a reader of
views asks for only these (``SeatView.events_of``)."""
