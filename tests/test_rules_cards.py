"""Every card kind (rules.md §4, §8): one table row per effect, from an exact position.

The acting seat keeps a Wagon in hand where needed so that its play step stays open (a play step
with only ``end_turn`` left is a forced move and would end the turn by itself).
"""

from __future__ import annotations

from collections import Counter

import pytest
from scenario_helpers import card, check, load, run, scenario, seat

from bangarena.engine.cards import CARD_KINDS, DECK
from bangarena.engine.scenario import load_scenario

S = seat
KEEP = "wagon"  # a card that is always playable: keeps the play step a real decision

# (scenario, moves, expected outcomes)
CARD_CASES = [
    pytest.param(
        scenario(S("sheriff", hand=["shot", KEEP]), "renegade", "outlaw", "outlaw"),
        [],
        {"decision": (0, "play"), "legal": ["end_turn", "shot@1", "shot@3", "wagon"]},
        id="shot-targets-in-revolver-range-only",
    ),
    pytest.param(
        scenario(S("sheriff", hand=["shot", "shot", KEEP]), "renegade", "outlaw", "outlaw"),
        ["shot@1"],
        {
            "life": {1: 3},
            "legal": ["end_turn", "wagon"],
            "events": [
                ("played", {"seat": 0, "card": "shot_01", "target": 1}),
                ("move", {"seat": 1, "move": "take_hit", "auto": True}),
                ("hit", {"seat": 1, "source": 0, "amount": 1, "cause": "shot", "life": 3}),
            ],
        },
        id="shot-hits-and-is-once-per-turn",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]), S("renegade", hand=["ricochet"]), "outlaw", "outlaw"
        ),
        ["shot@1"],
        {"decision": (1, "answer_shot"), "legal": ["take_hit", "ricochet"]},
        id="ricochet-offered-against-shot",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]), S("renegade", hand=["ricochet"]), "outlaw", "outlaw"
        ),
        ["shot@1", "ricochet"],
        {
            "life": {1: 4},
            "hand": {1: []},
            "discard_top": "ricochet_01",
            "decision": (0, "play"),
            "events": [
                ("answered", {"seat": 1, "card": "ricochet_01", "against": 0}),
                ("cancelled", {"seat": 1, "source": 0, "by": "ricochet"}),
            ],
            "no_events": ["hit"],
        },
        id="ricochet-cancels-shot",
    ),
    pytest.param(
        scenario(S("sheriff", hand=["ricochet", KEEP]), "renegade", "outlaw", "outlaw"),
        [],
        {"legal": ["end_turn", "wagon"]},
        id="ricochet-is-not-played-on-your-turn",
    ),
    pytest.param(
        scenario(S("sheriff", life=4, hand=["canteen", KEEP]), "renegade", "outlaw", "outlaw"),
        ["canteen"],
        {
            "life": {0: 5},
            "events": [("healed", {"seat": 0, "amount": 1, "life": 5, "cause": "canteen"})],
        },
        id="canteen-heals-one",
    ),
    pytest.param(
        scenario(S("sheriff", hand=["canteen", KEEP]), "renegade", "outlaw", "outlaw"),
        [],
        {"legal": ["end_turn", "wagon"]},
        id="canteen-not-legal-at-full-life",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", life=1, hand=["canteen"]),
            "outlaw",
            "outlaw",
        ),
        ["shot@1"],
        {"decision": (1, "answer_shot"), "legal": ["take_hit", "canteen"]},
        id="canteen-answer-offered-on-last-life-with-4-alive",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", life=1, hand=["canteen"]),
            "outlaw",
            "outlaw",
        ),
        ["shot@1", "canteen"],
        {
            "life": {1: 1},
            "alive": {1: True},
            "events": [("cancelled", {"seat": 1, "source": 0, "by": "canteen"})],
            "no_events": ["hit", "healed"],
        },
        id="canteen-answer-cancels-and-stays-at-1",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", life=2, hand=["canteen"]),
            "outlaw",
            "outlaw",
        ),
        ["shot@1"],
        {
            "life": {1: 1},
            "hand": {1: ["canteen_01"]},
            "events": [("move", {"seat": 1, "move": "take_hit", "auto": True})],
        },
        id="canteen-answer-not-offered-above-1-life",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["snatch", KEEP]),
            S("renegade", hand=["shot_05"], in_play=["scope"], weapon="carbine"),
            S("outlaw", hand=["shot_06"]),
            "outlaw",
        ),
        [],
        {"legal": ["end_turn", "snatch@1", "wagon"]},
        id="snatch-only-at-distance-1-and-only-players-with-cards",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["snatch", KEEP]),
            S("renegade", hand=["shot_05"], in_play=["scope"], weapon="carbine"),
            "outlaw",
            "outlaw",
        ),
        ["snatch@1"],
        {"decision": (0, "pick_card"), "legal": ["pick:hand", "pick:scope", "pick:carbine"]},
        id="snatch-pick-lists-hand-in-play-and-weapon",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["snatch", KEEP]),
            S("renegade", hand=["shot_05"], in_play=["scope"], weapon="carbine"),
            "outlaw",
            "outlaw",
        ),
        ["snatch@1", "pick:carbine"],
        {
            "hand": {0: ["wagon_01", "carbine_01"], 1: ["shot_05"]},
            "weapon": {1: None},
            "in_play": {1: ["scope"]},
            "events": [
                ("stole", {"seat": 0, "victim": 1, "from_hand": False, "card": "carbine_01"})
            ],
        },
        id="snatch-takes-the-weapon-into-hand",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["snatch", KEEP]),
            S("renegade", hand=["shot_05"], in_play=["scope"]),
            "outlaw",
            "outlaw",
        ),
        ["snatch@1", "pick:hand"],
        {
            "hand": {0: ["wagon_01", "shot_05"], 1: []},
            "in_play": {1: ["scope"]},
            "events": [("stole", {"seat": 0, "victim": 1, "from_hand": True, "card": "shot_05"})],
        },
        id="snatch-takes-a-hand-card",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["knock_off", KEEP]),
            "renegade",
            S("outlaw", hand=["shot_06"], weapon="long_rifle"),
            "outlaw",
        ),
        [],
        {"legal": ["end_turn", "knock_off@2", "wagon"]},
        id="knock-off-any-distance-only-players-with-cards",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["knock_off", KEEP]),
            "renegade",
            S("outlaw", hand=["shot_06"], weapon="long_rifle"),
            "outlaw",
        ),
        ["knock_off@2", "pick:long_rifle"],
        {
            "weapon": {2: None},
            "hand": {2: ["shot_06"]},
            "discard_top": "long_rifle_01",
            "events": [
                ("discarded", {"seat": 2, "cards": ["long_rifle_01"], "reason": "knock_off"})
            ],
        },
        id="knock-off-discards-the-weapon",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["knock_off", KEEP]),
            "renegade",
            S("outlaw", hand=["shot_06"], in_play=["horse"]),
            "outlaw",
        ),
        ["knock_off@2", "pick:hand"],
        {
            "hand": {2: []},
            "in_play": {2: ["horse"]},
            "discard_top": "shot_06",
            "events": [("discarded", {"seat": 2, "cards": ["shot_06"], "reason": "knock_off"})],
        },
        id="knock-off-discards-a-random-hand-card",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["duel", "shot", KEEP]),
            "renegade",
            S("outlaw", hand=["shot", "shot"]),
            "outlaw",
        ),
        ["duel@2"],
        {"decision": (2, "answer_duel"), "legal": ["take_hit", "shot"]},
        id="duel-ignores-distance-target-answers-first",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["duel", "shot", KEEP]),
            "renegade",
            S("outlaw", hand=["shot", "shot"]),
            "outlaw",
        ),
        ["duel@2", "shot", "shot", "shot"],
        {
            "life": {0: 5, 2: 4},
            "hand": {2: [], 0: ["wagon_01"]},
            "decision": (0, "play"),
            "events": [
                ("answered", {"seat": 2, "card": "shot_02"}),
                ("answered", {"seat": 0, "card": "shot_01"}),
                ("answered", {"seat": 2, "card": "shot_03"}),
                ("move", {"seat": 0, "move": "take_hit", "auto": True}),
                ("hit", {"seat": 0, "source": 2, "cause": "duel", "life": 5}),
            ],
        },
        id="duel-alternates-and-the-first-without-a-shot-loses",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["duel", "shot", KEEP]),
            "renegade",
            S("outlaw", hand=["shot"]),
            "outlaw",
        ),
        ["duel@2", "take_hit"],
        {
            "life": {0: 6, 2: 3},
            "hand": {2: ["shot_02"], 0: ["shot_01", "wagon_01"]},
            "events": [("hit", {"seat": 2, "source": 0, "cause": "duel"})],
        },
        id="duel-lost-by-choice",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["raid", KEEP]),
            S("renegade", hand=["shot"]),
            "outlaw",
            S("outlaw", hand=["shot"]),
        ),
        ["raid"],
        {"decision": (1, "answer_raid"), "legal": ["take_hit", "shot"]},
        id="raid-first-answer-is-the-next-seat",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["raid", KEEP]),
            S("renegade", hand=["shot"]),
            "outlaw",
            S("outlaw", hand=["shot"]),
        ),
        ["raid", "shot", "take_hit"],
        {
            "life": {0: 6, 1: 4, 2: 3, 3: 3},
            "hand": {1: [], 3: ["shot_02"]},
            "decision": (0, "play"),
            "events": [
                ("answered", {"seat": 1, "card": "shot_01", "against": 0}),
                ("hit", {"seat": 2, "source": 0, "cause": "raid"}),
                ("hit", {"seat": 3, "source": 0, "cause": "raid"}),
            ],
        },
        id="raid-every-other-player-clockwise",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=[KEEP, "shot"]),
            "renegade",
            "outlaw",
            "outlaw",
            deck=["bazaar_01", "duel_01", "horse_01"],
        ),
        ["wagon"],
        {"hand": {0: ["shot_01", "bazaar_01", "duel_01"]}, "deck_top": ["horse_01"]},
        id="wagon-draws-two",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["caravan", KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
            deck=["bazaar_01", "duel_01", "horse_01", "jail_01"],
        ),
        ["caravan"],
        {
            "hand": {0: ["wagon_01", "bazaar_01", "duel_01", "horse_01"]},
            "deck_top": ["jail_01"],
        },
        id="caravan-draws-three",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["bazaar", KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
            deck=["duel_01", "horse_01", "jail_01", "scope_01"],
        ),
        ["bazaar"],
        {
            "hand": {0: ["wagon_01", "duel_01"], 1: ["horse_01"], 2: ["jail_01"], 3: ["scope_01"]},
            "events": [
                ("drew", {"seat": 0, "reason": "bazaar"}),
                ("drew", {"seat": 1, "reason": "bazaar"}),
                ("drew", {"seat": 2, "reason": "bazaar"}),
                ("drew", {"seat": 3, "reason": "bazaar"}),
            ],
        },
        id="bazaar-everyone-draws-one-starting-with-you",
    ),
    pytest.param(
        scenario(
            "sheriff",
            "renegade",
            S("outlaw", hand=["bazaar", KEEP]),
            "outlaw",
            S("deputy", alive=False),
            turn=2,
            deck=["duel_01", "horse_01", "jail_01", "scope_01"],
        ),
        ["bazaar"],
        {
            "hand": {2: ["wagon_01", "duel_01"], 3: ["horse_01"], 0: ["jail_01"], 1: ["scope_01"]},
            "hand_size": {4: 0},
        },
        id="bazaar-clockwise-from-player-skipping-the-dead",
    ),
    pytest.param(
        scenario(
            S("sheriff", life=3, hand=["saloon", KEEP]),
            S("renegade", life=4),
            S("outlaw", life=2),
            S("outlaw", life=1),
            S("deputy", alive=False),
        ),
        ["saloon"],
        {
            "life": {0: 4, 1: 4, 2: 3, 3: 2, 4: 0},
            "alive": {4: False},
            "no_events": ["hit"],
        },
        id="saloon-heals-every-living-player-not-above-max",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["buckshot", "shot", KEEP]),
            S("renegade", hand=["ricochet"]),
            "outlaw",
            S("outlaw", hand=["ricochet"]),
        ),
        ["buckshot"],
        {"decision": (1, "answer_shot"), "legal": ["take_hit", "ricochet"]},
        id="buckshot-first-answer-is-the-next-seat",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["buckshot", "shot", KEEP]),
            S("renegade", hand=["ricochet"]),
            "outlaw",
            S("outlaw", hand=["ricochet"]),
        ),
        ["buckshot", "ricochet", "take_hit"],
        {
            "life": {0: 6, 1: 4, 2: 3, 3: 3},
            "legal": ["end_turn", "shot@1", "shot@3", "wagon"],
            "events": [
                ("cancelled", {"seat": 1, "source": 0, "by": "ricochet"}),
                ("hit", {"seat": 2, "source": 0, "cause": "buckshot"}),
                ("hit", {"seat": 3, "source": 0, "cause": "buckshot"}),
            ],
        },
        id="buckshot-hits-every-other-and-leaves-the-shot",
    ),
    pytest.param(
        scenario(S("sheriff", hand=["jail", KEEP]), "renegade", "outlaw", "outlaw"),
        [],
        {"legal": ["end_turn", "wagon", "jail@1", "jail@2", "jail@3"]},
        id="jail-any-other-player",
    ),
    pytest.param(
        scenario(
            "sheriff",
            S("renegade", hand=["jail", KEEP]),
            "outlaw",
            S("outlaw", in_play=["jail"]),
            turn=1,
        ),
        [],
        {"legal": ["end_turn", "wagon", "jail@2"]},
        id="jail-never-the-sheriff-self-or-twice",
    ),
    pytest.param(
        scenario(S("sheriff", hand=["jail", KEEP]), "renegade", "outlaw", "outlaw"),
        ["jail@2"],
        {
            "in_play": {0: [], 2: ["jail"]},
            "events": [("equipped", {"seat": 0, "owner": 2, "card": "jail_01"})],
        },
        id="jail-goes-in-front-of-the-target",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["cover", "horse", "scope", "dynamite", KEEP]),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["cover", "horse", "scope", "dynamite"],
        {"in_play": {0: ["cover", "horse", "scope", "dynamite"]}},
        id="blue-cards-go-in-front-of-yourself",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["cover", "horse", "scope", "dynamite", KEEP]),
            S("renegade", in_play=["cover", "horse"]),
            "outlaw",
            "outlaw",
        ),
        ["cover", "horse", "scope", "dynamite"],
        {"in_play": {1: ["cover", "horse"]}},
        id="blue-cards-of-a-kind-another-player-has-are-fine",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["horse", "cover", KEEP], in_play=["horse_02", "cover_02"]),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        [],
        {"legal": ["end_turn", "wagon"]},
        id="no-two-copies-of-a-blue-card",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP]),
            S("renegade", in_play=["horse"]),
            "outlaw",
            "outlaw",
        ),
        [],
        {"legal": ["end_turn", "shot@3", "wagon"]},
        id="horse-others-see-you-one-further",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["snatch", KEEP]),
            S("renegade", hand=["shot"], in_play=["horse"]),
            S("outlaw", hand=["shot"]),
            S("outlaw", hand=["shot"]),
        ),
        [],
        {"legal": ["end_turn", "snatch@3", "wagon"]},
        id="horse-also-keeps-snatch-away",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", KEEP], in_play=["scope"]),
            "renegade",
            "outlaw",
            "outlaw",
            S("deputy"),
        ),
        [],
        {"legal": ["end_turn", "shot@1", "shot@2", "shot@3", "shot@4", "wagon"]},
        id="scope-you-see-others-one-closer",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["snatch", KEEP], in_play=["scope"]),
            S("renegade", hand=["shot"], in_play=["horse"]),
            S("outlaw", hand=["shot"]),
            S("outlaw", hand=["shot"]),
            S("deputy", hand=["shot"]),
        ),
        [],
        {"legal": ["end_turn", "snatch@1", "snatch@2", "snatch@3", "snatch@4", "wagon"]},
        id="scope-brings-snatch-closer-and-cancels-a-horse",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["shot", "shot", "shot", KEEP], weapon="vulcan"),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["shot@1", "shot@1"],
        {"life": {1: 2}, "legal": ["end_turn", "shot@1", "shot@3", "wagon"]},
        id="vulcan-unlimited-shots-range-1",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["carbine", KEEP], weapon="sawed_off"),
            "renegade",
            "outlaw",
            "outlaw",
        ),
        ["carbine"],
        {
            "weapon": {0: "carbine"},
            "discard_top": "sawed_off_01",
            "events": [
                ("equipped", {"owner": 0, "card": "carbine_01", "replaced": "sawed_off_01"})
            ],
        },
        id="a-new-weapon-replaces-and-discards-the-old",
    ),
]


