"""Answering attacks (rules.md §5, §6 Cover, §11 hits): Buckshot and Raid seat by seat, Duel,
Cover coins, Twin Barrels' double Ricochet, Canteen saves, Two-Face in every window."""

from __future__ import annotations

import pytest
from scenario_helpers import check, legal, load, run, scenario, seat

from bangarena.engine.scenario import load_scenario

S = seat
KEEP = "wagon"


def _ring_with_answers(shooter_card: str, answer: str, n: int = 5) -> dict:
    """``n`` seats; seat 2 plays ``shooter_card``; every other seat holds one ``answer``."""
    roles = ["sheriff", "deputy", "outlaw", "outlaw", "renegade", "outlaw", "deputy", "renegade"]
    seats = []
    for s in range(n):
        hand = [shooter_card, KEEP] if s == 2 else [answer]
        seats.append(S(roles[s], hand=hand))
    return scenario(*seats, turn=2)


@pytest.mark.parametrize(("card", "answer", "kind"), [
    ("buckshot", "ricochet", "answer_shot"),
    ("raid", "shot", "answer_raid"),
])  # fmt: skip
def test_buckshot_and_raid_answered_seat_by_seat_clockwise(
    card: str, answer: str, kind: str
) -> None:
    game = load_scenario(_ring_with_answers(card, answer))
    evs = run(game, [card])
    order = []
    while game.decision.kind == kind:
        order.append(game.decision.seat)
        assert game.decision.source == 2
        evs += run(game, [(game.decision.seat, answer)])
    assert order == [3, 4, 0, 1]
    assert [e["seat"] for e in evs if e["kind"] == "answered"] == [3, 4, 0, 1]
    check(game, {"decision": (2, "play"), "life": {0: 4, 1: 4, 3: 4, 4: 4}})


def test_buckshot_skips_dead_seats_and_continues_after_a_death() -> None:
    game = load(
        S("sheriff", hand=["ricochet"]),
        S("deputy", alive=False),
        S("outlaw", hand=["buckshot", KEEP]),
        S("outlaw", alive=False),
        S("renegade", "stone_leopard", life=1),
        S("outlaw", hand=["ricochet"]),
        turn=2,
    )
    evs = run(game, ["buckshot"])
    # Seat 4 dies on the forced hit; the killer's glory pick comes with the elimination, then
    # seat 5 and seat 0 still answer.
    check(game, {"decision": (2, "glory_upgrade"), "alive": {4: False}}, evs)
    evs += run(game, ["upgrade:marksman"])
    check(game, {"decision": (5, "answer_shot")})
    evs += run(game, ["ricochet", "ricochet"])
    check(
        game,
        {
            "decision": (2, "play"),
            "events": [
                ("eliminated", {"seat": 4, "killer": 2}),
                ("answered", {"seat": 5}),
                ("answered", {"seat": 0}),
            ],
        },
        evs,
    )


# -- Twin Barrels: 2 Ricochets at distance 1, Cover counts as one (rules.md §5) ---------------

TB = "twin_barrels"


def _tb(target: dict, *, shooter: dict | None = None, coins=(), target_seat: int = 1, **kw):
    shooter = shooter or S("sheriff", TB, hand=["shot", KEEP])
    seats = [shooter, S("renegade"), S("outlaw"), S("outlaw")]
    seats[target_seat] = target
    return scenario(*seats, coins=list(coins), **kw)


