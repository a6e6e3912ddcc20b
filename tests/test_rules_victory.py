"""Victory conditions (rules.md §2) for every mode, and the round-cap draw (§11)."""

from __future__ import annotations

import pytest
from scenario_helpers import card, check, events, load, of_kind, run, scenario, seat

from bangarena.engine import GameConfig, GameOverError, new_game
from bangarena.engine.scenario import load_scenario

S = seat
KEEP = "wagon"
DEAD = {"alive": False}
BOOM = card("shot", explodes=True)


def _eight(mode: str, *, second_renegade_alive: bool = True, outlaw_alive: bool = False) -> dict:
    """8 seats: the sheriff at 1 ♥ shot by renegade 1; renegade 2; the rest mostly dead."""
    return scenario(
        S("sheriff", life=1),
        S("renegade", hand=["shot", KEEP]),
        S("renegade", **({} if second_renegade_alive else DEAD)),
        S("deputy", **DEAD),
        S("deputy", **DEAD),
        S("outlaw", **({} if outlaw_alive else DEAD)),
        S("outlaw", **DEAD),
        S("outlaw", **DEAD),
        mode=mode,
        turn=1,
    )


VICTORY_CASES = [
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("deputy", **DEAD),
            S("outlaw", **DEAD),
            S("outlaw", **DEAD),
            S("renegade", life=1),
        ),
        ["shot@4"],
        ("law", [0, 1], "law_restored"),
        id="law-wins-eliminated-deputies-included",
    ),
    pytest.param(
        scenario(
            S("sheriff", life=1),
            "deputy",
            S("outlaw", **DEAD),
            "renegade",
            S("outlaw", hand=["shot", KEEP]),
            turn=4,
        ),
        ["shot@0"],
        ("outlaws", [2, 4], "sheriff_eliminated"),
        id="outlaws-win-eliminated-outlaws-included",
    ),
    pytest.param(
        scenario(
            S("sheriff", life=1),
            S("renegade", hand=["shot", KEEP]),
            S("outlaw", **DEAD),
            S("outlaw", **DEAD),
            turn=1,
        ),
        ["shot@0"],
        ("renegade", [1], "renegade_last_alive"),
        id="renegade-wins-as-the-last-alive",
    ),
    pytest.param(
        scenario(
            S("sheriff", life=1),
            S("renegade", hand=["shot", KEEP]),
            "outlaw",
            S("outlaw", **DEAD),
            turn=1,
        ),
        ["shot@0"],
        ("outlaws", [2, 3], "sheriff_eliminated"),
        id="renegade-kills-the-sheriff-too-early-outlaws-win",
    ),
    pytest.param(
        scenario(
            S("sheriff", life=1),
            S("renegade", hand=["shot", KEEP]),
            "deputy",
            S("outlaw", **DEAD),
            S("outlaw", **DEAD),
            turn=1,
        ),
        ["shot@0"],
        ("outlaws", [3, 4], "sheriff_eliminated"),
        id="sheriff-dead-with-a-deputy-alive-outlaws-win",
    ),
    pytest.param(
        _eight("classic"),
        ["shot@0"],
        ("outlaws", [5, 6, 7], "sheriff_eliminated"),
        id="classic-two-renegades-left-outlaws-win",
    ),
    pytest.param(
        _eight("partners"),
        ["shot@0"],
        ("renegade", [1, 2], "renegades_partners"),
        id="partners-two-renegades-left-both-win",
    ),
    pytest.param(
        _eight("partners", outlaw_alive=True),
        ["shot@0"],
        ("outlaws", [5, 6, 7], "sheriff_eliminated"),
        id="partners-renegade-and-outlaw-left-outlaws-win",
    ),
    pytest.param(
        _eight("partners", second_renegade_alive=False),
        ["shot@0"],
        ("renegade", [1, 2], None),
        id="partners-lone-renegade-wins-with-his-eliminated-partner",
    ),
    pytest.param(
        scenario(
            S("sheriff", life=1),
            "deputy",
            "renegade",
            S("double_agent", **DEAD),
            S("outlaw", hand=["shot", KEEP]),
            mode="double_agent",
            turn=4,
        ),
        ["shot@0"],
        ("outlaws", [3, 4], "sheriff_eliminated"),
        id="double-agent-wins-with-the-outlaws-even-eliminated",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("double_agent", life=1),
            S("outlaw", **DEAD),
            "deputy",
            S("renegade", **DEAD),
            mode="double_agent",
        ),
        ["shot@1"],
        ("law", [0, 3], "law_restored"),
        id="law-must-eliminate-the-double-agent-too",
    ),
    pytest.param(
        scenario(
            S("sheriff", life=3, hand=[KEEP], in_play=["dynamite"]),
            "renegade",
            "outlaw",
            "outlaw",
            step="turn_start",
            deck=[BOOM],
        ),
        [],
        ("outlaws", [2, 3], "sheriff_eliminated"),
        id="dynamite-kills-the-sheriff",
    ),
]


@pytest.mark.parametrize(("sc", "moves", "outcome"), VICTORY_CASES)
def test_victory(sc: dict, moves: list[str], outcome: tuple) -> None:
    game = load_scenario(sc)
    run(game, moves)
    team, winners, reason = outcome
    check(game, {"over": True, "team": team, "winners": winners})
    result = game.result()
    assert result["winning_team"] == team
    assert result["winners"] == winners
    if reason is not None:
        assert result["reason"] == reason
    (over,) = of_kind(events(game), "game_over")
    assert over["roles"] == [s["role"] for s in sc["seats"]]
    # Every role is public at the end, and nothing more can be played.
    assert [p.role for p in game.view(None).players] == over["roles"]
    assert game.decision is None and game.legal_moves == () and game.to_move is None
    with pytest.raises(GameOverError):
        game.apply(0, "end_turn")


def test_law_does_not_win_while_the_double_agent_lives() -> None:
    game = load(
        S("sheriff", hand=["shot", KEEP]),
        S("outlaw", life=1),
        "double_agent",
        "deputy",
        S("renegade", **DEAD),
        mode="double_agent",
    )
    run(game, ["shot@1"])
    check(game, {"over": False, "decision": (0, "glory_upgrade")})


def test_round_cap_ends_as_a_draw() -> None:
    game = load(
        S("sheriff", hand=[KEEP]),
        "renegade",
        "outlaw",
        S("outlaw", hand=[KEEP]),
        turn=3,
        round=2,
        max_rounds=2,
    )
    evs = run(game, ["end_turn"])
    check(
        game,
        {
            "over": True,
            "team": "draw",
            "winners": [],
            "events": [("turn_ended", {"seat": 3}), ("game_over", {"reason": "round_cap"})],
            "no_events": ["turn_started"],
        },
        evs,
    )
    assert game.result()["winning_team"] == "draw"


@pytest.mark.parametrize("mode", ["classic", "partners", "double_agent", "old_classic"])
def test_an_all_autopilot_table_reaches_the_cap(mode: str) -> None:
    game = new_game(GameConfig(seats=6, mode=mode, max_rounds=3), seed=11)
    while not game.over:
        game.apply(game.to_move, game.autopilot().id)
    result = game.result()
    assert (result["winning_team"], result["winners"], result["reason"]) == (
        "draw",
        [],
        "round_cap",
    )
    started = of_kind(events(game), "turn_started")
    assert max(e["round"] for e in started) == 3
    assert len(started) == 3 * 6
