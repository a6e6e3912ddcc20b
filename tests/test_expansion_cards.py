"""Armed & Dangerous, table-driven: every Dangerous card, every new brown card with and without
its upgrade, every character and the token rules, each from an exact position (scenario with
``"expansions": ["armed_dangerous"]``). Seat 0 is the sheriff and plays; a Wagon in hand keeps
its play step a real decision."""

from __future__ import annotations

import pytest
from scenario_helpers import check, events, load, run, scenario, seat

from bangarena.engine.loads import conserved
from bangarena.engine.scenario import load_scenario

S = seat
AD = {"expansions": ["armed_dangerous"]}
KEEP = "wagon"
RED = "shot_26"  # 6♥: a red flip
BLACK = "shot_27"  # 2♣: a black flip
DIAMOND_SHOT = "shot_28"  # 2♦


def ad(*seats, **fields):
    return scenario(*seats, **AD, **fields)


CASES = [
    # -- token rules -----------------------------------------------------------------------
    pytest.param(
        ad(S("sheriff", hand=["crate", KEEP]), "renegade", "outlaw", "outlaw"),
        ["crate", "load:crate"],
        {"loads": {0: {"crate": 4}}, "supply": 28, "tokens": {0: 0}},
        id="dangerous-card-arrives-with-3-and-the-blue-play-reloads-1",
    ),
    pytest.param(
        ad(S("sheriff", hand=["crate", KEEP], tokens=1), "renegade", "outlaw", "outlaw"),
        ["crate", "load:character"],
        {"loads": {0: {"crate": 3}}, "tokens": {0: 2}, "supply": 27},
        id="reload-on-the-character",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["horse", KEEP], tokens=4, in_play=["crate"], loads={"crate": 4}),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["horse"],
        {"tokens": {0: 4}, "loads": {0: {"crate": 4}}, "supply": 24},
        id="at-most-4-per-holder-extra-ignored",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["crate", KEEP]),
            S("renegade", tokens=4, in_play=["whip", "lockpick"], loads={"whip": 4, "lockpick": 4}),
            S(
                "outlaw",
                tokens=4,
                in_play=["bandolier", "beer_keg"],
                loads={"bandolier": 4, "beer_keg": 4},
            ),
            S("outlaw", tokens=4, in_play=["tumbleweed"], loads={"tumbleweed": 3}),
        ),
        [],
        {"legal_lacks": ["crate"], "supply": 1},
        id="no-dangerous-card-with-fewer-than-3-in-the-supply",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["snatch", "horse", KEEP]),
            S("renegade", in_play=["crate"], loads={"crate": 2}),
            "outlaw",
            "outlaw",
        ),
        ["snatch@1"],
        {"hand_kinds": {0: ["horse", KEEP, "crate"]}, "loads": {1: {}}, "supply": 32},
        id="snatched-dangerous-card-returns-its-tokens",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["knock_off", KEEP]),
            S("renegade", weapon="thunderer", loads={"thunderer": 3}),
            "outlaw",
            "outlaw",
        ),
        ["knock_off@1"],
        {"weapon": {1: None}, "supply": 32, "discard_top": "thunderer_01"},
        id="knocked-off-dangerous-weapon-returns-its-tokens",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["snatch", KEEP]),
            S("renegade", in_play=["whip"], loads={"whip": 1}),
            "outlaw",
            "outlaw",
        ),
        ["snatch@1", "whip", "load:whip"],
        {"loads": {0: {"whip": 4}}, "supply": 28},
        id="re-played-snatched-card-gets-3-new-tokens",
    ),
    pytest.param(
        ad(S("sheriff", hand=["shot", "shot", KEEP], life=1), "renegade", "outlaw", "outlaw"),
        ["shot@1", "end_turn", "discard:shot"],
        {"tokens": {0: 1}, "supply": 31},
        id="hand-limit-discard-reloads-1",
    ),
    # -- Dangerous objects -----------------------------------------------------------------
    pytest.param(
        ad(
            S(
                "sheriff",
                hand=[KEEP],
                in_play=["ace_up_the_sleeve"],
                loads={"ace_up_the_sleeve": 3},
            ),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["use:ace_up_the_sleeve"],
        {"hand_size": {0: 2}, "loads": {0: {"ace_up_the_sleeve": 1}}},
        id="ace-up-the-sleeve-draws-1-for-2",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["ace_up_the_sleeve", KEEP], in_play=[]),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        [],
        {"legal_has": ["ace_up_the_sleeve"], "legal_lacks": ["use:ace_up_the_sleeve"]},
        id="ace-up-the-sleeve-in-hand-is-only-played",
    ),
    pytest.param(
        ad(
            S(
                "sheriff",
                hand=["shot", "shot", KEEP],
                in_play=["bandolier"],
                loads={"bandolier": 1},
            ),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["shot@1", "shot@1"],
        {"life": {1: 2}, "in_play": {0: []}, "legal": ["end_turn", "wagon"]},
        id="bandolier-one-extra-shot-and-discarded-at-0",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["bomb", KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["bomb@2"],
        {"in_play": {2: ["bomb"]}, "loads": {2: {"bomb": 3}}, "tokens": {0: 1}},
        id="bomb-is-played-on-any-player",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=[KEEP]),
            "renegade",
            S("outlaw", in_play=["bomb"], loads={"bomb": 3}, hand=[KEEP]),
            "outlaw",
            turn=2,
            step="turn_start",
            deck=[RED],
        ),
        ["give@1"],
        {"in_play": {1: ["bomb"], 2: []}, "loads": {1: {"bomb": 3}}},
        id="bomb-red-flip-passes-it",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=[KEEP]),
            "renegade",
            S("outlaw", in_play=["bomb"], loads={"bomb": 3}, hand=[KEEP]),
            "outlaw",
            turn=2,
            step="turn_start",
            deck=[BLACK],
        ),
        [],
        {"loads": {2: {"bomb": 1}}, "life": {2: 4}, "supply": 31},
        id="bomb-black-flip-removes-2",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=[KEEP]),
            "renegade",
            S("outlaw", in_play=["bomb"], loads={"bomb": 2}, hand=[KEEP]),
            "outlaw",
            turn=2,
            step="turn_start",
            deck=[BLACK],
        ),
        [],
        {
            "in_play": {2: []},
            "life": {2: 2},
            "supply": 32,
            "events": [
                ("bomb_exploded", {"seat": 2}),
                ("hit", {"seat": 2, "amount": 2, "cause": "bomb"}),
            ],
        },
        id="bomb-explodes-when-its-tokens-run-out",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=[KEEP]),
            "renegade",
            S("outlaw", in_play=["bomb", "jail"], loads={"bomb": 3}, hand=[KEEP]),
            "outlaw",
            turn=2,
            step="turn_start",
            deck=[RED, BLACK],
        ),
        [],
        {"events": [("check", {"reason": "jail"}), ("check", {"reason": "bomb"})]},
        id="bomb-checked-after-jail",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["knock_off", KEEP]),
            "renegade",
            S("outlaw", in_play=["bomb"], loads={"bomb": 1}),
            "outlaw",
        ),
        ["knock_off@2"],
        {"life": {2: 4}, "in_play": {2: []}, "no_events": ["bomb_exploded"], "supply": 32},
        id="bomb-removed-by-a-card-does-not-explode",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["snatch", KEEP], in_play=["bell_tower"], loads={"bell_tower": 2}),
            "renegade",
            S("outlaw", hand=["saloon"]),
            "outlaw",
        ),
        ["use:bell_tower"],
        {"legal_has": ["snatch@2"], "loads": {0: {"bell_tower": 1}}},
        id="bell-tower-puts-everyone-at-distance-1",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["snatch", KEEP], in_play=["bell_tower"], loads={"bell_tower": 2}),
            "renegade",
            S("outlaw", hand=["saloon"]),
            "outlaw",
        ),
        ["use:bell_tower", "wagon"],
        {"legal_lacks": ["snatch@2"]},
        id="bell-tower-lasts-for-the-next-card-only",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", hand=["saloon"], in_play=["crate"], loads={"crate": 2}),
            "outlaw",
            "outlaw",
        ),
        ["shot@1", "use:crate"],
        {"life": {1: 4}, "in_play": {1: []}, "events": [("cancelled", {"seat": 1, "by": "crate"})]},
        id="crate-cancels-a-shot-for-2",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=[KEEP]),
            "renegade",
            S("outlaw", in_play=["jail"], hand=[KEEP]),
            S("outlaw", in_play=["tumbleweed"], loads={"tumbleweed": 2}),
            turn=2,
            step="turn_start",
            deck=[RED, BLACK],
        ),
        [(3, "use:tumbleweed"), (3, "pass")],
        {
            "events": [
                ("check", {"reason": "jail", "success": True}),
                ("used", {"seat": 3, "what": "tumbleweed_01"}),
                ("check", {"reason": "jail", "success": False}),
                ("jail_result", {"seat": 2, "escaped": False}),
            ],
        },
        id="tumbleweed-repeats-a-flip",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=[KEEP], in_play=["whip"], loads={"whip": 3}),
            S("renegade", in_play=["cover"]),
            "outlaw",
            "outlaw",
        ),
        ["use:whip@1"],
        {"in_play": {0: [], 1: []}, "discard": ["whip_01", "cover_01"]},
        id="whip-discards-a-card-in-play-any-distance",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=[KEEP], life=3, in_play=["beer_keg"], loads={"beer_keg": 4}),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["use:beer_keg"],
        {"life": {0: 4}, "loads": {0: {"beer_keg": 1}}},
        id="beer-keg-heals-1-for-3",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=[KEEP], in_play=["lockpick"], loads={"lockpick": 3}),
            "renegade",
            S("outlaw", hand=["duel"]),
            "outlaw",
        ),
        ["use:lockpick@2"],
        {"hand_kinds": {0: [KEEP, "duel"], 2: []}, "in_play": {0: []}},
        id="lockpick-takes-a-random-hand-card-any-distance",
    ),
    # -- Dangerous weapons -------------------------------------------------------------------
    pytest.param(
        ad(
            S("sheriff", hand=["shot", KEEP], weapon="big_fifty", loads={"big_fifty": 2}),
            S("renegade", character="iron_brow", in_play=["cover"]),
            "outlaw",
            "outlaw",
        ),
        ["shot@1", "use:big_fifty"],
        {"life": {1: 3}, "no_events": ["check"]},
        id="big-fifty-ignores-cover-and-ability",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["shot", KEEP], weapon="big_fifty", loads={"big_fifty": 2}),
            S("renegade", character="stone_leopard", life=3),
            "outlaw",
            "outlaw",
        ),
        ["shot@1", "use:big_fifty"],
        {"life": {1: 2}, "hand_size": {1: 0}},
        id="big-fifty-ignores-stone-leopards-draw",
    ),
    pytest.param(
        ad(
            S(
                "sheriff",
                hand=["shot", KEEP],
                weapon="buntline_special",
                loads={"buntline_special": 2},
            ),
            S("renegade", hand=["ricochet", "duel", "saloon"]),
            "outlaw",
            "outlaw",
        ),
        ["shot@1", "use:buntline_special", "ricochet", "discard:duel"],
        {"life": {1: 4}, "hand_kinds": {1: ["saloon"]}},
        id="buntline-special-cancelled-shot-costs-a-card",
    ),
    pytest.param(
        ad(
            S(
                "sheriff",
                hand=[DIAMOND_SHOT, KEEP],
                weapon="double_barrel",
                loads={"double_barrel": 2},
            ),
            S("renegade", hand=["ricochet"], in_play=["cover"]),
            "outlaw",
            "outlaw",
        ),
        ["shot@1", "use:double_barrel"],
        {"life": {1: 3}, "hand": {1: ["ricochet_01"]}},
        id="double-barrel-diamond-shot-cannot-be-cancelled",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=[BLACK, KEEP], weapon="double_barrel", loads={"double_barrel": 2}),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["shot@1"],
        {"no_events": ["used"], "life": {1: 3}},
        id="double-barrel-not-offered-for-a-non-diamond-shot",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["shot", KEEP], weapon="thunderer", loads={"thunderer": 2}),
            S("renegade", hand=["ricochet"]),
            "outlaw",
            "outlaw",
        ),
        ["shot@1", "use:thunderer", "ricochet"],
        {"hand_kinds": {0: [KEEP, "shot"]}, "life": {1: 4}},
        id="thunderer-takes-the-shot-back",
    ),
    # -- new brown cards -----------------------------------------------------------------------
    pytest.param(
        ad(S("sheriff", hand=["mule_train", KEEP]), "renegade", "outlaw", "outlaw"),
        ["mule_train"],
        {"hand_size": {0: 3}},
        id="mule-train-draws-2",
    ),
    pytest.param(
        ad(S("sheriff", hand=["mule_train", KEEP], tokens=4), "renegade", "outlaw", "outlaw"),
        ["mule_train", "use:mule_train", "use:mule_train"],
        {"hand_size": {0: 5}, "tokens": {0: 0}},
        id="mule-train-upgrade-repeats",
    ),
    pytest.param(
        ad(S("sheriff", hand=["little_nip", KEEP], life=3), "renegade", "outlaw", "outlaw"),
        ["little_nip"],
        {"life": {0: 4}},
        id="little-nip-heals-1",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["little_nip", KEEP], life=2, tokens=3),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["little_nip", "use:little_nip"],
        {"life": {0: 4}, "tokens": {0: 0}},
        id="little-nip-upgrade-heals-more",
    ),
    pytest.param(
        ad(S("sheriff", hand=["shot", "quick_shot", KEEP]), "renegade", "outlaw", "outlaw"),
        ["shot@1", "quick_shot@3"],
        {"life": {1: 3, 3: 3}},
        id="quick-shot-is-not-a-shot-card",
    ),
    pytest.param(
        ad(S("sheriff", hand=["quick_shot", KEEP], tokens=1), "renegade", "outlaw", "outlaw"),
        ["quick_shot@1", "use:quick_shot@3"],
        {"life": {1: 3, 3: 3}, "tokens": {0: 0}},
        id="quick-shot-upgrade-second-target",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["flintlock", KEEP]),
            S("renegade", hand=["ricochet"]),
            "outlaw",
            "outlaw",
        ),
        ["flintlock@1", "ricochet"],
        {"life": {1: 4}, "hand_kinds": {0: [KEEP]}},
        id="flintlock-cancelled-without-tokens",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["flintlock", KEEP], tokens=2),
            S("renegade", hand=["ricochet"]),
            "outlaw",
            "outlaw",
        ),
        ["flintlock@1", "ricochet", "use:flintlock"],
        {"hand_kinds": {0: [KEEP, "flintlock"]}, "tokens": {0: 0}},
        id="flintlock-upgrade-takes-it-back",
    ),
    pytest.param(
        ad(S("sheriff", hand=["arrow", KEEP]), S("renegade", hand=["shot"]), "outlaw", "outlaw"),
        ["arrow@2"],
        {"life": {2: 3}},
        id="arrow-any-distance",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["arrow", KEEP], tokens=1),
            S("renegade", hand=["shot"]),
            "outlaw",
            "outlaw",
        ),
        ["arrow@2", "use:arrow@1", "shot"],
        {"life": {2: 3, 1: 4}, "hand": {1: []}},
        id="arrow-upgrade-second-target-discards-a-shot",
    ),
    pytest.param(
        ad(S("sheriff", hand=["shot", KEEP]), S("renegade", hand=["duck"]), "outlaw", "outlaw"),
        ["shot@1", "duck"],
        {"life": {1: 4}, "hand": {1: []}},
        id="duck-cancels-a-shot",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", hand=["duck"], tokens=2),
            "outlaw",
            "outlaw",
        ),
        ["shot@1", "duck", "use:duck"],
        {"life": {1: 4}, "hand": {1: ["duck_01"]}, "tokens": {1: 0}},
        id="duck-upgrade-takes-it-back",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["reloading", KEEP], in_play=["crate"], loads={"crate": 3}),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["reloading", "load:crate"],
        {"loads": {0: {"crate": 4}}, "tokens": {0: 2}},
        id="reloading-places-3",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["rust", KEEP]),
            S("renegade", tokens=2, in_play=["bomb"], loads={"bomb": 1}),
            S("outlaw", tokens=1),
            "outlaw",
        ),
        ["rust"],
        {
            "tokens": {0: 3, 1: 1, 2: 0},
            "in_play": {1: []},
            "life": {1: 2},
            "events": [("bomb_exploded", {"seat": 1})],
        },
        id="rust-drains-a-bomb-which-explodes",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["squaw", KEEP]), "renegade", S("outlaw", in_play=["horse"]), "outlaw"
        ),
        ["squaw@2"],
        {"in_play": {2: []}, "discard_top": "horse_01"},
        id="squaw-discards-a-card-in-play",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["squaw", KEEP], tokens=2),
            "renegade",
            S("outlaw", in_play=["horse"]),
            "outlaw",
        ),
        ["squaw@2", "use:squaw"],
        {"in_play": {2: []}, "hand_kinds": {0: [KEEP, "horse"]}},
        id="squaw-upgrade-takes-it",
    ),
    # -- characters ---------------------------------------------------------------------------
    pytest.param(
        ad(
            S("sheriff", hand=["horse", KEEP]),
            S("renegade", character="al_preacher", tokens=2),
            "outlaw",
            "outlaw",
        ),
        ["horse", "use:al_preacher"],
        {"hand_size": {1: 1}, "tokens": {1: 0}},
        id="al-preacher-draws-when-another-plays-blue",
    ),
    pytest.param(
        ad(
            S("sheriff", character="bass_greeves", hand=["saloon", KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["use:bass_greeves", "discard:saloon"],
        {"tokens": {0: 2}, "legal_lacks": ["use:bass_greeves"]},
        id="bass-greeves-discards-for-2-tokens-once",
    ),
    pytest.param(
        ad(
            S("sheriff", character="bloody_mary", hand=["shot", KEEP]),
            S("renegade", hand=["ricochet"]),
            "outlaw",
            "outlaw",
        ),
        ["shot@1", "ricochet"],
        {"hand_size": {0: 2}},
        id="bloody-mary-draws-when-her-shot-is-cancelled",
    ),
    pytest.param(
        ad(
            S("sheriff", character="frankie_canton", hand=[KEEP]),
            S("renegade", in_play=["crate"], loads={"crate": 1}),
            "outlaw",
            "outlaw",
        ),
        ["use:frankie_canton"],
        {"tokens": {0: 1}, "in_play": {1: []}},
        id="frankie-canton-takes-a-token-and-empties-a-card",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", character="julie_cutter"),
            "outlaw",
            "outlaw",
            deck=[RED],
        ),
        ["shot@1"],
        {"life": {0: 5, 1: 3}, "events": [("check", {"reason": "julie_cutter", "success": True})]},
        id="julie-cutter-shoots-back-on-red",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", character="julie_cutter"),
            "outlaw",
            "outlaw",
            deck=[BLACK],
        ),
        ["shot@1"],
        {"life": {0: 6, 1: 3}},
        id="julie-cutter-black-flip-nothing",
    ),
    pytest.param(
        ad(
            S("sheriff", character="mexicali_kid", hand=[KEEP], tokens=2),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["use:mexicali_kid@1"],
        {"life": {1: 3}, "tokens": {0: 0}, "legal_lacks": ["use:mexicali_kid@3"]},
        id="mexicali-kid-extra-shot-for-2",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["duel_03", KEEP]),
            S("renegade", character="ms_abigail"),
            "outlaw",
            "outlaw",
        ),
        ["duel@1"],
        {"decision": (1, "optional_effect"), "legal": ["pass", "use:ms_abigail"]},
        id="ms-abigail-may-ignore-a-high-card",
    ),
    pytest.param(
        ad(
            S("sheriff", hand=["duel_03", KEEP]),
            S("renegade", character="ms_abigail"),
            "outlaw",
            "outlaw",
        ),
        ["duel@1", "use:ms_abigail"],
        {"life": {1: 4}, "events": [("ignored", {"seat": 1, "source": 0})]},
        id="ms-abigail-ignores-it",
    ),
    pytest.param(
        ad(
            S(
                "sheriff",
                character="red_ringo",
                hand=[KEEP],
                tokens=4,
                in_play=["crate"],
                loads={"crate": 1},
            ),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["use:red_ringo", "load:crate"],
        {"tokens": {0: 2}, "loads": {0: {"crate": 3}}, "legal_lacks": ["use:red_ringo"]},
        id="red-ringo-moves-up-to-2",
    ),
]


@pytest.mark.parametrize(("sc", "moves", "expect"), CASES)
def test_expansion_rule(sc, moves, expect) -> None:
    game = load_scenario(sc)
    run(game, moves)
    # The whole log: some outcomes (a check at the turn start) happen as the scenario loads.
    check(game, expect, events(game))
    assert conserved(game.state) == 32


def test_red_ringo_starts_with_4_tokens_from_the_supply() -> None:
    from bangarena.engine import GameConfig, new_game

    for seed in range(200):
        game = new_game(GameConfig(seats=8, expansions=("armed_dangerous",)), seed)
        ringo = [p for p in game.state.players if p.character == "red_ringo"]
        if ringo:
            assert ringo[0].tokens == 4 and game.state.supply == 28
            return
    raise AssertionError("no deal with Red Ringo in 200 seeds")


def test_ms_abigail_needs_a_high_rank() -> None:
    game = load(
        S("sheriff", hand=["shot_27", KEEP]), S("renegade", character="ms_abigail"),
        "outlaw", "outlaw", **AD,
    )  # fmt: skip
    run(game, ["shot@1"])
    check(game, {"life": {1: 3}, "no_events": ["ignored"]}, [])
