"""``bangarena rules``: build the published rules, show rules.json or the rules for AI, print a
JSON Schema. Bad values exit with code 2 and list the valid ones."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from typing import Any

import typer

from bangarena.rules_machine import (
    LANGS,
    PUBLISHED_DIR,
    SCHEMA_NAMES,
    build_published,
    dump_json,
    rules_document,
    rules_text,
    schema,
)
from bangarena.rules_machine.publish import MATCH_RECORD_FILE

FORMATS = ("json", "md")
RECORDS_MODULE = "bangarena.harness.records"
MATCH_RECORD = "MatchRecord"

rules_app = typer.Typer(
    name="rules",
    help="Machine-readable rules: rules.json, JSON Schemas, rules for AI.",
    no_args_is_help=True,
)


def match_record_schema() -> dict[str, Any] | None:
    """The harness's match-record schema, when this build has ``harness.records``."""
    if importlib.util.find_spec(RECORDS_MODULE) is None:
        return None
    records = importlib.import_module(RECORDS_MODULE)
    fn = getattr(records, "match_record_schema", None)
    return fn() if callable(fn) else None


def _schema_names() -> tuple[str, ...]:
    return SCHEMA_NAMES + ((MATCH_RECORD,) if match_record_schema() is not None else ())


def _check(value: str, valid: tuple[str, ...], hint: str) -> str:
    if value not in valid:
        raise typer.BadParameter(f"{value!r}; valid values: {', '.join(valid)}", param_hint=hint)
    return value


@rules_app.command("build")
def build_command(
    dest: Path = typer.Option(
        PUBLISHED_DIR, "--dest", help="Folder to write (default: rules_machine/published)."
    ),
) -> None:
    """Regenerate rules.json, the JSON Schemas and the rules for AI."""
    written = build_published(dest)
    record = match_record_schema()
    if record is not None:
        path = Path(dest) / MATCH_RECORD_FILE
        path.write_text(dump_json(record), encoding="utf-8")
        written.append(path)
    for path in written:
        print(path)


@rules_app.command("show")
def show_command(
    fmt: str = typer.Option("md", "--format", help="json (rules.json) or md (rules for AI)."),
    lang: str = typer.Option("en", "--lang", help="en, pt, es or fr."),
    compact: bool = typer.Option(False, "--compact", help="The compact text (md only)."),
) -> None:
    """Print rules.json or the rules for AI."""
    _check(fmt, FORMATS, "--format")
    _check(lang, LANGS, "--lang")
    if fmt == "json":
        print(dump_json(rules_document()), end="")
    else:
        print(rules_text(lang, compact=compact), end="")


@rules_app.command("schema")
def schema_command(
    name: str = typer.Argument(..., help=f"One of: {', '.join(SCHEMA_NAMES)}, {MATCH_RECORD}."),
) -> None:
    """Print one JSON Schema."""
    _check(name, _schema_names(), "NAME")
    if name == MATCH_RECORD:
        print(dump_json(match_record_schema()), end="")
    else:
        print(dump_json(schema(name)), end="")


def register(app: typer.Typer) -> None:
    app.add_typer(rules_app, name="rules")
