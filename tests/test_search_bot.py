"""The search bot: it never reads hidden state (re-dealing everything its seat cannot know —
other hands, hidden roles, the deck, the random streams, the game seed — never changes a
choice), it is deterministic for a seed, and it plays through every driver (simulate, match)
and the bot-spec grammar."""

from __future__ import annotations

import copy
import random

import pytest

from bangarena.engine import Game, GameConfig, new_game, view_to_dict
from bangarena.engine.conformance import resample
from bangarena.harness.bots import BotSpecError, SearchBot, make_bot, parse_bot_spec
from bangarena.harness.bots.information_set import information_set_sampler
from bangarena.harness.match import Match, MatchSettings
from bangarena.harness.seats.bot_seat import BotSeat
from bangarena.harness.simulate import bot_seed, simulate

# Small searches that decide on any positive difference: the choices differ from the rule
# bot's often, so a leak would show (the default bot, z = 1.64, rarely departs from it).
SIMS = 9
SEARCH = {"sims": SIMS, "z": 0.0, "min_rounds": 2, "law_alpha": None}
DECISIONS = 14  # decisions of the searching seat checked per game

DEPARTURES: list[bool] = []

AD = ("armed_dangerous",)  # the expansion: its cards, tokens and moves are searched too

# (seats, mode, expansions, game seed, role of the seat under test)
CASES = [
    (5, "classic", (), 3, "outlaw"),
    (4, "classic", (), 5, "renegade"),
    (7, "classic", (), 8, "deputy"),
    (6, "double_agent", (), 2, "sheriff"),
    (5, "classic", AD, 6, "deputy"),
]


def _hide_the_future(game: Game, rnd: random.Random) -> Game:
    """A copy where everything the seat cannot know of the future is changed too: the random
    streams (reshuffles, coins, picks) and the game seed."""
    g = game.clone()
    g.state.rng = [rnd.getrandbits(64) for _ in g.state.rng]
    g.state.seed = rnd.getrandbits(63)
    return g


def record(config: GameConfig, seed: int, role: str) -> tuple[int, list[tuple[Game, int, str]]]:
    """A game with one search bot (the first seat with ``role``) among rule bots; per decision
    of that seat (up to DECISIONS): a copy of the game, the cursor of its previous view, the
    choice made. ``DEPARTURES`` counts the choices that differ from the rule bot's."""
    game = new_game(config, seed)
    n = config.seats
    seat = next(s for s in range(n) if game.view(s).role == role)
    bots = [make_bot("rule", bot_seed(seed, s), s) for s in range(n)]
    bots[seat] = SearchBot(bot_seed(seed, seat), seat, **SEARCH)
    cursors = [0] * n
    steps: list[tuple[Game, int, str]] = []
    while not game.over and len(steps) < DECISIONS:
        d = game.decision
        s = d.seat
        cursor = cursors[s]
        view = game.view(s, since=cursor)
        cursors[s] = view.cursor
        if s == seat:
            before = game.clone()
            rule_choice = copy.deepcopy(bots[s].rule).choose(view, d)
            bots[s].sampler = information_set_sampler(game, s)
            move = bots[s].choose(view, d)
            DEPARTURES.append(move != rule_choice)
            steps.append((before, cursor, move))
        else:
            move = bots[s].choose(view, d)
        game.apply(s, move)
    return seat, steps


@pytest.mark.parametrize(("seats", "mode", "expansions", "seed", "role"), CASES)
def test_search_bot_choice_ignores_what_its_seat_cannot_know(
    seats: int, mode: str, expansions: tuple[str, ...], seed: int, role: str
) -> None:
    config = GameConfig(seats=seats, mode=mode, expansions=expansions)
    DEPARTURES.clear()
    seat, steps = record(config, seed, role)
    assert len(steps) >= 5
    # The test means something only if the search really decides (it departs from the rule
    # bot's choice at some decisions).
    assert any(DEPARTURES), "no decision departed from the rule bot's"
    bot = SearchBot(bot_seed(seed, seat), seat, **SEARCH)
    for i, (before, cursor, original) in enumerate(steps):
        rnd = random.Random(1000 * seed + i)
        alt = _hide_the_future(resample(before, seat, rnd), rnd)
        view = alt.view(seat, since=cursor)
        assert view_to_dict(view) == view_to_dict(before.view(seat, since=cursor))
        bot.sampler = information_set_sampler(alt, seat)
        assert bot.choose(view, alt.decision) == original, (seed, i)


