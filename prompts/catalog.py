"""Per-language strings for prompts: the catalog files (``templates/<lang>/messages.toml``) plus
the game's own names (cards, characters, roles, modes, upgrades) from ``bangarena.engine.texts``,
gathered once per language into plain dicts for fast rendering."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from bangarena.engine import texts
from bangarena.engine.cards import ALL_CARDS, KIND_BY_ID

TEMPLATES_DIR: Final = Path(__file__).parent / "templates"
LANGS: Final[tuple[str, ...]] = ("en", "pt", "es", "fr")
"""Languages with a catalog; every prompt exists in each of them."""


class UnknownLanguage(ValueError):
    """A language without a prompt catalog."""


def normalize_lang(lang: str) -> str:
    """``pt-BR`` → ``pt``; raises :class:`UnknownLanguage` for a language without a catalog."""
    code = lang.replace("_", "-").split("-", 1)[0].lower()
    if code not in LANGS:
        raise UnknownLanguage(f"no prompts in language {lang!r}; available: {', '.join(LANGS)}")
    return code


@dataclass(frozen=True, slots=True)
class Catalog:
    """Everything a prompt needs in one language."""

    lang: str
    system: dict[str, str]
    turn: dict[str, str]
    events: dict[str, str]
    words: dict[str, str]
    moves: dict[str, str]
    feedback: dict[str, str]
    card: dict[str, str]  # card kind -> name
    card_id: dict[str, str]  # card id (shot_07) -> name
    label: dict[str, str]  # card id -> rank+suit (7♥)
    character: dict[str, str]
    ability: dict[str, str]
    role: dict[str, str]
    objective: dict[str, str]
    team: dict[str, str]
    mode: dict[str, str]
    mode_desc: dict[str, str]
    upgrade: dict[str, str]
    upgrade_effect: dict[str, str]
    decision: dict[str, str]
    decision_help: dict[str, str]
    # Expansions' words (Armed & Dangerous: Load token, supply) and move texts.
    term: dict[str, str]
    move_kind: dict[str, str]

    def word(self, key: str | None) -> str:
        """A reason/cause/source word: a card or character name, a catalog word, or the id."""
        if key is None:
            return ""
        return self.card.get(key) or self.character.get(key) or self.words.get(key) or key


@cache
def catalog(lang: str) -> Catalog:
    """The catalog of ``lang`` (cached)."""
    code = normalize_lang(lang)
    data = tomllib.loads((TEMPLATES_DIR / code / "messages.toml").read_text(encoding="utf-8"))
    # The names of every expansion's cards and characters too: a base game never shows them.
    exps = tuple(texts.EXPANSION_TEXTS)
    card = {k: t.name.get(code) for k, t in texts.merged("cards", exps).items()}
    chars = texts.merged("characters", exps)
    return Catalog(
        lang=code,
        system=data["system"],
        turn=data["turn"],
        events=data["events"],
        words=data["words"],
        moves=data["moves"],
        feedback=data["feedback"],
        card=card,
        card_id={c.id: card[c.kind] for c in ALL_CARDS},
        label={c.id: c.label for c in ALL_CARDS},
        character={k: t.name.get(code) for k, t in chars.items()},
        ability={k: t.ability.get(code) for k, t in chars.items()},
        role={k: t.name.get(code) for k, t in texts.ROLES.items()},
        objective={k: t.objective.get(code) for k, t in texts.ROLES.items()},
        team={k: t.get(code) for k, t in texts.TEAMS.items()},
        mode={k: t.get(code) for k, t in texts.MODES.items()},
        mode_desc={k: t.get(code) for k, t in texts.MODE_DESCRIPTIONS.items()},
        upgrade={k: texts.TERMS[k].get(code) for k in texts.UPGRADES},
        upgrade_effect={k: t.get(code) for k, t in texts.UPGRADES.items()},
        decision={k: t.get(code) for k, t in texts.merged("decision_kinds", exps).items()},
        decision_help={k: t.get(code) for k, t in texts.merged("decision_help", exps).items()},
        term={k: t.get(code) for k, t in texts.merged("terms", exps).items()},
        move_kind={k: t.get(code) for k, t in texts.merged("move_kinds", exps).items()},
    )


def weapon_range(card_kind: str) -> int:
    """The range printed on a weapon card."""
    return KIND_BY_ID[card_kind].range
