"""The Armed & Dangerous option through every entry point that makes a game: the match driver
and its record, ``bangarena play``, suite tables (keys, settings, the play command, versions)
and the service's match creation. Base games keep their records, keys and rules version."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import httpx
import jsonschema
import pytest
from service_support import bot_players, create_match, running_service, service_settings
from typer.testing import CliRunner

from bangarena.cli.app import app
from bangarena.engine import RULES_VERSION, rules_version
from bangarena.evals import SuiteError, parse_suite, plan_suite
from bangarena.evals.keys import key_payload
from bangarena.evals.live import LIVE_SUITE
from bangarena.evals.store import open_store
from bangarena.harness.match import Match, MatchSettings
from bangarena.harness.records import load_match_record, match_record_schema
from bangarena.harness.seats import BotSeat

AD = ("armed_dangerous",)
AD_VERSION = rules_version(AD)
VALIDATOR = jsonschema.Draft202012Validator(match_record_schema())


def _bots_match(expansions: tuple[str, ...] = ()) -> Match:
    settings = MatchSettings(seats=4, seed=11, expansions=expansions)
    return Match(settings, [BotSeat("rule", 11 * 16 + i, i) for i in range(4)])


def test_a_match_with_the_expansion_records_it_and_its_rules_version() -> None:
    match = _bots_match(AD)
    assert match.game.config.expansions == AD
    record = asyncio.run(match.run())
    assert record.status == "complete" and record.result is not None
    assert record.config.expansions == list(AD)
    assert record.versions["rules"] == AD_VERSION != RULES_VERSION
    assert record.game["rules_version"] == AD_VERSION  # the engine's own record agrees
    data = json.loads(record.model_dump_json())
    assert data["config"]["expansions"] == list(AD)
    VALIDATOR.validate(data)
    assert load_match_record(data).config.expansions == list(AD)


def test_a_base_match_record_has_no_expansions_key() -> None:
    record = asyncio.run(_bots_match().run())
    data = json.loads(record.model_dump_json())
    assert "expansions" not in data["config"]
    assert record.config.expansions is None and record.versions["rules"] == RULES_VERSION
    VALIDATOR.validate(data)


runner = CliRunner()


def test_play_takes_expansions(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    r = runner.invoke(
        app, ["play", "--seats", "4", "--seed", "3", "--expansions", "armed_dangerous",
              "--max-rounds", "30", "--quiet", "--out", str(out)],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "armed_dangerous" in r.output
    rec = json.loads(out.read_text("utf-8"))
    assert rec["config"]["expansions"] == list(AD) and rec["config"]["max_rounds"] == 30
    assert rec["versions"]["rules"] == AD_VERSION


def test_play_refuses_an_unknown_expansion_in_one_line() -> None:
    r = runner.invoke(app, ["play", "--seats", "4", "--expansions", "armed", "--quiet"])
    assert r.exit_code == 2
    text = " ".join(r.output.split())
    assert "unknown expansion 'armed'" in text and "armed_dangerous" in text


SUITE = """
[suite]
name = "wiring"
seed = 2
deals = 1

[[participants]]
id = "rule"
spec = "rule"

[[participants]]
id = "faulty"
spec = "scripted:rule"

