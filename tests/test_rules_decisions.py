"""Every decision kind (rules.md §3, §5, §7, §9): its legal moves, who sees what of it, the
autopilot's choice (§3: the simplest move), and forced moves applied automatically (§11)."""

from __future__ import annotations

import pytest
from scenario_helpers import card, events, legal, life, of_kind, run, scenario, seat

from bangarena.engine import DECISION_KINDS, MOVE_KINDS
from bangarena.engine.scenario import load_scenario

S = seat
KEEP = "wagon"
BOOM = card("shot", explodes=True)

# (scenario, moves to reach it, seat, kind, legal ids, autopilot id)
DECISION_CASES = [
    pytest.param(
        scenario(S("sheriff", hand=["shot", KEEP]), "renegade", "outlaw", "outlaw"),
        [],
        0,
        "play",
        ["end_turn", "shot@1", "shot@3", "wagon"],
        "end_turn",
        id="play",
    ),
    pytest.param(
        scenario(
            S("sheriff", life=2, hand=["shot_05", "duel_02", "shot_06", "horse_01"]),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["end_turn"],
        0,
        "discard_excess",
        ["discard:horse", "discard:shot", "discard:duel"],
        "discard:horse",
        id="discard_excess",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]), S("renegade", hand=["ricochet"]), "outlaw", "outlaw"
        ),
        ["shot@1"],
        1,
        "answer_shot",
        ["take_hit", "ricochet"],
        "take_hit",
        id="answer_shot",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["raid", KEEP]), S("renegade", hand=["shot"]), "outlaw", "outlaw"
        ),
        ["raid"],
        1,
        "answer_raid",
        ["take_hit", "shot"],
        "take_hit",
        id="answer_raid",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["duel", KEEP]), S("renegade", hand=["shot"]), "outlaw", "outlaw"
        ),
        ["duel@1"],
        1,
        "answer_duel",
        ["take_hit", "shot"],
        "take_hit",
        id="answer_duel",
    ),
    pytest.param(
        scenario(
            S("sheriff", "bonesetter", life=4, hand=["shot", "duel"], in_play=["dynamite"]),
            "renegade",
            "outlaw",
            "outlaw",
            step="turn_start",
            deck=[BOOM],
        ),
        [],
        0,
        "brace",
        ["take_hit", "heal"],
        "take_hit",
        id="brace",
    ),
    pytest.param(
        scenario(
            S("sheriff", "bonesetter", life=5, hand=["shot", "duel", KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["heal"],
        0,
        "heal_discard",
        ["discard:wagon", "discard:duel", "discard:shot"],
        "discard:wagon",
        id="heal_discard",
    ),
    pytest.param(
        scenario(
            S("sheriff", "vulture_junior", hand=[KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
            step="turn_start",
            discard=["duel_02"],
        ),
        [],
        0,
        "draw_choice",
        ["draw_deck", "draw_discard"],
        "draw_deck",
        id="draw_choice",
    ),
    pytest.param(
        scenario(
            S("sheriff", "three_eyes", hand=[KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
            step="turn_start",
            deck=["shot_05", "duel_02", "horse_01"],
        ),
        [],
        0,
        "draw_keep",
        ["return:shot_05", "return:duel_02", "return:horse_01"],
        "return:shot_05",
        id="draw_keep",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["knock_off", KEEP]),
            "renegade",
            S("outlaw", hand=["shot"], in_play=["scope"], weapon="carbine"),
            "outlaw",
        ),
        ["knock_off@2"],
        0,
        "pick_card",
        ["pick:hand", "pick:scope", "pick:carbine"],
        "pick:hand",
        id="pick_card",
    ),
    pytest.param(
        scenario(S("sheriff", hand=["shot", KEEP]), S("renegade", life=1), "outlaw", "outlaw"),
        ["shot@1"],
        0,
        "glory_upgrade",
        ["upgrade:marksman", "upgrade:endurance", "upgrade:instinct"],
        "upgrade:marksman",
        id="glory_upgrade",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", life=1, stars=["endurance", "marksman"]),
            "outlaw",
            "outlaw",
        ),
        ["shot@1"],
        0,
        "bounty_pick",
        ["bounty:endurance", "bounty:marksman"],
        "bounty:endurance",
        id="bounty_pick",
    ),
]


def test_every_decision_kind_has_a_case() -> None:
    kinds = {p.values[3] for p in DECISION_CASES}
    assert kinds == set(DECISION_KINDS)
    assert len(DECISION_KINDS) == 12


@pytest.mark.parametrize(("sc", "moves", "who", "kind", "ids", "auto"), DECISION_CASES)
def test_decision(
    sc: dict, moves: list[str], who: int, kind: str, ids: list[str], auto: str
) -> None:
    game = load_scenario(sc)
    run(game, moves)
    d = game.decision
    assert (d.seat, d.kind, game.to_move) == (who, kind, who)
    assert list(d.ids) == ids == legal(game)
    assert all(m.kind in MOVE_KINDS for m in d.moves)
    assert game.autopilot().id == auto
    # Everyone sees whose decision it is and its kind; only the seat gets the moves.
    for viewer in (None, *range(len(sc["seats"]))):
        info = game.view(viewer).decision
        assert (info.seat, info.kind) == (who, kind)
    # The autopilot's move is legal and applies.
    game.apply(who, auto)
    assert game.over or len(game.legal_moves) >= 2


ANSWER_CONTEXT = [
    ("answer_shot", ["shot@1"], S("renegade", hand=["ricochet"]), (0, None, "shot")),
    ("answer_raid", ["raid"], S("renegade", hand=["shot"]), (0, None, "raid")),
    ("answer_duel", ["duel@1"], S("renegade", hand=["shot"]), (0, None, "duel")),
]


@pytest.mark.parametrize(("kind", "moves", "target", "context"), ANSWER_CONTEXT)
def test_answer_decisions_name_the_attacker(kind, moves, target, context) -> None:
    game = load_scenario(
        scenario(S("sheriff", hand=["shot", "raid", "duel", KEEP]), target, "outlaw", "outlaw")
    )
    run(game, moves)
    d = game.decision
    source, _, card_kind = context
    assert (d.kind, d.source, d.card) == (kind, source, card_kind)
    info = game.view(3).decision
    assert (info.kind, info.source, info.card) == (kind, source, card_kind)


AUTOPILOT_OUTCOMES = [
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]), S("renegade", hand=["ricochet"]), "outlaw", "outlaw"
        ),
        ["shot@1"],
        lambda g: life(g, 1) == 3 and g.view(1).hand == ["ricochet_01"],
        id="answer-autopilot-takes-the-hit",
    ),
    pytest.param(
        scenario(S("sheriff", hand=["shot", KEEP]), S("renegade", "lucky"), "outlaw", "outlaw"),
        [],
        lambda g: g.view(None).turn == 1 and g.view(0).hand == ["shot_01", "wagon_01"],
        id="play-autopilot-ends-the-turn",
    ),
]


