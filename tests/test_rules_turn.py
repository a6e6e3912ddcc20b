"""The table and the turn (rules.md §1, §3, §4, §6, §11): order, rounds, High Noon, checks,
draws, reshuffles, hand-limit discards, distance, dying on one's own turn, what a seat sees."""

from __future__ import annotations

import pytest
from scenario_helpers import (
    card,
    check,
    events,
    legal,
    load,
    of_kind,
    run,
    scenario,
    seat,
    with_everything_placed,
)

from bangarena.engine import GameConfig, new_game
from bangarena.engine.scenario import load_scenario

S = seat
KEEP = "wagon"
BOOM = card("shot", explodes=True)  # shot_04 ♠6
CALM = card("shot", hearts=False, explodes=False)  # shot_03 ♦K
HEART = card("shot", hearts=True)  # shot_01 ♥2


# -- order and rounds (§3) --------------------------------------------------------------------


@pytest.mark.parametrize("seats", [4, 5, 6, 7, 8])
def test_the_sheriff_plays_first_in_round_1(seats: int) -> None:
    game = new_game(GameConfig(seats=seats), seed=seats)
    started = of_kind(events(game), "turn_started")
    sheriff = game.view(None).players.index(
        next(p for p in game.view(None).players if p.role == "sheriff")
    )
    assert started[0]["seat"] == sheriff
    assert started[0]["round"] == 1


