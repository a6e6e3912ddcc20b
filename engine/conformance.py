"""The conformance suite, shipped with the engine so anyone can self-check an engine build:
invariants checked at every step of seeded random games (``invariants.py``), determinism and
serialization round-trips per game, and the hidden-information resampler used by every leak
test.

Run it with ``bangarena simulate`` (checks on by default) or :func:`run_games`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .config import GameConfig
from .game import Game, new_game, replay
from .invariants import all_moves_apply, step_violations
from .legal import legal_moves
from .moves import DRAW_KEEP
from .roles import DRAW, LAW, OUTLAWS, RENEGADE, SHERIFF, TEAM_OF
from .state import PUBLIC_BIT, state_from_dict, state_to_dict
from .views import known_roles

# Re-exported: the harness's simulate checks games with them (the checks live in invariants.py,
# shared with Game.from_omniscient_state).
__all__ = [
    "GameReport",
    "all_moves_apply",
    "play_random_game",
    "replay",
    "resample",
    "result_violations",
    "run_games",
    "step_violations",
]


def result_violations(game: Game) -> list[str]:
    """The winner agrees with the roles and who is alive."""
    g = game.state
    out: list[str] = []
    if not g.over:
        return ["game not over"]
    alive = [p for p in g.players if p.alive]
    team = g.winning_team
    if team == DRAW:
        if g.round != g.max_rounds:
            out.append("a draw before the round cap")
        return out
    sheriff_alive = g.players[g.sheriff].alive
    if team == LAW and (not sheriff_alive or any(TEAM_OF[p.role] != LAW for p in alive)):
        out.append("law won with the sheriff dead or an enemy alive")
    if team == OUTLAWS and sheriff_alive:
        out.append("outlaws won with the sheriff alive")
    if team == RENEGADE and (sheriff_alive or any(p.role != RENEGADE for p in alive)):
        out.append("renegade won with someone else alive")
    for s in g.winners:
        if TEAM_OF[g.players[s].role] != team:
            out.append(f"winner seat {s} is not on team {team}")
    return out


@dataclass
class GameReport:
    config: GameConfig
    seed: int
    winning_team: str
    decisions: int
    forced: int
    violations: list[str] = field(default_factory=list)


def play_random_game(
    config: GameConfig,
    seed: int,
    check: bool = True,
    move_seed: int | None = None,
    sample_every: int = 37,
) -> tuple[Game, GameReport]:
    """Play one game with uniform-random legal moves; with ``check``, verify every invariant."""
    chooser = random.Random(seed if move_seed is None else move_seed)
    game = new_game(config, seed)
    violations: list[str] = []
    step = 0
    if check:
        violations += step_violations(game)
    while not game.over:
        moves = game.legal_moves
        if check and step % sample_every == 0:
            violations += all_moves_apply(game)
            # The log only grows (events are appended, never changed), so the final round
            # trip below covers every event; here the rest of the state, which changes.
            violations += _roundtrip(game, with_log=False)
        game.apply_fast(moves[chooser.randrange(len(moves))])
        step += 1
        if check:
            violations += step_violations(game)
            if len(violations) > 20:
                break
    if check:
        violations += result_violations(game)
        final = state_to_dict(game.state)  # the final state's JSON form, built once
        again = replay(config, seed, game.history)
        # The canonical JSON that Game.state_hash hashes, compared whole (no hash needed).
        if not _same_json(state_to_dict(again.state), final):
            violations.append("replay from (config, seed, moves) gave a different state hash")
        violations += _roundtrip(game, final)
    g = game.state
    report = GameReport(config, seed, g.winning_team or "", len(g.history), g.forced, violations)
    return game, report


def _roundtrip(game: Game, d: dict[str, Any] | None = None, with_log: bool = True) -> list[str]:
    """The state's JSON form survives a round trip (``d``: that form, if already built)."""
    if d is None:
        d = state_to_dict(game.state, with_log=with_log)
    back = state_to_dict(state_from_dict(d), with_log=with_log)
    return [] if back == d else ["state serialization round-trip changed the state"]


