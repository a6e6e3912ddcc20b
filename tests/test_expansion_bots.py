"""The rule bot in Armed & Dangerous games: it plays them to the end through its views, spends
tokens (effects, upgrades, abilities), keeps a Crate's tokens for defence, never passes the
Bomb to a seat it wants to spare, and is still far stronger than random."""

from __future__ import annotations

from scenario_helpers import scenario, seat

from bangarena.engine.scenario import load_scenario
from bangarena.harness.bots import make_bot
from bangarena.harness.simulate import simulate

AD = ("armed_dangerous",)


def test_rule_bots_play_expansion_games_and_use_tokens() -> None:
    summary = simulate(20, 300, expansions=AD, players="rule")
    assert summary.to_dict()["violations"] == 0
    assert summary.games == 20


def test_the_rule_bot_beats_random_with_the_expansion() -> None:
    law = simulate(40, 400, expansions=AD, players="law=rule").to_dict()["wins"]
    assert law["law"] >= 32, law
    outlaws = simulate(40, 400, expansions=AD, players="outlaws=rule").to_dict()["wins"]
    assert outlaws["outlaws"] >= 32, outlaws


def _decide(sc: dict, moves: list[str]) -> str:
    game = load_scenario(sc)
    for m in moves:
        game.apply(game.to_move, m)
    d = game.decision
    bot = make_bot("rule", 1, d.seat)
    return bot.choose(game.view(d.seat), d)


def test_the_crate_is_kept_for_defence_when_paying() -> None:
    sc = scenario(
        seat("sheriff", hand=["mule_train", "wagon"], tokens=2, in_play=["crate"],
             loads={"crate": 3}, life=1),
        "renegade", "outlaw", "outlaw", expansions=list(AD),
    )  # fmt: skip
    game = load_scenario(sc)
    game.apply(0, "mule_train")
    game.apply(0, "use:mule_train")  # 2 tokens to pay: from the character or the Crate
    d = game.decision
    assert d.kind == "pay_token" and {m.id for m in d.moves} == {"pay:character", "pay:crate"}
    assert make_bot("rule", 1, 0).choose(game.view(0), d) == "pay:character"


def test_the_crate_answers_a_shot_when_no_card_does() -> None:
    sc = scenario(
        seat("sheriff", hand=["shot", "wagon"]),
        seat("renegade", hand=["saloon"], in_play=["crate"], loads={"crate": 2}),
        "outlaw", "outlaw", expansions=list(AD),
    )  # fmt: skip
    assert _decide(sc, ["shot@1"]) == "use:crate"


def test_the_bomb_goes_to_an_enemy() -> None:
    sc = scenario(
        seat("sheriff", hand=["wagon"]),
        seat("deputy", hand=["wagon"], in_play=["bomb"], loads={"bomb": 3}),
        "renegade", "outlaw", "outlaw",
        turn=1, step="turn_start", deck=["shot_26"], expansions=list(AD),
    )  # fmt: skip
    move = _decide(sc, [])
    assert move.startswith("give@") and move != "give@0"  # never the sheriff
