"""Every display text of BangArena in four languages (en, pt, es, fr), loaded from data files.

The texts live in ``text_data/<lang>.toml`` (the base game) and ``text_data/<expansion>/<lang>.toml``
(what an expansion adds), one file per language, shipped as package data. They were written
from the source documents in ``shared/seeds``:

- pt/es/fr names, card effects, card hints, character abilities, character hints and role
  descriptions are the seeds' own words (000 pt, 001 es, 003 fr; the hint lines without their
  "Dica: " / "Consejo: " / "Astuce : " prefix), with the French typos of rules.md §0 fixed.
  The Armed & Dangerous texts take their Portuguese from seed 004.
- English names and effects follow rules.md §8 and §9; English hints and role descriptions
  are faithful translations of the seeds.
- Decision and move texts are not in the seeds; they are written for BangArena in the seeds'
  vocabulary.

Every file is validated when this module is imported (:class:`TextDataError` names the file and
the key): the same sections and keys in every language, each entry with exactly its parts, every
text a non-empty string. A translator edits or adds a file; no code changes. Pure data: reads
package files only, imports nothing from the rest of the project.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

LANGS: Final[tuple[str, ...]] = ("en", "pt", "es", "fr")
"""The languages every :class:`Text` carries; ``en`` is the fallback."""

DATA_DIR: Final = Path(__file__).resolve().parent / "text_data"


class TextDataError(ValueError):
    """A text data file is missing, unreadable or does not match the expected shape."""


@dataclass(frozen=True, slots=True)
class Text:
    """One display text in every language of :data:`LANGS`."""

    en: str
    pt: str
    es: str
    fr: str

    def get(self, lang: str) -> str:
        """The text in ``lang`` ("pt", "pt-BR", "FR" …); English for any other language."""
        code = lang.replace("_", "-").split("-", 1)[0].lower()
        if code == "pt":
            return self.pt
        if code == "es":
            return self.es
        if code == "fr":
            return self.fr
        return self.en


@dataclass(frozen=True, slots=True)
class CardText:
    """A card kind's name, effect text and hint line."""

    name: Text
    effect: Text
    hint: Text


@dataclass(frozen=True, slots=True)
class CharacterText:
    """A character's name, ability text and hint line."""

    name: Text
    ability: Text
    hint: Text


@dataclass(frozen=True, slots=True)
class RoleText:
    """A role's name and its description (objective, team, starting bonus)."""

    name: Text
    objective: Text


# Section name -> the record class of its entries (None: each entry is one Text).
_RECORDS: Final[dict[str, type | None]] = {
    "cards": CardText,
    "characters": CharacterText,
    "roles": RoleText,
    "teams": None,
    "modes": None,
    "mode_descriptions": None,
    "terms": None,
    "upgrades": None,
    "decision_kinds": None,
    "decision_help": None,
    "move_kinds": None,
    "rules": None,  # paragraphs of an expansion's rules for the rules for AI
}
_PARTS: Final[dict[type, tuple[str, ...]]] = {
    CardText: ("name", "effect", "hint"),
    CharacterText: ("name", "ability", "hint"),
    RoleText: ("name", "objective"),
}
_BASE_SECTIONS: Final = tuple(s for s in _RECORDS if s != "rules")


@dataclass(frozen=True, slots=True)
class TextSet:
    """The texts of the base game or of one expansion, by section (dicts keep file order)."""

    sections: dict[str, dict[str, Any]]

    def section(self, name: str) -> dict[str, Any]:
        """The entries of section ``name`` (an empty dict when this set has none)."""
        return self.sections.get(name, {})


def _read(path: Path) -> dict[str, Any]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise TextDataError(f"{path.name}: cannot read text data: {e}") from None
    return data


def _check_text(where: str, value: Any) -> str:
    if type(value) is not str or not value.strip():
        raise TextDataError(f"{where}: a text is a non-empty string")
    return value


