"""Checking JSON values against the published JSON Schemas (Draft 2020-12) with jsonschema: the
library behind ``bangarena rules validate``, for third parties checking their records and moves
and for harness code checking what it receives.

The schemas are the published files (``rules_machine/published/``, kept current by a test), so
checking needs neither pydantic nor the engine; ``MatchRecord`` is the harness's record schema,
which ``bangarena rules build`` publishes there. One validator per kind is built on first use.

Unions (``Move``, ``Decision``, ``Event``) are ``oneOf`` with a ``discriminator`` on ``kind``,
which jsonschema does not read; the validators here do (where the schema makes it exact): they
check only the branch the value's ``kind`` names, and report what is wrong in it instead of one
"not valid under any of the given schemas".
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from .publish import MATCH_RECORD_FILE, PUBLISHED_DIR
from .schemas import SCHEMA_FILES

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

# jsonschema (~0.1 s to import) loads with the first validator, so that the kinds can be listed
# (in a command's help) for nothing.

MATCH_RECORD: Final = "MatchRecord"

KIND_FILES: Final[dict[str, str]] = {**SCHEMA_FILES, MATCH_RECORD: MATCH_RECORD_FILE}
"""Every kind :func:`validate_instance` checks and its published file."""

VALIDATE_KINDS: Final[tuple[str, ...]] = tuple(KIND_FILES)

MAX_MESSAGE: Final = 200
"""Characters of a jsonschema message kept (its messages repeat whole values and regexes)."""
MAX_LISTING: Final = 600
"""Characters kept of a message listing a union's kinds (30 event kinds fit)."""


class UnknownKind(ValueError):
    """A kind that is not one of :data:`VALIDATE_KINDS` (the message lists them)."""

    def __init__(self, kind: object) -> None:
        shown = repr(kind) if len(repr(kind)) <= 60 else repr(kind)[:60] + "…"
        super().__init__(f"unknown kind {shown}; kinds: {', '.join(VALIDATE_KINDS)}")
        self.kind = kind


class SchemaUnavailable(RuntimeError):
    """A known kind whose published schema file is missing or unreadable."""


@dataclass(frozen=True, slots=True)
class SchemaIssue:
    """One way a value breaks its schema: where (a JSON path, ``$`` for the value itself) and
    what (jsonschema's message, shortened)."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def published_schema(kind: str, root: Path | None = None) -> dict[str, Any]:
    """The published JSON Schema of ``kind`` (from ``root``, default the package's published
    folder, e.g. one written by ``bangarena rules build --dest``); raises UnknownKind or
    SchemaUnavailable."""
    filename = KIND_FILES.get(kind) if isinstance(kind, str) else None
    if filename is None:
        raise UnknownKind(kind)
    path = (PUBLISHED_DIR if root is None else Path(root)) / filename
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise SchemaUnavailable(
            f"the {kind} schema {path} cannot be read ({e}); run `bangarena rules build`"
        ) from None
    if not isinstance(doc, dict):
        raise SchemaUnavailable(f"the {kind} schema {path} is not a JSON object")
    return doc


@cache
def validator(kind: str, root: Path | None = None) -> Draft202012Validator:
    """The cached Draft 2020-12 validator of ``kind`` (see :func:`published_schema`)."""
    return _validator_for(published_schema(kind, root))


def validate_instance(kind: str, obj: Any, root: Path | None = None) -> list[SchemaIssue]:
    """Every issue of ``obj`` (a JSON value, as ``json.loads`` gives it) against the published
    schema of ``kind``, in the schema's order; an empty list when it is valid.

    Raises UnknownKind for a kind not in :data:`VALIDATE_KINDS`, SchemaUnavailable when its
    file is missing from ``root``."""
    return schema_issues(validator(kind, root), obj)


def schema_issues(schema: dict[str, Any] | Draft202012Validator, obj: Any) -> list[SchemaIssue]:
    """Every issue of ``obj`` against a schema (e.g. :func:`~.schemas.answer_schema` of a live
    decision) or a validator from :func:`validator`; an empty list when it is valid."""
    check = _validator_for(schema) if isinstance(schema, dict) else schema
    try:
        return list(dict.fromkeys(i for e in check.iter_errors(obj) for i in _explain(e)))
    except RecursionError:
        # A value nested deeper than any schema allows; jsonschema recurses per level.
        return [SchemaIssue("$", "nested too deeply to check")]


def _validator_for(schema: dict[str, Any]) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    cls = _dispatching_class() if _pinned_unions(schema) else Draft202012Validator
    return cls(schema)


@cache
def _dispatching_class() -> type[Draft202012Validator]:
    """Draft 2020-12 whose ``oneOf`` goes straight to the branch a ``discriminator`` names.

    Used only for schemas where every discriminated branch pins its discriminator to its own
    value (:func:`_pinned_unions`): there exactly that branch can match, so the verdict is the
    standard one, found in one branch instead of all of them (~30x faster for events), and
    the errors are that branch's, with their paths."""
    from jsonschema import Draft202012Validator, validators
    from jsonschema.exceptions import ValidationError

    standard = Draft202012Validator.VALIDATORS["oneOf"]

    def one_of(check: Any, branches: Any, instance: Any, schema: dict[str, Any]) -> Any:
        disc = schema.get("discriminator")
        if not isinstance(disc, dict):
            yield from standard(check, branches, instance, schema)
            return
        if not isinstance(instance, dict):
            yield ValidationError(f"{instance!r} is not of type 'object'")
            return
        prop, mapping = disc["propertyName"], disc["mapping"]
        if prop not in instance:
            yield ValidationError(f"{prop!r} is a required property")
            return
        value = instance[prop]
        if not isinstance(value, str) or value not in mapping:
            valid = ", ".join(sorted(mapping))
            yield ValidationError(f"{value!r} is not one of: {valid}", path=(prop,))
            return
        yield from check.descend(instance, {"$ref": mapping[value]})

    return validators.extend(Draft202012Validator, {"oneOf": one_of})


