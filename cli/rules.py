"""``bangarena rules``: build the published rules, show rules.json or the rules for AI, print a
JSON Schema, validate files against the published schemas. Bad values exit with code 2 and list
the valid ones."""

from __future__ import annotations

import importlib
import importlib.util
import json
from pathlib import Path
from typing import Any

import typer

from bangarena.rules_machine.schemas import SCHEMA_NAMES
from bangarena.rules_machine.validate import VALIDATE_KINDS

from .support import STDIN, NotJSON, fail, os_reason, parse_json, read_text, writable_dir

FORMATS = ("json", "md")
LANG_CODES = ("en", "pt", "es", "fr")  # for the help only; the check uses rules_machine.LANGS
RECORDS_MODULE = "bangarena.harness.records"
MATCH_RECORD = "MatchRecord"
JSONL_SUFFIXES = (".jsonl", ".ndjson")
MAX_ISSUES = 20
"""Issues printed per instance; the rest are counted on one more line."""

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
    dest: str | None = typer.Option(
        None, "--dest", help="Folder to write (default: rules_machine/published)."
    ),
) -> None:
    """Regenerate rules.json, the JSON Schemas and the rules for AI."""
    from bangarena.rules_machine import PUBLISHED_DIR, build_published, dump_json
    from bangarena.rules_machine.publish import MATCH_RECORD_FILE

    if dest is not None and not dest.strip():
        raise fail("--dest: the folder name is empty")
    root = writable_dir(Path(dest) if dest is not None else PUBLISHED_DIR, "--dest")
    try:
        written = build_published(root)
        record = match_record_schema()
        if record is not None:
            path = root / MATCH_RECORD_FILE
            path.write_text(dump_json(record), encoding="utf-8")
            written.append(path)
    except OSError as e:
        where = e.filename if e.filename is not None else root
        raise fail(f"--dest {root}: cannot write {where}: {os_reason(e)}") from None
    for path in written:
        print(path)


SHOW_HELP = (
    "Print rules.json or the rules for AI.\n\n"
    "--compact gives the compact rules text with --format md, and rules.json on one line (no "
    "indentation or spaces) with --format json. --lang applies to md only: rules.json holds "
    "every language."
)


@rules_app.command("show", help=SHOW_HELP)
def show_command(
    fmt: str = typer.Option("md", "--format", help="json (rules.json) or md (rules for AI)."),
    lang: str | None = typer.Option(
        None, "--lang", help=f"{', '.join(LANG_CODES)} (md only; default en)."
    ),
    compact: bool = typer.Option(
        False, "--compact", help="md: the compact text (a system prompt); json: on one line."
    ),
) -> None:
    """Print rules.json or the rules for AI (see :data:`SHOW_HELP`)."""
    from bangarena.rules_machine import LANGS, dump_json, rules_document, rules_text

    _check(fmt, FORMATS, "--format")
    if fmt == "json":
        if lang is not None:
            raise fail("--lang applies to --format md; rules.json holds every language")
        doc = rules_document()
        if compact:
            print(json.dumps(doc, ensure_ascii=False, separators=(",", ":")))
        else:
            print(dump_json(doc), end="")
        return
    lang = _check(lang if lang is not None else "en", LANGS, "--lang")
    print(rules_text(lang, compact=compact), end="")


@rules_app.command("schema")
def schema_command(
    name: str = typer.Argument(
        ..., metavar="NAME", help=f"One of: {', '.join(SCHEMA_NAMES)}, {MATCH_RECORD}."
    ),
) -> None:
    """Print one JSON Schema."""
    from bangarena.rules_machine import dump_json, schema

    _check(name, _schema_names(), "NAME")
    if name == MATCH_RECORD:
        print(dump_json(match_record_schema()), end="")
    else:
        print(dump_json(schema(name)), end="")


