"""Bots: the interface, the rule bot's behaviour in exact positions, and bot games driven by
``simulate`` (legality, reproducibility, own random streams, the CLI)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from typer.testing import CliRunner

from bangarena.cli.app import app
from bangarena.engine import Game, GameConfig, new_game
from bangarena.engine.scenario import load_scenario
from bangarena.harness.bots import BOT_KINDS, Bot, make_bot
from bangarena.harness.bots.rule_bot import RuleBot
from bangarena.harness.simulate import parse_players, simulate

PLAIN = ("red_suit", "lucky", "collector", "stone_leopard", "scavenger", "empty_hands", "grip")


def seat(role: str, **fields: Any) -> dict[str, Any]:
    return {"role": role, **fields}


def position(*seats: dict[str, Any], **fields: Any) -> Game:
    """An exact position; seats without a character get plain ones (no ability in the way)."""
    specs = [dict(s) for s in seats]
    used = {s.get("character") for s in specs}
    plain = [c for c in PLAIN if c not in used]
    for s in specs:
        s.setdefault("character", plain.pop(0))
    return load_scenario({"seed": 1, **fields, "seats": specs})


def choice(game: Game, bot: RuleBot | None = None, since: int = 0) -> str:
    d = game.decision
    assert d is not None
    bot = bot or RuleBot(7, d.seat)
    move = bot.choose(game.view(d.seat, since=since), d)
    assert move in d.ids
    return move


FIVE = ("sheriff", "deputy", "renegade", "outlaw", "outlaw")


def five(turn: int, hands: dict[int, list[str]], **extra: Any) -> Game:
    """A 5-seat classic table (sheriff 0, deputy 1, renegade 2, outlaws 3 and 4)."""
    per_seat: dict[int, dict[str, Any]] = extra.pop("seat_fields", {})
    seats = [seat(r, hand=hands.get(i, []), **per_seat.get(i, {})) for i, r in enumerate(FIVE)]
    return position(*seats, turn=turn, **extra)


# -- interface -------------------------------------------------------------------------------


def test_make_bot_builds_every_kind_and_rejects_others() -> None:
    assert BOT_KINDS == ("random", "rule", "search")
    for kind in BOT_KINDS:
        bot = make_bot(kind, seed=3, seat=2)
        assert isinstance(bot, Bot) and bot.kind == kind and bot.seat == 2
    with pytest.raises(ValueError, match="unknown bot kind 'smart'"):
        make_bot("smart", 1, 0)


def test_random_bot_is_uniform_and_seeded() -> None:
    game = five(4, {4: ["shot", "shot", "duel", "jail", "wagon"]})
    d = game.decision
    picks = [make_bot("random", s, 4).choose(game.view(4), d) for s in range(400)]
    assert set(picks) == set(d.ids)
    assert picks == [make_bot("random", s, 4).choose(game.view(4), d) for s in range(400)]


def test_rule_bot_is_the_same_with_incremental_or_full_views() -> None:
    """The caller should pass only new events, but a caller re-sending the whole log (since=0)
    gets the same choices: the bot skips what it has already seen."""
    game = new_game(GameConfig(seats=6, mode="classic"), 21)
    inc = [RuleBot(s, s) for s in range(6)]
    full = [RuleBot(s, s) for s in range(6)]
    cursors = [0] * 6
    while not game.over:
        d = game.decision
        s = d.seat
        view = game.view(s, since=cursors[s])
        cursors[s] = view.cursor
        move = inc[s].choose(view, d)
        assert full[s].choose(game.view(s), d) == move
        game.apply(s, move)


# -- the rule bot in exact positions ----------------------------------------------------------


def test_outlaw_shoots_the_sheriff_in_range() -> None:
    assert choice(five(4, {4: ["shot"]})) == "shot@0"


def test_deputy_never_shoots_the_sheriff_even_as_the_only_target() -> None:
    game = five(1, {1: ["shot"]}, seat_fields={2: {"in_play": ["horse"]}})
    assert "shot@0" in game.decision.ids and "shot@2" not in game.decision.ids
    assert choice(game) == "end_turn"


def test_renegade_spares_the_sheriff_until_they_are_alone() -> None:
    four = ["sheriff", "renegade", "outlaw", "outlaw"]
    crowded = position(
        *[seat(r, hand=["shot"] if i == 1 else []) for i, r in enumerate(four)],
        turn=1,
    )
    assert choice(crowded) != "shot@0"
    alone = position(
        seat("sheriff"),
        seat("renegade", hand=["shot"]),
        seat("outlaw", alive=False),
        seat("outlaw", alive=False),
        turn=1,
    )
    assert choice(alone) == "shot@0"


def test_draw_cards_first_and_buckshot_before_shot() -> None:
    assert choice(five(4, {4: ["shot", "buckshot", "wagon"]})) == "wagon"
    assert choice(five(4, {4: ["shot", "buckshot"]})) == "buckshot"


def test_equips_the_weapon_that_reaches_the_sheriff() -> None:
    seven = ["sheriff", "deputy", "deputy", "outlaw", "outlaw", "outlaw", "renegade"]
    game = position(
        *[
            seat(r, hand=["sawed_off", "shotgun", "shot"] if i == 3 else [])
            for i, r in enumerate(seven)
        ],
        turn=3,
    )
    assert choice(game) == "shotgun"


def test_canteen_only_when_it_saves_or_heals_usefully() -> None:
    # Hurt a little with plenty of life: keep it for later.
    assert choice(five(1, {1: ["canteen"]}, seat_fields={1: {"life": 3}}, round=2)) == "end_turn"
    # Low on life: drink.
    assert choice(five(1, {1: ["canteen"]}, seat_fields={1: {"life": 2}}, round=2)) == "canteen"
    # At 1 life against a Shot with no Ricochet: the Canteen saves.
    game = five(4, {4: ["shot"], 0: ["canteen"]}, seat_fields={0: {"life": 1}})
    game.apply(4, "shot@0")
    assert game.decision.kind == "answer_shot"
    assert choice(game) == "canteen"


def test_twin_barrels_shot_is_dodged_only_with_two_ricochets() -> None:
    fields = {4: {"character": "twin_barrels"}}
    one = five(4, {4: ["shot"], 0: ["ricochet", "wagon"]}, seat_fields=fields)
    one.apply(4, "shot@0")
    assert choice(one) == "take_hit"
    two = five(4, {4: ["shot"], 0: ["ricochet", "ricochet"]}, seat_fields=fields)
    two.apply(4, "shot@0")
    assert choice(two) == "ricochet"


def test_outlaw_never_heals_a_hurt_sheriff_with_saloon_but_the_renegade_does() -> None:
    hurt = {0: {"life": 3}, 2: {"life": 2}, 4: {"life": 2}}
    assert choice(five(4, {4: ["saloon"]}, seat_fields=hurt)) != "saloon"
    assert choice(five(2, {2: ["saloon"]}, seat_fields=hurt)) == "saloon"


def test_dynamite_only_with_life_to_spare() -> None:
    assert choice(five(4, {4: ["dynamite"]}, seat_fields={4: {"life": 2}})) == "end_turn"
    assert choice(five(4, {4: ["dynamite"]})) == "dynamite"


def test_high_noon_makes_canteens_worthless() -> None:
    game = five(1, {1: ["canteen", "ricochet", "shot"]}, seat_fields={1: {"life": 2}}, round=9)
    assert game.view(1).high_noon
    game.apply(1, "end_turn")
    assert game.decision.kind == "discard_excess"
    assert choice(game) == "discard:canteen"


def test_three_eyes_puts_back_the_worst_card() -> None:
    game = five(4, {}, seat_fields={4: {"character": "three_eyes"}}, step="draw",
                deck=["shot", "dynamite", "ricochet"])  # fmt: skip
    assert game.decision.kind == "draw_keep"
    assert choice(game) == "return:dynamite_01"


def test_vulture_junior_takes_a_good_discard_only() -> None:
    fields = {4: {"character": "vulture_junior"}}
    good = five(4, {}, seat_fields=fields, step="draw", discard=["dynamite", "caravan"])
    assert choice(good) == "draw_discard"
    bad = five(4, {}, seat_fields=fields, step="draw", discard=["caravan", "dynamite"])
    assert choice(bad) == "draw_deck"


def test_grip_outlaw_takes_from_the_sheriff() -> None:
    game = five(4, {0: ["shot", "shot"], 1: ["shot"], 2: ["shot"]},
                seat_fields={4: {"character": "grip"}}, step="draw")  # fmt: skip
    assert choice(game) == "grip@0"


def test_bonesetter_heals_on_his_last_life() -> None:
    fields = {0: {"character": "bonesetter", "life": 1}}
    game = five(4, {4: ["shot"], 0: ["wagon", "bazaar"]}, seat_fields=fields)
    game.apply(4, "shot@0")
    assert game.decision.kind == "answer_shot" and "heal" in game.decision.ids
    assert choice(game) == "heal"


def test_glory_upgrade_by_situation() -> None:
    early = five(0, {0: ["shot"]}, seat_fields={4: {"life": 1}}, round=2)
    early.apply(0, "shot@4")
    assert early.decision.kind == "glory_upgrade"
    assert choice(early) == "upgrade:instinct"
    late = five(0, {0: ["shot"]}, seat_fields={4: {"life": 1}}, round=9)
    late.apply(0, "shot@4")
    assert choice(late) == "upgrade:endurance"


def test_sheriff_jails_the_seat_that_shot_him() -> None:
    """Role inference from events: outlaw 2 (out of the sheriff's reach) shoots him; by his
    turn the sheriff suspects seat 2 most and jails it."""
    game = five(
        2,
        {2: ["shot"], 0: ["jail", "shot"]},
        seat_fields={2: {"weapon": "sawed_off"}},
        deck=["ricochet"] * 8,
    )
    sheriff = RuleBot(5, 0)
    game.apply(2, "shot@0")
    while game.decision.seat != 0 or game.decision.kind != "play":
        game.apply(game.to_move, game.autopilot().id)
    probs = sheriff.beliefs
    assert choice(game, sheriff) == "jail@2"
    p = probs.probabilities()
    assert max(range(1, 5), key=lambda s: p[s].get("outlaw", 0)) == 2


@pytest.mark.parametrize("mode", ["classic", "double_agent", "partners"])
def test_beliefs_odds_are_the_probability_sums(mode: str) -> None:
    """The bot weighs ``Beliefs.odds()``: the four sums of ``probabilities()``, bit for bit."""
    compared = 0
    for seed in range(6):
        game = new_game(GameConfig(seats=7, mode=mode), seed)
        bots = [RuleBot(seed * 10 + s, s) for s in range(7)]
        cursors = [0] * 7
        while not game.over:
            d = game.decision
            view = game.view(d.seat, since=cursors[d.seat])
            cursors[d.seat] = view.cursor
            b = bots[d.seat].beliefs
            game.apply(d.seat, bots[d.seat].choose(view, d))
            if len(game.state.history) % 7:
                continue
            for p, odds in zip(b.probabilities(), b.odds(), strict=True):
                g = p.get
                assert odds == (g("outlaw", 0.0) + g("double_agent", 0.0), g("deputy", 0.0),
                                g("renegade", 0.0), g("sheriff", 0.0))  # fmt: skip
                compared += 1
    assert compared > 500


# -- bot games through simulate ---------------------------------------------------------------


def test_rule_bots_play_clean_games_in_every_cell() -> None:
    for players in ("rule", "law=rule", "outlaws=rule,renegade=rule"):
        summary = simulate(40, 5, "all", "all", check=True, players=players)
        assert summary.violations == []
        assert summary.games == 40 and sum(summary.wins.values()) == 40


def test_bot_games_are_reproducible_and_leave_global_random_alone() -> None:
    random.seed(99)
    expected = random.random()
    random.seed(99)
    a = simulate(12, 8, "7", "classic", check=False, players="rule")
    assert random.random() == expected
    b = simulate(12, 8, "7", "classic", check=False, players="rule")
    assert (a.decisions, a.wins, a.sanity.counts) == (b.decisions, b.wins, b.sanity.counts)


def test_rule_team_beats_its_random_baseline() -> None:
    base = simulate(100, 1, "5", "classic", check=False, players="random")
    rule = simulate(100, 1, "5", "classic", check=False, players="law=rule")
    assert rule.wins["law"] >= base.wins["law"] + 20
    s = rule.sanity.to_dict()["rule"]
    assert s["deputy_shots"] > 0 and s["deputy_shots_at_sheriff"] == 0


def test_parse_players() -> None:
    assert parse_players("rule") == {"law": "rule", "outlaws": "rule", "renegade": "rule"}
    assert parse_players("law=rule, outlaws=random") == {
        "law": "rule",
        "outlaws": "random",
        "renegade": "random",
    }
    for bad in ("smart", "law=smart", "sheriff=rule", "law=rule,law=random", "law"):
        with pytest.raises(ValueError):
            parse_players(bad)


def test_cli_simulate_with_bot_players() -> None:
    runner = CliRunner()
    res = runner.invoke(
        app,
        ["simulate", "--games", "6", "--seed", "2", "--seats", "5", "--mode", "classic",
         "--players", "law=rule,outlaws=random,renegade=random"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    for key in ("games", "decisions", "forced", "decisions_per_s", "games_per_s", "wins",
                "mean_decisions_per_game", "violations", "seconds", "players", "sanity"):  # fmt: skip
        assert key in out
    assert out["games"] == 6 and out["violations"] == 0
    assert out["players"] == {"law": "rule", "outlaws": "random", "renegade": "random"}
    assert set(out["sanity"]) == {"rule", "random"}
    bad = runner.invoke(app, ["simulate", "--games", "1", "--players", "law=smart"])
    assert bad.exit_code == 2
