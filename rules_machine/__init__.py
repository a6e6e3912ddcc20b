"""The machine-readable rules of BangArena, all generated from the engine's own data.

- :func:`rules_document`: the content of ``rules.json`` (cards, deck, characters, roles, modes,
  constants, decision and move kinds, texts in en/pt/es/fr, ``rules_version``);
- :func:`schema` / :data:`SCHEMA_NAMES`: JSON Schemas (Draft 2020-12) of moves, decisions, seat
  views, events, game records and the fixed answers;
- :func:`answer_schema`: the answer schema a model seat sends to its provider (fixed, or
  constrained to one decision's legal ids);
- :func:`validate_instance` / :data:`VALIDATE_KINDS`: check an object against a published schema
  (``bangarena rules validate``); :func:`schema_issues` against any schema;
- :func:`rules_text`: the rules for AI as Markdown (full, or compact for a system prompt);
- :func:`build_published`: regenerates ``rules_machine/published/``.

This package imports only the engine (never the harness). Its names load on first use (PEP 562):
``import bangarena.rules_machine`` builds no schema and imports neither pydantic nor jsonschema,
so a command line that only lists its commands starts fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .document import rules_document, texts_version
    from .publish import PUBLISHED_DIR, build_published, dump_json, published_files
    from .render import rules_text
    from .schemas import SCHEMA_FILES, SCHEMA_NAMES, answer_schema, schema
    from .tokens import count_tokens
    from .validate import VALIDATE_KINDS, SchemaIssue, schema_issues, validate_instance
    from .wording import LANGS, UnknownLanguage

# Each public name and the submodule that defines it.
_HOMES: dict[str, str] = {
    "rules_document": "document",
    "texts_version": "document",
    "PUBLISHED_DIR": "publish",
    "build_published": "publish",
    "dump_json": "publish",
    "published_files": "publish",
    "rules_text": "render",
    "SCHEMA_FILES": "schemas",
    "SCHEMA_NAMES": "schemas",
    "answer_schema": "schemas",
    "schema": "schemas",
    "count_tokens": "tokens",
    "VALIDATE_KINDS": "validate",
    "SchemaIssue": "validate",
    "validate_instance": "validate",
    "schema_issues": "validate",
    "LANGS": "wording",
    "UnknownLanguage": "wording",
}

__all__ = [
    "LANGS",
    "PUBLISHED_DIR",
    "SCHEMA_FILES",
    "SCHEMA_NAMES",
    "SchemaIssue",
    "UnknownLanguage",
    "VALIDATE_KINDS",
    "answer_schema",
    "build_published",
    "count_tokens",
    "dump_json",
    "published_files",
    "rules_document",
    "rules_text",
    "schema",
    "schema_issues",
    "texts_version",
    "validate_instance",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # later lookups skip this hook
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