TURN_CASES = [
    pytest.param(
        scenario(
            S("sheriff", hand=[KEEP]),
            S("renegade", "red_suit"),
            S("outlaw", "lucky"),
            S("outlaw", "two_face"),
            S("deputy", "twin_barrels"),
            deck=["shot_05", "shot_11", "duel_01", "horse_01"],
        ),
        ["end_turn"],
        {
            "turn": 1,
            "events": [
                ("turn_ended", {"seat": 0}),
                ("turn_started", {"seat": 1, "round": 1}),
                (
                    "drew",
                    {"seat": 1, "count": 2, "reason": "draw", "cards": ["shot_05", "shot_11"]},
                ),
            ],
        },
        id="clockwise-and-draw-two",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=[KEEP]),
            S("renegade", alive=False),
            S("outlaw", "lucky", hand=[KEEP]),
            "outlaw",
            "deputy",
        ),
        ["end_turn"],
        {"turn": 2, "events": [("turn_started", {"seat": 2})], "no_events": ["check"]},
        id="eliminated-players-are-skipped",
    ),
    pytest.param(
        scenario(
            S("sheriff", "lucky", hand=[KEEP]),
            "renegade",
            "outlaw",
            S("outlaw", hand=[KEEP]),
            turn=3,
            round=3,
        ),
        ["end_turn"],
        {
            "round": 4,
            "turn": 0,
            "events": [("turn_started", {"seat": 0, "round": 4, "high_noon": False})],
        },
        id="rounds-count-on-the-sheriffs-turn",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=[KEEP]),
            S("renegade", "lucky", hand=[KEEP]),
            "outlaw",
            "outlaw",
            round=3,
        ),
        ["end_turn"],
        {"round": 3, "turn": 1, "events": [("turn_started", {"seat": 1, "round": 3})]},
        id="other-turns-stay-in-the-round",
    ),
    pytest.param(
        scenario(
            S("sheriff", "lucky", hand=["shot", "shot", KEEP]),
            "renegade",
            "outlaw",
            S("outlaw", hand=[KEEP]),
            turn=3,
            round=7,
        ),
        ["end_turn", "shot@1"],
        {
            "round": 8,
            "high_noon": True,
            "legal_has": ["shot@1", "shot@3"],
            "events": [
                ("high_noon", {"round": 8}),
                ("turn_started", {"seat": 0, "round": 8, "high_noon": True}),
            ],
        },
        id="high-noon-from-round-8-no-shot-limit",
    ),
    pytest.param(
        scenario(
            S("sheriff", "lucky", hand=["shot", "shot", KEEP]),
            "renegade",
            "outlaw",
            S("outlaw", hand=[KEEP]),
            turn=3,
            round=6,
        ),
        ["end_turn", "shot@1"],
        {
            "round": 7,
            "high_noon": False,
            "legal_lacks": ["shot@1", "shot@3"],
            "no_events": ["high_noon"],
        },
        id="round-7-is-not-high-noon",
    ),
    pytest.param(
        scenario(
            S("sheriff", life=3, hand=["canteen", "saloon", KEEP]),
            S("renegade", life=2),
            "outlaw",
            "outlaw",
            round=8,
        ),
        ["saloon"],
        {"life": {0: 3, 1: 2}, "legal": ["end_turn", "wagon"], "no_events": ["healed"]},
        id="high-noon-stops-canteen-and-saloon",
    ),
    # -- start-of-turn checks (§3, §6) ---------------------------------------------------------
    pytest.param(
        scenario(
            S("sheriff", hand=[KEEP]),
            S("renegade", "twin_barrels", hand=[KEEP], in_play=["jail", "dynamite"]),
            "outlaw",
            "outlaw",
            turn=1,
            step="turn_start",
            deck=[CALM, HEART, "duel_01", "horse_01"],
        ),
        [],
        {
            "decision": (1, "play"),
            "in_play": {1: [], 2: ["dynamite"]},
            "events": [
                ("check", {"seat": 1, "reason": "dynamite", "cards": [CALM], "success": True}),
                ("dynamite_passed", {"seat": 1, "to": 2}),
                ("check", {"seat": 1, "reason": "jail", "cards": [HEART], "success": True}),
                ("jail_result", {"seat": 1, "escaped": True}),
                ("drew", {"seat": 1, "cards": ["duel_01", "horse_01"]}),
            ],
        },
        id="dynamite-checked-before-jail",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=[KEEP]),
            S("renegade", "twin_barrels", hand=[KEEP], in_play=["jail"]),
            "outlaw",
            "outlaw",
            turn=1,
            step="turn_start",
            deck=[HEART, "duel_01", "horse_01"],
        ),
        [],
        {
            "decision": (1, "play"),
            "in_play": {1: []},
            "discard": [HEART, "jail_01"],
        },
        id="jail-heart-escapes-jail-discarded-after-the-flip",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=[KEEP]),
            S("renegade", "twin_barrels", life=2, hand=["shot_05"], in_play=["jail"]),
            S("outlaw", "lucky"),
            "outlaw",
            turn=1,
            step="turn_start",
            deck=[CALM, "duel_01", "horse_01"],
        ),
        [],
        {
            "decision": (1, "discard_excess"),
            "legal": ["discard:horse", "discard:duel", "discard:shot"],
            "hand": {1: ["shot_05", "duel_01", "horse_01"]},
            "discard": [CALM, "jail_01"],
            "events": [("jail_result", {"seat": 1, "escaped": False}), ("drew", {"seat": 1})],
        },
        id="jail-failed-draws-then-straight-to-discards",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=[KEEP]),
            S("renegade", "twin_barrels", hand=["shot_05"], in_play=["jail"]),
            S("outlaw", "lucky", hand=[KEEP]),
            "outlaw",
            turn=1,
            step="turn_start",
            deck=[CALM, "duel_01", "horse_01", "jail_02", "scope_01"],
        ),
        [],
        {
            "turn": 2,
            "hand": {1: ["shot_05", "duel_01", "horse_01"]},
            "events": [("turn_ended", {"seat": 1}), ("turn_started", {"seat": 2})],
            "no_events": ["played"],
        },
        id="jail-failed-within-the-limit-ends-the-turn",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=[KEEP]),
            S("renegade", "twin_barrels", max_life=5, hand=[KEEP], in_play=["dynamite"]),
            "outlaw",
            "outlaw",
            turn=1,
            step="turn_start",
            deck=[BOOM, "duel_01", "horse_01"],
        ),
        [],
        {
            "life": {1: 2},
            "in_play": {1: []},
            "discard": [BOOM, "dynamite_01"],
            "events": [
                ("check", {"seat": 1, "reason": "dynamite", "success": False}),
                ("dynamite_exploded", {"seat": 1}),
                ("hit", {"seat": 1, "source": None, "amount": 3, "cause": "dynamite"}),
                ("drew", {"seat": 1, "cards": ["duel_01", "horse_01"]}),
            ],
        },
        id="dynamite-explodes-3-damage-then-discarded",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=[KEEP]),
            S("renegade", "twin_barrels", hand=[KEEP], in_play=["dynamite"]),
            S("outlaw", alive=False),
            S("outlaw", alive=False),
            S("deputy"),
            turn=1,
            step="turn_start",
            deck=[CALM, "duel_01", "horse_01"],
        ),
        [],
        {
            "in_play": {1: [], 4: ["dynamite"]},
            "events": [("dynamite_passed", {"seat": 1, "to": 4})],
        },
        id="dynamite-passes-over-dead-players",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=[KEEP]),
            S("renegade", "twin_barrels", life=2, hand=["shot_05"], in_play=["dynamite"]),
            S("outlaw", "lucky", hand=[KEEP]),
            "outlaw",
            turn=1,
            step="turn_start",
            deck=[BOOM, "duel_01", "horse_01"],
        ),
        [],
        {
            "alive": {1: False},
            "turn": 2,
            "discard": [BOOM, "dynamite_01", "shot_05"],
            "events": [
                ("eliminated", {"seat": 1, "role": "renegade", "killer": None}),
                ("turn_ended", {"seat": 1}),
                ("turn_started", {"seat": 2}),
            ],
            "no_events": ["star_gained"],
        },
        id="dynamite-kill-ends-the-turn-at-once-no-killer",
    ),
    # -- the end of the turn (§3) --------------------------------------------------------------
    pytest.param(
        scenario(
            S("sheriff", life=2, hand=["shot_05", "duel_02", "shot_06", "horse_01"]),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["end_turn"],
        {
            "decision": (0, "discard_excess"),
            "legal": ["discard:horse", "discard:shot", "discard:duel"],
        },
        id="hand-limit-discard-choice-newest-first",
    ),
    pytest.param(
        scenario(
            S("sheriff", life=2, hand=["shot_05", "duel_02", "shot_06", "horse_01"]),
            S("renegade", "lucky", hand=[KEEP]),
            "outlaw",
            "outlaw",
        ),
        ["end_turn", "discard:shot", "discard:duel"],
        {
            "hand": {0: ["shot_05", "horse_01"]},
            "turn": 1,
            "events": [
                ("discarded", {"seat": 0, "cards": ["shot_06"], "reason": "hand_limit"}),
                ("discarded", {"seat": 0, "cards": ["duel_02"], "reason": "hand_limit"}),
                ("turn_ended", {"seat": 0}),
            ],
        },
        id="hand-limit-discards-one-at-a-time-newest-copy",
    ),
    pytest.param(
        scenario(
            S("sheriff", life=2, hand=["shot_05", "shot_06", "shot_07"]),
            S("renegade", "lucky", hand=[KEEP]),
            "outlaw",
            "outlaw",
        ),
        ["end_turn"],
        {
            "hand": {0: ["shot_05", "shot_06"]},
            "events": [
                ("move", {"seat": 0, "move": "discard:shot", "auto": True}),
                ("discarded", {"cards": ["shot_07"]}),
            ],
        },
        id="hand-limit-single-kind-is-forced",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=[KEEP]),
            S("renegade", life=1, hand=["duel", "shot_05"]),
            S("outlaw", "lucky", hand=["shot", "shot", KEEP]),
            "outlaw",
            turn=1,
        ),
        ["duel@2", "shot", "shot", "shot", "upgrade:marksman"],
        {
            "alive": {1: False},
            "turn": 2,
            "events": [
                ("eliminated", {"seat": 1, "killer": 2}),
                ("turn_ended", {"seat": 1}),
                ("turn_started", {"seat": 2}),
            ],
            "no_events": ["discarded"],
        },
        id="dying-on-your-own-turn-in-a-duel",
    ),
    # -- distance (§4) -------------------------------------------------------------------------
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", alive=False),
            "outlaw",
            "outlaw",
            "deputy",
        ),
        [],
        {"legal": ["end_turn", "shot@2", "shot@4", "wagon"]},
        id="the-circle-closes-over-the-dead",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", in_play=["horse"]),
            "outlaw",
            S("outlaw", "canyon_shadow"),
        ),
        [],
        {"legal": ["end_turn", "wagon"]},
        id="a-shot-with-nobody-in-range-is-not-legal",
    ),
]