def load_set(folder: Path, required: tuple[str, ...] = ()) -> TextSet:
    """Load and validate one set of texts: ``<folder>/<lang>.toml`` for every language.

    English fixes the sections and keys; every other language must have exactly the same.
    ``required`` names sections the set must have. Raises :class:`TextDataError`."""
    raw = {}
    for lang in LANGS:
        path = folder / f"{lang}.toml"
        if not path.is_file():
            raise TextDataError(f"{folder.name}/{lang}.toml: missing (every language has a file)")
        raw[lang] = _read(path)
    en = raw["en"]
    for name in required:
        if name not in en:
            raise TextDataError(f"{folder.name}/en.toml: section [{name}] is missing")
    sections: dict[str, dict[str, Any]] = {}
    for name, entries in en.items():
        if name not in _RECORDS:
            raise TextDataError(
                f"{folder.name}/en.toml: unknown section [{name}]; valid: {', '.join(_RECORDS)}"
            )
        if not isinstance(entries, dict) or not entries:
            raise TextDataError(f"{folder.name}/en.toml: [{name}] is a non-empty table")
        record = _RECORDS[name]
        out: dict[str, Any] = {}
        for lang in LANGS[1:]:
            other = raw[lang].get(name)
            if not isinstance(other, dict) or set(other) != set(entries):
                theirs = set(other) if isinstance(other, dict) else set()
                diff = sorted(set(entries) ^ theirs)
                raise TextDataError(
                    f"{folder.name}/{lang}.toml: [{name}] differs from en.toml in keys "
                    f"{', '.join(diff) or '(the section itself)'}"
                )
        for key in entries:
            where = {lang: f"{folder.name}/{lang}.toml: {name}.{key}" for lang in LANGS}
            if record is None:
                vals = [_check_text(where[lang], raw[lang][name][key]) for lang in LANGS]
                out[key] = Text(*vals)
                continue
            parts = _PARTS[record]
            texts_by_part = []
            for part in parts:
                vals = []
                for lang in LANGS:
                    entry = raw[lang][name][key]
                    if not isinstance(entry, dict) or set(entry) != set(parts):
                        raise TextDataError(f"{where[lang]}: has exactly {', '.join(parts)}")
                    vals.append(_check_text(f"{where[lang]}.{part}", entry[part]))
                texts_by_part.append(Text(*vals))
            out[key] = record(*texts_by_part)
        sections[name] = out
    for lang in LANGS[1:]:
        extra = set(raw[lang]) - set(en)
        if extra:
            raise TextDataError(
                f"{folder.name}/{lang}.toml: sections not in en.toml: {', '.join(sorted(extra))}"
            )
    return TextSet(sections)


BASE: Final[TextSet] = load_set(DATA_DIR, required=_BASE_SECTIONS)

CARDS: Final[dict[str, CardText]] = BASE.sections["cards"]
"""The base game's card kinds (and the default Revolver)."""
CHARACTERS: Final[dict[str, CharacterText]] = BASE.sections["characters"]
"""The base game's 16 characters."""
ROLES: Final[dict[str, RoleText]] = BASE.sections["roles"]
"""The five roles of rules.md §2: name and the seeds' description of the role."""
TEAMS: Final[dict[str, Text]] = BASE.sections["teams"]
"""Team names (rules.md §0); ``renegade`` is the team of one who plays alone."""
MODES: Final[dict[str, Text]] = BASE.sections["modes"]
"""Role-mode names (rules.md §0, §2)."""
MODE_DESCRIPTIONS: Final[dict[str, Text]] = BASE.sections["mode_descriptions"]
"""One sentence per mode, from the seeds' list of role modes."""
TERMS: Final[dict[str, Text]] = BASE.sections["terms"]
"""Names of the game's terms (rules.md §0, §7); ``star`` is the glory star."""
UPGRADES: Final[dict[str, Text]] = BASE.sections["upgrades"]
"""What each glory upgrade does, from the seeds' glory section."""
DECISION_KINDS: Final[dict[str, Text]] = BASE.sections["decision_kinds"]
"""A short name for each kind of pending decision."""
DECISION_HELP: Final[dict[str, Text]] = BASE.sections["decision_help"]
"""One sentence per decision kind: what the player is being asked."""
MOVE_KINDS: Final[dict[str, Text]] = BASE.sections["move_kinds"]
"""One sentence per move kind, explaining the move."""

EXPANSION_TEXTS: Final[dict[str, TextSet]] = {
    d.name: load_set(d) for d in sorted(DATA_DIR.iterdir()) if d.is_dir() and d.name[0] != "_"
}
"""What each expansion adds (its folder under ``text_data/``), by expansion id."""


def merged(section: str, expansions: tuple[str, ...] = ()) -> dict[str, Any]:
    """Section ``section`` of the base game plus that of each expansion, in that order."""
    out = dict(BASE.section(section))
    for e in expansions:
        out.update(EXPANSION_TEXTS[e].section(section))
    return out


def any_card(kind: str) -> CardText:
    """The texts of a card kind of the base game or of any expansion."""
    t = CARDS.get(kind)
    if t is None:
        for s in EXPANSION_TEXTS.values():
            t = s.section("cards").get(kind)
            if t is not None:
                break
    if t is None:
        raise KeyError(kind)
    return t