def test_the_leak_procedure_catches_a_sampler_that_keeps_the_truth() -> None:
    """The control: a bot searching over ``resample`` of the true game directly (the true
    streams kept, the hidden cards re-dealt from where they truly are) changes its choices
    when the truth is re-dealt — the procedure above would catch it."""
    config = GameConfig(seats=5, mode="classic")
    differences = checked = 0
    for seed in (3, 4):
        seat, steps = record(config, seed, "outlaw")
        for i, (before, _cursor, _) in enumerate(steps):
            rnd = random.Random(i)
            alt = _hide_the_future(resample(before, seat, rnd), rnd)
            picks = []
            for g in (before, alt):
                bot = SearchBot(7, seat, **SEARCH)
                bot.rule.choose(g.view(seat, since=0), g.decision)  # the same memory
                bot.sampler = lambda r, g=g, s=seat: resample(g, s, r)
                picks.append(bot.choose(g.view(seat, since=len(g.state.log)), g.decision))
            differences += picks[0] != picks[1]
            checked += 1
    assert checked > 0 and differences > 0


def test_a_sample_is_the_seats_information_set_and_nothing_more() -> None:
    game = new_game(GameConfig(6, "double_agent"), 4)
    chooser = random.Random(4)
    for _ in range(80):
        moves = game.legal_moves
        game.apply_fast(moves[chooser.randrange(len(moves))])
    seat = game.to_move
    sample = information_set_sampler(game, seat)
    a, b = sample(random.Random(1)), sample(random.Random(2))
    for s in (a, b):
        mine, real = view_to_dict(s.view(seat)), view_to_dict(game.view(seat))
        for key in ("events", "since", "cursor"):
            mine.pop(key), real.pop(key)
        assert mine == real
        assert [m.id for m in s.legal_moves] == [m.id for m in game.legal_moves]
        assert s.state.rng != game.state.rng and s.state.seed != game.state.seed
        assert s.state.history == []
        for e in s.state.log:  # private events of others: only the re-dealt roles
            if e.private_to is not None and seat not in e.private_to:
                assert type(e).__name__ == "RoleDealt"
                assert e.role == s.state.players[e.seat].role
    assert (a.state.deck, [p.role for p in a.state.players]) != (
        b.state.deck,
        [p.role for p in b.state.players],
    )


def test_deterministic_for_a_seed_and_the_rule_bot_without_a_sampler() -> None:
    config = GameConfig(5, "classic")
    _, first = record(config, 11, "sheriff")
    _, again = record(config, 11, "sheriff")
    assert [m for _, _, m in first] == [m for _, _, m in again]
    # Without a sampler (a driver that gives none) the search bot is the rule bot.
    game = new_game(config, 12)
    seat = game.to_move
    search, rule = make_bot("search:sims=50", 5, seat), make_bot("rule", 5, seat)
    assert search.choose(game.view(seat), game.decision) == rule.choose(
        game.view(seat), game.decision
    )


