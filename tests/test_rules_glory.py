"""Elimination, killers, glory, bounty, last bullet and the penalty (rules.md §7, §11)."""

from __future__ import annotations

import pytest
from scenario_helpers import card, check, events, load, of_kind, run, scenario, seat

from bangarena.engine.scenario import load_scenario

S = seat
KEEP = "wagon"
BOOM = card("shot", explodes=True)
UPGRADES3 = ["upgrade:marksman", "upgrade:endurance", "upgrade:instinct"]


def test_elimination_reveals_the_role_and_discards_everything() -> None:
    game = load(
        S("sheriff", hand=["shot", KEEP]),
        S("renegade", life=1, hand=["shot_05", "duel_02"], in_play=["scope"], weapon="carbine"),
        S("outlaw", "lucky"),
        "outlaw",
    )
    assert game.view(2).players[1].role is None
    evs = run(game, ["shot@1"])
    check(
        game,
        {
            "alive": {1: False},
            "life": {1: 0},
            "hand_size": {1: 0},
            "in_play": {1: []},
            "weapon": {1: None},
            "events": [
                ("eliminated", {"seat": 1, "role": "renegade", "killer": 0}),
                (
                    "discarded",
                    {
                        "seat": 1,
                        "reason": "eliminated",
                        "cards": ["shot_05", "duel_02", "scope_01", "carbine_01"],
                    },
                ),
            ],
        },
        evs,
    )
    for viewer in (None, 2, 3):
        p = game.view(viewer).players[1]
        assert (p.role, p.revealed) == ("renegade", True)
    # Distances are recomputed without him: seats 0 and 2 are now neighbours.
    assert game.view(0).players[2].distance == 1


# -- killers (§7, §11) -------------------------------------------------------------------------

KILLER_CASES = [
    pytest.param(
        scenario(S("sheriff", hand=["shot", KEEP]), S("renegade", life=1), "outlaw", "outlaw"),
        ["shot@1"],
        1,
        0,
        id="shot-the-shooter",
    ),
    pytest.param(
        scenario(S("sheriff", hand=["buckshot", KEEP]), S("renegade", life=1), "outlaw", "outlaw"),
        ["buckshot"],
        1,
        0,
        id="buckshot-the-shooter",
    ),
    pytest.param(
        scenario(S("sheriff", hand=["raid", KEEP]), S("renegade", life=1), "outlaw", "outlaw"),
        ["raid"],
        1,
        0,
        id="raid-the-attacker",
    ),
    pytest.param(
        scenario(S("sheriff", hand=["duel", KEEP]), "renegade", S("outlaw", life=1), "outlaw"),
        ["duel@2"],
        2,
        0,
        id="duel-target-loses-the-challenger",
    ),
    pytest.param(
        scenario(
            "sheriff",
            S("renegade", hand=["shot"]),
            S("outlaw", life=1, hand=["duel", KEEP]),
            "outlaw",
            turn=2,
        ),
        ["duel@1", "shot"],
        2,
        1,
        id="duel-challenger-loses-the-target",
    ),
    pytest.param(
        scenario(
            "sheriff",
            "renegade",
            S("outlaw", life=1, hand=[KEEP], in_play=["dynamite"]),
            S("outlaw", "lucky", hand=[KEEP]),
            turn=2,
            step="turn_start",
            deck=[BOOM],
        ),
        [],
        2,
        None,
        id="dynamite-nobody",
    ),
]


@pytest.mark.parametrize(("sc", "moves", "victim", "killer"), KILLER_CASES)
def test_killer(sc: dict, moves: list[str], victim: int, killer: int | None) -> None:
    game = load_scenario(sc)
    run(game, moves)
    evs = events(game)
    (elim,) = of_kind(evs, "eliminated")
    assert (elim["seat"], elim["killer"]) == (victim, killer)
    if killer is None:
        assert not of_kind(evs, "star_gained")
        assert game.decision.kind == "play"
    else:
        # The killer's glory: a new star and its upgrade pick.
        check(game, {"decision": (killer, "glory_upgrade"), "legal": UPGRADES3})


