"""The deal and the modes (rules.md §2, §9): role tables, sheriff bonuses and starting hands,
characters, the double agent's knowledge, and every old_classic difference."""

from __future__ import annotations

from collections import Counter

import pytest
from scenario_helpers import card, check, events, load, of_kind, run, seat

from bangarena.engine import GameConfig, new_game

S = seat
KEEP = "wagon"
HEART = card("canteen", hearts=True)  # canteen_04 ♥10
CALM = card("canteen", hearts=False, explodes=False)  # canteen_01 ♦7
MODES = ("classic", "partners", "double_agent", "old_classic")
SEATS = (4, 5, 6, 7, 8)

# rules.md §2, restated here so that the tests do not read the engine's own tables.
ROLE_TABLE = {
    4: ["sheriff", "renegade", "outlaw", "outlaw"],
    5: ["sheriff", "deputy", "renegade", "outlaw", "outlaw"],
    6: ["sheriff", "deputy", "renegade", "outlaw", "outlaw", "outlaw"],
    7: ["sheriff", "deputy", "deputy", "renegade", "outlaw", "outlaw", "outlaw"],
    8: ["sheriff", "deputy", "deputy", "renegade", "renegade", "outlaw", "outlaw", "outlaw"],
}
SHERIFF_LIFE = {4: 2, 5: 0, 6: 2, 7: 1, 8: 1}
SHERIFF_HAND = {4: 0, 5: 0, 6: 2, 7: 1, 8: -1}
# rules.md §9 (old_classic: stone_leopard 4).
LIFE = {
    "stone_leopard": 3, "red_suit": 4, "two_face": 4, "collector": 3, "grip": 4, "iron_brow": 4,
    "three_eyes": 4, "lucky": 4, "canyon_shadow": 3, "vulture_junior": 4, "eagle_eye": 4,
    "bonesetter": 5, "twin_barrels": 4, "empty_hands": 4, "scavenger": 4, "mad_dog": 4,
}  # fmt: skip


def expected_roles(seats: int, mode: str) -> list[str]:
    roles = list(ROLE_TABLE[seats])
    if mode == "double_agent" and seats >= 5:
        roles[roles.index("outlaw")] = "double_agent"
    return sorted(roles)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seats", SEATS)
def test_deal(seats: int, mode: str) -> None:
    for seed in range(3):
        game = new_game(GameConfig(seats=seats, mode=mode), seed=seed)
        evs = events(game)
        (started,) = of_kind(evs, "game_started")
        roles = [game.view(s).role for s in range(seats)]
        assert sorted(roles) == expected_roles(seats, mode)
        assert started["roles_at_table"] == expected_roles(seats, mode)
        sheriff = roles.index("sheriff")
        assert started["sheriff"] == sheriff
        # The sheriff is public from the deal; the other roles are hidden from a spectator.
        spectator = [p.role for p in game.view(None).players]
        assert spectator == [r if r == "sheriff" else None for r in roles]
        chars = started["characters"]
        assert len(set(chars)) == seats, "characters are dealt without repetition"
        deal = {e["seat"]: e["count"] for e in of_kind(evs, "drew", reason="deal")}
        for s in range(seats):
            base = LIFE[chars[s]]
            if mode == "old_classic" and chars[s] == "stone_leopard":
                base = 4
            life, hand = base, base
            if s == sheriff:
                life = base + (1 if mode == "old_classic" else SHERIFF_LIFE[seats])
                hand = life + (0 if mode == "old_classic" else SHERIFF_HAND[seats])
            assert started["life"][s] == life, (s, chars[s])
            assert game.view(None).players[s].max_life == life
            assert deal[s] == hand, (s, chars[s])