TWIN_BARRELS_CASES = [
    pytest.param(
        _tb(S("renegade", "lucky", hand=["ricochet"], in_play=["cover"]), coins=[False, True]),
        ["shot@1"],
        {"decision": (1, "answer_shot"), "legal": ["take_hit", "ricochet"], "needed": 1},
        id="lucky-second-cover-coin-counts-as-one",
    ),
    pytest.param(
        _tb(S("renegade", hand=["ricochet"], in_play=["cover"]), coins=[True]),
        ["shot@1", "ricochet"],
        {
            "life": {1: 4},
            "events": [
                ("check", {"seat": 1, "reason": "cover", "coins": [True], "success": True}),
                ("answered", {"seat": 1}),
                ("cancelled", {"seat": 1, "by": "ricochet"}),
            ],
            "no_events": ["hit"],
        },
        id="cover-plus-one-ricochet-cancels",
    ),
    pytest.param(
        _tb(S("renegade", hand=["ricochet"], in_play=["cover"]), coins=[False]),
        ["shot@1"],
        {"decision": (1, "answer_shot"), "needed": 2},
        id="cover-fails-two-needed",
    ),
    pytest.param(
        _tb(S("renegade", hand=["ricochet"], in_play=["cover"]), coins=[False]),
        ["shot@1", "ricochet"],
        {
            "life": {1: 3},
            "events": [
                ("answered", {"seat": 1}),
                ("move", {"seat": 1, "move": "take_hit", "auto": True}),
                ("hit", {"seat": 1, "source": 0}),
            ],
            "no_events": ["cancelled"],
        },
        id="cover-fails-one-ricochet-is-not-enough",
    ),
    pytest.param(
        _tb(S("renegade", hand=["ricochet", "ricochet"])),
        ["shot@1", "ricochet"],
        {"decision": (1, "answer_shot"), "needed": 1, "legal": ["take_hit", "ricochet"]},
        id="no-cover-first-ricochet-asks-for-a-second",
    ),
    pytest.param(
        _tb(S("renegade", hand=["ricochet", "ricochet"])),
        ["shot@1", "ricochet", "ricochet"],
        {"life": {1: 4}, "hand": {1: []}, "events": [("cancelled", {"by": "ricochet"})]},
        id="two-ricochets-cancel",
    ),
    pytest.param(
        _tb(S("renegade", "iron_brow", hand=["ricochet"]), coins=[True]),
        ["shot@1", "ricochet"],
        {"life": {1: 4}, "events": [("cancelled", {"by": "ricochet"})]},
        id="iron-brow-built-in-cover-counts-as-one",
    ),
    pytest.param(
        _tb(S("renegade", "iron_brow", hand=["ricochet"], in_play=["cover"]), coins=[False, True]),
        ["shot@1"],
        {"decision": (1, "answer_shot"), "needed": 2},
        id="iron-brow-plus-cover-card-is-still-one-coin",
    ),
    pytest.param(
        _tb(
            S("outlaw", hand=["ricochet"]),
            shooter=S("sheriff", TB, hand=["shot", KEEP], weapon="sawed_off"),
            target_seat=2,
        ),
        ["shot@2"],
        {"decision": (2, "answer_shot"), "needed": 1},
        id="distance-2-one-ricochet-is-enough",
    ),
    pytest.param(
        _tb(
            S("renegade", hand=["ricochet"], in_play=["horse"]),
            shooter=S("sheriff", TB, hand=["shot", KEEP], weapon="sawed_off"),
        ),
        ["shot@1"],
        {"decision": (1, "answer_shot"), "needed": 1},
        id="neighbour-with-horse-is-at-2",
    ),
    pytest.param(
        _tb(
            S("outlaw", hand=["ricochet"]),
            shooter=S("sheriff", TB, hand=["shot", KEEP], in_play=["scope"]),
            target_seat=2,
        ),
        ["shot@2"],
        {"decision": (2, "answer_shot"), "needed": 2},
        id="scope-brings-distance-2-to-1",
    ),
    pytest.param(
        _tb(S("renegade", hand=["ricochet"]), shooter=S("sheriff", TB, hand=["buckshot", KEEP])),
        ["buckshot", "ricochet"],
        {"life": {1: 4}, "decision": (0, "play"), "events": [("cancelled", {"seat": 1})]},
        id="buckshot-needs-only-one",
    ),
    pytest.param(
        _tb(S("renegade", life=1, hand=["ricochet", "canteen"])),
        ["shot@1", "canteen"],
        {"life": {1: 1}, "events": [("cancelled", {"seat": 1, "by": "canteen"})]},
        id="canteen-cancels-outright",
    ),
    pytest.param(
        _tb(S("renegade", "two_face", hand=["shot", "ricochet"])),
        ["shot@1", "shot_as_ricochet", "ricochet"],
        {"life": {1: 4}, "events": [("cancelled", {"by": "ricochet"})]},
        id="two-face-shot-counts-as-a-ricochet",
    ),
]