[[tables]]
seats = 4
lineup = ["faulty", "rule", "rule", "rule"]
"""


def test_a_suite_table_with_the_expansion_plans_it() -> None:
    base = plan_suite(parse_suite(SUITE))
    explicit = plan_suite(parse_suite(SUITE + "expansions = []\n"))
    armed = plan_suite(parse_suite(SUITE + 'expansions = ["armed_dangerous"]\n'))
    # an empty list is the base game: same keys, and no expansions anywhere in the plan
    assert [m.key for m in explicit] == [m.key for m in base]
    assert "expansions" not in base[0].table and base[0].settings().expansions == ()
    assert base[0].versions["rules"] == RULES_VERSION
    assert "--expansions" not in base[0].play_command()
    assert not {m.key for m in armed} & {m.key for m in base}
    m = armed[0]
    assert m.table["expansions"] == list(AD)
    assert m.settings().expansions == AD
    assert m.versions["rules"] == AD_VERSION
    assert "--expansions armed_dangerous" in m.play_command()
    plans = [s.plan for s in m.seats]
    payload = key_payload(m.table, m.lang, m.deal_seed, m.rotation, plans)  # type: ignore[arg-type]
    assert payload["rules"] == AD_VERSION and payload["table"]["expansions"] == list(AD)
    base_payload = key_payload(
        base[0].table,
        "en",
        base[0].deal_seed,
        0,
        plans,  # type: ignore[arg-type]
    )
    assert base_payload["rules"] == RULES_VERSION and "expansions" not in base_payload["table"]
    record = asyncio.run(m.play())
    assert record.match_id == m.key and record.config.expansions == list(AD)
    assert record.versions["rules"] == m.versions["rules"]


def test_the_planned_play_command_plays_the_same_match(tmp_path: Path) -> None:
    m = plan_suite(
        parse_suite(SUITE.replace('"faulty", ', '"rule", ') + 'expansions = ["armed_dangerous"]\n')
    )[0]
    record = asyncio.run(m.play())
    out = tmp_path / "again.json"
    argv = [*m.play_command().split()[1:], "--quiet", "--out", str(out)]
    r = runner.invoke(app, argv)
    assert r.exit_code == 0, r.output
    again = json.loads(out.read_text("utf-8"))
    assert [mv["move"] for mv in again["moves"]] == [mv.move for mv in record.moves]
    assert again["config"]["expansions"] == list(AD)


@pytest.mark.parametrize(
    ("value", "wanted"),
    [
        ('["armed"]', "unknown expansion 'armed'; valid expansions: armed_dangerous"),
        ('["armed_dangerous", "armed_dangerous"]', "listed twice"),
        ('"armed_dangerous"', "tables[0].expansions"),
    ],
)
def test_a_suite_refuses_bad_expansions_in_one_line(value: str, wanted: str) -> None:
    with pytest.raises(SuiteError) as info:
        parse_suite(SUITE + f"expansions = {value}\n")
    message = str(info.value)
    assert "\n" not in message and "tables[0].expansions" in message and wanted in message


def test_the_service_makes_and_stores_expansion_matches(tmp_path: Path) -> None:
    with running_service(service_settings(tmp_path), extensions=[]) as svc, httpx.Client() as c:
        bad = c.post(
            f"{svc.url}/v1/matches", headers=svc.admin_headers,
            json={"seats": 4, "players": bot_players(4), "expansions": ["dangerous"]},
        )  # fmt: skip
        assert bad.status_code == 422, bad.text
        reason = bad.json()["reason"]
        assert "unknown expansion 'dangerous'" in reason and "armed_dangerous" in reason
        made = create_match(c, svc, seats=4, seed=4, players=bot_players(4), expansions=list(AD))
        mid = made["match_id"]
        assert svc.call(lambda: svc.state.registry.get(mid).game.config.expansions) == AD
        base = create_match(c, svc, seats=4, seed=4, players=bot_players(4))["match_id"]
        for match_id in (mid, base):
            end = time.monotonic() + 30
            while not c.get(f"{svc.url}/v1/matches/{match_id}").json()["stored"]:
                assert time.monotonic() < end, "the match was not stored"
                time.sleep(0.02)
    with open_store(tmp_path / "live.db") as store:
        rows = {r["key"]: r for r in store.matches(LIVE_SUITE)}
        assert rows[mid]["table_config"]["expansions"] == list(AD)
        assert rows[mid]["rules_version"] == AD_VERSION
        assert "expansions" not in rows[base]["table_config"]
        assert rows[base]["rules_version"] == RULES_VERSION
        assert store.load_record(mid, LIVE_SUITE).config.expansions == list(AD)
