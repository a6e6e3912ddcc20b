"""One seat-spec grammar for bots: ``KIND[:key=value[;key=value]]`` in ``play --seat``,
``simulate --players`` and suites."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from bangarena.cli.app import app
from bangarena.engine import GameConfig, new_game
from bangarena.harness.bots import (
    BotSpecError,
    ExploringBot,
    RuleBot,
    is_bot_spec,
    make_bot,
    parse_bot_spec,
)
from bangarena.harness.seats.factory import SeatSpecError, plan_seat
from bangarena.harness.simulate import parse_players, simulate


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("rule", "rule"),
        ("random", "random"),
        (" rule:eps=0.3 ", "rule:eps=0.3"),
        ("rule:eps=0", "rule"),  # the default is left out: one text per way of playing
        ("rule:eps=1", "rule:eps=1"),
        ("rule:eps=.25", "rule:eps=0.25"),
    ],
)
def test_bot_specs_parse_to_one_canonical_text(text: str, canonical: str) -> None:
    spec = parse_bot_spec(text)
    assert str(spec) == canonical
    assert str(parse_bot_spec(canonical)) == canonical
    assert is_bot_spec(text)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("smart", "unknown bot kind 'smart'; valid: random, rule, search"),
        ("rule:", "nothing after ':'"),
        ("rule:temp=1", "rule has no parameter 'temp' (parameters: eps)"),
        ("random:eps=0.1", "random has no parameter 'eps' (parameters: none)"),
        ("rule:eps", "eps needs a value"),
        ("rule:eps=", "eps needs a value"),
        ("rule:eps=2", "eps must be a number from 0 to 1, got '2'"),
        ("rule:eps=nan", "eps must be a number from 0 to 1"),
        ("rule:eps=-0.1", "eps must be a number from 0 to 1"),
        ("rule:eps=x", "got 'x'"),
        ("rule:eps=0.1;eps=0.2", "eps is given twice"),
    ],
)
def test_bad_bot_specs_say_what_is_valid(text: str, says: str) -> None:
    with pytest.raises(BotSpecError) as e:
        parse_bot_spec(text)
    assert says in str(e.value)


def test_eps_zero_is_the_rule_bot_and_eps_one_plays_uniformly_legal_moves() -> None:
    assert type(make_bot("rule:eps=0", 3, 1)) is RuleBot
    bot = make_bot("rule:eps=1", 3, 1)
    assert isinstance(bot, ExploringBot) and bot.kind == "rule"
    game = new_game(GameConfig(seats=5), seed=4)
    bots = [make_bot("rule:eps=1", 10 + s, s) for s in range(5)]
    cursors = [0] * 5
    while not game.over:
        d = game.decision
        view = game.view(d.seat, since=cursors[d.seat])
        cursors[d.seat] = view.cursor
        game.apply(d.seat, bots[d.seat].choose(view, d))  # legal, or apply raises
    assert game.result() is not None


def test_the_inner_bot_chooses_as_it_would_without_the_wrapper() -> None:
    """The coin has its own stream: the wrapped rule bot's own choices do not change."""
    game = new_game(GameConfig(seats=5), seed=9)
    d = game.decision
    plain = make_bot("rule", 5, d.seat)
    wrapped = make_bot("rule:eps=0.5", 5, d.seat)
    assert isinstance(wrapped, ExploringBot)
    view = game.view(d.seat)
    assert wrapped.inner.choose(view, d) == plain.choose(view, d)


def test_play_seat_specs_take_bot_parameters() -> None:
    plan = plan_seat("rule:eps=0.3")
    assert (plan.kind, plan.text, dict(plan.bot.params)) == ("rule", "rule:eps=0.3", {"eps": 0.3})
    with pytest.raises(SeatSpecError, match="eps must be a number"):
        plan_seat("rule:eps=3")


def test_simulate_players_split_each_item_on_its_first_equals_sign() -> None:
    teams = parse_players("law=rule:eps=0.3,outlaws=random")
    assert teams == {"law": "rule:eps=0.3", "outlaws": "random", "renegade": "random"}
    assert parse_players("rule:eps=0.2") == dict.fromkeys(teams, "rule:eps=0.2")
    with pytest.raises(ValueError, match="team law: bot spec 'rule:eps=9'"):
        parse_players("law=rule:eps=9")
    summary = simulate(20, seed=3, seats="5", mode="classic", players="law=rule:eps=0.3")
    assert summary.games == 20 and not summary.violations
    assert summary.players["law"] == "rule:eps=0.3"


def test_the_commands_take_bot_specs() -> None:
    runner = CliRunner()
    out = runner.invoke(
        app, ["simulate", "--games", "5", "--seats", "5", "--players", "law=rule:eps=0.5"]
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["players"]["law"] == "rule:eps=0.5"
    out = runner.invoke(
        app, ["play", "--seats", "4", "--seed", "2", "--seat", "0=rule:eps=0.5", "--quiet"]
    )
    assert out.exit_code == 0, out.output
    bad = runner.invoke(app, ["play", "--seats", "4", "--seat", "0=rule:eps=7", "--quiet"])
    assert bad.exit_code == 2 and "eps must be a number from 0 to 1" in bad.output