VALIDATE_HELP = (
    "Check JSON values against a published JSON Schema (Draft 2020-12).\n\n"
    f"KIND is one of {', '.join(VALIDATE_KINDS)}. "
    "FILE is a .json file (one value), a .jsonl or .ndjson file (one value per line) or - for "
    "stdin (and any other name): one value when the whole text parses, else one per line.\n\n"
    "Prints FILE: ok for each valid value, or one line per issue, FILE: $.json.path: what "
    "(FILE:LINE: … in JSONL). Exit code 0: every value is valid; 1: a value is invalid or a "
    "text is not JSON; 2: bad usage (unknown kind, unreadable file)."
)


@rules_app.command("validate", help=VALIDATE_HELP)
def validate_command(
    kind: str = typer.Argument(
        ..., metavar="KIND", help=f"The schema: {', '.join(VALIDATE_KINDS)}."
    ),
    file: str = typer.Argument(
        ...,
        metavar="FILE",
        help="A JSON file, a JSONL file (.jsonl/.ndjson: one value per line), or - (stdin).",
    ),
) -> None:
    """Check JSON values against a published JSON Schema (see :data:`VALIDATE_HELP`)."""
    from bangarena.rules_machine.validate import SchemaUnavailable, validate_instance, validator

    _check(kind, VALIDATE_KINDS, "KIND")
    try:
        validator(kind)
    except SchemaUnavailable as e:
        raise fail(str(e)) from None
    text = read_text(file, "file")
    label = "<stdin>" if file == STDIN else file
    bad = 0
    instances = _instances(text, label, _jsonl_by_name(file))
    if not instances:
        print(f"{label}: no JSON value")
        raise typer.Exit(1)
    for where, value in instances:
        if isinstance(value, NotJSON):
            print(f"{where}: not JSON: {value}")
            bad += 1
            continue
        issues = validate_instance(kind, value)
        if not issues:
            print(f"{where}: ok")
            continue
        bad += 1
        for issue in issues[:MAX_ISSUES]:
            print(f"{where}: {issue}")
        if len(issues) > MAX_ISSUES:
            print(f"{where}: … {len(issues) - MAX_ISSUES} more issues")
    if bad:
        raise typer.Exit(1)


def _jsonl_by_name(file: str) -> bool | None:
    """True for a JSONL name, False for .json, None (decide by content) otherwise."""
    suffix = Path(file).suffix.lower() if file != STDIN else ""
    if suffix in JSONL_SUFFIXES:
        return True
    return False if suffix == ".json" else None


def _instances(text: str, label: str, jsonl: bool | None) -> list[tuple[str, Any]]:
    """``(where, value or the NotJSON of a text that is not JSON)`` for each value; ``jsonl``
    None decides by content."""
    if not text.strip():
        return []
    if not jsonl:
        try:
            return [(label, parse_json(text))]
        except NotJSON as whole:
            # By content, JSONL only if its first line stands alone: a pretty-printed document
            # with a typo must not become one error per line.
            if jsonl is False or not _first_line_parses(text):
                return [(label, whole)]
    out: list[tuple[str, Any]] = []
    for number, line in enumerate(_lines(text), 1):
        if line.strip():
            try:
                out.append((f"{label}:{number}", parse_json(line)))
            except NotJSON as e:
                # The line is in the label; the parser's "line 1" would mislead.
                where = f" at column {e.column}" if e.column is not None else ""
                out.append((f"{label}:{number}", NotJSON(f"{e.reason}{where}")))
    return out


def _first_line_parses(text: str) -> bool:
    first = next((line for line in _lines(text) if line.strip()), "")
    try:
        parse_json(first)
    except NotJSON:
        return False
    return True


def _lines(text: str) -> list[str]:
    # JSONL lines end at \n only: str.splitlines would also cut at U+2028, which JSON strings
    # may hold raw.
    return [line.removesuffix("\r") for line in text.split("\n")]


def register(app: typer.Typer) -> None:
    """Add the ``rules`` group to ``app``."""
    app.add_typer(rules_app, name="rules")