@pytest.mark.parametrize(("sc", "moves", "expect"), TURN_CASES)
def test_turn(sc: dict, moves: list[str], expect: dict) -> None:
    game = load_scenario(sc)
    run(game, moves)
    check(game, expect, events(game))


def test_autopilot_discards_the_most_recently_acquired_card() -> None:
    game = load(
        S("sheriff", life=1, hand=["shot_05", "horse_01", "duel_02", "shot_06"]),
        S("renegade", "lucky", hand=[KEEP]),
        "outlaw",
        "outlaw",
    )
    run(game, ["end_turn"])
    discarded = []
    while game.decision.kind == "discard_excess":
        before = game.view(0).hand
        move = game.autopilot()
        game.apply(0, move.id)
        (gone,) = [c for c in before if c not in game.view(0).hand]
        discarded.append(gone)
    assert discarded == ["shot_06", "duel_02", "horse_01"]
    assert game.view(0).hand == ["shot_05"]


def test_distances_in_views() -> None:
    game = load(
        S("sheriff", in_play=["scope"]),
        S("renegade", in_play=["horse"]),
        "outlaw",
        "outlaw",
        "deputy",
        "outlaw",
    )
    # Seat 0: neighbours at 1, the far seat at 3; Horse +1 for seat 1; Scope −1, never below 1.
    assert [p.distance for p in game.view(0).players] == [None, 1, 1, 2, 1, 1]
    assert [p.distance for p in game.view(3).players] == [3, 3, 1, None, 1, 2]


