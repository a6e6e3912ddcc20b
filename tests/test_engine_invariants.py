"""Each invariant of ``engine/invariants.py`` fires on a state that breaks it, with its words,
and not on real positions: the conformance suite's verdict rests on these checks, which are
written for speed (set comparisons, per-card tables, a sum before the stray-token scan)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bangarena.engine import GameConfig, new_game
from bangarena.engine.cards import CARD_KIND_OF, KIND_BY_ID
from bangarena.engine.conformance import play_random_game
from bangarena.engine.invariants import state_violations, step_violations, token_violations
from bangarena.engine.state import GameState

AD = ("armed_dangerous",)
JAILS = [i for i, k in enumerate(CARD_KIND_OF[:80]) if k == "jail"]
WEAPONS = [i for i, k in enumerate(CARD_KIND_OF[:80]) if KIND_BY_ID[k].color == "weapon"]
SHOTS = [i for i, k in enumerate(CARD_KIND_OF[:80]) if k == "shot"]


def _state(mode: str = "classic", expansions: tuple[str, ...] = ()) -> GameState:
    return new_game(GameConfig(seats=4, mode=mode, expansions=expansions), seed=1).state.clone()


def _take(g: GameState, card: int) -> int:
    """Remove ``card`` from wherever it is, so that moving it keeps the count of cards."""
    for pile in (g.deck, g.discard, g.limbo, *(p.hand for p in g.players)):
        if card in pile:
            pile.remove(card)
            return card
    for p in g.players:
        if card in p.in_play:
            p.in_play.remove(card)
            return card
        if p.weapon == card:
            p.weapon = -1
            return card
    raise AssertionError(f"card {card} is nowhere")


def _not_sheriff(g: GameState) -> int:
    return next(i for i, p in enumerate(g.players) if i != g.sheriff)


def _seat(g: GameState) -> None:
    g.players[1].seat = 3


def _weapon(g: GameState) -> None:
    g.players[0].weapon = _take(g, SHOTS[0])


def _life(g: GameState) -> None:
    g.players[0].life = g.players[0].max_life + 1


def _dead_alive(g: GameState) -> None:
    g.players[1].alive = False


def _zero_life(g: GameState) -> None:
    g.players[1].life = 0


def _two_jails(g: GameState) -> None:
    seat = _not_sheriff(g)
    g.players[seat].in_play += [_take(g, JAILS[0]), _take(g, JAILS[1])]


def _not_blue(g: GameState) -> None:
    g.players[0].in_play.append(_take(g, WEAPONS[0]))


def _jailed_sheriff(g: GameState) -> None:
    g.players[g.sheriff].in_play.append(_take(g, JAILS[0]))


def _two_sheriffs(g: GameState) -> None:
    g.players[_not_sheriff(g)].role = "sheriff"


def _named_sheriff(g: GameState) -> None:
    g.sheriff = _not_sheriff(g)


def _duplicate(g: GameState) -> None:
    g.deck.append(g.deck[0])


def _missing(g: GameState) -> None:
    g.deck.pop()


def _same_count_one_twice(g: GameState) -> None:
    g.deck[0] = g.deck[1]  # as many cards as numbers, one of them twice and one gone


def _out_of_range(g: GameState) -> None:
    g.deck[0] = 80  # a card number past the base deck's 80


def _negative(g: GameState) -> None:
    g.deck[0] = -1


BROKEN: list[tuple[Callable[[GameState], None], str]] = [
    (_seat, "player 1 says it is seat 3"),
    (_weapon, "holds shot as its weapon"),
    (_life, "out of bounds"),
    (_dead_alive, "eliminated seat 1 has life"),
    (_zero_life, "seat 1 alive at 0 life"),
    (_two_jails, "two copies of a blue card in play"),
    (_not_blue, "has a card that is not blue in play"),
    (_jailed_sheriff, "is jailed"),
    (_two_sheriffs, "2 sheriffs at the table"),
    (_named_sheriff, "1 sheriffs at the table, seat"),
    (_duplicate, "card conservation broken: 81 cards, 80 distinct"),
    (_missing, "card conservation broken: 79 cards, 79 distinct"),
    (_same_count_one_twice, "card conservation broken: 80 cards, 79 distinct"),
    (_out_of_range, "card conservation broken: 80 cards, 80 distinct"),
    (_negative, "card conservation broken: 80 cards, 80 distinct"),
]


@pytest.mark.parametrize(("breaks", "words"), BROKEN, ids=[f.__name__ for f, _ in BROKEN])
def test_each_position_invariant_fires(breaks: Callable[[GameState], None], words: str) -> None:
    g = _state()
    assert state_violations(g) == []
    breaks(g)
    found = state_violations(g)
    assert any(words in v for v in found), found


def test_stars_in_old_classic_are_refused() -> None:
    g = _state("old_classic")
    assert state_violations(g) == []
    g.players[0].stars = ["marksman"]
    assert "seat 0 has glory stars in old_classic" in state_violations(g)
    g = _state("classic")
    g.players[0].stars = ["marksman"]
    assert state_violations(g) == []


def _dangerous_in_play(g: GameState, card: int = 83) -> int:
    """Seat 0 puts the Dangerous Bomb (card 83) in play with one token from the supply."""
    g.players[0].in_play.append(_take(g, card))
    g.loads[card] = 1
    g.supply -= 1
    return card


def test_each_token_invariant_fires() -> None:
    g = _state(expansions=AD)
    assert state_violations(g) == [] and token_violations(g) == []
    card = _dangerous_in_play(g)
    assert token_violations(g) == []

    def broken(change: Callable[[GameState], None]) -> list[str]:
        h = g.clone()
        change(h)
        return token_violations(h)

    def supply(h: GameState) -> None:
        h.supply -= 1

    def too_many(h: GameState) -> None:
        h.players[1].tokens, h.supply = 5, h.supply - 5 + h.players[1].tokens

    def dead_holder(h: GameState) -> None:
        h.players[1].alive, h.players[1].life = False, 0
        h.players[1].tokens, h.supply = 1, h.supply - 1 + h.players[1].tokens

    def empty_dangerous(h: GameState) -> None:
        h.loads[card], h.supply = 0, h.supply + 1

    def stray(h: GameState) -> None:
        h.loads[h.deck[0]], h.supply = 1, h.supply - 1  # conserved, but on a card in the deck

    def stray_behind_a_negative(h: GameState) -> None:
        # the sums agree (-1 + 1 elsewhere): the scan must still name the stray token
        h.loads[h.deck[0]], h.loads[h.deck[1]] = -1, 1

    def short_loads(h: GameState) -> None:
        h.loads.pop()

    assert any("token conservation broken" in v for v in broken(supply))
    assert any("character has 5 tokens" in v for v in broken(too_many))
    assert any("eliminated seat 1 keeps 1 tokens" in v for v in broken(dead_holder))
    assert any(
        f"Dangerous card {card} of seat 0 has 0 tokens" in v for v in broken(empty_dangerous)
    )
    assert any("tokens on cards not in play" in v for v in broken(stray))
    found = broken(stray_behind_a_negative)
    assert any("tokens on cards not in play" in v for v in found), found
    assert broken(short_loads) == ["loads has 107 entries for 108 cards"]


@pytest.mark.parametrize("expansions", [(), AD])
def test_real_games_break_no_invariant_at_any_step(expansions: tuple[str, ...]) -> None:
    for seed in range(6):
        config = GameConfig(seats=4 + seed % 5, expansions=expansions)
        game, report = play_random_game(config, seed, check=True, sample_every=5)
        assert report.violations == [], (seed, report.violations[:3])
        assert step_violations(game) == []


def test_the_conformance_checks_catch_a_broken_round_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mid-game round trips (without the log) and the final one (with it) are both run:
    a state_from_dict that drops a field, or one that drops an event, is reported."""
    from bangarena.engine import conformance

    real = conformance.state_from_dict

    def forgets_the_turn(d):  # type: ignore[no-untyped-def]
        g = real(d)
        g.turn = -1
        return g

    monkeypatch.setattr(conformance, "state_from_dict", forgets_the_turn)
    _, report = play_random_game(GameConfig(seats=5), 4, check=True, sample_every=75)
    assert "state serialization round-trip changed the state" in report.violations

    def forgets_an_event(d):  # type: ignore[no-untyped-def]
        g = real(d)
        if "log" in d:
            g.log = g.log[:-1]
        return g

    monkeypatch.setattr(conformance, "state_from_dict", forgets_an_event)
    _, report = play_random_game(GameConfig(seats=5), 4, check=True, sample_every=75)
    assert report.violations == ["state serialization round-trip changed the state"]


def test_the_conformance_checks_catch_a_replay_that_differs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bangarena.engine import conformance

    real = conformance.replay

    def off_by_one(config, seed, moves):  # type: ignore[no-untyped-def]
        game = real(config, seed, moves)
        game.state.forced += 1
        return game

    monkeypatch.setattr(conformance, "replay", off_by_one)
    _, report = play_random_game(GameConfig(seats=4), 2, check=True)
    assert report.violations == ["replay from (config, seed, moves) gave a different state hash"]
