"""Match keys: deterministic, unique in a plan, unchanged by what does not change play (ids,
prices, timeouts, key names, concurrency, budgets, other tables, more deals) and changed by
everything that does (options that play, versions, the table, the deal, the rotation)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bangarena.evals import BOT_VERSIONS, parse_suite, plan_suite
from bangarena.evals import keys as keys_module

GOLDEN_BOTS = Path(__file__).parent / "golden" / "rule_bots.json"

# The rule bot's golden-game fingerprint when BOT_VERSIONS["rule"] was last set: when the
# golden games change (the bot plays differently), bump BOT_VERSIONS["rule"] in
# evals/keys.py and record the new fingerprint here.
RULE_BOT_FINGERPRINT = {"1": "8cb530a4f317ac69d59c5c1a8a4a1ccfe049e8a84ab69960ae134cea7b405d78"}

SUITE = """
[suite]
name = "keys"
seed = 5
deals = 2

[[participants]]
id = "rule"
spec = "rule"

[[participants]]
id = "random"
spec = "random"

[[participants]]
id = "faulty"
spec = "scripted:rule"
options = { faults = { invalid_json = 0.1 }, price_input_per_mtok = 1.0, timeout_s = 20 }

[[tables]]
seats = 4
lineup = ["rule", "random", "rule", "random"]

