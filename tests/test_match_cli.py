"""``bangarena play``: full matches from the command line (scripted, bots, a person on stdin, a
model on a fake server) and clear errors with exit code 2 before any match starts."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from fakes import FakeBehaviour, FakeServer
from typer.testing import CliRunner

from bangarena.cli.app import app
from bangarena.engine import GameConfig, replay
from bangarena.harness.records import match_record_schema

runner = CliRunner()
VALIDATOR = jsonschema.Draft202012Validator(match_record_schema())


def play(*args: str, env: dict | None = None, input: str | None = None):
    return runner.invoke(app, ["play", *args], env=env, input=input)


def load(path: Path) -> dict:
    data = json.loads(path.read_text("utf-8"))
    VALIDATOR.validate(data)
    c = data["config"]
    again = replay(
        GameConfig(c["seats"], c["mode"], c["max_rounds"]), c["seed"], data["game"]["moves"]
    )
    assert again.result() == data["result"]
    return data


def test_play_scripted_and_bots_writes_a_record(tmp_path: Path) -> None:
    models = tmp_path / "models.toml"
    models.write_text('["scripted:rule"]\nfaults = { invalid_json = 0.1, refusal = 0.05 }\n')
    out = tmp_path / "m" / "match.json"
    r = play("--seats", "6", "--mode", "classic", "--seed", "3", "--seat", "0=scripted",
             "--seat", "1=scripted:random", "--fill", "rule", "--models-file", str(models),
             "--time-per-move", "60", "--out", str(out))  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "Winner" in r.output or "Result" in r.output
    assert "Scripted 1" in r.output and "1st ok" in r.output
    data = load(out)
    assert [s["kind"] for s in data["seats"]] == ["scripted", "scripted"] + ["rule"] * 4
    assert data["seats"][0]["injected_faults"] is not None
    assert data["seats"][0]["system_prompt"] and data["config"]["transcripts"] is True


def test_no_transcripts_keeps_the_record_small(tmp_path: Path) -> None:
    out = tmp_path / "match.json"
    r = play("--seats", "4", "--seed", "3", "--fill", "scripted", "--no-transcripts", "--quiet",
             "--out", str(out))  # fmt: skip
    assert r.exit_code == 0, r.output
    data = load(out)
    attempts = [a for m in data["moves"] for a in m["attempts"]]
    assert attempts and all(a["transcript"] is None for a in attempts)
    assert all(s["system_prompt"] is None for s in data["seats"])


def test_a_person_plays_through_stdin(tmp_path: Path) -> None:
    out = tmp_path / "match.json"
    r = play("--seats", "4", "--seed", "2", "--seat", "1=human", "--fill", "random",
             "--time-per-move", "15", "--out", str(out), input="1\n" * 400)  # fmt: skip
    assert r.exit_code == 0, r.output
    data = load(out)
    mine = [m for m in data["moves"] if m["seat"] == 1]
    assert mine and all(m["how"] == "chosen" and m["chosen_by"] == "human" for m in mine)
    assert data["seats"][1]["controller"] == "human"
    assert "Type a number" in r.output


def test_play_a_model_on_a_fake_openai_server(tmp_path: Path) -> None:
    out = tmp_path / "match.json"
    with FakeServer("openai", FakeBehaviour(seed=4)) as fake:
        r = play("--seats", "4", "--seed", "5", "--seat", f"2={fake.spec('gpt-fake')}",
                 "--quiet", "--out", str(out), env={"OPENAI_API_KEY": ""})  # fmt: skip
    assert r.exit_code == 0, r.output
    data = load(out)
    assert data["seats"][2]["controller"] == "ai" and data["seats"][2]["display_name"] == "gpt-fake"
    assert data["totals"]["seats"][2]["usage"]["input_tokens"] > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "0=gemini:pro"], "unknown provider 'gemini'"),
        (["--seat", "0=openai"], "malformed model spec 'openai'"),
        (["--seat", "0=openai:gpt-4.1-mini"], "needs an API key: set OPENAI_API_KEY"),
        (["--seat", "0=anthropic:claude-x"], "needs an API key: set ANTHROPIC_API_KEY"),
        (["--seat", "9=rule"], "seat 9 is not at a 5-seat table"),
        (["--seat", "rule"], "expected N=SPEC"),
        (["--seat", "1=rule", "--seat", "1=random"], "--seat 1 is given twice"),
        (["--fill", "robot"], "bad seat spec 'robot'"),
        (["--seat", "0=human", "--time-per-move", "20"], "a table with people uses 15, 30, 60, 90"),
        (["--seat", "0=human", "--seat", "1=human"], "at most one human seat"),
        (["--seats", "9"], "a table has 4 to 8 seats"),
        (["--mode", "chaos"], "valid modes are classic"),
        (["--lang", "de"], "prompts exist in en, pt, es, fr"),
        (["--time-per-move", "0"], "must be positive"),
    ],
)
def test_bad_input_is_a_clear_error_before_any_match(args: list[str], message: str) -> None:
    env = {"OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": "", "ANTHROPIC_AUTH_TOKEN": "",
           "OPENAI_BASE_URL": "", "ANTHROPIC_BASE_URL": ""}  # fmt: skip
    r = play(*args, env=env)
    assert r.exit_code == 2, r.output
    assert message in " ".join(r.output.split())
    assert "Winner" not in r.output and "BangArena ·" not in r.output


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("not toml [", "is not valid TOML"),
        ('["scripted:rule"]\ntemprature = 0.5\n', "unknown option 'temprature'"),
        ('["scripted:rule"]\nfaults = { invalid_json = 2.0 }\n', "not within [0, 1]"),
        ('["openai:m"]\nmax_tokens = "many"\n', "max_tokens"),
        ("[local]\nmax_tokens = 5\n", "neither a model spec nor has a `spec"),
    ],
)
def test_a_bad_models_file_is_a_clear_error(tmp_path: Path, toml: str, message: str) -> None:
    path = tmp_path / "models.toml"
    path.write_text(toml)
    r = play("--models-file", str(path), "--fill", "scripted")
    assert r.exit_code == 2, r.output
    assert message in " ".join(r.output.split())


def test_play_help_lists_the_options() -> None:
    r = runner.invoke(app, ["play", "--help"])
    assert r.exit_code == 0
    for opt in ("--seats", "--mode", "--seed", "--seat", "--fill", "--time-per-move", "--models-file",
                "--lang", "--out", "--no-transcripts"):  # fmt: skip
        assert opt in r.output
