"""Every character ability (rules.md §9 and its decisions), from exact positions."""

from __future__ import annotations

import pytest
from scenario_helpers import (
    card,
    check,
    deck_top,
    events,
    legal,
    load,
    of_kind,
    run,
    scenario,
    seat,
)

from bangarena.engine.scenario import load_scenario

S = seat
KEEP = "wagon"
BOOM = card("shot", explodes=True)  # shot_04: ♠6, a Dynamite explosion
CALM = card("shot", hearts=False, explodes=False)  # a card that is neither ♥ nor ♠2–9
HEART = card("shot", hearts=True)  # shot_01

CHARACTER_CASES = [
    # -- stone_leopard ------------------------------------------------------------------------
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", "stone_leopard", max_life=5, life=5),
            "outlaw",
            "outlaw",
            deck=["duel_01", "horse_01"],
        ),
        ["shot@1"],
        {
            "life": {1: 4},
            "hand": {1: ["duel_01"]},
            "events": [("drew", {"reason": "stone_leopard"})],
        },
        id="stone-leopard-draws-1-per-hit",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", "stone_leopard"),
            "outlaw",
            "outlaw",
            deck=["duel_01", "horse_01", "jail_01"],
        ),
        ["shot@1"],
        {"life": {1: 2}, "hand": {1: ["duel_01", "horse_01"]}},
        id="stone-leopard-draws-2-when-left-at-2-or-less",
    ),
    pytest.param(
        scenario(
            S("sheriff", "stone_leopard", hand=[KEEP], in_play=["dynamite"]),
            "renegade",
            "outlaw",
            "outlaw",
            step="turn_start",
            deck=[BOOM, "duel_01", "horse_01", "jail_01", "scope_01"],
        ),
        [],
        {
            "life": {0: 2},
            "hand": {0: ["wagon_01", "duel_01", "horse_01", "jail_01", "scope_01"]},
            "events": [
                ("dynamite_exploded", {"seat": 0}),
                ("hit", {"seat": 0, "source": None, "amount": 3, "life": 2}),
                ("drew", {"seat": 0, "count": 2, "reason": "stone_leopard"}),
                ("drew", {"seat": 0, "count": 2, "reason": "draw"}),
            ],
        },
        id="stone-leopard-dynamite-is-one-hit",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", "stone_leopard", life=1),
            "outlaw",
            "outlaw",
            deck=["duel_01", "horse_01"],
        ),
        ["shot@1"],
        {"alive": {1: False}, "no_events": ["drew"]},
        id="stone-leopard-no-draw-when-eliminated",
    ),
    # -- red_suit -----------------------------------------------------------------------------
    pytest.param(
        scenario(
            S("sheriff", "red_suit", hand=[KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
            step="turn_start",
            deck=["shot_05", "shot_03", "duel_02"],
        ),
        [],
        {
            "hand": {0: ["wagon_01", "shot_05", "shot_03", "duel_02"]},
            "events": [
                ("revealed", {"seat": 0, "card": "shot_03", "extra": True}),
                ("drew", {"seat": 0, "count": 1, "reason": "red_suit"}),
            ],
        },
        id="red-suit-red-second-card-draws-one-more",
    ),
    pytest.param(
        scenario(
            S("sheriff", "red_suit", hand=[KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
            step="turn_start",
            deck=["shot_05", "shot_11", "duel_02"],
        ),
        [],
        {
            "hand": {0: ["wagon_01", "shot_05", "shot_11"]},
            "deck_top": ["duel_02"],
            "events": [("revealed", {"seat": 0, "card": "shot_11", "extra": False})],
        },
        id="red-suit-black-second-card-no-extra",
    ),
    # -- two_face -----------------------------------------------------------------------------
    pytest.param(
        scenario(
            S("sheriff", "two_face", hand=["ricochet", "shot", KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        [],
        {
            "legal": [
                "end_turn",
                "shot@1",
                "shot@3",
                "ricochet_as_shot@1",
                "ricochet_as_shot@3",
                "wagon",
            ]
        },  # fmt: skip
        id="two-face-may-play-a-ricochet-as-a-shot",
    ),
    pytest.param(
        scenario(
            S("sheriff", "two_face", hand=["ricochet", "shot", KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["ricochet_as_shot@1"],
        {
            "life": {1: 3},
            "legal": ["end_turn", "wagon"],
            "events": [("played", {"seat": 0, "card": "ricochet_01", "as_kind": "shot"})],
        },
        id="two-face-ricochet-as-shot-uses-the-shot",
    ),
    # -- collector ----------------------------------------------------------------------------
    pytest.param(
        scenario(S("sheriff", hand=["shot", KEEP]), S("renegade", "collector"), "outlaw", "outlaw"),
        ["shot@1"],
        {
            "life": {1: 2},
            "hand_size": {0: 0},
            "events": [
                ("hit", {"seat": 1}),
                ("stole", {"seat": 1, "victim": 0, "reason": "collector", "card": "wagon_01"}),
                ("turn_ended", {"seat": 0}),
            ],
        },
        id="collector-takes-a-card-from-the-shooter",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["duel", KEEP]),
            S("renegade", "collector"),
            "outlaw",
            "outlaw",
        ),
        ["duel@1"],
        {"life": {1: 2}, "events": [("stole", {"victim": 0, "card": "wagon_01"})]},
        id="collector-takes-from-the-other-duellist",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot"]),
            S("renegade", "collector"),
            "outlaw",
            "outlaw",
            deck=["duel_01", "horse_01", "jail_01"],
        ),
        ["shot@1"],
        {"life": {1: 2}, "no_events": ["stole"]},
        id="collector-nothing-from-an-empty-hand",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", "collector", life=1),
            "outlaw",
            "outlaw",
        ),
        ["shot@1"],
        {"alive": {1: False}, "no_events": ["stole"]},
        id="collector-nothing-from-an-eliminating-hit",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=[KEEP]),
            S("renegade", "collector", in_play=["dynamite"], hand=[KEEP]),
            "outlaw",
            "outlaw",
            turn=1,
            step="turn_start",
            deck=[BOOM, "duel_01", "horse_01"],
        ),
        [],
        {"life": {1: 0}, "no_events": ["stole"]},
        id="collector-nothing-from-dynamite-eliminated",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=[KEEP]),
            S("renegade", "collector", max_life=5, life=5, in_play=["dynamite"], hand=["shot"]),
            "outlaw",
            "outlaw",
            turn=1,
            step="turn_start",
            deck=[BOOM, "duel_01", "horse_01"],
        ),
        [],
        {"life": {1: 2}, "hand": {0: ["wagon_01"]}, "no_events": ["stole"]},
        id="collector-nothing-from-dynamite",
    ),
    # -- grip ---------------------------------------------------------------------------------
    pytest.param(
        scenario(
            S("sheriff", "grip", hand=[KEEP]),
            S("renegade", hand=["shot_05"]),
            "outlaw",
            S("outlaw", hand=["duel_02"]),
            step="turn_start",
            deck=["horse_01", "jail_01"],
        ),
        [],
        {"decision": (0, "draw_choice"), "legal": ["draw_deck", "grip@1", "grip@3"]},
        id="grip-chooses-among-players-with-cards",
    ),
    pytest.param(
        scenario(
            S("sheriff", "grip", hand=[KEEP]),
            S("renegade", hand=["shot_05"]),
            "outlaw",
            S("outlaw", hand=["duel_02"]),
            step="turn_start",
            deck=["horse_01", "jail_01"],
        ),
        ["grip@3"],
        {
            "hand": {0: ["wagon_01", "duel_02", "horse_01"], 3: []},
            "deck_top": ["jail_01"],
            "events": [
                ("stole", {"seat": 0, "victim": 3, "reason": "grip", "card": "duel_02"}),
                ("drew", {"seat": 0, "count": 1, "source": "deck"}),
            ],
        },
        id="grip-takes-the-first-card-from-a-hand",
    ),
    pytest.param(
        scenario(
            S("sheriff", "grip", hand=[KEEP]),
            S("renegade", hand=["shot_05"]),
            "outlaw",
            "outlaw",
            step="turn_start",
            deck=["horse_01", "jail_01"],
        ),
        ["draw_deck"],
        {"hand": {0: ["wagon_01", "horse_01", "jail_01"], 1: ["shot_05"]}},
        id="grip-may-draw-normally",
    ),
    # -- iron_brow ----------------------------------------------------------------------------
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", "iron_brow"),
            "outlaw",
            "outlaw",
            coins=[True],
        ),
        ["shot@1"],
        {"life": {1: 4}, "events": [("cancelled", {"seat": 1, "by": "cover"})]},
        id="iron-brow-always-has-cover",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["cover", KEEP]),
            S("renegade", "iron_brow", hand=["cover"]),
            "outlaw",
            "outlaw",
            turn=1,
        ),
        [],
        {"legal_has": ["cover"]},
        id="iron-brow-may-still-play-a-cover-card",
    ),
    # -- three_eyes ---------------------------------------------------------------------------
    pytest.param(
        scenario(
            S("sheriff", "three_eyes", hand=[KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
            step="turn_start",
            deck=["shot_05", "duel_02", "horse_01", "jail_01"],
        ),
        [],
        {
            "decision": (0, "draw_keep"),
            "legal": ["return:shot_05", "return:duel_02", "return:horse_01"],
        },
        id="three-eyes-looks-at-three",
    ),
    pytest.param(
        scenario(
            S("sheriff", "three_eyes", hand=[KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
            step="turn_start",
            deck=["shot_05", "duel_02", "horse_01", "jail_01"],
        ),
        ["return:duel_02"],
        {
            "hand": {0: ["wagon_01", "shot_05", "horse_01"]},
            "deck_top": ["duel_02", "jail_01"],
            "events": [
                ("put_back", {"seat": 0, "card": "duel_02"}),
                ("drew", {"seat": 0, "count": 2, "cards": ["shot_05", "horse_01"]}),
            ],
        },
        id="three-eyes-keeps-two-puts-one-back-on-top",
    ),
    # -- lucky --------------------------------------------------------------------------------
    pytest.param(
        scenario(
            S("sheriff", hand=[KEEP]),
            S("renegade", "lucky", hand=[KEEP], in_play=["jail"]),
            "outlaw",
            "outlaw",
            turn=1,
            step="turn_start",
            deck=[CALM, HEART, "duel_01", "horse_01"],
        ),
        [],
        {
            "decision": (1, "play"),
            "hand": {1: ["wagon_02", "duel_01", "horse_01"]},
            "events": [
                ("check", {"seat": 1, "reason": "jail", "cards": [CALM, HEART], "success": True}),
                ("jail_result", {"seat": 1, "escaped": True}),
            ],
        },
        id="lucky-jail-second-flip-counts",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=[KEEP]),
            S("renegade", "lucky", hand=[KEEP], in_play=["dynamite"]),
            "outlaw",
            "outlaw",
            turn=1,
            step="turn_start",
            deck=[BOOM, CALM, "duel_01", "horse_01"],
        ),
        [],
        {
            "life": {1: 4},
            "in_play": {1: [], 2: ["dynamite"]},
            "events": [
                ("check", {"seat": 1, "reason": "dynamite", "cards": [BOOM, CALM]}),
                ("dynamite_passed", {"seat": 1, "to": 2}),
            ],
        },
        id="lucky-dynamite-better-flip-counts",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=[KEEP]),
            S("renegade", "lucky", max_life=5, hand=[KEEP], in_play=["dynamite"]),
            "outlaw",
            "outlaw",
            turn=1,
            step="turn_start",
            deck=[BOOM, "shot_07", "duel_01", "horse_01"],
        ),
        [],
        {"life": {1: 2}, "events": [("dynamite_exploded", {"seat": 1})]},
        id="lucky-dynamite-both-flips-explode",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", "lucky", in_play=["cover"]),
            "outlaw",
            "outlaw",
            coins=[False, True],
        ),
        ["shot@1"],
        {
            "life": {1: 4},
            "events": [("check", {"seat": 1, "coins": [False, True], "success": True})],
        },
        id="lucky-two-cover-coins",
    ),
    # -- vulture_junior -----------------------------------------------------------------------
    pytest.param(
        scenario(
            S("sheriff", "vulture_junior", hand=[KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
            step="turn_start",
            discard=["shot_05", "duel_02"],
            deck=["horse_01", "jail_01"],
        ),
        [],
        {"decision": (0, "draw_choice"), "legal": ["draw_deck", "draw_discard"]},
        id="vulture-junior-chooses-discard-or-deck",
    ),
    pytest.param(
        scenario(
            S("sheriff", "vulture_junior", hand=[KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
            step="turn_start",
            discard=["shot_05", "duel_02"],
            deck=["horse_01", "jail_01"],
        ),
        ["draw_discard"],
        {
            "hand": {0: ["wagon_01", "duel_02", "horse_01"]},
            "discard_top": "shot_05",
            "events": [
                ("drew", {"seat": 0, "source": "discard", "cards": ["duel_02"]}),
                ("drew", {"seat": 0, "source": "deck", "count": 1}),
            ],
        },
        id="vulture-junior-takes-the-discard-top-first",
    ),
    pytest.param(
        scenario(
            S("sheriff", "vulture_junior", hand=[KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
            step="turn_start",
            deck=["horse_01", "jail_01"],
        ),
        [],
        {"decision": (0, "play"), "hand": {0: ["wagon_01", "horse_01", "jail_01"]}},
        id="vulture-junior-empty-discard-no-choice",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", life=1),
            S("outlaw", "vulture_junior"),
            "outlaw",
            deck=["horse_01", "jail_01"],
        ),
        ["shot@1"],
        {
            "hand": {2: ["horse_01", "jail_01"]},
            "events": [
                ("eliminated", {"seat": 1}),
                ("drew", {"seat": 2, "count": 2, "reason": "vulture_junior"}),
            ],
        },
        id="vulture-junior-draws-2-on-any-elimination",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", "vulture_junior", life=1),
            "outlaw",
            "outlaw",
            deck=["horse_01", "jail_01"],
        ),
        ["shot@1"],
        {"alive": {1: False}, "no_events": ["drew"]},
        id="vulture-junior-not-when-he-is-the-victim",
    ),
    # -- bonesetter ---------------------------------------------------------------------------
    pytest.param(
        scenario(
            S("sheriff", "bonesetter", life=5, hand=["shot", "duel", KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        [],
        {"legal": ["end_turn", "shot@1", "shot@3", "duel@1", "duel@2", "duel@3", "wagon", "heal"]},
        id="bonesetter-heal-offered-at-play",
    ),
    pytest.param(
        scenario(
            S("sheriff", "bonesetter", life=5, hand=["shot", "duel", KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["heal"],
        {
            "decision": (0, "heal_discard"),
            "legal": ["discard:wagon", "discard:duel", "discard:shot"],
        },
        id="bonesetter-heal-discards-one-at-a-time",
    ),
    pytest.param(
        scenario(
            S("sheriff", "bonesetter", life=5, hand=["shot", "duel", KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["heal", "discard:duel", "discard:shot"],
        {
            "life": {0: 6},
            "hand": {0: ["wagon_01"]},
            "legal": ["end_turn", "wagon"],
            "events": [
                ("discarded", {"seat": 0, "cards": ["duel_01"], "reason": "bonesetter"}),
                ("discarded", {"seat": 0, "cards": ["shot_01"], "reason": "bonesetter"}),
                ("healed", {"seat": 0, "amount": 1, "life": 6, "cause": "bonesetter"}),
            ],
        },
        id="bonesetter-two-discards-heal-one",
    ),
    pytest.param(
        scenario(
            S("sheriff", "bonesetter", hand=["shot", "duel", KEEP]), "renegade", "outlaw", "outlaw"
        ),
        [],
        {"legal_lacks": ["heal"]},
        id="bonesetter-not-at-full-life",
    ),
    pytest.param(
        scenario(
            S("sheriff", "bonesetter", life=5, hand=["shot", "duel", KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
            round=8,
        ),
        [],
        {"legal_lacks": ["heal"]},
        id="bonesetter-not-in-high-noon",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", "bonesetter", life=3, hand=["shot", "duel"]),
            "outlaw",
            "outlaw",
        ),
        ["shot@1"],
        {"decision": (1, "answer_shot"), "legal": ["take_hit", "heal"]},
        id="bonesetter-heal-in-an-answer-window",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", "bonesetter", life=3, hand=["shot", "duel"]),
            "outlaw",
            "outlaw",
        ),
        ["shot@1", "heal", "discard:duel"],
        {
            "life": {1: 3},
            "decision": (0, "play"),
            "events": [
                ("healed", {"seat": 1, "life": 4}),
                ("move", {"seat": 1, "move": "take_hit", "auto": True}),
                ("hit", {"seat": 1, "life": 3}),
            ],
        },
        id="bonesetter-heals-then-the-window-reopens",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", "bonesetter", life=3, hand=["duel", "horse"]),
            "outlaw",
            "outlaw",
            round=8,
        ),
        ["shot@1"],
        {"life": {1: 2}, "events": [("move", {"seat": 1, "move": "take_hit", "auto": True})]},
        id="bonesetter-no-heal-window-in-high-noon",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["raid", KEEP]),
            S("renegade", "bonesetter", life=3, hand=["duel", "horse"]),
            "outlaw",
            "outlaw",
        ),
        ["raid"],
        {"decision": (1, "answer_raid"), "legal": ["take_hit", "heal"]},
        id="bonesetter-heal-in-a-raid-window",
    ),
    pytest.param(
        scenario(
            S("sheriff", "bonesetter", life=4, hand=["shot", "duel"], in_play=["dynamite"]),
            "renegade",
            "outlaw",
            "outlaw",
            step="turn_start",
            deck=[BOOM, "horse_01", "jail_01"],
        ),
        [],
        {"decision": (0, "brace"), "legal": ["take_hit", "heal"], "life": {0: 4}},
        id="bonesetter-brace-window-before-dynamite",
    ),
    pytest.param(
        scenario(
            S("sheriff", "bonesetter", life=4, hand=["shot", "duel"], in_play=["dynamite"]),
            "renegade",
            "outlaw",
            "outlaw",
            step="turn_start",
            deck=[BOOM, "horse_01", "jail_01"],
        ),
        ["heal", "discard:duel"],
        {
            "life": {0: 2},
            "hand": {0: ["horse_01", "jail_01"]},
            "events": [
                ("dynamite_exploded", {"seat": 0}),
                ("healed", {"seat": 0, "life": 5}),
                ("hit", {"seat": 0, "amount": 3, "life": 2}),
            ],
        },
        id="bonesetter-heals-before-the-explosion",
    ),
    pytest.param(
        scenario(
            S("sheriff", "bonesetter", life=4, hand=["shot", "duel"], in_play=["dynamite"]),
            "renegade",
            "outlaw",
            "outlaw",
            step="turn_start",
            round=8,
            deck=[BOOM, "horse_01", "jail_01"],
        ),
        [],
        {"life": {0: 1}, "no_events": ["healed"]},
        id="bonesetter-no-brace-in-high-noon",
    ),
    # -- empty_hands --------------------------------------------------------------------------
    pytest.param(
        scenario(
            S("sheriff", "empty_hands", hand=["saloon"]),
            "renegade",
            "outlaw",
            "outlaw",
            deck=["shot_05", "duel_02"],
        ),
        ["saloon"],
        {
            "hand": {0: ["shot_05"]},
            "decision": (0, "play"),
            "events": [("drew", {"seat": 0, "count": 1, "reason": "empty_hands"})],
        },
        id="empty-hands-draws-when-playing-the-last-card",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", "empty_hands", hand=["ricochet"]),
            "outlaw",
            "outlaw",
            deck=["shot_05", "duel_02"],
        ),
        ["shot@1", "ricochet"],
        {"hand": {1: ["shot_05"]}, "life": {1: 4}},
        id="empty-hands-draws-off-turn",
    ),
    pytest.param(
        scenario(
            S("sheriff", "twin_barrels", hand=["shot", KEEP]),
            S("renegade", "empty_hands", hand=["ricochet"]),
            "outlaw",
            "outlaw",
            deck=["ricochet_02", "duel_02", "horse_01"],
        ),
        ["shot@1", "ricochet", "ricochet"],
        {
            "life": {1: 4},
            "hand": {1: ["duel_02"]},
            "events": [
                ("answered", {"seat": 1, "card": "ricochet_01"}),
                ("drew", {"seat": 1, "cards": ["ricochet_02"], "reason": "empty_hands"}),
                ("answered", {"seat": 1, "card": "ricochet_02"}),
                ("cancelled", {"seat": 1, "by": "ricochet"}),
            ],
        },
        id="empty-hands-card-usable-in-the-same-window",
    ),
    pytest.param(
        scenario(
            S("sheriff", "empty_hands", hand=["shot"]),
            S("renegade", "collector"),
            "outlaw",
            "outlaw",
            deck=["duel_02", "horse_01"],
        ),
        ["shot@1"],
        {
            "events": [
                ("drew", {"seat": 0, "cards": ["duel_02"], "reason": "empty_hands"}),
                ("hit", {"seat": 1}),
                ("stole", {"seat": 1, "victim": 0, "card": "duel_02"}),
                ("drew", {"seat": 0, "cards": ["horse_01"], "reason": "empty_hands"}),
            ],
            "hand": {0: ["horse_01"], 1: ["duel_02"]},
        },
        id="empty-hands-draws-again-after-a-collector-steal",
    ),
    # -- scavenger ----------------------------------------------------------------------------
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", life=1, hand=["shot_05"], in_play=["scope"], weapon="carbine"),
            S("outlaw", "scavenger", hand=["duel_02"]),
            "outlaw",
        ),
        ["shot@1"],
        {
            "hand": {2: ["duel_02", "shot_05", "scope_01", "carbine_01"]},
            "hand_size": {1: 0},
            "in_play": {1: []},
            "weapon": {1: None},
            "events": [
                (
                    "scavenged",
                    {
                        "seat": 2,
                        "victim": 1,
                        "hand_count": 1,
                        "in_play": ["scope_01", "carbine_01"],
                    },
                )
            ],
            "no_events": ["discarded"],
        },
        id="scavenger-takes-hand-blue-cards-and-weapon",
    ),
    # -- mad_dog / eagle_eye / canyon_shadow (distance) ---------------------------------------
    pytest.param(
        scenario(
            S("sheriff", "mad_dog", hand=["shot", "shot", "shot", KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["shot@2", "shot@2"],
        {"life": {2: 2}, "legal": ["end_turn", "shot@1", "shot@2", "shot@3", "wagon"]},
        id="mad-dog-unlimited-shots-and-sees-one-closer",
    ),
    pytest.param(
        scenario(
            S("sheriff", "eagle_eye", hand=["shot", "shot", KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["shot@2"],
        {"life": {2: 3}, "legal": ["end_turn", "wagon"]},
        id="eagle-eye-built-in-scope-one-shot",
    ),
]


@pytest.mark.parametrize(("sc", "moves", "expect"), CHARACTER_CASES)
def test_character(sc: dict, moves: list[str], expect: dict) -> None:
    game = load_scenario(sc)
    run(game, moves)
    check(game, expect, events(game))


# Built-in Scopes stack with a Scope card (−2), never below 1: 8 seats, seat 0 looking.
@pytest.mark.parametrize(("character", "scope_card", "targets"), [
    ("red_suit", False, [1, 7]),
    ("red_suit", True, [1, 2, 6, 7]),
    ("eagle_eye", False, [1, 2, 6, 7]),
    ("eagle_eye", True, [1, 2, 3, 5, 6, 7]),
    ("mad_dog", True, [1, 2, 3, 5, 6, 7]),
])  # fmt: skip
def test_scope_stacking(character: str, scope_card: bool, targets: list[int]) -> None:
    game = load(
        S("sheriff", character, hand=["shot", KEEP], in_play=["scope"] if scope_card else []),
        "deputy",
        "deputy",
        "renegade",
        "renegade",
        "outlaw",
        "outlaw",
        "outlaw",
    )
    assert [m.target for m in game.legal_moves if m.card == "shot"] == targets


# Canyon Shadow at seat 1 is seen at 1 + 2 = 3; a Horse card adds nothing.
@pytest.mark.parametrize(("weapon", "horse", "reachable"), [
    ("sawed_off", False, False),
    ("shotgun", False, True),
    ("sawed_off", True, False),
    ("shotgun", True, True),
])  # fmt: skip
def test_canyon_shadow_counts_as_two_further(weapon: str, horse: bool, reachable: bool) -> None:
    game = load(
        S("sheriff", hand=["shot", KEEP], weapon=weapon),
        S("renegade", "canyon_shadow", in_play=["horse"] if horse else []),
        "outlaw",
        "outlaw",
        "deputy",
    )
    assert ("shot@1" in legal(game)) is reachable
    assert game.view(0).players[1].distance == 3


def test_canyon_shadow_out_of_snatch_reach() -> None:
    game = load(
        S("sheriff", "eagle_eye", hand=["snatch", KEEP], in_play=["scope"]),
        S("renegade", "canyon_shadow", hand=["shot"]),
        "outlaw",
        "outlaw",
    )
    # 1 + 2 − 2 = 1: two Scopes bring him back within reach.
    assert "snatch@1" in legal(game)
    game = load(
        S("sheriff", "eagle_eye", hand=["snatch", KEEP]),
        S("renegade", "canyon_shadow", hand=["shot"]),
        "outlaw",
        "outlaw",
    )
    assert "snatch@1" not in legal(game)


def test_three_eyes_put_back_card_is_private() -> None:
    game = load(
        S("sheriff", "three_eyes", hand=[KEEP]),
        "renegade",
        "outlaw",
        "outlaw",
        step="turn_start",
        deck=["shot_05", "duel_02", "horse_01", "jail_01"],
    )
    cursor = len(game.state.log)
    run(game, ["return:duel_02"])
    mine = game.events(0, cursor)
    assert of_kind(mine, "put_back")[0]["card"] == "duel_02"
    for viewer in (None, 1, 2, 3):
        seen = game.events(viewer, 0)
        assert of_kind(seen, "looked")[0]["cards"] is None
        assert of_kind(seen, "put_back")[0]["card"] is None
        moves = of_kind(seen, "move", seat=0)
        assert all(m["move"] is None for m in moves if m["move_kind"] == "return")
        assert "duel_02" not in str(seen)
    # The card went back on top: the next draw of the table takes it.
    assert deck_top(game) == ["duel_02"]
    run(game, ["wagon"])
    assert game.view(0).hand == ["shot_05", "horse_01", "duel_02", "jail_01"]


def test_red_suit_reveal_is_public() -> None:
    game = load(
        S("sheriff", "red_suit", hand=[KEEP]),
        "renegade",
        "outlaw",
        "outlaw",
        step="turn_start",
        deck=["shot_05", "shot_03", "duel_02"],
    )
    for viewer in (None, 1):
        revealed = of_kind(game.events(viewer), "revealed")
        assert revealed == [{"kind": "revealed", "seat": 0, "card": "shot_03", "extra": True}]
        drew = of_kind(game.events(viewer), "drew", seat=0)
        assert all(d["cards"] is None for d in drew)


def test_grip_steal_is_private_to_the_two_seats() -> None:
    game = load(
        S("sheriff", "grip", hand=[KEEP]),
        S("renegade", hand=["shot_05"]),
        "outlaw",
        S("outlaw", hand=["duel_02"]),
        step="turn_start",
    )
    run(game, ["grip@3"])
    for viewer, visible in ((0, True), (3, True), (1, False), (None, False)):
        stole = of_kind(game.events(viewer), "stole")[0]
        assert (stole["card"] == "duel_02") is visible


def test_vulture_junior_discard_draw_is_public() -> None:
    game = load(
        S("sheriff", "vulture_junior", hand=[KEEP]),
        "renegade",
        "outlaw",
        "outlaw",
        step="turn_start",
        discard=["shot_05", "duel_02"],
    )
    run(game, ["draw_discard"])
    drew = of_kind(game.events(2), "drew", seat=0, source="discard")
    assert drew[0]["cards"] == ["duel_02"]


def test_scavenger_hand_cards_are_private() -> None:
    game = load(
        S("sheriff", hand=["shot", KEEP]),
        S("renegade", life=1, hand=["shot_05"], in_play=["scope"]),
        S("outlaw", "scavenger"),
        "outlaw",
    )
    run(game, ["shot@1"])
    assert of_kind(game.events(2), "scavenged")[0]["hand_cards"] == ["shot_05"]
    other = of_kind(game.events(3), "scavenged")[0]
    assert other["hand_cards"] is None
    assert other["in_play"] == ["scope_01"]
