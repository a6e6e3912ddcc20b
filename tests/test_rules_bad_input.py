"""Bad input: impossible scenarios raise ScenarioError with a precise message; a move from the
wrong seat or not in the legal list raises a typed error and leaves the state unchanged."""

from __future__ import annotations

import pytest
from scenario_helpers import run, scenario, seat

from bangarena.engine import (
    ConfigError,
    EngineError,
    GameConfig,
    GameOverError,
    IllegalMove,
    NotYourDecision,
    ScenarioError,
    new_game,
)
from bangarena.engine.scenario import load_scenario

S = seat
KEEP = "wagon"
FOUR = ["sheriff", "renegade", "outlaw", "outlaw"]


def _with(i: int, **fields) -> dict:
    seats = [S(r) for r in FOUR]
    seats[i] = S(FOUR[i], **fields)
    return scenario(*seats)


SCENARIO_ERRORS = [
    pytest.param(_with(1, hand=["shot_99"]), ["seat 1", "shot_99"], id="unknown-card-id"),
    pytest.param(_with(1, hand=["bang"]), ["seat 1", "bang"], id="unknown-card-kind"),
    pytest.param(scenario("sheriff", "renegade", "outlaw", "outlaw", deck=["shot_00"]), ["deck", "shot_00"], id="unknown-card-in-deck"),
    pytest.param(_with(2, character="bart_cassidy"), ["seat 2", "bart_cassidy"], id="unknown-character"),
    pytest.param(scenario("sheriff", "renegade", "bandit", "outlaw"), ["seat 2", "bandit"], id="unknown-role"),
    pytest.param(scenario("sheriff", "sheriff", "outlaw", "outlaw"), ["sheriff", "2"], id="two-sheriffs"),
    pytest.param(scenario("deputy", "renegade", "outlaw", "outlaw"), ["sheriff", "0"], id="no-sheriff"),
    pytest.param(_with(1, hand=["shot"] * 26), ["shot", "25"], id="81-cards-26-shots"),
    pytest.param(
        scenario(S("sheriff", hand=["scope"]), "renegade", "outlaw", S("outlaw", in_play=["scope"])),
        ["scope"],
        id="more-copies-than-the-deck-has",
    ),
    pytest.param(
        scenario(S("sheriff", hand=["shot_01"]), "renegade", "outlaw", "outlaw", discard=["shot_01"]),
        ["shot_01", "twice"],
        id="card-placed-twice",
    ),
    pytest.param(_with(1, life=5), ["seat 1", "life"], id="life-above-max"),
    pytest.param(_with(1, life=3, max_life=2), ["seat 1", "life"], id="life-above-given-max"),
    pytest.param(_with(1, life=0), ["seat 1"], id="living-player-at-0"),
    pytest.param(_with(1, max_life=0, life=0), ["seat 1", "max_life"], id="max-life-0"),
    pytest.param(_with(1, alive=False, hand=["shot"]), ["seat 1"], id="eliminated-player-with-cards"),
    pytest.param(_with(1, alive=False, life=2), ["seat 1"], id="eliminated-player-with-life"),
    pytest.param(_with(0, alive=False), ["sheriff"], id="dead-sheriff"),
    pytest.param(_with(1, in_play=["carbine"]), ["seat 1", "carbine"], id="weapon-in-play-area"),
    pytest.param(_with(1, in_play=["shot"]), ["seat 1", "shot"], id="brown-card-in-play"),
    pytest.param(_with(1, weapon="horse"), ["seat 1", "horse"], id="not-a-weapon"),
    pytest.param(_with(1, in_play=["horse", "horse"]), ["seat 1", "horse"], id="two-copies-of-a-blue-card"),
    pytest.param(_with(0, in_play=["jail"]), ["sheriff", "jail"], id="jailed-sheriff"),
    pytest.param(_with(1, stars=["sharpshooter"]), ["seat 1", "sharpshooter"], id="unknown-upgrade"),
    pytest.param(
        scenario("sheriff", "double_agent", "outlaw", "outlaw", "deputy"),
        ["double_agent"],
        id="double-agent-outside-its-mode",
    ),
    pytest.param(
        scenario(S("sheriff", "lucky"), S("renegade", "lucky"), "outlaw", "outlaw"),
        ["character"],
        id="same-character-twice",
    ),
    pytest.param(scenario("sheriff", "renegade", "outlaw"), ["seats"], id="three-seats"),
    pytest.param(scenario(*(["sheriff"] + ["outlaw"] * 8)), ["seats"], id="nine-seats"),
    pytest.param(scenario(*FOUR, mode="classik"), ["classik"], id="unknown-mode"),
    pytest.param(scenario(*FOUR, turn=7), ["turn"], id="turn-not-a-seat"),
    pytest.param(
        scenario("sheriff", S("renegade", alive=False), "outlaw", "outlaw", turn=1),
        ["turn"],
        id="turn-of-a-dead-seat",
    ),
    pytest.param(scenario(*FOUR, round=0), ["round"], id="round-0"),
    pytest.param(scenario(*FOUR, step="discard"), ["step"], id="unknown-step"),
    pytest.param({**scenario(*FOUR), "dealer": 2}, ["dealer"], id="unknown-field"),
    pytest.param(
        scenario("sheriff", "double_agent", "deputy", "outlaw", "renegade", mode="double_agent", named_deputies=[2, 3]),
        ["named_deputies"],
        id="named-deputies-without-the-agent",
    ),
    # A position that is already over: only the law is left alive.
    pytest.param(
        scenario("sheriff", "deputy", S("outlaw", alive=False), S("renegade", alive=False)),
        ["seats", "already over", "law_restored"],
        id="already-over-law-restored",
    ),
    pytest.param(scenario("sheriff", "deputy", "deputy", "deputy"), ["already over"], id="no-enemy-at-the-table"),
    pytest.param(scenario(*FOUR, round=50, max_rounds=40), ["round", "50", "40"], id="round-past-the-cap"),
    pytest.param(scenario(*FOUR, shots=-1), ["shots"], id="negative-shots"),
    pytest.param(scenario(*FOUR, shots=10**9), ["shots"], id="huge-shots"),
    pytest.param(scenario(*FOUR, step="draw", shots=1), ["shots", "draw"], id="shots-outside-the-play-step"),
    pytest.param(scenario(*FOUR, named_deputies=[0, 1]), ["named_deputies"], id="named-deputies-in-classic"),
    pytest.param(
        scenario("sheriff", "deputy", "outlaw", "outlaw", "renegade", mode="double_agent", named_deputies=[1, 2]),
        ["named_deputies", "double agent"],
        id="named-deputies-without-a-double-agent",
    ),
    pytest.param(
        scenario("sheriff", "double_agent", "outlaw", "renegade", mode="double_agent"),
        ["seat 1 role", "5 seats"],
        id="double-agent-at-4-seats",
    ),
    pytest.param(
        scenario("sheriff", "double_agent", "double_agent", "deputy", "renegade", mode="double_agent"),
        ["seat 2 role", "one double agent"],
        id="two-double-agents",
    ),
    pytest.param(
        scenario(S("sheriff", stars=["marksman"]), "renegade", "outlaw", "outlaw", mode="old_classic"),
        ["seat 0 stars", "old_classic"],
        id="glory-stars-in-old-classic",
    ),
    pytest.param(scenario(*FOUR, seed="7"), ["seed"], id="seed-a-string"),
    pytest.param(scenario(*FOUR, seed=True), ["seed"], id="seed-a-bool"),
    pytest.param(scenario(*FOUR, seed=1.0), ["seed"], id="seed-a-float"),
    pytest.param(scenario(*FOUR, seed=-1), ["seed"], id="seed-negative"),
    pytest.param(scenario(*FOUR, seed=2**64), ["seed"], id="seed-2-to-the-64"),
    pytest.param(_with(1, life="3"), ["seats.1.life"], id="life-a-string"),
    pytest.param(scenario(*FOUR, turn=True), ["turn"], id="turn-a-bool"),
    pytest.param(["not", "a", "scenario"], ["<root>"], id="not-an-object"),
]  # fmt: skip


