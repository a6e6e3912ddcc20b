"""The suite file: the examples load, every static bad input is one clear line, the published
JSON Schema agrees with the loader, and deal seeds are the documented function."""

from __future__ import annotations

import tomllib
from pathlib import Path

import jsonschema
import pytest

from bangarena.evals import SuiteError, check_api_keys, load_suite, parse_suite, suite_json_schema
from bangarena.evals.seeds import deal_seed, splitmix64

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

BASE = """
[suite]
name = "t"
seed = 1
deals = 2

[[participants]]
id = "rule"
spec = "rule"

[[participants]]
id = "faulty"
spec = "scripted:rule"
options = { faults = { invalid_json = 0.1 } }

[[tables]]
seats = 4
lineup = ["rule", "faulty", "rule", "faulty"]
"""


def bad(old: str, new: str) -> str:
    assert old in BASE, old
    return BASE.replace(old, new, 1)


BAD_INPUTS = [
    ("malformed TOML", bad("[suite]", "[suite"), "not valid TOML"),
    ("unknown top-level key", BASE + "\n[budgets]\nmax_usd = 1\n", "unknown key 'budgets'"),
    ("unknown suite key", bad('deals = 2', 'deals = 2\ndeal = 3'), "suite: unknown key 'deal'"),
    ("unknown table key", bad("seats = 4", "seats = 4\nseat = 4"),
     "tables[0]: unknown key 'seat' (valid keys: seats, mode,"),
    ("unknown participant key", bad('id = "rule"', 'id = "rule"\nname = "x"'),
     "participants[0]: unknown key 'name'"),
    ("unknown option", bad("faults =", "fautls ="),
     "participants[1].options: unknown option 'fautls' (valid options: display_name"),
    ("unknown fault", bad("invalid_json", "invalid_jsn"), "unknown fault 'invalid_jsn'"),
    ("unknown budget key", BASE + "\n[budget]\nmax_dollars = 1\n",
     "budget: unknown key 'max_dollars' (valid keys: max_usd, max_tokens, max_wall_s)"),
    ("unknown concurrency key", BASE + "\n[concurrency]\nper_model = 1\n",
     "concurrency: unknown key 'per_model'"),
    ("unknown provider limit", BASE + "\n[concurrency]\nper_provider = { opnai = 2 }\n",
     "unknown provider 'opnai'"),
    ("lineup id not declared", bad('["rule", "faulty", "rule", "faulty"]',
                                   '["rule", "faulty", "rnd", "faulty"]'),
     "tables[0].lineup[2]: participant 'rnd' is not declared (declared: rule, faulty)"),
    ("lineup too short", bad('["rule", "faulty", "rule", "faulty"]', '["rule", "faulty"]'),
     "tables[0].lineup: 2 participants for a 4-seat table"),
    ("lineup too long", bad('["rule", "faulty", "rule", "faulty"]',
                            '["rule", "faulty", "rule", "faulty", "rule"]'),
     "tables[0].lineup: 5 participants for a 4-seat table"),
    ("no lineup, wrong count", bad('lineup = ["rule", "faulty", "rule", "faulty"]', ""),
     "tables[0]: no lineup, and 2 participants for 4 seats"),
    ("spec that does not parse", bad('spec = "rule"', 'spec = "opnai:gpt-4o"'),
     "participants[0].spec: bad seat spec 'opnai:gpt-4o': unknown provider 'opnai'"),
    ("spec with a bad URL", bad('spec = "rule"', 'spec = "openai:m@http://"'),
     "participants[0].spec: bad seat spec"),
    ("unknown scripted policy", bad('spec = "scripted:rule"', 'spec = "scripted:smart"'),
     "unknown scripted policy 'smart'"),
    ("human seat", bad('spec = "rule"', 'spec = "human"'),
     "participants[0].spec: 'human': suites run unattended"),
    ("options on a bot", bad('spec = "rule"', 'spec = "rule"\noptions = { temperature = 1.0 }'),
     "participants[0].options: bot 'rule' takes no options"),
    ("spec inside options", bad("faults =", 'spec = "rule", faults ='),
     "'spec' belongs to the participant"),
    ("repeated participant id", bad('id = "faulty"', 'id = "rule"'),
     "participants[1].id: participant id 'rule' is repeated"),
    ("bad participant id", bad('id = "faulty"', 'id = "has space"'), "participants[1].id"),
    ("bad suite name", bad('name = "t"', 'name = "a/b"'), "suite.name"),
    ("missing name", bad('name = "t"\n', ""), "suite.name: missing required key"),
    ("missing deals", bad("deals = 2\n", ""), "suite.deals: missing required key"),
    ("no participants", "[suite]\nname = \"t\"\ndeals = 1\n[[tables]]\nseats = 4\n",
     "participants: missing required key"),
    ("string for an int", bad("deals = 2", 'deals = "2"'), "suite.deals: Input should be"),
    ("bool for an int", bad("seats = 4", "seats = true"), "tables[0].seats"),
    ("negative seed", bad("seed = 1", "seed = -1"), "suite.seed"),
    ("seed too large", bad("seed = 1", f"seed = {2**64}"), "suite.seed"),
    ("zero deals", bad("deals = 2", "deals = 0"), "suite.deals"),
    ("seats out of range", bad("seats = 4", "seats = 9"), "tables[0].seats"),
    ("unknown mode", bad("seats = 4", 'seats = 4\nmode = "wild"'), "unknown mode 'wild'"),
    ("double agent at 4", bad("seats = 4", 'seats = 4\nmode = "double_agent"'),
     "mode 'double_agent' needs at least 5 seats"),
    ("nan time", bad("seats = 4", "seats = 4\ntime_per_move = nan"),
     "tables[0].time_per_move: Input should be a finite number"),
    ("zero time", bad("seats = 4", "seats = 4\ntime_per_move = 0"), "tables[0].time_per_move"),
    ("unknown language", bad("deals = 2", 'deals = 2\nlang = "de"'), "no prompts in language"),
    ("unknown design", bad("deals = 2", 'deals = 2\ndesign = "swiss"'), "suite.design"),
    ("pool with a lineup", bad("deals = 2", 'deals = 2\ndesign = "pool"'),
     "a pool suite draws its own lineups"),
    ("pool too small", bad('lineup = ["rule", "faulty", "rule", "faulty"]', "")
     .replace("deals = 2", 'deals = 2\ndesign = "pool"'),
     "a pool needs more participants than seats"),
    ("negative budget", BASE + "\n[budget]\nmax_usd = -1\n", "budget.max_usd"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), [(t, e) for _, t, e in BAD_INPUTS],
                         ids=[n for n, _, _ in BAD_INPUTS])  # fmt: skip
