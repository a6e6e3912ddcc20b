"""The search bot (``search``, ``search:sims=50``): information-set Monte-Carlo tree search
over games sampled from its seat's information set, with rule-bot rollouts.

It never sees the game. Before each decision the driver hands it ``sampler``, an opaque
``sample(rng) -> Game`` (:mod:`.information_set`). The search runs in *rounds*; each round

0. draws one determinization: a few samples, one kept in proportion to the likelihood of its
   hidden roles under the seat's rule-bot beliefs (role inference from public events), so
   rounds start from the deals the table's behaviour makes likely; and one rollout seed;
1. plays every candidate root move on a copy of that same determinization (common random
   numbers: the same world, the same rollout bots, so two moves' outcomes differ only by what
   the moves change). Below the root the tree holds the seat's own consecutive decisions (a
   play step is several): the moves legal in this sample are the arms, chosen by UCB1 with
   availability counts (ISMCTS's subset-armed bandit), untried ones first, one node expanded
   per simulation;
2. plays out to the end with a fresh rule bot in every seat (the seat's own included), each fed
   its views of the sample, and backs up 1 for a win of the seat's team (eliminated deputies
   and outlaws share it), 0 otherwise (a draw included).

``sims`` counts simulations (rollouts): ``sims // candidates`` rounds. The candidates are the
rule bot's choice and up to ``MAX_CANDIDATES - 1`` other moves. The move played is the
candidate with the best mean *paired* difference to the rule bot's choice over the rounds,
and only when that difference is above ``Z`` standard errors (for a law seat, the family-wise
threshold of ``LAW_ALPHA`` over the candidates): with 50 simulations a move must be clearly
better, not luckily better, to replace the rule bot's. Without a sampler (a driver
that does not provide one) or with one legal move it plays the rule bot's choice.

Deterministic for a seed: the randomness of decision ``k`` comes from
``random.Random(f"{seed}:{k}")``, and samples depend only on the information set and that
stream.
"""

from __future__ import annotations

import math
import random
from statistics import NormalDist
from typing import ClassVar

from bangarena.engine import Decision, Game, Move, SeatView

from .base import Bot
from .information_set import Sampler
from .rule_bot import RuleBot

UCB_C = 0.7  # exploration constant for values in [0, 1]
ROLLOUT_CAP = 2_000  # decisions per rollout: a bound, far above any game's length
CANDIDATES_PER_WORLD = 4  # samples drawn per round, one kept by its roles' likelihood
WEIGHT_FLOOR = 1e-3  # beliefs are estimates: no deal is ruled out entirely
MAX_CANDIDATES = 6  # root moves compared per decision (the rule bot's choice and 5 others)
MIN_ROUNDS = 4  # fewer rounds than this: no comparison is meaningful, play the rule bot's
Z = 1.64  # one-sided 95 %: how clearly a move must beat the rule bot's choice
LAW_ROLES = frozenset({"sheriff", "deputy"})
LAW_ALPHA = 0.05
"""As the law, a move must beat the rule bot's choice at a family-wise 95 % over the candidates
compared (Bonferroni: one-sided ``1 - 0.05 / k`` for ``k`` challengers, z = 2.33 for 5). The
law's rule bot chooses by its role beliefs (whom to trust), which the sampled worlds only
approximate; at the per-candidate ``Z`` the law's departures changed the outcome of 127 of 500
paired deals, 64 for and 63 against (+0.2 points, docs/bots.md): they were mostly noise.
Outlaws and the renegade, who know their main target, keep ``Z`` (their departures won)."""


class _Node:
    """A tree node: one of the seat's own decisions, reached by its own moves."""

    __slots__ = ("children", "visits", "value", "avail")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.value = 0.0
        self.avail = 0  # simulations in which this move was legal (ISMCTS availability)