def _pinned_unions(root: dict[str, Any]) -> bool:
    """Whether every ``oneOf`` with a ``discriminator`` in ``root`` lists exactly the mapping's
    local ``$ref`` branches, and each branch requires the discriminator and pins it to its own
    value with ``const`` (what pydantic's discriminated unions produce)."""
    defs = root.get("$defs") if isinstance(root.get("$defs"), dict) else {}

    def ok(node: Any) -> bool:
        if isinstance(node, list):
            return all(ok(v) for v in node)
        if not isinstance(node, dict):
            return True
        disc = node.get("discriminator")
        if disc is not None and "oneOf" in node and not _pinned(node, disc, defs):
            return False
        return all(ok(v) for v in node.values())

    return ok(root)


def _pinned(node: dict[str, Any], disc: Any, defs: dict[str, Any]) -> bool:
    if not isinstance(disc, dict) or not isinstance(disc.get("mapping"), dict):
        return False
    prop, mapping = disc.get("propertyName"), disc["mapping"]
    if not isinstance(prop, str):
        return False
    refs = [b.get("$ref") if isinstance(b, dict) and len(b) == 1 else None for b in node["oneOf"]]
    if sorted(map(str, refs)) != sorted(map(str, mapping.values())):
        return False
    for value, ref in mapping.items():
        if not isinstance(ref, str) or not ref.startswith("#/$defs/"):
            return False
        target = defs.get(ref.removeprefix("#/$defs/"))
        if not isinstance(target, dict) or prop not in target.get("required", ()):
            return False
        if (target.get("properties") or {}).get(prop, {}).get("const") != value:
            return False
    return True


def _explain(error: ValidationError) -> Iterator[SchemaIssue]:
    """The issues behind one jsonschema error: a union's error becomes its best match, or one
    line naming every type a nullable field allows."""
    if error.validator in ("oneOf", "anyOf") and error.context:
        types = [e.validator_value for e in error.context if e.validator == "type"]
        if len(types) == len(error.context) and all(isinstance(t, str) for t in types):
            allowed = " or ".join(dict.fromkeys(repr(t) for t in types))
            yield SchemaIssue(
                error.json_path, _short(f"{error.instance!r} is not of type {allowed}")
            )
            return
        from jsonschema.exceptions import best_match

        best = best_match([error])
        if best is not None and best is not error:
            yield from _explain(best)
            return
    # Our own listing of a discriminator's values is kept whole; jsonschema's messages, which
    # repeat values and regexes, are cut.
    limit = MAX_LISTING if error.validator == "oneOf" else MAX_MESSAGE
    yield SchemaIssue(error.json_path, _short(error.message, limit))


def _short(message: str, limit: int = MAX_MESSAGE) -> str:
    message = " ".join(message.split())
    return message if len(message) <= limit else message[: limit - 1] + "…"
