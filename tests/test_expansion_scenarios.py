"""Armed & Dangerous in the scenario format and at every entry point: bad input gives a typed
error with a precise message; scripted hand picks; scenarios that start inside a resolution;
``scenario run`` shows every decision field and labels the full-truth events; the base game
stays as it was (config, state, texts, versions)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scenario_helpers import check, events, run, scenario, seat
from typer.testing import CliRunner

from bangarena.cli.app import app
from bangarena.engine import ConfigError, GameConfig, ScenarioError, new_game
from bangarena.engine.scenario import load_scenario
from bangarena.engine.state import state_to_dict

S = seat
AD = {"expansions": ["armed_dangerous"]}
runner = CliRunner()


# -- bad input ------------------------------------------------------------------------------------
def test_unknown_expansion_names_the_valid_ones() -> None:
    with pytest.raises(
        ConfigError, match="unknown expansion 'wild_west'; valid expansions: armed_dangerous"
    ):
        GameConfig(expansions=("wild_west",))
    with pytest.raises(ConfigError, match="listed twice"):
        GameConfig(expansions=("armed_dangerous", "armed_dangerous"))
    with pytest.raises(ConfigError, match="a list of expansion names"):
        GameConfig(expansions="armed_dangerous")  # type: ignore[arg-type]
    with pytest.raises(ScenarioError, match="^expansions: unknown expansion 'x'"):
        load_scenario(scenario("sheriff", "renegade", "outlaw", "outlaw", expansions=["x"]))


BAD = [
    (
        scenario(S("sheriff", hand=["crate"]), "renegade", "outlaw", "outlaw"),
        "seat 0 hand",
        "card 'crate' belongs to the armed_dangerous expansion",
    ),
    (
        scenario(S("sheriff", hand=["shot_27"]), "renegade", "outlaw", "outlaw"),
        "seat 0 hand",
        "card 'shot_27' belongs to the armed_dangerous expansion",
    ),
    (
        scenario(S("sheriff", character="red_ringo"), "renegade", "outlaw", "outlaw"),
        "seat 0 character",
        "character 'red_ringo' belongs to the armed_dangerous expansion",
    ),
    (
        scenario(S("sheriff", tokens=2), "renegade", "outlaw", "outlaw"),
        "seat 0 tokens",
        "Load tokens exist only in games with",
    ),
    (
        scenario(S("sheriff", tokens=5), "renegade", "outlaw", "outlaw", **AD),
        "seat 0 tokens",
        "5 tokens on a character: at most 4",
    ),
    (
        scenario(
            S("sheriff", in_play=["crate"], loads={"crate": 5}),
            "renegade",
            "outlaw",
            "outlaw",
            **AD,
        ),
        "seat 0 loads",
        "5 tokens on crate",
    ),
    (
        scenario(S("sheriff", in_play=["crate"]), "renegade", "outlaw", "outlaw", **AD),
        "seat 0 loads",
        "needs its tokens",
    ),
    (
        scenario(
            S("sheriff", in_play=["horse"], loads={"horse": 1}),
            "renegade",
            "outlaw",
            "outlaw",
            **AD,
        ),
        "seat 0 loads",
        "is not a Dangerous card in play here",
    ),
    (
        scenario(
            S(
                "sheriff",
                tokens=4,
                in_play=["crate", "whip", "bomb"],
                loads={"crate": 4, "whip": 4, "bomb": 4},
            ),
            S(
                "renegade",
                tokens=4,
                in_play=["lockpick", "beer_keg"],
                loads={"lockpick": 4, "beer_keg": 4},
            ),
            S("outlaw", tokens=4, in_play=["bandolier"], loads={"bandolier": 4}),
            S("outlaw", tokens=1),
            **AD,
        ),
        "seats",
        "37 Load tokens on holders: the supply has only 32",
    ),
    (
        scenario(
            "sheriff",
            "renegade",
            "outlaw",
            "outlaw",
            resolving={"kind": "answer_shot", "seat": 1, "source": 2},
        ),
        "resolving.source",
        "attacks on its own turn",
    ),
    (
        scenario(
            "sheriff",
            "renegade",
            "outlaw",
            "outlaw",
            resolving={"kind": "answer_shot", "seat": 0, "source": 0},
        ),
        "resolving",
        "different seats",
    ),
    (
        scenario(
            "sheriff",
            "renegade",
            "outlaw",
            "outlaw",
            resolving={"kind": "answer_shot", "seat": 1, "source": 0, "rest": [2]},
        ),
        "resolving.rest",
        "only a Buckshot",
    ),
    (
        scenario("sheriff", "renegade", "outlaw", "outlaw", picks=["crate"]),
        "picks",
        "belongs to the armed_dangerous expansion",
    ),
]


@pytest.mark.parametrize(("sc", "where", "message"), BAD)
def test_bad_expansion_scenarios_are_located_errors(sc, where: str, message: str) -> None:
    with pytest.raises(ScenarioError) as err:
        load_scenario(sc)
    assert err.value.location == where, str(err.value)
    assert message in str(err.value)


def test_simulate_refuses_an_unknown_expansion_in_one_line() -> None:
    r = runner.invoke(app, ["simulate", "--games", "1", "--expansions", "nope"])
    assert r.exit_code == 2
    assert "unknown expansion 'nope'" in r.output and "Traceback" not in r.output


def test_simulate_plays_expansion_games() -> None:
    r = runner.invoke(app, ["simulate", "--games", "10", "--expansions", "armed_dangerous"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["violations"] == 0


# -- scripted picks and resolutions -----------------------------------------------------------
def test_scripted_picks_choose_the_random_hand_card() -> None:
    for target in ("duel_01", "duel_02", "saloon"):
        sc = scenario(
            S("sheriff", hand=["knock_off", "wagon"]),
            S("renegade", hand=["duel_01", "duel_02", "saloon"]),
            "outlaw", "outlaw", picks=[target],
        )  # fmt: skip
        game = load_scenario(sc)
        run(game, ["knock_off@1"])
        discarded = [e for e in events(game) if e["kind"] == "discarded"][-1]
        assert discarded["cards"][0].startswith(target.split("_0")[0])
        if target != "saloon":
            assert discarded["cards"] == [target]


def test_a_scripted_lockpick() -> None:
    sc = scenario(
        S("sheriff", hand=["wagon"], in_play=["lockpick"], loads={"lockpick": 3}),
        "renegade", S("outlaw", hand=["duel_01", "raid"]), "outlaw", picks=["raid"], **AD,
    )  # fmt: skip
    game = load_scenario(sc)
    run(game, ["use:lockpick@2"])
    check(game, {"hand_kinds": {0: ["wagon", "raid"], 2: ["duel"]}})


RESOLVING = [
    pytest.param(
        scenario(
            S("sheriff", hand=["wagon"]),
            S("renegade", hand=["ricochet"]),
            "outlaw",
            "outlaw",
            resolving={"kind": "answer_shot", "seat": 1, "source": 0},
        ),
        ["ricochet"],
        {"life": {1: 4}, "decision": (0, "play")},
        id="inside-a-shot-answer-window",
    ),
    pytest.param(
        scenario(
            S("sheriff", character="twin_barrels", hand=["wagon"]),
            S("renegade", character="red_suit", hand=["ricochet", "ricochet"]),
            "outlaw",
            "outlaw",
            resolving={"kind": "answer_shot", "seat": 1, "source": 0, "needed": 2},
        ),
        ["ricochet", "ricochet"],
        {"life": {1: 4}},
        id="a-window-needing-two-ricochets",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["wagon"]),
            S("renegade", hand=["ricochet"]),
            S("outlaw", hand=["ricochet"]),
            "outlaw",
            resolving={
                "kind": "answer_shot",
                "seat": 1,
                "source": 0,
                "card": "buckshot",
                "rest": [2, 3],
            },
        ),
        ["ricochet", "ricochet"],
        {"life": {1: 4, 2: 4, 3: 3}, "decision": (0, "play")},
        id="mid-buckshot",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["wagon"]),
            S("renegade", hand=["shot"]),
            "outlaw",
            "outlaw",
            resolving={"kind": "answer_raid", "seat": 1, "source": 0, "rest": [2]},
        ),
        ["shot"],
        {"life": {1: 4, 2: 3}},
        id="mid-raid",
    ),
    pytest.param(
        scenario(
            S("sheriff", hand=["wagon", "shot"]),
            S("renegade", hand=["shot"]),
            "outlaw",
            "outlaw",
            resolving={"kind": "answer_duel", "seat": 1, "source": 0},
        ),
        ["shot", "shot"],
        {"life": {1: 3}, "hand_kinds": {0: ["wagon"]}},
        id="a-duel-round",
    ),
]


@pytest.mark.parametrize(("sc", "moves", "expect"), RESOLVING)
def test_scenarios_start_inside_a_resolution(sc, moves, expect) -> None:
    game = load_scenario(sc)
    run(game, moves)
    check(game, expect, events(game))


def test_scenario_run_shows_every_decision_field_and_labels_the_truth(tmp_path: Path) -> None:
    sc = scenario(S("sheriff", hand=["wagon"]), S("renegade", hand=["ricochet"]), "outlaw", "outlaw",
                  resolving={"kind": "answer_shot", "seat": 1, "source": 0})  # fmt: skip
    path = tmp_path / "s.json"
    path.write_text(json.dumps(sc))
    r = runner.invoke(app, ["scenario", "run", str(path)])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["decision"] == {
        "kind": "answer_shot", "seat": 1, "source": 0, "needed": 1, "card": "shot",
        "legal_moves": ["take_hit", "ricochet"],
    }  # fmt: skip
    dealt = [e for e in out["full_truth_events"] if e["kind"] == "role_dealt"]
    assert all(e["role"] for e in dealt)  # the whole truth
    seen = [e for e in out["seat_events"]["2"] if e["kind"] == "role_dealt"]
    assert [e["role"] for e in seen if e["seat"] != 2] == [None, None, None]
    r = runner.invoke(app, ["scenario", "run", str(path), "--expansions", "armed_dangerous"])
    assert json.loads(r.stdout)["views"]["0"]["supply"] == 32


# -- the base game stays as it was --------------------------------------------------------------
def test_base_games_keep_their_forms() -> None:
    assert GameConfig().to_dict() == {"seats": 5, "mode": "classic", "max_rounds": 40}
    game = new_game(GameConfig(seats=4), 1)
    d = state_to_dict(game.state)
    assert not {"expansions", "supply", "loads", "used", "bell", "picks"} & set(d)
    assert "tokens" not in d["players"][0]
    from bangarena.engine import view_to_dict

    v = view_to_dict(game.view(0))
    assert "supply" not in v and "tokens" not in v["players"][0]


def test_rules_and_texts_versions_are_unchanged_for_the_base_game() -> None:
    """The texts moved to data files with the published hashes unchanged (the published files
    themselves are compared byte for byte by test_rules_machine_published)."""
    from bangarena.engine import RULES_VERSION
    from bangarena.engine.version import rules_version
    from bangarena.rules_machine import texts_version

    assert RULES_VERSION == "3f45e5b50909d9f8" == rules_version(())
    assert texts_version() == "ff1cae0b4448fea2"
    assert rules_version(("armed_dangerous",)) != RULES_VERSION
    record = new_game(GameConfig(seats=4, expansions=("armed_dangerous",)), 1).omniscient_record()
    assert record["rules_version"] == rules_version(("armed_dangerous",))
    assert new_game(GameConfig(seats=4), 1).omniscient_record()["rules_version"] == RULES_VERSION


def test_text_files_are_validated(tmp_path: Path) -> None:
    from bangarena.engine.texts import DATA_DIR, TextDataError, load_set

    folder = tmp_path / "exp"
    folder.mkdir()
    for lang in ("en", "pt", "es", "fr"):
        src = (DATA_DIR / "armed_dangerous" / f"{lang}.toml").read_text(encoding="utf-8")
        (folder / f"{lang}.toml").write_text(src, encoding="utf-8")
    assert len(load_set(folder).section("cards")) == 22
    es = (folder / "es.toml").read_text(encoding="utf-8")
    (folder / "es.toml").write_text(es.replace("[cards.rust]", "[cards.rusty]"), encoding="utf-8")
    with pytest.raises(
        TextDataError, match="es.toml: \\[cards\\] differs from en.toml in keys rust, rusty"
    ):
        load_set(folder)
    (folder / "es.toml").write_text(es.replace('name = "Rust"', 'name = ""'), encoding="utf-8")
    with pytest.raises(TextDataError, match="cards.rust.name: a text is a non-empty string"):
        load_set(folder)
    (folder / "fr.toml").unlink()
    with pytest.raises(TextDataError, match="fr.toml: missing"):
        load_set(folder)