@pytest.mark.parametrize(("sc", "moves", "expect"), TWIN_BARRELS_CASES)
def test_twin_barrels(sc: dict, moves: list[str], expect: dict) -> None:
    game = load_scenario(sc)
    evs = run(game, moves)
    needed = expect.pop("needed", None)
    check(game, expect, evs)
    if needed is not None:
        assert game.decision.needed == needed
        assert game.view(None).decision.needed == needed


# -- Cover, Canteen, Two-Face, Duel -------------------------------------------------------------

ANSWER_CASES = [
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", hand=["ricochet"], in_play=["cover"]),
            "outlaw",
            "outlaw",
            coins=[True],
        ),
        ["shot@1"],
        {
            "life": {1: 4},
            "hand": {1: ["ricochet_01"]},
            "decision": (0, "play"),
            "events": [
                ("check", {"seat": 1, "reason": "cover", "coins": [True], "cards": []}),
                ("cancelled", {"seat": 1, "source": 0, "by": "cover"}),
            ],
        },
        id="cover-lucky-coin-cancels-before-any-answer",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", hand=["ricochet"], in_play=["cover"]),
            "outlaw",
            "outlaw",
            coins=[False],
        ),
        ["shot@1"],
        {
            "decision": (1, "answer_shot"),
            "legal": ["take_hit", "ricochet"],
            "events": [("check", {"seat": 1, "coins": [False], "success": False})],
        },
        id="cover-unlucky-coin-then-ricochet-window",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", in_play=["cover"]),
            "outlaw",
            "outlaw",
            coins=[False],
        ),
        ["shot@1"],
        {"life": {1: 3}, "events": [("check", {"seat": 1}), ("hit", {"seat": 1})]},
        id="cover-unlucky-nothing-to-answer-takes-the-hit",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["buckshot", KEEP]),
            S("renegade", in_play=["cover"]),
            S("outlaw", in_play=["cover"]),
            "outlaw",
            coins=[True, False],
        ),
        ["buckshot"],
        {
            "life": {1: 4, 2: 3, 3: 3},
            "events": [
                ("check", {"seat": 1, "success": True}),
                ("cancelled", {"seat": 1, "by": "cover"}),
                ("check", {"seat": 2, "success": False}),
                ("hit", {"seat": 2}),
                ("hit", {"seat": 3}),
            ],
        },
        id="cover-works-against-buckshot-one-coin-each",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", "iron_brow", hand=["ricochet"], in_play=["cover"]),
            "outlaw",
            "outlaw",
            coins=[False, True],
        ),
        ["shot@1"],
        {
            "decision": (1, "answer_shot"),
            "events": [("check", {"seat": 1, "coins": [False], "success": False})],
        },
        id="iron-brow-and-cover-card-one-coin",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", in_play=["cover"]),
            "outlaw",
            "outlaw",
            coins=[True],
            round=8,
        ),
        ["shot@1"],
        {"life": {1: 3}, "no_events": ["check", "cancelled"]},
        id="high-noon-switches-cover-off",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", "iron_brow"),
            "outlaw",
            "outlaw",
            coins=[True],
            round=9,
        ),
        ["shot@1"],
        {"life": {1: 3}, "no_events": ["check", "cancelled"]},
        id="high-noon-switches-built-in-cover-off",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", life=1, hand=["canteen", "ricochet"]),
            "outlaw",
            "outlaw",
            round=8,
        ),
        ["shot@1"],
        {"legal": ["take_hit", "ricochet"]},
        id="high-noon-no-canteen-answer",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", life=1, hand=["canteen"]),
            S("outlaw", alive=False),
            S("outlaw", alive=False),
        ),
        ["shot@1"],
        {
            "alive": {1: False},
            "over": True,
            "team": "law",
            "events": [
                ("move", {"seat": 1, "move": "take_hit", "auto": True}),
                ("eliminated", {"seat": 1, "killer": 0}),
            ],
            "no_events": ["cancelled"],
        },
        id="canteen-save-refused-with-2-alive",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["buckshot", KEEP]),
            S("renegade", life=1, hand=["canteen"]),
            "outlaw",
            S("outlaw", alive=False),
        ),
        ["buckshot"],
        {"decision": (1, "answer_shot"), "legal": ["take_hit", "canteen"]},
        id="canteen-save-against-buckshot-with-3-alive",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["raid", KEEP]),
            S("renegade", life=1, hand=["canteen", "ricochet"]),
            "outlaw",
            "outlaw",
        ),
        ["raid"],
        {"alive": {1: False}, "events": [("move", {"seat": 1, "move": "take_hit", "auto": True})]},
        id="raid-is-not-answered-by-canteen-or-ricochet",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["duel", KEEP]),
            S("renegade", life=1, hand=["canteen", "ricochet"]),
            "outlaw",
            "outlaw",
        ),
        ["duel@1"],
        {"alive": {1: False}, "events": [("move", {"seat": 1, "move": "take_hit", "auto": True})]},
        id="duel-is-not-answered-by-canteen-or-ricochet",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", "two_face", hand=["shot", "ricochet"]),
            "outlaw",
            "outlaw",
        ),
        ["shot@1"],
        {"legal": ["take_hit", "ricochet", "shot_as_ricochet"]},
        id="two-face-answers-a-shot-with-either",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", "two_face", hand=["shot"]),
            "outlaw",
            "outlaw",
        ),
        ["shot@1", "shot_as_ricochet"],
        {
            "life": {1: 4},
            "events": [
                ("answered", {"seat": 1, "card": "shot_02", "as_kind": "ricochet"}),
                ("cancelled", {"seat": 1, "by": "ricochet"}),
            ],
        },
        id="two-face-shot-as-ricochet-cancels",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["raid", KEEP]),
            S("renegade", "two_face", hand=["ricochet"]),
            "outlaw",
            "outlaw",
        ),
        ["raid", "ricochet_as_shot"],
        {
            "life": {1: 4},
            "events": [("answered", {"seat": 1, "card": "ricochet_01", "as_kind": "shot"})],
        },
        id="two-face-ricochet-as-shot-in-a-raid",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["duel", "shot", KEEP]),
            "renegade",
            S("outlaw", "two_face", hand=["ricochet", "shot"]),
            "outlaw",
        ),
        ["duel@2"],
        {"decision": (2, "answer_duel"), "legal": ["take_hit", "shot", "ricochet_as_shot"]},
        id="duel-two-face-target-may-answer-with-a-ricochet",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["duel", "shot", KEEP]),
            "renegade",
            S("outlaw", "two_face", hand=["ricochet", "ricochet"]),
            "outlaw",
        ),
        ["duel@2", "ricochet_as_shot", "shot", "ricochet_as_shot"],
        {
            "life": {0: 5, 2: 4},
            "hand": {2: []},
            "events": [
                ("answered", {"seat": 2, "card": "ricochet_01", "as_kind": "shot"}),
                ("answered", {"seat": 0, "card": "shot_01", "as_kind": None}),
                ("answered", {"seat": 2, "card": "ricochet_02", "as_kind": "shot"}),
                ("hit", {"seat": 0, "source": 2, "cause": "duel"}),
            ],
        },
        id="duel-two-face-wins-with-ricochets",
    ),
    pytest.param(
        scenario(
            S("sheriff", "two_face", hand=["duel", "ricochet", KEEP]),
            "renegade",
            S("outlaw", hand=["shot"]),
            "outlaw",
        ),
        ["duel@2", "shot", "ricochet_as_shot"],
        {
            "life": {0: 6, 2: 3},
            "events": [
                ("answered", {"seat": 0, "card": "ricochet_01", "as_kind": "shot"}),
                ("hit", {"seat": 2, "source": 0, "cause": "duel"}),
            ],
        },
        id="duel-two-face-challenger-answers-with-a-ricochet",
    ),
]


@pytest.mark.parametrize(("sc", "moves", "expect"), ANSWER_CASES)
def test_answer(sc: dict, moves: list[str], expect: dict) -> None:
    game = load_scenario(sc)
    evs = run(game, moves)
    check(game, expect, evs)


def test_only_the_attacked_player_answers() -> None:
    game = load(
        S("sheriff", hand=["shot", KEEP]),
        S("renegade", hand=["ricochet"]),
        S("outlaw", hand=["ricochet"]),
        S("outlaw", hand=["ricochet"]),
    )
    run(game, ["shot@1"])
    assert game.to_move == 1
    assert legal(game) == ["take_hit", "ricochet"]
    info = game.view(3).decision
    assert (info.seat, info.kind, info.source, info.card) == (1, "answer_shot", 0, "shot")