def test_bot_spec_and_simulate_and_match_drive_it() -> None:
    assert str(parse_bot_spec("search:sims=50")) == "search"
    assert str(parse_bot_spec("search:sims=8")) == "search:sims=8"
    for bad in ("search:sims=0", "search:eps=0.1", "search:sims=x"):
        with pytest.raises(BotSpecError):
            parse_bot_spec(bad)
    bot = make_bot("search:sims=8", 1, 2)
    assert isinstance(bot, SearchBot) and bot.sims == 8 and bot.kind == "search"
    # It plays with the rule bot: a rule bot change must give search matches new keys too.
    from bangarena.harness.bots import BOT_VERSIONS

    assert BOT_VERSIONS["search"].endswith("rule" + BOT_VERSIONS["rule"])

    a = simulate(2, 5, "4", "classic", players="law=search:sims=3,outlaws=rule,renegade=rule")
    b = simulate(2, 5, "4", "classic", players="law=search:sims=3,outlaws=rule,renegade=rule")
    assert a.violations == [] and a.wins == b.wins and a.decisions == b.decisions

    import asyncio

    settings = MatchSettings(seats=4, seed=9)
    seats = [BotSeat("search:sims=3", 90, 0), *(BotSeat("rule", 90 + s, s) for s in (1, 2, 3))]
    calls = []
    real = seats[0].bot.choose

    def spy(view, decision):  # the driver handed a sampler before the decision
        calls.append(seats[0].bot.sampler is not None)
        return real(view, decision)

    seats[0].bot.choose = spy  # type: ignore[method-assign]
    record_ = asyncio.run(Match(settings, seats).run())
    assert record_.status == "complete"
    assert record_.seats[0].kind == "search" and record_.seats[0].spec == "search:sims=3"
    assert calls and all(calls)


def test_the_sampler_holds_nothing_of_the_truth() -> None:
    """What the sampler closes over is the canonical game only: re-dealing the truth gives a
    canonical game equal in every field (so nothing hidden can be read out of it)."""
    from bangarena.engine.state import state_to_dict
    from bangarena.harness.bots.information_set import canonical_game

    for seed in range(12):
        config = GameConfig(6, "double_agent") if seed % 2 else GameConfig(5, expansions=AD)
        game = new_game(config, seed)
        chooser = random.Random(seed)
        for _ in range(chooser.randrange(10, 90)):
            if game.over:
                break
            moves = game.legal_moves
            game.apply_fast(moves[chooser.randrange(len(moves))])
        if game.over:
            continue
        seat = game.to_move
        alt = _hide_the_future(resample(game, seat, random.Random(seed)), random.Random(seed))
        a, slots_a = canonical_game(game, seat)
        b, slots_b = canonical_game(alt, seat)
        assert slots_a == slots_b
        assert state_to_dict(a.state) == state_to_dict(b.state)
        cells = information_set_sampler(game, seat).__closure__ or ()
        assert not any(c.cell_contents is game for c in cells)


def test_a_law_seat_needs_the_family_wise_margin_to_leave_the_rule_bots_choice() -> None:
    """Sheriff and deputy: one-sided 1 - 0.05/k over k challengers (Bonferroni), never below
    ``z``; outlaws and the renegade, a lone challenger, or ``law_alpha=None``: ``z`` itself.
    And ``_best`` at those margins: a mean 3 standard errors up passes both, 2 only ``z``."""
    from bangarena.harness.bots.search_bot import Z, _best

    bot = SearchBot(1, 0)
    assert bot._z_for("sheriff", 5) == pytest.approx(2.326, abs=1e-3)
    assert bot._z_for("deputy", 2) == pytest.approx(1.960, abs=1e-3)
    assert bot._z_for("outlaw", 5) == bot._z_for("renegade", 5) == Z
    assert bot._z_for("sheriff", 1) == Z
    assert SearchBot(1, 0, law_alpha=None)._z_for("sheriff", 5) == Z
    assert SearchBot(1, 0, z=3.0)._z_for("deputy", 5) == 3.0
    # 8 rounds: 4 wins and 4 draws is a mean of 0.5 with a standard error of 0.189 (2.65 se up)
    assert _best("p", {"m": [1.0] * 4 + [0.0] * 4}, bot._z_for("sheriff", 5)) == "m"
    # 3 wins and 5 draws: 0.375, standard error 0.183 (2.05 se up): passes z, not the law's
    three = {"m": [1.0] * 3 + [0.0] * 5}
    assert _best("p", three, Z) == "m"
    assert _best("p", three, bot._z_for("sheriff", 5)) == "p"