@pytest.mark.parametrize(("sc", "moves", "expect"), CARD_CASES)
def test_card(sc: dict, moves: list[str], expect: dict) -> None:
    game = load_scenario(sc)
    evs = run(game, moves)
    check(game, expect, evs)


# Distances from seat 0 at 8 seats with Horses on seats 3 and 4: 1 2 4 5 3 2 1.
WEAPON_RANGES = [
    (None, [1, 7]),
    ("vulcan", [1, 7]),
    ("sawed_off", [1, 2, 6, 7]),
    ("shotgun", [1, 2, 5, 6, 7]),
    ("carbine", [1, 2, 3, 5, 6, 7]),
    ("long_rifle", [1, 2, 3, 4, 5, 6, 7]),
]


@pytest.mark.parametrize(("weapon", "targets"), WEAPON_RANGES)
def test_weapon_range(weapon: str | None, targets: list[int]) -> None:
    game = load(
        S("sheriff", hand=["shot", KEEP], weapon=weapon),
        "deputy",
        "deputy",
        S("renegade", in_play=["horse"]),
        S("renegade", in_play=["horse"]),
        "outlaw",
        "outlaw",
        "outlaw",
    )
    assert game.legal_moves[0].id == "end_turn"
    shots = [m.target for m in game.legal_moves if m.card == "shot"]
    assert shots == targets