@pytest.mark.parametrize(("sc", "words"), SCENARIO_ERRORS)
def test_scenario_error(sc: dict, words: list[str]) -> None:
    with pytest.raises(ScenarioError) as err:
        load_scenario(sc)
    message = str(err.value)
    for w in words:
        assert w in message, f"{w!r} not in {message!r}"
    assert isinstance(err.value, EngineError)
    # Every error says where: a field, a seat's field or <root>, never an empty location.
    assert err.value.location.strip(), message
    assert message.startswith(err.value.location + ": ")
    assert not message.startswith(": ") and ": :" not in message


@pytest.mark.parametrize(("fields", "word"), [
    ({"seats": 3}, "seats"),
    ({"seats": 9}, "seats"),
    ({"mode": "wild_west"}, "wild_west"),
    ({"max_rounds": 0}, "max_rounds"),
    ({"max_rounds": True}, "max_rounds"),
    ({"max_rounds": 40.0}, "max_rounds"),
    ({"seats": True}, "seats"),
    ({"seats": 5.0}, "seats"),
    ({"mode": ["classic"]}, "mode"),
])  # fmt: skip
def test_config_error(fields: dict, word: str) -> None:
    with pytest.raises(ConfigError, match=word):
        GameConfig(**fields)


# Positions in several decision kinds, and moves each must reject.
REJECT_CASES = [
    pytest.param(
        scenario(S("sheriff", hand=["shot", "ricochet", KEEP]), "renegade", "outlaw", "outlaw"),
        [],
        ["shot@2", "ricochet", "shot", "take_hit", "discard:shot", "shot@0", "nonsense", ""],
        id="play",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]), S("renegade", hand=["ricochet"]), "outlaw", "outlaw"
        ),
        ["shot@1"],
        ["canteen", "shot_as_ricochet", "end_turn", "ricochet@0", "heal"],
        id="answer_shot",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["knock_off", KEEP]),
            "renegade",
            S("outlaw", hand=["shot"], weapon="carbine"),
            "outlaw",
        ),
        ["knock_off@2"],
        ["pick:horse", "pick:shot", "pick:long_rifle", "take_hit"],
        id="pick_card",
    ),
    pytest.param(
        scenario(S("sheriff", hand=["shot", KEEP], stars=["instinct"]), S("renegade", life=1), "outlaw", "outlaw"),
        ["shot@1"],
        ["upgrade:instinct", "upgrade:speed", "bounty:marksman"],
        id="glory_upgrade",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("sc", "moves", "bad"), REJECT_CASES)
