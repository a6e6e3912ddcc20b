"""The machine-readable rules of BangArena, all generated from the engine's own data.

- :func:`rules_document`: the content of ``rules.json`` (cards, deck, characters, roles, modes,
  constants, decision and move kinds, texts in en/pt/es/fr, ``rules_version``);
- :func:`schema` / :data:`SCHEMA_NAMES`: JSON Schemas (Draft 2020-12) of moves, decisions, seat
  views, events, game records and the fixed answer;
- :func:`answer_schema`: the answer schema a model seat sends to its provider (fixed, or
  constrained to one decision's legal ids);
- :func:`rules_text`: the rules for AI as Markdown (full, or compact for a system prompt);
- :func:`build_published`: regenerates ``rules_machine/published/``.

This package imports only the engine (never the harness).
"""

from .document import rules_document, texts_version
from .publish import PUBLISHED_DIR, build_published, dump_json, published_files
from .render import rules_text
from .schemas import SCHEMA_FILES, SCHEMA_NAMES, answer_schema, schema
from .tokens import count_tokens
from .wording import LANGS, UnknownLanguage

__all__ = [
    "LANGS",
    "PUBLISHED_DIR",
    "SCHEMA_FILES",
    "SCHEMA_NAMES",
    "UnknownLanguage",
    "answer_schema",
    "build_published",
    "count_tokens",
    "dump_json",
    "published_files",
    "rules_document",
    "rules_text",
    "schema",
    "texts_version",
]