# -- glory upgrades (§7) -------------------------------------------------------------------------


def _kill(killer: dict, **kw) -> dict:
    """Seat 0 shoots seat 1 (renegade at 1 ♥) at distance 1."""
    victim = kw.pop("victim", S("renegade", life=1))
    return scenario(killer, victim, S("outlaw", "lucky"), "outlaw", **kw)


GLORY_CASES = [
    pytest.param(
        _kill(S("sheriff", hand=["shot", KEEP])),
        ["shot@1", "upgrade:endurance"],
        {
            "stars": {0: ["endurance"]},
            "max_life": {0: 7},
            "life": {0: 7},
            "decision": (0, "play"),
            "events": [
                ("star_gained", {"seat": 0, "upgrade": "endurance", "reason": "elimination"})
            ],
        },
        id="endurance-plus-one-max-and-one-life",
    ),
    pytest.param(
        _kill(S("sheriff", life=3, hand=["shot", KEEP]), round=8),
        ["shot@1", "upgrade:endurance"],
        {"max_life": {0: 7}, "life": {0: 4}, "no_events": ["healed"]},
        id="endurance-works-in-high-noon",
    ),
    pytest.param(
        _kill(S("sheriff", hand=["shot", KEEP])),
        ["shot@1", "upgrade:marksman"],
        {"stars": {0: ["marksman"]}, "max_life": {0: 6}},
        id="marksman-star",
    ),
    pytest.param(
        _kill(S("sheriff", "three_eyes", hand=["shot", KEEP])),
        ["shot@1"],
        {"legal": ["upgrade:marksman", "upgrade:endurance"]},
        id="no-instinct-for-three-eyes",
    ),
    pytest.param(
        _kill(S("sheriff", hand=["shot", KEEP], stars=["instinct"])),
        ["shot@1"],
        {"legal": ["upgrade:marksman", "upgrade:endurance"]},
        id="instinct-held-once",
    ),
    pytest.param(
        _kill(S("sheriff", hand=["shot", KEEP], stars=["marksman", "endurance"])),
        ["shot@1", "upgrade:marksman"],
        {"stars": {0: ["marksman", "endurance", "marksman"]}},
        id="marksman-and-endurance-stack",
    ),
    # -- bounty --------------------------------------------------------------------------
    pytest.param(
        _kill(
            S("sheriff", hand=["shot", KEEP]),
            victim=S("renegade", life=1, stars=["marksman", "endurance"]),
            deck=["duel_02", "horse_01", "jail_01"],
        ),
        ["shot@1"],
        {
            "decision": (0, "bounty_pick"),
            "legal": ["bounty:marksman", "bounty:endurance"],
            "hand": {0: ["wagon_01", "duel_02", "horse_01"]},
            "events": [("drew", {"seat": 0, "count": 2, "reason": "bounty"})],
        },
        id="bounty-draws-one-per-star-then-pick",
    ),
    pytest.param(
        _kill(
            S("sheriff", hand=["shot", KEEP]),
            victim=S("renegade", life=1, stars=["marksman", "endurance"]),
        ),
        ["shot@1", "bounty:endurance", "upgrade:marksman"],
        {
            "stars": {0: ["endurance", "marksman"]},
            "max_life": {0: 7},
            "life": {0: 7},
            "events": [
                ("star_gained", {"seat": 0, "upgrade": "endurance", "reason": "bounty"}),
                ("star_gained", {"seat": 0, "upgrade": "marksman", "reason": "elimination"}),
            ],
        },
        id="bounty-transfer-then-the-killers-own-star",
    ),
    pytest.param(
        _kill(S("sheriff", hand=["shot", KEEP]), victim=S("renegade", life=1, stars=["instinct"])),
        ["shot@1"],
        {
            "decision": (0, "glory_upgrade"),
            "stars": {0: ["instinct"]},
            "legal": ["upgrade:marksman", "upgrade:endurance"],
            "events": [("move", {"seat": 0, "move": "bounty:instinct", "auto": True})],
        },
        id="bounty-single-star-is-forced",
    ),
    pytest.param(
        _kill(S("sheriff", hand=["shot", KEEP]), victim=S("renegade", life=1, stars=[None])),
        ["shot@1"],
        {
            "stars": {0: [None]},
            "events": [
                ("move", {"move": "bounty:none", "auto": True}),
                ("star_gained", {"seat": 0, "upgrade": None, "reason": "bounty"}),
            ],
        },
        id="bounty-star-without-upgrade",
    ),
    pytest.param(
        _kill(
            S("sheriff", hand=["shot", KEEP], stars=["instinct"]),
            victim=S("renegade", life=1, stars=["instinct", "marksman"]),
        ),
        ["shot@1"],
        {
            "stars": {0: ["instinct", "marksman"]},
            "events": [("move", {"move": "bounty:marksman", "auto": True})],
        },
        id="bounty-no-second-instinct-when-another-star-exists",
    ),
    pytest.param(
        _kill(
            S("sheriff", hand=["shot", KEEP], stars=["instinct"]),
            victim=S("renegade", life=1, stars=["instinct"]),
        ),
        ["shot@1"],
        {
            "stars": {0: ["instinct", None]},
            "events": [("star_gained", {"seat": 0, "upgrade": None, "reason": "bounty"})],
        },
        id="bounty-only-instinct-star-brings-no-upgrade",
    ),
]