class SearchBot(Bot):
    """IS-MCTS with rule-bot rollouts; ``sims`` simulations per decision."""

    kind = "search"
    wants_sampler: ClassVar[bool] = True

    def __init__(
        self,
        seed: int,
        seat: int,
        sims: int = 50,
        z: float = Z,
        min_rounds: int = MIN_ROUNDS,
        law_alpha: float | None = LAW_ALPHA,
    ) -> None:
        super().__init__(seed, seat)
        self.sims = sims
        self.z = z  # tests lower it to make every search decide (and so show a leak if any)
        self.law_alpha = law_alpha  # None: the law seats use ``z`` as well
        self.min_rounds = min_rounds
        self.rule = RuleBot(seed, seat)  # its memory of the table; the prior and the fallback
        self.sampler: Sampler | None = None
        self.decisions = 0

    def choose(self, view: SeatView, decision: Decision) -> str:
        prior = self.rule.choose(view, decision)
        sampler, self.sampler = self.sampler, None  # one sampler per decision, never reused
        k = self.decisions
        self.decisions += 1
        if sampler is None or len(decision.moves) < 2:
            return prior
        rng = random.Random(f"{self.seed}:{k}")
        others = [m.id for m in decision.moves if m.id != prior]
        if len(others) > MAX_CANDIDATES - 1:
            others = rng.sample(others, MAX_CANDIDATES - 1)
        candidates = [prior, *others]
        rounds = self.sims // len(candidates)
        if rounds < self.min_rounds:
            return prior
        # The sampler deals hidden roles uniformly within what the seat cannot tell apart; the
        # rule bot's beliefs (from public events: who shot whom) say which deals are likely.
        probs = self.rule.beliefs.probabilities()
        trees = {mid: _Node() for mid in candidates}
        diffs: dict[str, list[float]] = {mid: [] for mid in others}
        last = candidates[-1]
        for _ in range(rounds):
            world = _likely(sampler, rng, probs, self.seat)
            seed = rng.getrandbits(64)
            # Every candidate's rollout starts with the same bots (the same seeds) in the same
            # world: they read the world's events once, here, and each rollout gets copies.
            bots, cursors = _warm_bots(world, random.Random(seed))
            values = {}
            for mid in candidates:
                game = world if mid == last else world.clone()  # the last one needs no copy
                move = next(m for m in game.legal_moves if m.id == mid)
                values[mid] = self._simulate(game, move, trees[mid], bots, cursors)
            for mid in others:
                diffs[mid].append(values[mid] - values[prior])
        return _best(prior, diffs, self._z_for(view.role, len(others)))

    def _z_for(self, role: str | None, challengers: int) -> float:
        """How many standard errors a challenger must clear: ``z``, or for a law seat the
        family-wise threshold over ``challengers`` (never below ``z``)."""
        if self.law_alpha is None or role not in LAW_ROLES or challengers < 2:
            return self.z
        return max(self.z, NormalDist().inv_cdf(1 - self.law_alpha / challengers))

    def _simulate(
        self, game: Game, first: Move, node: _Node, bots: list[RuleBot], cursors: list[int]
    ) -> float:
        """Play ``first``, then the tree of the seat's own next decisions, then a rollout by
        copies of ``bots`` (warmed on ``game``'s log up to ``cursors``)."""
        me = self.seat
        game.apply_fast(first)
        path = [node]
        expanded = False
        while not game.over and game.to_move == me and not expanded:
            moves = game.legal_moves
            children = node.children
            for m in moves:
                child = children.get(m.id)
                if child is None:
                    child = children[m.id] = _Node()
                child.avail += 1
            untried = [m for m in moves if children[m.id].visits == 0]
            if untried:
                pick = untried[0]
                expanded = True
            else:
                pick, best = moves[0], -1.0
                for m in moves:
                    c = children[m.id]
                    score = c.value / c.visits + UCB_C * math.sqrt(math.log(c.avail) / c.visits)
                    if score > best:
                        best, pick = score, m
            game.apply_fast(pick)
            node = children[pick.id]
            path.append(node)
        value = _rollout(game, me, [b.copy() for b in bots], cursors[:])
        for n in path:
            n.visits += 1
            n.value += value
        return value


def _likely(sampler: Sampler, rng: random.Random, probs: list[dict[str, float]], me: int) -> Game:
    """One of CANDIDATES_PER_WORLD samples, drawn in proportion to how likely its roles are
    under the seat's beliefs (sampling-importance-resampling; the product of each seat's
    probability)."""
    games = [sampler(rng) for _ in range(CANDIDATES_PER_WORLD)]
    weights = []
    for g in games:
        w = 1.0
        for p in g.state.players:
            if p.seat != me and p.alive and probs[p.seat]:
                w *= max(probs[p.seat].get(p.role, 0.0), WEIGHT_FLOOR)
        weights.append(w)
    x = rng.random() * sum(weights)
    for g, w in zip(games, weights, strict=True):
        x -= w
        if x < 0:
            return g
    return games[-1]


def _warm_bots(world: Game, rng: random.Random) -> tuple[list[RuleBot], list[int]]:
    """Fresh rule bots for every seat of ``world`` (seeds from ``rng``), each having read its
    view's events so far, and the cursors of those views: what a rollout bot would have
    learnt from its first view, learnt once per world instead of once per rollout."""
    n = world.state.seats
    bots = [RuleBot(rng.getrandbits(32), s) for s in range(n)]
    cursors = [0] * n
    for s, bot in enumerate(bots):
        view = world.view(s)
        bot.observe(view)
        cursors[s] = view.cursor
    return bots, cursors


def _rollout(game: Game, me: int, bots: list[RuleBot], cursors: list[int]) -> float:
    """Play ``game`` out with ``bots`` (their views from ``cursors``); 1.0 if ``me``'s team
    wins."""
    steps = 0
    while not game.over and steps < ROLLOUT_CAP:
        d = game.decision
        s = d.seat
        view = game.view(s, since=cursors[s])
        cursors[s] = view.cursor
        mid = bots[s].choose(view, d)
        for m in d.moves:
            if m.id == mid:
                game.apply_fast(m)
                break
        steps += 1
    return 1.0 if game.over and me in game.state.winners else 0.0


def _best(prior: str, diffs: dict[str, list[float]], z: float) -> str:
    """The candidate whose mean paired difference to ``prior`` is largest and more than ``z``
    standard errors above 0; otherwise ``prior``."""
    best_id, best = prior, 0.0
    for mid, d in diffs.items():
        n = len(d)
        mean = sum(d) / n
        if mean <= best:
            continue
        var = sum((x - mean) ** 2 for x in d) / (n - 1)
        if mean - z * math.sqrt(var / n) > 0:
            best_id, best = mid, mean
    return best_id
