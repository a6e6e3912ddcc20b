"""Leak test: re-dealing everything a bot's seat cannot know (other hands, hidden roles, deck
order) never changes the bot's choice.

How it stays honest: a game is played with rule bots in every seat; at each decision of the seat
under test we keep a copy of the game and the cursor of the bot's previous view. Then a *fresh*
bot with the same seed replays that seat's whole history, but every view and every decision it
receives is built from a resampled copy (``conformance.resample``: a different hidden world for
each step). Its choices must match the original ones, move for move. A control bot that peeks at
the game it is given shows that the same procedure does catch a leak.
"""

from __future__ import annotations

import random

import pytest

from bangarena.engine import Decision, Game, GameConfig, SeatView, new_game, view_to_dict
from bangarena.engine.conformance import resample
from bangarena.harness.bots import Bot, make_bot
from bangarena.harness.simulate import bot_seed

# (seats, mode, game seed, role of the seat under test)
CASES = [
    (4, "classic", 11, "outlaw"),
    (4, "classic", 12, "renegade"),
    (5, "classic", 13, "sheriff"),
    (5, "classic", 14, "deputy"),
    (7, "classic", 15, "outlaw"),
    (7, "classic", 16, "deputy"),
    (6, "double_agent", 17, "double_agent"),
    (7, "double_agent", 18, "sheriff"),
    (8, "partners", 19, "renegade"),
    (8, "old_classic", 20, "sheriff"),
]
RESAMPLES = 3
GAMES = 3  # games per case (each with fresh bots)


def record(config: GameConfig, seed: int, role: str) -> tuple[int, list[tuple[Game, int, str]]]:
    """Play a rule-bot game; for the first seat holding ``role``, every decision as
    (copy of the game before it, cursor of the bot's previous view, the choice made)."""
    game = new_game(config, seed)
    n = config.seats
    seat = next(s for s in range(n) if game.view(s).role == role)
    bots = [make_bot("rule", bot_seed(seed, s), s) for s in range(n)]
    cursors = [0] * n
    steps: list[tuple[Game, int, str]] = []
    while not game.over:
        d = game.decision
        s = d.seat
        before = game.clone() if s == seat else None
        cursor = cursors[s]
        view = game.view(s, since=cursor)
        cursors[s] = view.cursor
        move = bots[s].choose(view, d)
        if before is not None:
            steps.append((before, cursor, move))
        game.apply(s, move)
    return seat, steps


def hidden_changed(a: Game, b: Game, seat: int) -> bool:
    """Whether the resample changed something ``seat`` cannot see (a role, a hand, the deck)."""
    pa, pb = a.state.players, b.state.players
    return (
        any(x.role != y.role for x, y in zip(pa, pb, strict=True))
        or any(x.hand != y.hand for x, y in zip(pa, pb, strict=True) if x.seat != seat)
        or a.state.deck != b.state.deck
    )


@pytest.mark.parametrize(("seats", "mode", "seed", "role"), CASES)
def test_rule_bot_choice_ignores_what_its_seat_cannot_know(
    seats: int, mode: str, seed: int, role: str
) -> None:
    config = GameConfig(seats=seats, mode=mode)
    checked = changed = 0
    for game_seed in range(100 * seed, 100 * seed + GAMES):
        seat, steps = record(config, game_seed, role)
        for k in range(RESAMPLES):
            bot = make_bot("rule", bot_seed(game_seed, seat), seat)
            for i, (before, cursor, original) in enumerate(steps):
                alt = resample(before, seat, random.Random(1000 * k + i))
                changed += hidden_changed(before, alt, seat)
                view = alt.view(seat, since=cursor)
                decision = alt.decision
                assert decision is not None and decision.seat == seat
                # The engine's part: the view itself is the same information set.
                assert view_to_dict(view) == view_to_dict(before.view(seat, since=cursor))
                # The bot's part: built only from that, the choice is the same.
                assert bot.choose(view, decision) == original, (game_seed, k, i)
                checked += 1
    assert checked >= 30
    # The test means something only if the hidden world really changed under the bot.
    assert changed >= 0.8 * checked


class PeekingBot(Bot):
    """A control that cheats: it reads the true roles of the game it is given and fires at the
    first true enemy in range (otherwise it takes the first move). The leak procedure must
    catch it."""

    kind = "peeking"

    def __init__(self, seed: int, seat: int, game: Game) -> None:
        super().__init__(seed, seat)
        self.game = game

    def choose(self, view: SeatView, decision: Decision) -> str:
        roles = [p.role for p in self.game.state.players]
        outlaw = roles[self.seat] == "outlaw"
        for m in decision.moves:
            if (
                m.card == "shot"
                and m.target is not None
                and outlaw != (roles[m.target] == "outlaw")
            ):
                return m.id
        return decision.moves[0].id


def test_leak_procedure_catches_a_peeking_bot() -> None:
    config = GameConfig(seats=7, mode="classic")
    checked = differences = 0
    for seed in range(30, 36):
        seat, steps = record(config, seed, "deputy")
        for i, (before, cursor, _) in enumerate(steps):
            alt = resample(before, seat, random.Random(i))
            view = before.view(seat, since=cursor)
            honest = PeekingBot(0, seat, before).choose(view, before.decision)
            probe = PeekingBot(0, seat, alt).choose(alt.view(seat, since=cursor), alt.decision)
            differences += honest != probe
            checked += 1
    assert checked > 0 and differences > 0