# -- empty deck and reshuffles (§3, §6, §11) --------------------------------------------------


def test_empty_deck_reshuffles_the_discard_pile_for_a_draw() -> None:
    sc = scenario(
        S("sheriff", hand=[KEEP]),
        S("renegade", "lucky", hand=[KEEP]),
        "outlaw",
        "outlaw",
        turn=1,
        step="turn_start",
        discard=["duel_01", "horse_01"],
    )
    game = load_scenario(with_everything_placed(sc, 3))
    evs = events(game)
    check(
        game, {"events": [("reshuffled", {"deck_size": 2}), ("drew", {"seat": 1, "count": 2})]}, evs
    )
    assert sorted(game.view(1).hand) == ["duel_01", "horse_01", "wagon_02"]
    assert game.view(None).discard_size == 0


def test_both_piles_empty_a_draw_draws_fewer() -> None:
    sc = scenario(
        S("sheriff", hand=[KEEP]),
        S("renegade", "lucky", hand=[KEEP]),
        "outlaw",
        "outlaw",
        turn=1,
        step="turn_start",
        deck=["duel_01"],
    )
    game = load_scenario(with_everything_placed(sc, 3))
    evs = events(game)
    assert of_kind(evs, "drew", seat=1) == [
        {"kind": "drew", "seat": 1, "count": 1, "source": "deck", "reason": "draw",
         "cards": ["duel_01"], "private_to": [1]}
    ]  # fmt: skip
    assert game.view(1).hand == ["wagon_02", "duel_01"]


def test_a_played_card_is_discarded_before_its_effect() -> None:
    # Wagon with both piles empty: the Wagon itself is the only card to reshuffle and draw.
    sc = scenario(S("sheriff", hand=[KEEP, "shot"]), "renegade", "outlaw", "outlaw")
    game = load_scenario(with_everything_placed(sc, 3))
    evs = run(game, ["wagon"])
    check(
        game,
        {
            "hand": {0: ["shot_01", "wagon_01"]},
            "events": [
                ("played", {"card": "wagon_01"}),
                ("reshuffled", {"deck_size": 1}),
                ("drew", {"seat": 0, "count": 1, "cards": ["wagon_01"]}),
            ],
        },
        evs,
    )


@pytest.mark.parametrize(("flip", "escaped"), [(HEART, True), (CALM, False)])
def test_empty_deck_reshuffle_during_a_jail_check(flip: str, escaped: bool) -> None:
    sc = scenario(
        S("sheriff", hand=[KEEP]),
        S("renegade", "twin_barrels", hand=[KEEP], in_play=["jail"]),
        "outlaw",
        "outlaw",
        turn=1,
        step="turn_start",
        discard=[flip],
    )
    game = load_scenario(with_everything_placed(sc, 3))
    check(
        game,
        {
            "events": [
                ("reshuffled", {"deck_size": 1}),
                ("check", {"seat": 1, "reason": "jail", "cards": [flip], "success": escaped}),
                ("jail_result", {"seat": 1, "escaped": escaped}),
            ]
        },
        events(game),
    )


def test_empty_deck_reshuffle_during_a_dynamite_check() -> None:
    sc = scenario(
        S("sheriff", hand=[KEEP]),
        S("renegade", "twin_barrels", max_life=5, hand=[KEEP], in_play=["dynamite"]),
        "outlaw",
        "outlaw",
        turn=1,
        step="turn_start",
        discard=[BOOM],
    )
    game = load_scenario(with_everything_placed(sc, 3))
    check(
        game,
        {
            "life": {1: 2},
            "events": [
                ("reshuffled", {"deck_size": 1}),
                ("check", {"seat": 1, "reason": "dynamite", "cards": [BOOM]}),
                ("dynamite_exploded", {"seat": 1}),
                # The flip and the Dynamite are the new discard pile: the draw reshuffles them.
                ("reshuffled", {"deck_size": 2}),
            ],
        },
        events(game),
    )