@pytest.mark.parametrize(("sc", "moves", "expect"), GLORY_CASES)
def test_glory(sc: dict, moves: list[str], expect: dict) -> None:
    game = load_scenario(sc)
    run(game, moves)
    check(game, expect, events(game))


@pytest.mark.parametrize(("stars", "seats", "targets"), [
    ([], 4, [1, 3]),
    (["marksman"], 4, [1, 2, 3]),
    (["marksman"], 8, [1, 2, 6, 7]),
    (["marksman", "marksman"], 8, [1, 2, 3, 5, 6, 7]),
])  # fmt: skip
def test_marksman_adds_shot_range(stars: list[str], seats: int, targets: list[int]) -> None:
    roles = ["sheriff", "deputy", "deputy", "renegade", "renegade", "outlaw", "outlaw", "outlaw"]
    if seats == 4:
        roles = ["sheriff", "renegade", "outlaw", "outlaw"]
    game = load(S("sheriff", hand=["shot", KEEP], stars=stars), *roles[1:])
    assert [m.target for m in game.legal_moves if m.card == "shot"] == targets


def test_marksman_does_not_extend_snatch() -> None:
    game = load(
        S("sheriff", hand=["snatch", KEEP], stars=["marksman", "marksman"]),
        S("renegade", hand=["shot"]),
        S("outlaw", hand=["shot"]),
        "outlaw",
    )
    assert [m.id for m in game.legal_moves] == ["end_turn", "snatch@1", "wagon"]