def test_rejected_moves_leave_the_state_unchanged(
    sc: dict, moves: list[str], bad: list[str]
) -> None:
    game = load_scenario(sc)
    run(game, moves)
    before = game.state_hash()
    legal_before = [m.id for m in game.legal_moves]
    to_move = game.to_move
    for move_id in bad:
        with pytest.raises(IllegalMove) as err:
            game.apply(to_move, move_id)
        assert err.value.move_id == move_id
        assert list(err.value.legal) == legal_before
        assert repr(move_id) in str(err.value)
        assert game.state_hash() == before
    for other in range(len(sc["seats"])):
        if other == to_move:
            continue
        for move_id in legal_before:
            with pytest.raises(NotYourDecision) as err:
                game.apply(other, move_id)
            assert (err.value.seat, err.value.pending) == (other, to_move)
            assert game.state_hash() == before
    assert [m.id for m in game.legal_moves] == legal_before
    assert game.to_move == to_move
    # The same position still accepts a legal move afterwards.
    game.apply(to_move, legal_before[-1])


def test_a_finished_game_rejects_every_move() -> None:
    game = load_scenario(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", life=1),
            S("outlaw", alive=False),
            S("outlaw", alive=False),
        )
    )
    run(game, ["shot@1"])
    assert game.over
    before = game.state_hash()
    for s in range(4):
        with pytest.raises(GameOverError):
            game.apply(s, "end_turn")
    assert game.state_hash() == before


def test_a_new_game_rejects_the_wrong_seat() -> None:
    game = new_game(GameConfig(seats=5), seed=9)
    before = game.state_hash()
    wrong = (game.to_move + 1) % 5
    with pytest.raises(NotYourDecision):
        game.apply(wrong, game.legal_moves[0].id)
    with pytest.raises(IllegalMove):
        game.apply(game.to_move, "shot@99")
    assert game.state_hash() == before