def test_same_weapon_kind_is_not_replayed() -> None:
    # Open point (rules.md §4 says a new weapon replaces the old): the engine does not list a
    # weapon of the kind already held, since the swap would change nothing.
    game = load(
        S("sheriff", hand=["vulcan", "shotgun", KEEP], weapon="vulcan_02"),
        "renegade",
        "outlaw",
        "outlaw",
    )
    assert [m.id for m in game.legal_moves] == ["end_turn", "wagon", "shotgun"]


def test_deck_table() -> None:
    """80 cards, the copies of §8, 21 ♥ and 12 ♠ 2–9, unique ids, every card a suit and rank."""
    assert len(DECK) == 80
    assert len({c.id for c in DECK}) == 80
    copies = Counter(c.kind for c in DECK)
    assert copies == {k.id: k.copies for k in CARD_KINDS}
    assert len(CARD_KINDS) == 22
    expected = {
        "shot": 25, "ricochet": 12, "canteen": 6, "snatch": 4, "knock_off": 4, "duel": 3,
        "raid": 2, "wagon": 2, "bazaar": 2, "saloon": 1, "caravan": 1, "buckshot": 1, "jail": 3,
        "cover": 2, "horse": 2, "scope": 1, "dynamite": 1, "vulcan": 2, "sawed_off": 3,
        "shotgun": 1, "carbine": 1, "long_rifle": 1,
    }  # fmt: skip
    assert dict(copies) == expected
    assert sum(c.suit == "hearts" for c in DECK) == 21
    assert sum(c.explodes for c in DECK) == 12
    assert all(c.suit in ("hearts", "diamonds", "clubs", "spades") for c in DECK)
    ranks = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}
    assert all(c.rank in ranks for c in DECK)
    assert card("shot", hearts=True) == "shot_01"


def test_weapon_range_does_not_extend_snatch() -> None:
    game = load(
        S("sheriff", hand=["snatch", KEEP], weapon="long_rifle"),
        S("renegade", hand=["shot"]),
        S("outlaw", hand=["shot"]),
        "outlaw",
    )
    assert [m.id for m in game.legal_moves if m.card == "snatch"] == ["snatch@1"]


def test_a_card_snatched_from_a_hand_is_known_only_to_the_two_players() -> None:
    game = load(
        S("sheriff", hand=["snatch", KEEP]),
        S("renegade", hand=["duel_02"]),
        "outlaw",
        "outlaw",
    )
    run(game, ["snatch@1"])
    for viewer, visible in ((0, True), (1, True), (2, False), (None, False)):
        (stole,) = [e for e in game.events(viewer) if e["kind"] == "stole"]
        assert stole["card"] == ("duel_02" if visible else None)
        assert stole["from_hand"] is True