INSTINCT_CASES = [
    pytest.param(
        scenario(
            S("sheriff", "red_suit", hand=[KEEP], stars=["instinct"]),
            "renegade",
            "outlaw",
            "outlaw",
            step="turn_start",
            deck=["shot_05", "shot_03", "duel_02", "horse_01"],
        ),
        [],
        {
            "decision": (0, "draw_keep"),
            "legal": ["return:shot_05", "return:shot_03", "return:duel_02"],
        },
        id="instinct-look-at-3",
    ),
    pytest.param(
        scenario(
            S("sheriff", "red_suit", hand=[KEEP], stars=["instinct"]),
            "renegade",
            "outlaw",
            "outlaw",
            step="turn_start",
            deck=["shot_05", "shot_03", "duel_02", "horse_01"],
        ),
        ["return:duel_02"],
        {
            # Red Suit reveals the second kept card (♦K, red) and draws the card put back.
            "hand": {0: ["wagon_01", "shot_05", "shot_03", "duel_02"]},
            "events": [
                ("put_back", {"seat": 0, "card": "duel_02"}),
                ("revealed", {"seat": 0, "card": "shot_03", "extra": True}),
                ("drew", {"seat": 0, "reason": "red_suit", "cards": ["duel_02"]}),
            ],
        },
        id="instinct-then-red-suit-reveals-the-second-kept-card",
    ),
    pytest.param(
        scenario(
            S("sheriff", "grip", hand=[KEEP], stars=["instinct"]),
            S("renegade", hand=["jail_01"]),
            "outlaw",
            "outlaw",
            step="turn_start",
            deck=["shot_05", "shot_03", "duel_02"],
        ),
        ["grip@1"],
        {"decision": (0, "play"), "hand": {0: ["wagon_01", "jail_01", "shot_05"]}},
        id="instinct-not-when-grip-takes-from-a-hand",
    ),
    pytest.param(
        scenario(
            S("sheriff", "grip", hand=[KEEP], stars=["instinct"]),
            S("renegade", hand=["jail_01"]),
            "outlaw",
            "outlaw",
            step="turn_start",
            deck=["shot_05", "shot_03", "duel_02"],
        ),
        ["draw_deck"],
        {"decision": (0, "draw_keep")},
        id="instinct-when-grip-draws-from-the-deck",
    ),
    pytest.param(
        scenario(
            S("sheriff", "vulture_junior", hand=[KEEP], stars=["instinct"]),
            "renegade",
            "outlaw",
            "outlaw",
            step="turn_start",
            discard=["jail_01"],
            deck=["shot_05", "shot_03", "duel_02"],
        ),
        ["draw_discard"],
        {"decision": (0, "play"), "hand": {0: ["wagon_01", "jail_01", "shot_05"]}},
        id="instinct-not-when-vulture-junior-takes-the-discard",
    ),
]


@pytest.mark.parametrize(("sc", "moves", "expect"), INSTINCT_CASES)
def test_instinct(sc: dict, moves: list[str], expect: dict) -> None:
    game = load_scenario(sc)
    run(game, moves)
    check(game, expect, events(game))


# -- last bullet and the penalty (§7) ------------------------------------------------------------


def _five(**kw) -> dict:
    """5 seats: sheriff 0, deputy 1, outlaws 2 and 3, renegade 4; overrides by seat."""
    seats = [
        S("sheriff", "red_suit"),
        S("deputy", "twin_barrels"),
        S("outlaw", "two_face"),
        S("outlaw", "lucky"),
        S("renegade", "three_eyes"),
    ]
    for i, spec in kw.pop("at", {}).items():
        seats[i] = spec
    return scenario(*seats, **kw)