@pytest.mark.parametrize(("sc", "moves", "outcome"), AUTOPILOT_OUTCOMES)
def test_autopilot_outcome(sc: dict, moves: list[str], outcome) -> None:
    game = load_scenario(sc)
    run(game, moves)
    game.apply(game.to_move, game.autopilot().id)
    assert outcome(game)


FORCED_CASES = [
    pytest.param(
        scenario(S("sheriff", hand=["shot", KEEP]), "renegade", "outlaw", "outlaw"),
        ["shot@1"],
        (1, "take_hit"),
        id="nothing-to-answer",
    ),
    pytest.param(
        scenario(S("sheriff", hand=["shot"]), "renegade", "outlaw", "outlaw"),
        ["shot@1"],
        (0, "end_turn"),
        id="nothing-left-to-play",
    ),
    pytest.param(
        scenario(S("sheriff", life=1, hand=["shot_05", "shot_06"]), "renegade", "outlaw", "outlaw"),
        ["end_turn"],
        (0, "discard:shot"),
        id="one-kind-to-discard",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["snatch", KEEP]), S("renegade", hand=["shot"]), "outlaw", "outlaw"
        ),
        ["snatch@1"],
        (0, "pick:hand"),
        id="only-the-hand-to-pick-from",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", life=1, stars=["marksman"]),
            "outlaw",
            "outlaw",
        ),
        ["shot@1"],
        (0, "bounty:marksman"),
        id="one-star-to-take",
    ),
    pytest.param(
        scenario(
            S("sheriff", "bonesetter", life=5, hand=["shot", "duel"]),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["heal", "discard:duel"],
        (0, "discard:shot"),
        id="last-card-of-a-heal",
    ),
]


@pytest.mark.parametrize(("sc", "moves", "forced"), FORCED_CASES)
def test_forced_moves_are_applied_and_logged_as_automatic(sc, moves, forced) -> None:
    game = load_scenario(sc)
    before = game.state.forced
    evs = run(game, moves)
    auto = [(e["seat"], e["move"]) for e in of_kind(evs, "move", auto=True)]
    assert forced in auto
    assert game.state.forced - before == len(auto)
    # Forced moves are not player decisions: the history holds only the chosen ones.
    assert [m for _, m in game.history] == moves
    # Everyone sees the automatic move.
    seen = of_kind(game.events(2), "move", seat=forced[0], auto=True)
    assert forced[1] in [e["move"] for e in seen]
    assert game.over or len(game.legal_moves) >= 2


def test_a_decision_is_never_shown_with_a_single_move() -> None:
    # Random-legal play from exact positions across every case above: whenever the engine
    # waits, it offers a real choice.
    import random

    rng = random.Random(0)
    for param in DECISION_CASES:
        game = load_scenario(param.values[0])
        for _ in range(150):
            if game.over:
                break
            assert len(game.legal_moves) >= 2
            game.apply(game.to_move, rng.choice(game.legal_moves).id)
        assert events(game)
