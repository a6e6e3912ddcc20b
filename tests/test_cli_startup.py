"""Start-up of the command line: importing it (and printing the root help) loads no SDK, no
jsonschema and builds no schema; every command answers ``-h``; ``--version``; the root help's
summaries are the commands' own."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

import pytest
from typer.testing import CliRunner

from bangarena.cli.app import FAMILIES, app, load_family

runner = CliRunner()
HEAVY = ("openai", "anthropic", "litellm", "jsonschema", "httpx", "tenacity", "jinja2",
         "a2a", "mcp", "ray", "schemathesis")  # fmt: skip


def _modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running ``code``."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def _roots(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


def test_importing_the_cli_loads_no_sdk_and_builds_no_schema() -> None:
    loaded = _modules_after("import bangarena.cli.app")
    assert not _roots(loaded) & {*HEAVY, "pydantic"}, sorted(_roots(loaded) & {*HEAVY})
    ours = {m for m in loaded if m.startswith("bangarena.")}
    # Only the assembly and its helpers: no family, no engine, no rules machine.
    assert ours <= {"bangarena.cli", "bangarena.cli.app", "bangarena.cli.support"}


def test_the_root_help_loads_no_command_family() -> None:
    code = (
        "import contextlib, io\n"
        "from bangarena.cli.app import app\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    app(['--help'])"
    )
    loaded = _modules_after(code)
    assert not _roots(loaded) & set(HEAVY)
    assert not {m for m in loaded if m.startswith(("bangarena.engine", "bangarena.rules_machine"))}
    families = {"bangarena.cli." + f for f in ("play", "rules", "scenario", "simulate", "eval")}
    assert not loaded & families


def test_the_rules_machine_names_load_without_pydantic_or_jsonschema() -> None:
    loaded = _modules_after(
        "import bangarena.rules_machine as r\n"
        "from bangarena.rules_machine.validate import VALIDATE_KINDS\n"
        "r.SCHEMA_NAMES, r.SCHEMA_FILES"
    )
    assert "bangarena.rules_machine.models" not in loaded
    assert not _roots(loaded) & {"pydantic", "jsonschema"}


def test_the_play_family_loads_no_provider_sdk() -> None:
    loaded = _modules_after("import bangarena.cli.play")
    assert not _roots(loaded) & {"openai", "anthropic", "litellm", "jsonschema", "jinja2"}
    assert "bangarena.rules_machine.models" not in loaded


def test_root_summaries_are_the_commands_own_help() -> None:
    for family in FAMILIES:
        command = load_family(family)
        first = " ".join((command.help or "").split("\n\n")[0].split())
        # The root lists the opening sentences of the command's own help.
        assert first.startswith(family.summary), (family.name, family.summary, first)


def _command_paths() -> list[list[str]]:
    paths: list[list[str]] = [[]]

    def walk(command: Any, path: list[str]) -> None:
        paths.append(path)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, [*path, name])

    for family in FAMILIES:
        walk(load_family(family), [family.name])
    return paths


@pytest.mark.parametrize("path", _command_paths(), ids=lambda p: " ".join(p) or "bangarena")
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_every_command_answers_h_and_help(path: list[str], flag: str) -> None:
    r = runner.invoke(app, [*path, flag])
    assert r.exit_code == 0, (r.stdout, r.stderr)
    assert "Usage:" in r.stdout and "-h" in r.stdout


def test_version_names_the_package_rules_and_engine() -> None:
    from bangarena.engine.version import ENGINE_VERSION, RULES_VERSION

    r = runner.invoke(app, ["--version"])
    assert r.exit_code == 0
    line = r.stdout.strip()
    assert re.fullmatch(r"bangarena \S+ \(rules [0-9a-f]{16}, engine \S+\)", line), line
    assert f"rules {RULES_VERSION}" in line and f"engine {ENGINE_VERSION}" in line


def test_the_entry_point_prints_the_root_help() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "bangarena.cli", "-h"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    for family in FAMILIES:
        assert family.name in out.stdout