LAW_CASES = [
    pytest.param(
        _five(
            at={
                1: S("deputy", "twin_barrels", life=1),
                2: S("outlaw", "two_face", hand=["shot", KEEP]),
            },
            turn=2,
        ),
        ["shot@1", "upgrade:marksman"],
        {
            "decision": (0, "glory_upgrade"),
            "stars": {2: ["marksman"]},
            "events": [("star_gained", {"seat": 2, "reason": "elimination"})],
        },
        id="last-bullet-when-the-only-deputy-dies",
    ),
    pytest.param(
        _five(
            at={
                1: S("deputy", "twin_barrels", life=1),
                2: S("outlaw", "two_face", hand=["shot", KEEP]),
            },
            turn=2,
        ),
        ["shot@1", "upgrade:marksman", "upgrade:endurance"],
        {
            "stars": {0: ["endurance"], 2: ["marksman"]},
            "events": [
                ("star_gained", {"seat": 0, "upgrade": "endurance", "reason": "last_bullet"})
            ],
        },
        id="last-bullet-star-and-upgrade",
    ),
    pytest.param(
        scenario(
            "sheriff",
            S("deputy", life=1),
            "deputy",
            "renegade",
            S("outlaw", hand=["duel", KEEP]),
            "outlaw",
            "outlaw",
            turn=4,
        ),
        ["duel@1", "upgrade:marksman"],
        {"decision": (4, "play"), "stars": {0: [], 4: ["marksman"]}},
        id="no-last-bullet-while-a-deputy-lives",
    ),
    pytest.param(
        _five(
            at={
                0: S(
                    "sheriff", "red_suit", hand=["shot", KEEP], in_play=["scope"], weapon="carbine"
                ),
                1: S("deputy", "twin_barrels", life=1),
            }
        ),
        ["shot@1"],
        {
            "hand_size": {0: 0},
            "in_play": {0: []},
            "weapon": {0: None},
            "decision": (0, "glory_upgrade"),
            "events": [
                ("eliminated", {"seat": 1, "role": "deputy", "killer": 0}),
                ("penalty", {"seat": 0, "cards": ["wagon_01", "scope_01", "carbine_01"]}),
            ],
        },
        id="penalty-then-last-bullet",
    ),
    pytest.param(
        _five(
            at={
                0: S(
                    "sheriff", "red_suit", hand=["shot", KEEP], in_play=["scope"], weapon="carbine"
                ),
                1: S("deputy", "twin_barrels", life=1),
            }
        ),
        ["shot@1", "upgrade:marksman"],
        {
            "stars": {0: ["marksman"]},
            "events": [("star_gained", {"seat": 0, "reason": "last_bullet"})],
        },
        id="penalty-no-star-for-the-kill-only-last-bullet",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP], weapon="carbine"),
            S("deputy", life=1, stars=["marksman"]),
            "deputy",
            "renegade",
            "outlaw",
            "outlaw",
            "outlaw",
        ),
        ["shot@1"],
        {
            "hand_size": {0: 0},
            "weapon": {0: None},
            "stars": {0: []},
            "events": [("penalty", {"seat": 0})],
            "no_events": ["star_gained"],
            "absent": [("drew", {"seat": 0})],
        },
        id="penalty-no-star-no-bounty",
    ),
    pytest.param(
        _five(
            at={
                0: S("sheriff", "empty_hands", hand=["shot", KEEP]),
                1: S("deputy", "twin_barrels", life=1),
            },
            deck=["duel_02"],
        ),
        ["shot@1"],
        {
            "hand": {0: ["duel_02"]},
            "events": [("penalty", {}), ("drew", {"reason": "empty_hands"})],
        },
        id="penalty-empty-hands-draws",
    ),
    pytest.param(
        _five(
            at={
                0: S("sheriff", "scavenger", hand=["shot", KEEP]),
                1: S("deputy", "twin_barrels", life=1, hand=["horse"], weapon="shotgun"),
            }
        ),
        ["shot@1"],
        {
            "hand_size": {0: 0},
            "events": [
                ("scavenged", {"seat": 0, "victim": 1}),
                ("penalty", {"seat": 0, "cards": ["wagon_01", "horse_01", "shotgun_01"]}),
            ],
        },
        id="penalty-includes-what-scavenger-just-took",
    ),
    pytest.param(
        _five(
            at={
                0: S("sheriff", "red_suit", hand=["shot", KEEP]),
                1: S("deputy", "twin_barrels", life=1, hand=["duel"]),
            },
            turn=1,
        ),
        ["duel@0", "shot"],
        {
            "hand_size": {0: 0},
            "decision": (0, "glory_upgrade"),
            "events": [
                ("eliminated", {"seat": 1, "killer": 0}),
                ("penalty", {"seat": 0, "cards": ["wagon_01"]}),
            ],
        },
        id="penalty-when-a-deputy-loses-his-own-duel-against-the-sheriff",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("double_agent", life=1),
            "deputy",
            "outlaw",
            "renegade",
            mode="double_agent",
        ),
        ["shot@1"],
        {"decision": (0, "glory_upgrade"), "hand_size": {0: 1}, "no_events": ["penalty"]},
        id="no-penalty-for-the-double-agent",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=[KEEP]),
            "renegade",
            S("outlaw", life=1),
            S("outlaw", hand=["shot", KEEP]),
            turn=3,
        ),
        ["shot@2", "upgrade:marksman"],
        {"decision": (3, "play"), "stars": {0: [], 3: ["marksman"]}},
        id="no-last-bullet-at-4-seats",
    ),
]


