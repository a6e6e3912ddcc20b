"""The published files are up to date, and ``bangarena rules`` builds, shows and prints them
(bad values: a clear error listing the valid ones, exit code 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bangarena.cli.app import app
from bangarena.cli.rules import match_record_schema
from bangarena.rules_machine import (
    LANGS,
    PUBLISHED_DIR,
    SCHEMA_FILES,
    SCHEMA_NAMES,
    build_published,
    dump_json,
    rules_document,
    rules_text,
    schema,
)
from bangarena.rules_machine.publish import MATCH_RECORD_FILE, published_files, stale_files

REBUILD = "bangarena rules build"

runner = CliRunner()


def _tree(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): p.read_text("utf-8")
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_published_files_are_up_to_date(tmp_path: Path) -> None:
    build_published(tmp_path)
    fresh = _tree(tmp_path)
    published = _tree(PUBLISHED_DIR)
    record = published.pop(MATCH_RECORD_FILE, None)
    missing = sorted(set(fresh) - set(published))
    extra = sorted(set(published) - set(fresh))
    changed = sorted(k for k in fresh if k in published and fresh[k] != published[k])
    assert not (missing or extra or changed), (
        f"rules_machine/published is out of date (missing {missing}, extra {extra}, "
        f"changed {changed}): run `{REBUILD}`"
    )
    if record is not None:  # present only when the harness publishes its match record
        current = match_record_schema()
        assert current is not None and record == dump_json(current), (
            f"published/{MATCH_RECORD_FILE} is out of date: run `{REBUILD}`"
        )


def test_published_json_files_load_and_match_the_api() -> None:
    assert json.loads((PUBLISHED_DIR / "rules.json").read_text("utf-8")) == rules_document()
    for name, filename in SCHEMA_FILES.items():
        assert json.loads((PUBLISHED_DIR / filename).read_text("utf-8")) == schema(name)
    assert set(SCHEMA_FILES) == set(SCHEMA_NAMES)


def test_build_removes_files_it_no_longer_makes(tmp_path: Path) -> None:
    build_published(tmp_path)
    (tmp_path / "old.schema.json").write_text("{}")
    (tmp_path / "rules-for-ai" / "xx.md").write_text("old")
    (tmp_path / MATCH_RECORD_FILE).write_text("{}")
    (tmp_path / "notes.txt").write_text("kept")
    assert {p.name for p in stale_files(tmp_path, published_files())} == {
        "old.schema.json",
        "xx.md",
    }
    build_published(tmp_path)
    names = set(_tree(tmp_path))
    assert "old.schema.json" not in names and "rules-for-ai/xx.md" not in names
    assert MATCH_RECORD_FILE in names and "notes.txt" in names


# -- the CLI -----------------------------------------------------------------------------------
def test_cli_build_writes_every_file(tmp_path: Path) -> None:
    result = runner.invoke(app, ["rules", "build", "--dest", str(tmp_path)])
    assert result.exit_code == 0, result.output
    tree = _tree(tmp_path)
    expected = set(published_files())
    record = match_record_schema()
    if record is not None:
        expected.add(MATCH_RECORD_FILE)
        assert json.loads(tree[MATCH_RECORD_FILE]) == record
    assert set(tree) == expected
    for rel in expected:
        assert str(tmp_path / rel) in result.output


@pytest.mark.parametrize("lang", LANGS)
def test_cli_show_md_in_every_language(lang: str) -> None:
    full = runner.invoke(app, ["rules", "show", "--format", "md", "--lang", lang])
    assert full.exit_code == 0, full.output
    assert full.stdout == rules_text(lang, compact=False)
    compact = runner.invoke(app, ["rules", "show", "--lang", lang, "--compact"])
    assert compact.exit_code == 0
    assert compact.stdout == rules_text(lang, compact=True)


def test_cli_show_json_is_rules_json() -> None:
    result = runner.invoke(app, ["rules", "show", "--format", "json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == rules_document()


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_cli_schema_prints_each_schema(name: str) -> None:
    result = runner.invoke(app, ["rules", "schema", name])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == schema(name)


def test_cli_schema_prints_the_match_record_when_the_harness_has_one() -> None:
    record = match_record_schema()
    result = runner.invoke(app, ["rules", "schema", "MatchRecord"])
    if record is None:
        assert result.exit_code == 2
    else:
        assert result.exit_code == 0 and json.loads(result.stdout) == record


@pytest.mark.parametrize(
    ("args", "valid"),
    [
        (["rules", "show", "--lang", "xx"], LANGS),
        (["rules", "show", "--format", "yaml"], ("json", "md")),
        (["rules", "schema", "Nope"], SCHEMA_NAMES),
    ],
)
def test_cli_bad_values_exit_2_listing_the_valid_ones(args: list[str], valid: tuple) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    message = " ".join(result.output.split())  # the error box may wrap lines
    assert args[-1] in message
    for v in valid:
        assert v in message, (v, message)
