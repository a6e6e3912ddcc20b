"""Filling the phrases: names from ``engine.texts``, numbers and lists from the engine's data.

A phrase refers to a name as ``{c:shot}`` (card), ``{ch:lucky}`` (character), ``{r:sheriff}``
(role), ``{t:law}`` (team), ``{m:classic}`` (mode), ``{x:glory}`` (term) and to a number as
``{n:high_noon_round}``; an unknown reference raises ``KeyError``.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final

from bangarena.engine import texts
from bangarena.engine.cards import DECK
from bangarena.engine.config import DEFAULT_MAX_ROUNDS
from bangarena.engine.roles import (
    CLASSIC,
    DRAW_PER_TURN,
    HIGH_NOON_ROUND,
    MAX_SEATS,
    MIN_SEATS,
    OLD_CLASSIC_OUTLAW_REWARD,
    SHERIFF_HAND_ADJUST,
    SHERIFF_LIFE_BONUS,
    UPGRADES,
    roles_for,
)
from bangarena.engine.version import ENGINE_VERSION, RULES_VERSION

from .phrases import PHRASES

LANGS: Final = texts.LANGS
_REF = re.compile(r"\{(c|ch|r|t|m|x|n):([a-z_0-9]+)\}")


class UnknownLanguage(ValueError):
    """A language the rules for AI do not exist in."""

    def __init__(self, lang: str) -> None:
        super().__init__(f"unknown language {lang!r}; valid languages: {', '.join(LANGS)}")
        self.lang = lang


def check_lang(lang: str) -> str:
    """``lang`` itself if the rules exist in it, else :class:`UnknownLanguage`."""
    if lang not in LANGS:
        raise UnknownLanguage(lang)
    return lang


def snake(name: str) -> str:
    """``Knock Off`` → ``knock_off``, ``Two-Face`` → ``two_face``."""
    return re.sub(r"[ \-]+", "_", name.strip().lower())


def named(name: str, ident: str) -> str:
    """``Name `id` `` — or just `` `id` `` when the id is the name in snake_case."""
    return f"`{ident}`" if snake(name) == ident else f"{name} `{ident}`"


def _signed(v: int) -> str:
    return f"+{v}" if v >= 0 else f"−{-v}"


@cache
def names(lang: str) -> dict[tuple[str, str], str]:
    """Display names by (namespace, id) in ``lang``."""
    out: dict[tuple[str, str], str] = {}
    for k, v in texts.CARDS.items():
        out["c", k] = v.name.get(lang)
    for k, v in texts.CHARACTERS.items():
        out["ch", k] = v.name.get(lang)
    for k, v in texts.ROLES.items():
        out["r", k] = v.name.get(lang)
    for k, v in texts.TEAMS.items():
        out["t", k] = v.get(lang)
    for k, v in texts.MODES.items():
        out["m", k] = v.get(lang)
    for k, v in texts.TERMS.items():
        out["x", k] = v.get(lang)
    return out


@cache
def numbers(lang: str) -> dict[str, str]:
    """The numbers and generated lists the phrases refer to as ``{n:key}``."""
    nums = {
        "rules_version": RULES_VERSION,
        "engine_version": ENGINE_VERSION,
        "min_seats": str(MIN_SEATS),
        "max_seats": str(MAX_SEATS),
        "max_rounds": str(DEFAULT_MAX_ROUNDS),
        "high_noon_round": str(HIGH_NOON_ROUND),
        "draw_per_turn": str(DRAW_PER_TURN),
        "outlaw_reward": str(OLD_CLASSIC_OUTLAW_REWARD),
        "deck_size": str(len(DECK)),
        "hearts": str(sum(c.suit == "hearts" for c in DECK)),
        "spades": str(sum(c.explodes for c in DECK)),
        "sheriff_bonus": ", ".join(f"{n}: {_signed(v)}" for n, v in SHERIFF_LIFE_BONUS.items()),
        "sheriff_hand": ", ".join(
            f"{n}: {_signed(v)}" for n, v in SHERIFF_HAND_ADJUST.items() if v
        ),
    }
    nums["upgrades"] = "; ".join(
        f"{named(texts.TERMS[u].get(lang), u)} {texts.UPGRADES[u].get(lang).rstrip('.')}"
        for u in UPGRADES
    )
    nums["upgrade_ids"] = "|".join(UPGRADES)
    nums["roles_by_seats"] = _roles_by_seats(lang)
    return nums


def _roles_by_seats(lang: str) -> str:
    """``4: Sheriff, Renegade, Outlaw ×2; 5: +Deputy; …``: each table as a change of the last."""
    role_name = {k: v.name.get(lang) for k, v in texts.ROLES.items()}
    parts: list[str] = []
    prev: list[str] | None = None
    for n in range(MIN_SEATS, MAX_SEATS + 1):
        roles = list(roles_for(n, CLASSIC))
        if prev is None:
            counts: dict[str, int] = {}
            for r in roles:
                counts[r] = counts.get(r, 0) + 1
            shown = ", ".join(role_name[r] + (f" ×{c}" if c > 1 else "") for r, c in counts.items())
        else:
            added, removed = list(roles), []
            for r in prev:
                if r in added:
                    added.remove(r)
                else:
                    removed.append(r)
            shown = ", ".join(
                [f"+{role_name[r]}" for r in added] + [f"−{role_name[r]}" for r in removed]
            )
        parts.append(f"{n}: {shown}")
        prev = roles
    return "; ".join(parts)


def fill(template: str, lang: str, extra: dict[str, str] | None = None) -> str:
    """``template`` with every ``{ns:id}`` replaced (``extra`` adds ``{n:…}`` values)."""
    nm = names(lang)
    nums = numbers(lang) if not extra else {**numbers(lang), **extra}

    def sub(m: re.Match[str]) -> str:
        ns, key = m.group(1), m.group(2)
        if ns == "n":
            return nums[key]
        return nm[ns, key]

    return _REF.sub(sub, template)


def phrase(key: str, lang: str, extra: dict[str, str] | None = None) -> str:
    """The phrase ``key`` in ``lang``, filled."""
    return fill(PHRASES[key].get(lang), lang, extra)