@pytest.mark.parametrize(("sc", "moves", "expect"), LAW_CASES)
def test_last_bullet_and_penalty(sc: dict, moves: list[str], expect: dict) -> None:
    game = load_scenario(sc)
    run(game, moves)
    check(game, expect, events(game))


# -- old_classic: no stars, 3 cards for an outlaw (§2, §7) ----------------------------------------

OLD_CLASSIC_CASES = [
    pytest.param(
        S("outlaw", life=1),
        {"hand": {0: ["wagon_01", "duel_02", "horse_01", "jail_01"]}, "decision": (0, "play")},
        [("drew", {"seat": 0, "count": 3, "reason": "outlaw_reward"})],
        id="outlaw-reward-3-cards",
    ),
    pytest.param(
        S("renegade", life=1),
        {"hand": {0: ["wagon_01"]}, "decision": (0, "play")},
        [],
        id="nothing-for-a-renegade",
    ),
    pytest.param(
        S("deputy", life=1),
        {"hand_size": {0: 0}, "stars": {0: []}},
        [("penalty", {"seat": 0})],
        id="penalty-and-no-last-bullet",
    ),
]


@pytest.mark.parametrize(("victim", "expect", "evs"), OLD_CLASSIC_CASES)
def test_old_classic_rewards(victim: dict, expect: dict, evs: list) -> None:
    game = load(
        S("sheriff", hand=["shot", KEEP]),
        victim,
        "renegade" if victim["role"] != "renegade" else "deputy",
        "outlaw",
        "outlaw",
        mode="old_classic",
        deck=["duel_02", "horse_01", "jail_01"],
    )
    run(game, ["shot@1"])
    every = events(game)
    check(game, {**expect, "events": evs}, every)
    assert not of_kind(every, "star_gained")


# -- simultaneous effects on one elimination (§11) -----------------------------------------------


def test_scavenger_and_vulture_junior_on_the_same_elimination() -> None:
    game = load(
        S("sheriff", hand=["shot", KEEP], in_play=["scope"]),
        S("renegade", life=1, hand=["shot_05"], in_play=["horse"], stars=["marksman"]),
        S("outlaw", "scavenger"),
        S("outlaw", "vulture_junior"),
        deck=["duel_02", "cover_01", "jail_01"],
    )
    evs = run(game, ["shot@1"])
    check(
        game,
        {
            "hand": {
                2: ["shot_05", "horse_01"],
                0: ["wagon_01", "duel_02"],
                3: ["cover_01", "jail_01"],
            },
            "decision": (0, "glory_upgrade"),
            "events": [
                ("eliminated", {"seat": 1}),
                ("scavenged", {"seat": 2, "victim": 1, "in_play": ["horse_01"]}),
                ("drew", {"seat": 0, "reason": "bounty", "cards": ["duel_02"]}),
                ("drew", {"seat": 3, "reason": "vulture_junior", "cards": ["cover_01", "jail_01"]}),
            ],
            "no_events": ["discarded"],
        },
        evs,
    )
    # The single bounty star is taken automatically; the killer's own upgrade is his choice.
    assert of_kind(evs, "move", seat=0, move="bounty:marksman", auto=True)
    assert game.view(None).players[0].stars == ["marksman"]


