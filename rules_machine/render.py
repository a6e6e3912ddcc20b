"""The rules for AI: Markdown generated from rules.json, in en, pt, es, fr, full or compact.

The compact text is meant for a model's system prompt (≤ 2,500 o200k tokens in English); the
full one adds hints, the seeds' role and mode descriptions, what each decision asks, the move
kinds, check odds and the deck table. Every card, character, role, mode and decision kind is
named in both, with its id.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from bangarena.engine.roles import UPGRADES

from .document import rules_document
from .wording import check_lang, fill, phrase
from .wording import named as _named

_CHARACTER_OF_PATTERN = {
    "ricochet_as_shot@<seat>": "two_face",
    "shot_as_ricochet": "two_face",
    "ricochet_as_shot": "two_face",
    "heal": "bonesetter",
    "draw_discard": "vulture_junior",
    "grip@<seat>": "grip",
}
"""Moves only one character is offered: the text names him next to the id."""

_DECISION_FOR = {
    "brace": ("bonesetter",),
    "heal_discard": ("bonesetter",),
    "draw_choice": ("grip", "vulture_junior"),
    "draw_keep": ("three_eyes", "instinct"),
    "pick_card": ("snatch", "knock_off"),
}
"""Decision kinds only some players meet, and what brings them (a character, card or term)."""


def _display_pattern(pattern: str) -> list[str]:
    """Id patterns as shown to a model: ``<card_kind>`` → ``<card>``, ``<card_id>`` →
    ``<copy>``, an alternation of upgrades → ``<upgrade>`` (other words spelled out)."""
    shown = pattern.replace("<card_kind>", "<card>").replace("<card_id>", "<copy>")
    m = re.search(r"<([a-z_]+(?:\|[a-z_]+)+)>", shown)
    if not m:
        return [shown]
    head, tail = shown[: m.start()], shown[m.end() :]
    words = m.group(1).split("|")
    out = [head + "<upgrade>" + tail] if set(UPGRADES) <= set(words) else []
    out += [head + w + tail for w in words if not (out and w in UPGRADES)]
    return out


def named(item: dict[str, Any], lang: str) -> str:
    """``Name `id` `` — or just `` `id` `` when the id is the name in snake_case."""
    return _named(item["names"][lang], item["id"])


def _name_of(doc: dict[str, Any], thing: str, lang: str) -> str:
    for section in ("cards", "characters"):
        for item in doc[section]:
            if item["id"] == thing:
                return item["names"][lang]
    return doc["terms"][thing][lang]


def _roles(doc: dict[str, Any], lang: str, compact: bool) -> list[str]:
    teams = {t["id"]: t["names"][lang] for t in doc["teams"]}

    def label(r: dict[str, Any]) -> str:
        return f"{named(r, lang)} ({teams[r['team']]})"

    c = "_c" if compact else ""
    roles = doc["roles"]
    hidden = [r for r in roles if not r["public"]]
    out = [phrase("h_roles", lang)]
    for r in roles:
        if r["public"]:
            out.append(f"- {label(r)}: {phrase('role_' + r['id'] + c, lang)}")
    out.append("- " + ", ".join(label(r) for r in hidden) + ": " + phrase("roles_hidden" + c, lang))
    out.append(phrase("roles_table", lang))
    out.append(phrase("victory", lang))
    if not compact:
        out += [f"- {r['names'][lang]}: {r['objective'][lang]}" for r in roles]
    return out


def _modes(doc: dict[str, Any], lang: str, compact: bool) -> list[str]:
    out = [phrase("h_modes", lang)]
    for m in doc["modes"]:
        if compact:
            out.append(f"- {named(m, lang)}: {m['summary'][lang]}")
        else:
            summary = m["summary"][lang]
            out.append(f"- {named(m, lang)}: {m['description'][lang]}")
            out.append(f"  - {summary[:1].upper()}{summary[1:]}")
    return out


def _rules(doc: dict[str, Any], lang: str, compact: bool) -> list[list[str]]:
    turn = [phrase("h_turn", lang), phrase("turn", lang), phrase("high_noon", lang)]
    if not compact:
        turn += [phrase("deck_refill", lang), phrase("timeout", lang)]
    # The compact text leaves to the card effects what they already say (Horse, Scope, Raid…).
    c = "_c" if compact else ""
    checks = [phrase("h_checks", lang), phrase("checks" + c, lang)]
    if not compact:
        checks.append(_odds(doc, lang))
    elimination = [phrase("h_elimination", lang), phrase("elimination", lang)]
    elimination += ["- " + phrase(k, lang) for k in ("glory", "bounty", "last_bullet", "penalty")]
    if not compact:
        elimination.append(phrase("elimination_order", lang))
    return [
        turn,
        [phrase("h_distance", lang), phrase("distance" + c, lang)],
        [phrase("h_attacks", lang), phrase("attacks" + c, lang)],
        checks,
        elimination,
    ]


def _odds(doc: dict[str, Any], lang: str) -> str:
    c = doc["checks"]
    lucky = phrase("odds_lucky", lang)

    def one(key: str, label: str) -> str:
        return (
            f"{phrase(label, lang)} {c[key]['fraction']} ≈ {round(c[key]['approx'] * 100)}% "
            f"({lucky} ≈ {round(c[key]['lucky']['approx'] * 100)}%)"
        )

    parts = [
        one("jail_escape", "odds_jail"),
        one("dynamite_explodes", "odds_dynamite"),
        one("cover", "odds_cover"),
        one("cover_old_classic", "odds_old_cover"),
    ]
    return phrase("odds", lang, {"odds": "; ".join(parts)})


def _cards(doc: dict[str, Any], lang: str, compact: bool) -> list[str]:
    out = [phrase("h_cards", lang), phrase("cards_rule", lang)]
    hint = phrase("hint", lang)
    color = None
    for card in doc["cards"]:
        if not compact and card["color"] != color:
            color = card["color"]
            out.append(phrase("color_" + color, lang))
        line = f"- {named(card, lang)} ×{card['copies']}: {card['effect'][lang]}"
        if not compact:
            line += f" {hint}: {card['hint'][lang]}"
        out.append(line)
    if not compact:
        rev = doc["default_weapon"]
        out.append(
            f"- {rev['names'][lang]} `{rev['id']}`: {rev['effect'][lang]} {hint}: {rev['hint'][lang]}"
        )
        out.append(phrase("deck_table", lang))
        symbols = {s["id"]: s["symbol"] for s in doc["deck"]["suits"]}
        for card in doc["cards"]:
            copies = [c for c in doc["deck"]["cards"] if c["kind"] == card["id"]]
            labels = " ".join(f"{c['rank']}{symbols[c['suit']]}" for c in copies)
            out.append(f"- `{card['id']}`: {labels}")
    return out


def _characters(doc: dict[str, Any], lang: str, compact: bool) -> list[str]:
    out = [phrase("h_characters", lang)]
    if not compact:
        out.append(phrase("characters_rule", lang))
    old = next(m for m in doc["modes"] if m["id"] == "old_classic")
    hint = phrase("hint", lang)
    for ch in doc["characters"]:
        life = str(ch["life"])
        if ch["old_classic_life"] != ch["life"]:
            life += f" ({old['names'][lang]}: {ch['old_classic_life']})"
        line = f"- {named(ch, lang)} {life}: {ch['ability'][lang]}"
        if not compact:
            line += f" {hint}: {ch['hint'][lang]}"
        out.append(line)
    return out


def _decisions(doc: dict[str, Any], lang: str, compact: bool) -> list[str]:
    out = [phrase("h_decisions", lang), phrase("decisions_legend", lang)]
    for d in doc["decision_kinds"]:
        ids = []
        for m in d["moves"]:
            pats = _display_pattern(m["id_pattern"])
            # compact: one code span per line, not per id (each backtick pair costs tokens)
            shown = ", ".join(pats if compact else (f"`{p}`" for p in pats))
            who = _CHARACTER_OF_PATTERN.get(m["id_pattern"])
            if who and not compact:
                shown += f" ({_name_of(doc, who, lang)})"
            ids.append(shown)
        line = f"- `{d['id']}`"
        if not compact:
            line += " " + d["names"][lang]
        if d["id"] in _DECISION_FOR:
            line += " (" + ", ".join(_name_of(doc, w, lang) for w in _DECISION_FOR[d["id"]]) + ")"
        line += ": " + ", ".join(ids)
        if not compact:
            line += ". " + d["help"][lang]
        out.append(line)
    if not compact:
        out.append(phrase("h_move_kinds", lang))
        for mk in doc["move_kinds"]:
            shown = mk["id_pattern"].replace("<card_kind>", "<card>").replace("<card_id>", "<copy>")
            out.append(f"- `{mk['id']}` ({shown}): {mk['text'][lang]}")
    return out


_FULL_ONLY_ENGINE = ("engine_illegal", "engine_old_jail", "engine_glory_dropped", "engine_own_turn")
"""Engine decisions a model never meets as a choice: stated in the full text only."""


def _engine(doc: dict[str, Any], lang: str, compact: bool) -> list[str]:
    out = [phrase("h_engine", lang)]
    for e in doc["engine_decisions"]:
        if not (compact and e["id"] in _FULL_ONLY_ENGINE):
            out.append("- " + e["text"][lang])
    return out


def _expansion_rules(doc: dict[str, Any], lang: str) -> list[list[str]]:
    """The rules an expansion adds (its own section, before the cards)."""
    out = []
    for e in doc.get("expansions", []):
        section = doc[e]
        out.append(
            [f"## {section['names'][lang]}"] + [f"- {t[lang]}" for t in section["rules"].values()]
        )
    return out


@cache
def _text(lang: str, compact: bool, expansions: tuple[str, ...] = ()) -> str:
    doc = rules_document(expansions)
    blocks = [
        [phrase("title", lang)]
        + ([] if compact else [phrase("versions", lang)])
        + [phrase("naming", lang), "", phrase("intro", lang)],
        _roles(doc, lang, compact),
        _modes(doc, lang, compact),
        *_rules(doc, lang, compact),
        *_expansion_rules(doc, lang),
        _cards(doc, lang, compact),
        _characters(doc, lang, compact),
        _decisions(doc, lang, compact),
        _engine(doc, lang, compact),
    ]
    text = "\n\n".join("\n".join(b) for b in blocks) + "\n"
    if lang == "fr":
        # French typography: a space before a colon or semicolon
        text = re.sub(r"(?<=\S)([:;]) ", r" \1 ", text)
    if "{" in fill(text, lang) and re.search(r"\{(c|ch|r|t|m|x|n):", text):
        raise ValueError("an unfilled name reference is left in the rules text")
    return text


def rules_text(lang: str = "en", compact: bool = True, expansions: tuple[str, ...] = ()) -> str:
    """The rules for AI in ``lang`` (en, pt, es, fr) as Markdown; ``compact`` for a system
    prompt, else the full text; with ``expansions``, the rules of a game that has them. Raises
    :class:`UnknownLanguage` (a ``ValueError``) for any other language."""
    return _text(check_lang(lang), bool(compact), tuple(expansions))