@pytest.mark.parametrize(("mode", "sheriff", "life"), [
    ("classic", False, 3),
    ("old_classic", False, 4),
    ("old_classic", True, 5),
    ("classic", True, 5),
])  # fmt: skip
def test_stone_leopard_life(mode: str, sheriff: bool, life: int) -> None:
    seats = [S("sheriff"), S("renegade"), S("outlaw"), S("outlaw")]
    seats[0 if sheriff else 1] = S("sheriff" if sheriff else "renegade", "stone_leopard")
    game = load(*seats, mode=mode)
    assert game.view(None).players[0 if sheriff else 1].max_life == life


# -- double agent (§2, §11) ------------------------------------------------------------------


@pytest.mark.parametrize("seats", [5, 6, 7, 8])
def test_double_agent_knowledge(seats: int) -> None:
    orders = set()
    for seed in range(12):
        game = new_game(GameConfig(seats=seats, mode="double_agent"), seed=seed)
        roles = [game.view(s).role for s in range(seats)]
        agent = roles.index("double_agent")
        sheriff = roles.index("sheriff")
        outlaws = [s for s, r in enumerate(roles) if r == "outlaw"]
        deputies = [s for s, r in enumerate(roles) if r == "deputy"]
        agent_view = game.view(agent).players
        assert all(agent_view[o].role == "outlaw" for o in outlaws)
        for o in outlaws:
            seen = {s: p.role for s, p in enumerate(game.view(o).players) if p.role}
            assert seen == {sheriff: "sheriff", o: "outlaw", agent: "double_agent"}
        for d in deputies:
            seen = {s: p.role for s, p in enumerate(game.view(d).players) if p.role}
            assert seen == {sheriff: "sheriff", d: "deputy"}
            assert game.view(d).named_deputies == []
        named = game.view(sheriff).named_deputies
        assert len(named) == 2 and agent in named
        assert len(set(named) & set(deputies)) == 1  # one real deputy (7–8 seats: not both)
        orders.add(named.index(agent))
        for s in range(seats):
            (ev,) = of_kind(game.events(s), "deputies_named")
            assert ev["seats"] == (named if s == sheriff else None)
        # The sheriff learns nothing else: the two names are not roles.
        assert [p.role for p in game.view(sheriff).players].count(None) == seats - 1
        known = of_kind(events(game), "role_known")
        assert len(known) == 2 * len(outlaws)
        for e in of_kind(game.events(deputies[0]), "role_known"):
            assert e["role"] is None
    assert orders == {0, 1}, "the two names come in a random order"


def test_four_seat_double_agent_table_plays_classic() -> None:
    game = new_game(GameConfig(seats=4, mode="double_agent"), seed=3)
    assert sorted(game.view(s).role for s in range(4)) == expected_roles(4, "classic")
    assert not of_kind(events(game), "deputies_named")
    assert not of_kind(events(game), "role_known")


@pytest.mark.parametrize("mode", ["classic", "partners", "old_classic"])
def test_outlaws_do_not_know_each_other(mode: str) -> None:
    game = new_game(GameConfig(seats=7, mode=mode), seed=5)
    roles = [game.view(s).role for s in range(7)]
    sheriff = roles.index("sheriff")
    assert game.view(sheriff).named_deputies == []
    for s in range(7):
        seen = [p.role for p in game.view(s).players]
        assert all(r is None for i, r in enumerate(seen) if i not in (s, sheriff))


# -- old_classic differences (§2) ------------------------------------------------------------

OLD = "old_classic"


def test_old_classic_has_no_high_noon() -> None:
    game = load(
        S("sheriff", "lucky", hand=["shot", "shot", KEEP]),
        S("renegade", in_play=["cover"]),
        "outlaw",
        S("outlaw", hand=[KEEP]),
        mode=OLD,
        turn=3,
        round=7,
        deck=["jail_01", "horse_01", HEART],
    )
    evs = run(game, ["end_turn", "shot@1"])
    check(
        game,
        {
            "round": 8,
            "high_noon": False,
            "life": {1: 4},
            "legal_lacks": ["shot@1", "shot@3"],
            "no_events": ["high_noon"],
            "events": [("cancelled", {"seat": 1, "by": "cover"})],
        },
        evs,
    )