def test_every_static_bad_input_is_one_clear_line(text: str, expected: str) -> None:
    with pytest.raises(SuiteError) as info:
        parse_suite(text, where="suite.toml")
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("suite.toml: ")
    assert expected in message, message


def test_a_valid_suite_parses_with_its_plans() -> None:
    suite = parse_suite(BASE, where="suite.toml")
    assert suite.name == "t" and suite.seed == 1
    faulty = suite.file.participant("faulty")
    assert faulty.plan.kind == "scripted" and faulty.plan.options is not None
    assert faulty.plan.options.faults == {"invalid_json": 0.1}
    assert suite.file.participant("rule").plan.kind == "rule"
    assert len(suite.sha256) == 64


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match="cannot read suite file"):
        load_suite(tmp_path / "missing.toml")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00[suite]")
    with pytest.raises(SuiteError, match="is not UTF-8 text"):
        load_suite(binary)


def test_examples_load_and_quickstart_needs_no_key() -> None:
    quick = load_suite(EXAMPLES / "quickstart.toml")
    check_api_keys(quick, environ={})
    assert len(quick.file.tables) == 2
    kinds = {p.plan.kind for p in quick.file.participants}
    assert {"rule", "random", "scripted"} <= kinds
    assert any(p.options.faults for p in quick.file.participants)
    models = load_suite(EXAMPLES / "models.toml")
    providers = {p.plan.spec.provider for p in models.file.participants if p.plan.spec}
    assert {"openai", "anthropic"} <= providers
    assert any(p.plan.spec and p.plan.spec.base_url for p in models.file.participants)


def test_missing_api_key_names_the_participant() -> None:
    models = load_suite(EXAMPLES / "models.toml")
    with pytest.raises(SuiteError) as info:
        check_api_keys(models, environ={})
    message = str(info.value)
    assert "\n" not in message and "needs an API key" in message
    assert "participants[" in message
    check_api_keys(models, environ={"OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k"})


def test_json_schema_accepts_the_examples_and_rejects_unknown_keys() -> None:
    schema = suite_json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for name in ("quickstart.toml", "models.toml"):
        doc = tomllib.loads((EXAMPLES / name).read_text(encoding="utf-8"))
        validator.validate(doc)
    doc = tomllib.loads(BASE)
    doc["tables"][0]["seat"] = 4
    assert not validator.is_valid(doc)


# -- deal seeds ---------------------------------------------------------------------------------
def test_deal_seeds_are_the_documented_splitmix64_outputs() -> None:
    # The formula in docs/evals.md, written out independently.
    mask = (1 << 64) - 1
    for suite_seed in (0, 1, 12345, 2**64 - 1):
        state = suite_seed
        for k in range(20):
            state = (state + 0x9E3779B97F4A7C15) & mask
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            z ^= z >> 31
            assert deal_seed(suite_seed, k) == z >> 1
    # Pinned values, so a change of the derivation cannot pass unnoticed.
    assert [deal_seed(1, k) for k in range(3)] == [
        splitmix64(1 + 0x9E3779B97F4A7C15) >> 1,
        splitmix64(1 + 2 * 0x9E3779B97F4A7C15) >> 1,
        splitmix64(1 + 3 * 0x9E3779B97F4A7C15) >> 1,
    ]
    assert deal_seed(1, 0) == 5225608189600411232


def test_deal_seeds_fit_a_signed_64_bit_integer_and_differ() -> None:
    seeds = [deal_seed(42, k) for k in range(5000)]
    assert all(0 <= s < 2**63 for s in seeds)
    assert len(set(seeds)) == len(seeds)
    assert deal_seed(42, 7) == seeds[7]  # independent of how many deals there are


def test_deal_seed_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError):
        deal_seed(-1, 0)
    with pytest.raises(ValueError):
        deal_seed(2**64, 0)
    with pytest.raises(ValueError):
        deal_seed(1, -1)
    with pytest.raises(TypeError):
        deal_seed(True, 0)
    with pytest.raises(TypeError):
        deal_seed(1, 1.0)  # type: ignore[arg-type]
