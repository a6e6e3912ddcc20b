"""The conformance suite, shipped with the engine so anyone can self-check an engine build:
invariants checked at every step of seeded random games, determinism and serialization
round-trips per game, and the hidden-information resampler used by every leak test.

Run it with ``bangarena simulate`` (checks on by default) or :func:`run_games`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from .cards import CARD_KIND_OF as DECK_KIND
from .cards import DECK_SIZE
from .config import GameConfig
from .game import Game, new_game, replay

__all__ = ["replay"]
from .roles import DRAW, LAW, OUTLAWS, RENEGADE, SHERIFF, TEAM_OF
from .state import PUBLIC_BIT, state_from_dict, state_to_dict
from .views import known_roles


def step_violations(game: Game) -> list[str]:
    """Invariants that hold after every step of every game."""
    g = game.state
    out: list[str] = []
    cards = list(g.deck) + list(g.discard) + list(g.limbo)
    for p in g.players:
        cards += p.hand
        cards += p.in_play
        if p.weapon >= 0:
            cards.append(p.weapon)
        if not 0 <= p.life <= p.max_life or p.max_life < 1:
            out.append(f"seat {p.seat} life {p.life}/{p.max_life} out of bounds")
        if not p.alive and p.life != 0:
            out.append(f"eliminated seat {p.seat} has life {p.life}")
        if p.alive and p.life == 0:
            out.append(f"seat {p.seat} alive at 0 life")
        kinds = [DECK_KIND[c] for c in p.in_play]
        if len(kinds) != len(set(kinds)):
            out.append(f"seat {p.seat} has two copies of a blue card in play: {kinds}")
    if len(cards) != DECK_SIZE or len(set(cards)) != DECK_SIZE:
        out.append(f"card conservation broken: {len(cards)} cards, {len(set(cards))} distinct")
    moves = game.legal_moves
    if g.over:
        if moves:
            out.append("legal moves listed in a finished game")
    else:
        if len(moves) < 2:
            out.append(
                f"pending decision with {len(moves)} legal moves (forced moves must be automatic)"
            )
        if not g.players[g.pending[1]].alive:
            out.append(f"decision pending for eliminated seat {g.pending[1]}")
        if len({m.id for m in moves}) != len(moves):
            out.append("duplicate legal move ids")
        if any(" " in m.id for m in moves):
            out.append("a move id contains a space")
    return out


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
            violations += _all_moves_apply(game)
            violations += _roundtrip(game)
        game.apply_fast(moves[chooser.randrange(len(moves))])
        step += 1
        if check:
            violations += step_violations(game)
            if len(violations) > 20:
                break
    if check:
        violations += result_violations(game)
        again = replay(config, seed, game.history)
        if again.state_hash() != game.state_hash():
            violations.append("replay from (config, seed, moves) gave a different state hash")
        violations += _roundtrip(game)
    g = game.state
    report = GameReport(config, seed, g.winning_team or "", len(g.history), g.forced, violations)
    return game, report


def _all_moves_apply(game: Game) -> list[str]:
    out = []
    for m in game.legal_moves:
        c = game.clone()
        try:
            c.apply(game.to_move, m.id)
        except Exception as e:  # noqa: BLE001 — any failure is a violation to report
            out.append(f"legal move {m.id} failed: {type(e).__name__}: {e}")
    return out


def _roundtrip(game: Game) -> list[str]:
    d = state_to_dict(game.state)
    back = state_to_dict(state_from_dict(d))
    return [] if back == d else ["state serialization round-trip changed the state"]


def run_games(
    configs: list[GameConfig], seed: int, games: int, check: bool = True
) -> Iterator[GameReport]:
    """Play ``games`` random games round-robin over ``configs`` with seeds seed, seed+1, …"""
    for i in range(games):
        _, report = play_random_game(configs[i % len(configs)], seed + i, check=check)
        yield report


def resample(game: Game, seat: int | None, rnd: random.Random) -> Game:
    """A copy of ``game`` where everything ``seat`` cannot know is re-dealt at random: the
    identities of cards it has not seen (in the deck and in other hands) and the hidden roles it
    does not know. Cards it has seen (its hand, public cards, the card it put back on the deck,
    a card it snatched) stay put. ``seat``'s view must be the same in both games."""
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
    cards = [lst[i] for lst, i in slots]
    rnd.shuffle(cards)
    for (lst, i), c in zip(slots, cards, strict=True):
        lst[i] = c
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