@pytest.mark.parametrize(("flip", "cancelled"), [(HEART, True), (CALM, False)])
def test_old_classic_cover_is_a_heart_flip(flip: str, cancelled: bool) -> None:
    game = load(
        S("sheriff", hand=["shot", KEEP]),
        S("renegade", in_play=["cover"], hand=["ricochet"]),
        "outlaw",
        "outlaw",
        mode=OLD,
        coins=[not cancelled],  # coins play no part in old_classic
        deck=[flip],
    )
    evs = run(game, ["shot@1"])
    (chk,) = of_kind(evs, "check")
    assert (chk["reason"], chk["cards"], chk["coins"], chk["success"]) == (
        "cover",
        [flip],
        [],
        cancelled,
    )
    assert game.view(None).discard_top == flip
    if cancelled:
        check(game, {"decision": (0, "play"), "life": {1: 4}})
    else:
        check(game, {"decision": (1, "answer_shot"), "legal": ["take_hit", "ricochet"]})


def test_old_classic_failed_jail_loses_the_whole_turn() -> None:
    game = load(
        S("sheriff", hand=[KEEP]),
        S("renegade", "twin_barrels", life=1, hand=["shot_05", "duel_02"], in_play=["jail"]),
        S("outlaw", "lucky", hand=[KEEP]),
        "outlaw",
        mode=OLD,
        turn=1,
        step="turn_start",
        deck=[CALM, "horse_01", "jail_02"],
    )
    evs = events(game)
    check(
        game,
        {
            "turn": 2,
            "hand": {1: ["shot_05", "duel_02"]},
            "events": [
                ("jail_result", {"seat": 1, "escaped": False}),
                ("turn_ended", {"seat": 1}),
                ("turn_started", {"seat": 2}),
                ("drew", {"seat": 2, "cards": ["horse_01", "jail_02"]}),
            ],
            "absent": [("drew", {"seat": 1}), ("discarded", {"seat": 1})],
        },
        evs,
    )


def test_old_classic_jail_escape_plays_normally() -> None:
    game = load(
        S("sheriff", hand=[KEEP]),
        S("renegade", "twin_barrels", hand=[KEEP], in_play=["jail"]),
        "outlaw",
        "outlaw",
        mode=OLD,
        turn=1,
        step="turn_start",
        deck=[HEART, "horse_01", "jail_02"],
    )
    check(game, {"decision": (1, "play"), "hand": {1: ["wagon_02", "horse_01", "jail_02"]}})


@pytest.mark.parametrize(("mode", "legal"), [
    ("old_classic", ["end_turn", "wagon"]),
    ("classic", ["end_turn", "canteen", "wagon"]),
])  # fmt: skip
def test_canteen_with_two_alive(mode: str, legal: list[str]) -> None:
    game = load(
        S("sheriff", life=2, hand=["canteen", KEEP]),
        S("renegade"),
        S("outlaw", alive=False),
        S("outlaw", alive=False),
        mode=mode,
    )
    check(game, {"legal": legal})


def test_old_classic_canteen_heals_with_three_alive() -> None:
    game = load(
        S("sheriff", life=2, hand=["canteen", KEEP]),
        S("renegade"),
        S("outlaw"),
        S("outlaw", alive=False),
        mode=OLD,
    )
    evs = run(game, ["canteen"])
    check(game, {"life": {0: 3}, "events": [("healed", {"cause": "canteen"})]}, evs)


def test_roles_at_the_table_are_public() -> None:
    counts = Counter(expected_roles(8, "partners"))
    game = new_game(GameConfig(seats=8, mode="partners"), seed=2)
    for viewer in (None, 0, 5):
        (started,) = of_kind(game.events(viewer), "game_started")
        assert Counter(started["roles_at_table"]) == counts