[[tables]]
seats = 4
lineup = ["faulty", "rule", "random", "rule"]
"""


def keys_of(text: str) -> list[str]:
    return [m.key for m in plan_suite(parse_suite(text))]


def by_table(text: str) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for m in plan_suite(parse_suite(text)):
        out.setdefault(m.table_index, []).append(m.key)
    return out


def test_keys_are_deterministic_and_unique() -> None:
    a, b = keys_of(SUITE), keys_of(SUITE)
    assert a == b
    assert len(set(a)) == len(a) == 2 * 2 * 4
    assert all(len(k) == 32 and int(k, 16) >= 0 for k in a)


def test_adding_deals_reuses_every_finished_match() -> None:
    more = keys_of(SUITE.replace("deals = 2", "deals = 5"))
    assert set(keys_of(SUITE)) < set(more)


def test_adding_participants_reuses_unchanged_lineups() -> None:
    text = SUITE + (
        '\n[[participants]]\nid = "newcomer"\nspec = "scripted:random"\n'
        '\n[[tables]]\nseats = 4\nlineup = ["newcomer", "rule", "faulty", "random"]\n'
    )
    before, after = by_table(SUITE), by_table(text)
    assert after[0] == before[0] and after[1] == before[1]
    assert not set(after[2]) & set(before[0] + before[1])
    # A table inserted before the others keeps them as they were, too.
    moved = SUITE.replace(
        "[[tables]]", '[[tables]]\nseats = 5\nlineup = ["rule", "rule", "rule", "rule", "random"]'
        "\n\n[[tables]]", 1,
    )  # fmt: skip
    assert set(keys_of(SUITE)) <= set(keys_of(moved))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('"faulty"', '"renamed"'),  # participant ids are names, not play
        ("price_input_per_mtok = 1.0", "price_input_per_mtok = 9.0"),
        ("timeout_s = 20", "timeout_s = 90"),
        ("timeout_s = 20", 'timeout_s = 20, api_key_env = "MY_KEY", concurrency = 3'),
        ("timeout_s = 20", 'timeout_s = 20, display_name = "Faulty"'),
        ("deals = 2", 'deals = 2\ndescription = "a note"'),
        ('spec = "scripted:rule"', 'spec = "scripted"'),  # the same spec written shorter
    ],
)
def test_what_does_not_change_play_keeps_the_keys(old: str, new: str) -> None:
    assert old in SUITE
    text = SUITE.replace(old, new)
    extra = "\n[budget]\nmax_usd = 3\n\n[concurrency]\nmatches = 8\nper_provider = { openai = 2 }\n"
    assert keys_of(text) == keys_of(SUITE)
    assert keys_of(text + extra) == keys_of(SUITE)


def test_bot_only_tables_ignore_clocks_and_language() -> None:
    text = SUITE.replace(
        'lineup = ["rule", "random", "rule", "random"]',
        'lineup = ["rule", "random", "rule", "random"]\ntime_per_move = 15',
    ).replace("deals = 2", 'deals = 2\nlang = "fr"')
    before, after = by_table(SUITE), by_table(text)
    assert after[0] == before[0]  # bots only: clock and language do not play
    assert not set(after[1]) & set(before[1])  # a scripted seat reads French prompts


@pytest.mark.parametrize(
    ("old", "new", "tables_changed"),
    [
        ("invalid_json = 0.1", "invalid_json = 0.2", {1}),
        ("timeout_s = 20", "timeout_s = 20, temperature = 0.5", {1}),
        ("timeout_s = 20", "timeout_s = 20, retry_budget = 0", {1}),
        ("timeout_s = 20", "timeout_s = 20, constrain_ids = true", {1}),
        ('spec = "scripted:rule"', 'spec = "scripted:random"', {1}),
        ('["faulty", "rule", "random", "rule"]', '["faulty", "rule", "rule", "random"]', {1}),
        ("[[tables]]\nseats = 4\n", "[[tables]]\nseats = 4\nmax_rounds = 20\n", {0}),
        ("[[tables]]\nseats = 4\n", '[[tables]]\nseats = 4\nmode = "partners"\n', {0}),
        ("seed = 5", "seed = 6", {0, 1}),
    ],
)
def test_what_changes_play_makes_new_matches(old: str, new: str, tables_changed: set) -> None:
    assert old in SUITE
    before, after = by_table(SUITE), by_table(SUITE.replace(old, new, 1))
    for t in (0, 1):
        if t in tables_changed:
            assert not set(after[t]) & set(before[t]), t
        else:
            assert after[t] == before[t], t


def test_a_delay_fault_makes_its_delay_count() -> None:
    text = SUITE.replace("invalid_json = 0.1", "delay = 0.1")
    assert (
        by_table(text.replace("timeout_s = 20", "timeout_s = 20, delay_s = 5"))[1]
        != by_table(text)[1]
    )
    # Without a delay fault, delay_s plays no part.
    assert by_table(SUITE.replace("timeout_s = 20", "timeout_s = 20, delay_s = 5")) == by_table(
        SUITE
    )


def test_versions_are_in_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    before = by_table(SUITE)
    monkeypatch.setattr(keys_module, "PROMPT_VERSION", "9+changed")
    after = by_table(SUITE)
    assert after[0] == before[0]  # no seat of table 0 reads prompts
    assert not set(after[1]) & set(before[1])
    monkeypatch.undo()
    monkeypatch.setitem(keys_module.BOT_VERSIONS, "random", "2")  # type: ignore[index]
    changed = by_table(SUITE)
    assert not set(changed[0]) & set(before[0]) and not set(changed[1]) & set(before[1])
    monkeypatch.undo()
    monkeypatch.setattr(keys_module, "RULES_VERSION", "0000")
    assert not set(keys_of(SUITE)) & set(before[0] + before[1])


def test_identical_matches_in_one_plan_get_distinct_keys() -> None:
    twin = SUITE.replace(
        "[[tables]]", '[[tables]]\nseats = 4\nlineup = ["rule", "random", "rule", "random"]\n'
        "\n[[tables]]", 1,
    )  # fmt: skip
    plan = plan_suite(parse_suite(twin))
    keys = [m.key for m in plan]
    assert len(set(keys)) == len(keys)
    # The first copy keeps the key it has in a suite without the twin.
    assert set(keys_of(SUITE)) <= set(keys)


def test_bot_version_is_pinned_to_the_golden_games() -> None:
    golden = json.loads(GOLDEN_BOTS.read_text(encoding="utf-8"))
    fingerprint = golden["classic-7x40"]["moves_sha256"]
    version = BOT_VERSIONS["rule"]
    assert RULE_BOT_FINGERPRINT.get(version) == fingerprint, (
        "the rule bot's golden games changed: if its play changed, bump BOT_VERSIONS['rule'] "
        "in evals/keys.py (so suites replay its matches) and record the fingerprint here"
    )
    assert set(BOT_VERSIONS) >= {"rule", "random"}


def test_credentials_in_a_base_url_stay_out_of_keys_and_specs() -> None:
    text = SUITE.replace(
        'spec = "random"', 'spec = "openai:m@http://alice:s3cret@127.0.0.1:8000/v1"'
    )
    plan = plan_suite(parse_suite(text))
    rotated = plan_suite(parse_suite(text.replace("s3cret", "n3w")))
    assert [m.key for m in plan] == [m.key for m in rotated]  # a new password plays the same
    for m in plan:
        assert "s3cret" not in m.play_command() and all("s3cret" not in s for s in m.specs)