def test_no_card_to_flip_jail_holds_and_dynamite_passes() -> None:
    sc = scenario(
        S("sheriff", hand=[KEEP]),
        S("renegade", "twin_barrels", hand=[KEEP], in_play=["jail", "dynamite"]),
        S("outlaw", "lucky"),
        "outlaw",
        turn=1,
        step="turn_start",
    )
    game = load_scenario(with_everything_placed(sc, 3))
    evs = events(game)
    check(
        game,
        {
            "in_play": {1: []},
            "life": {1: 4},
            "events": [
                ("dynamite_passed", {"seat": 1, "to": 2}),
                ("jail_result", {"seat": 1, "escaped": False}),
                # The discarded Jail is then the only card: the draw reshuffles and takes it.
                ("reshuffled", {"deck_size": 1}),
                ("drew", {"seat": 1, "cards": ["jail_01"]}),
                ("turn_ended", {"seat": 1}),
                ("dynamite_passed", {"seat": 2, "to": 3}),
            ],
            "no_events": ["check"],
        },
        evs,
    )


def test_lucky_never_flips_the_same_card_twice() -> None:
    sc = scenario(
        S("sheriff", hand=[KEEP]),
        S("renegade", "lucky", hand=[KEEP], in_play=["jail"]),
        "outlaw",
        "outlaw",
        turn=1,
        step="turn_start",
        deck=[CALM],
    )
    game = load_scenario(with_everything_placed(sc, 3))
    (chk,) = of_kind(events(game), "check", reason="jail")
    assert chk["cards"] == [CALM]


# -- what every seat sees (§1) ----------------------------------------------------------------


def test_what_a_seat_sees_of_every_seat() -> None:
    game = load(
        S("sheriff", "eagle_eye", hand=["shot", "duel"], stars=["marksman"]),
        S("renegade", life=2, hand=["horse"], in_play=["cover"], weapon="carbine"),
        S("outlaw", alive=False),
        S("outlaw", "lucky", hand=[KEEP]),
    )
    view = game.view(1)
    assert view.role == "renegade"
    assert view.hand == ["horse_01"]
    p0, p1, p2, p3 = view.players
    assert (p0.role, p0.revealed, p0.character, p0.hand_size) == ("sheriff", True, "eagle_eye", 2)
    assert p0.stars == ["marksman"]
    assert (p1.life, p1.max_life, p1.in_play, p1.weapon) == (2, 4, ["cover_01"], "carbine_01")
    assert (p2.alive, p2.role, p2.revealed) == (False, "outlaw", True)
    assert (p3.role, p3.revealed, p3.hand_size, p3.distance) == (None, False, 1, 1)
    assert p0.distance == 1
    assert legal(game)[0] == "end_turn"


def test_an_eliminated_player_stays_as_a_spectator() -> None:
    game = load(
        S("sheriff", hand=[KEEP]),
        S("renegade", alive=False),
        "outlaw",
        "outlaw",
    )
    view = game.view(1)
    assert view.role == "renegade" and view.hand == []
    assert all(p.distance is None for p in view.players)
    assert view.decision.seat == 0
    assert of_kind(view.events, "game_started")


def test_coin_tosses_do_not_change_the_next_reshuffle() -> None:
    """rules.md §11: separate seeded streams — one more coin toss leaves the reshuffle alone."""

    def draw_after_a_shot(cover: bool) -> tuple[list[str], list[str]]:
        sc = scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", "twin_barrels", in_play=["cover"] if cover else []),
            "outlaw",
            "outlaw",
            discard=["duel_01", "horse_01", "jail_01", "scope_01", "bazaar_01", "caravan_01"],
            seed=5,
        )
        game = load_scenario(with_everything_placed(sc, 3))
        evs = run(game, ["shot@1", "end_turn"])
        coins = [c for e in of_kind(evs, "check") for c in e["coins"]]
        (drew,) = of_kind(evs, "drew", seat=1, reason="draw")
        return coins, drew["cards"]

    coins_a, cards_a = draw_after_a_shot(cover=True)
    coins_b, cards_b = draw_after_a_shot(cover=False)
    assert len(coins_a) == 1 and coins_b == []
    assert cards_a == cards_b