def _canonical(d: dict[str, Any]) -> str:
    """The canonical JSON of a state's form, as :meth:`Game.state_hash` serializes it."""
    return json.dumps(d, sort_keys=True, separators=(",", ":"))


def _same_json(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two states' forms have the same canonical JSON (the same state hash). Equal
    JSON in insertion order implies equal canonical JSON, and pydantic-core writes it at a
    quarter of the cost of the sorted ``json.dumps`` (a third of a game's replay check); only
    forms that differ in it are compared canonically (key order is not part of the hash)."""
    from pydantic_core import to_json  # here: it takes ~0.1 s to import, the engine none

    return to_json(a) == to_json(b) or _canonical(a) == _canonical(b)


def run_games(
    configs: list[GameConfig],
    seed: int,
    games: int,
    check: bool = True,
    sample_every: int = 37,
) -> Iterator[GameReport]:
    """Play ``games`` random games round-robin over ``configs`` with seeds seed, seed+1, …
    (``sample_every``: the steps between two full checks — every legal move applied on a copy,
    the JSON round-trip — besides the invariants checked at every step)."""
    for i in range(games):
        config = configs[i % len(configs)]
        _, report = play_random_game(config, seed + i, check=check, sample_every=sample_every)
        yield report


def resample(game: Game, seat: int | None, rnd: random.Random) -> Game:
    """A copy of ``game`` where everything ``seat`` cannot know is re-dealt at random: the
    identities of cards it has not seen (in the deck and in other hands) and the hidden roles it
    does not know. Cards it has seen (its hand, public cards, the card it put back on the deck,
    a card it snatched) stay put. ``seat``'s view must be the same in both games.

    Raises :class:`InvalidSeat` as :meth:`Game.view` does (a negative seat would pick the
    wrong bit of the knowledge masks)."""
    game._check_viewer(seat, 0)
    out = game.clone()
    g = out.state
    mask = PUBLIC_BIT | ((1 << seat) if seat is not None else 0)
    known = g.known
    slots: list[tuple[list[int], int]] = []
    for i, c in enumerate(g.deck):
        if not known[c] & mask:
            slots.append((g.deck, i))
    for p in g.players:
        if p.seat == seat:
            continue
        for i, c in enumerate(p.hand):
            if not known[c] & mask:
                slots.append((p.hand, i))
    # Cards another seat is looking at (Three Eyes' draw_keep) sit in limbo and in the pending
    # decision: they are hidden from everyone else too.
    for i, c in enumerate(g.limbo):
        if not known[c] & mask:
            slots.append((g.limbo, i))
    cards = [lst[i] for lst, i in slots]
    rnd.shuffle(cards)
    moved: dict[int, int] = {}
    for (lst, i), c in zip(slots, cards, strict=True):
        if lst is g.limbo:
            moved[lst[i]] = c
        lst[i] = c
    pend = g.pending
    if moved and pend is not None and pend[0] == DRAW_KEEP:
        pend[2] = [moved.get(c, c) for c in pend[2]]  # a new list: the clone shares the old
        out._moves = tuple(legal_moves(g))
        out._decision = None
    # Hidden roles: shuffled within groups the seat cannot tell apart.
    knows = (
        known_roles(g, seat)
        if g.mode == "double_agent"
        else ({seat: ""} if seat is not None else {})
    )
    hidden = [p for p in g.players if p.alive and p.role != SHERIFF and p.seat not in knows]
    groups: list[list] = [hidden]
    if seat is not None and seat == g.sheriff and g.named_deputies:
        named = [p for p in hidden if p.seat in g.named_deputies]
        groups = [named, [p for p in hidden if p.seat not in g.named_deputies]]
    for grp in groups:
        roles = [p.role for p in grp]
        rnd.shuffle(roles)
        for p, r in zip(grp, roles, strict=True):
            p.role = r
    return out
