"""What a searching bot gets instead of the game: an opaque ``sample(rng) -> Game``, a game
drawn from the seat's information set and built from nothing else.

The driver (``simulate``, ``match``) builds :func:`information_set_sampler` for the seat about to
decide and hands it to bots that ask for one (``wants_sampler``). Each sample is a fresh game,
consistent with everything the seat knows, in which everything it does not know is re-dealt:

1. the engine's resampler (:func:`bangarena.engine.conformance.resample`) re-deals the unseen
   cards (deck, other hands, cards others look at) and the hidden roles within the groups the
   seat cannot tell apart;
2. before that, the same resampler is run once with a "shuffle" that sorts: the hidden cards
   and roles are put in a canonical order, so the samples depend on the information set and
   the ``rng`` only — not on where the true cards and roles happen to be (the leak test
   re-deals the truth and demands the very same samples, hence the same choices);
3. what the re-deal leaves behind of the truth is removed: the log keeps only the events this
   seat saw in full or that are public, and each other seat gets a role-dealt event for its
   *sampled* role (what a rollout bot in that seat needs to play); the history, the game
   seed, scripted coins, other seats' card-knowledge bits and (for anyone but the sheriff) the
   sheriff's named seats are cleared; the random streams (future reshuffles, coins, picks) are
   re-seeded from ``rng``.

The sampler is built from the canonical game at once and keeps nothing else: no reference to
the real game survives in it (its streams are zeroed too). A sample is a game to play forward
(``legal_moves``, ``apply_fast``, ``view``); its log is shorter than the real one, so its
cursors are its own.

Harness-side edits of a cloned state (log, history, seed, coins, knowledge bits, streams) are
the one place outside the engine that writes ``GameState`` fields: the engine has no API for
"forget what this seat cannot know", and the fields touched are read by views, records and the
resampler only (never by the rules), except the streams and scripted coins, which are the
future randomness and meant to be replaced.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bangarena.engine import Game
from bangarena.engine.conformance import resample
from bangarena.engine.events import RoleDealt
from bangarena.engine.state import PUBLIC_BIT

Sampler = Callable[[random.Random], Game]
"""``sample(rng)``: a game from the seat's information set, drawn with ``rng``."""


class _Sorting:
    """A stand-in for ``random.Random`` whose shuffle sorts: the canonical arrangement."""

    @staticmethod
    def shuffle(items: list) -> None:
        items.sort()


def canonical_game(game: Game, seat: int) -> tuple[Game, list[int]]:
    """The canonical representative of ``seat``'s information set in ``game`` (hidden cards
    and roles in sorted order, the truth's traces removed), and the log indexes where each
    other seat's role-dealt event goes. Never handed to a bot: samples are drawn from it."""
    out = resample(game, seat, _Sorting())  # type: ignore[arg-type]
    g = out.state
    log: list = []
    role_slots: list[int] = []
    for e in g.log:
        pt = e.private_to
        if pt is None or seat in pt:
            log.append(e)
        elif isinstance(e, RoleDealt):
            role_slots.append(len(log))
            # a placeholder without the true role; each sample puts its sampled role there
            log.append(RoleDealt(seat=e.seat, role=None, private_to=[e.seat]))
        # other private events (their draws, looks, secret moves, role knowledge) are dropped
    g.log = log
    g.history = []
    g.seed = 0
    g.rng = [0] * len(g.rng)  # the future randomness: every sample draws its own
    g.coins = []
    mask = PUBLIC_BIT | (1 << seat)
    g.known = [k & mask for k in g.known]
    if seat != g.sheriff:
        g.named_deputies = []
    return out, role_slots


def information_set_sampler(game: Game, seat: int) -> Sampler:
    """``sample(rng)`` for ``seat``'s pending decision in ``game`` (see the module docstring).
    The canonical game is built at once, so the sampler holds nothing of the truth: not the
    game, only the seat's information set in canonical form."""
    canon, role_slots = canonical_game(game, seat)

    def sample(rng: random.Random) -> Game:
        out = resample(canon, seat, rng)
        g = out.state
        if role_slots:
            log = g.log[:]  # the clone shares the canonical list's events, not the list
            for i in role_slots:
                s = log[i].seat
                log[i] = RoleDealt(seat=s, role=g.players[s].role, private_to=[s])
            g.log = log
        g.rng = [rng.getrandbits(64) for _ in g.rng]
        return out

    return sample