def test_elimination_order_with_penalty_and_last_bullet() -> None:
    game = load(
        S("sheriff", hand=["shot", KEEP]),
        S("deputy", life=1, hand=["duel_02"]),
        S("outlaw", "scavenger", hand=[KEEP]),
        S("outlaw", "vulture_junior"),
        S("renegade"),
        deck=["cover_01", "jail_01"],
    )
    evs = run(game, ["shot@1", "upgrade:instinct"])
    order = [
        e["kind"]
        for e in evs
        if e["kind"] in ("eliminated", "scavenged", "penalty", "drew", "star_gained")
    ]
    assert order[:5] == ["eliminated", "scavenged", "penalty", "drew", "star_gained"]
    assert of_kind(evs, "drew")[0]["seat"] == 3
    check(game, {"stars": {0: ["instinct"]}, "hand": {3: ["cover_01", "jail_01"]}})
    assert game.view(2).hand[:2] == ["wagon_02", "duel_02"]


def test_a_victory_drops_the_pending_picks() -> None:
    game = load(
        S("sheriff", hand=["shot", KEEP]),
        S("renegade", life=1, stars=["marksman"]),
        S("outlaw", alive=False),
        S("outlaw", alive=False),
    )
    evs = run(game, ["shot@1"])
    check(game, {"over": True, "team": "law", "winners": [0]}, evs)
    assert not of_kind(evs, "star_gained")
    assert game.decision is None and game.legal_moves == ()


def test_a_victory_drops_the_rest_of_a_buckshot() -> None:
    game = load(
        S("sheriff", life=1),
        S("deputy", hand=["ricochet"]),
        S("renegade", hand=["ricochet"]),
        S("outlaw", hand=["buckshot", KEEP]),
        "outlaw",
        turn=3,
    )
    evs = run(game, ["buckshot"])
    # Seat 4 answers first (forced hit), then the sheriff dies: seats 1 and 2 never answer.
    check(
        game,
        {
            "over": True,
            "team": "outlaws",
            "winners": [3, 4],
            "life": {1: 4, 2: 4},
            "events": [("hit", {"seat": 4}), ("eliminated", {"seat": 0, "killer": 3})],
            "no_events": ["answered"],
        },
        evs,
    )


def test_dynamite_killing_the_last_deputy_still_gives_last_bullet() -> None:
    game = load(
        S("sheriff", hand=[KEEP]),
        S("deputy", life=2, hand=["shot"], in_play=["dynamite"]),
        S("outlaw", "scavenger"),
        "outlaw",
        "renegade",
        turn=1,
        step="turn_start",
        deck=[BOOM],
    )
    evs = events(game)
    check(
        game,
        {
            "decision": (0, "glory_upgrade"),
            # The exploding Dynamite was discarded first: the Scavenger never gets it.
            "hand": {2: ["shot_01"]},
            "discard": [BOOM, "dynamite_01"],
            "events": [
                ("eliminated", {"seat": 1, "killer": None}),
                ("scavenged", {"seat": 2, "in_play": []}),
            ],
        },
        evs,
    )
    run(game, ["upgrade:endurance"])
    assert of_kind(events(game), "star_gained") == [
        {"kind": "star_gained", "seat": 0, "upgrade": "endurance", "reason": "last_bullet"}
    ]


def test_instinct_put_back_card_is_private() -> None:
    game = load(
        S("sheriff", "twin_barrels", hand=[KEEP], stars=["instinct"]),
        "renegade",
        "outlaw",
        "outlaw",
        step="turn_start",
        deck=["shot_05", "duel_02", "horse_01"],
    )
    run(game, ["return:horse_01"])
    assert of_kind(game.events(0), "put_back")[0]["card"] == "horse_01"
    for viewer in (None, 1, 2, 3):
        seen = game.events(viewer)
        assert of_kind(seen, "put_back")[0]["card"] is None
        assert of_kind(seen, "looked")[0]["cards"] is None
        assert "horse_01" not in str(seen)
