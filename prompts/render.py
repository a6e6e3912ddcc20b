"""Prompt rendering: views in, text out. The system prompt (rules for AI + the seat + the answer
contract) is a function of what never changes for a seat during a match, so it is the same bytes
at each of its decisions; the turn prompt renders the seat's view compactly and ends with the
machine line ``Legal move ids: a, b, c``. Nothing here reads anything but a ``SeatView``, the
pending ``Decision`` (whose moves are that seat's own) and what the seat was shown before.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Final

from bangarena.engine import Decision, Move, SeatView
from bangarena.engine.cards import KIND_BY_ID

from .catalog import LANGS, TEMPLATES_DIR, Catalog, catalog
from .memory import PromptMemory

if TYPE_CHECKING:
    import jinja2

PROMPT_SERIES: Final = "1"


def _content_hash() -> str:
    h = hashlib.sha256()
    for path in sorted(TEMPLATES_DIR.rglob("*")):
        if path.is_file():
            h.update(path.relative_to(TEMPLATES_DIR).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:10]


PROMPT_VERSION: Final = f"{PROMPT_SERIES}+{_content_hash()}"
"""The prompt series plus a hash of every template and catalog: any wording change shows."""

LEGAL_IDS_PREFIX: Final = "Legal move ids: "
TOOL_NAME: Final = "bangarena_move"


@cache
def _env() -> jinja2.Environment:
    # jinja2 (~50 ms to import) loads with the first prompt, not with the command line.
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        undefined=jinja2.StrictUndefined,
    )


@cache
def _template(name: str) -> jinja2.Template:
    return _env().get_template(name)


def answer_example(cat: Catalog, notes: bool, short: bool = False) -> str:
    """The answer object shown in the contract: reason, [notes,] move (the schema's order);
    ``short`` (the reminder in each turn prompt) leaves the explanations out."""
    obj: dict[str, str] = {"reason": "…" if short else cat.system["reason_example"]}
    if notes:
        obj["notes"] = "…" if short else cat.system["notes_example"]
    obj["move"] = "<id>"
    return json.dumps(obj, ensure_ascii=False)


@cache
def _answer_line(lang: str, notes: bool) -> str:
    """The answer reminder that ends every turn prompt of ``lang``."""
    cat = catalog(lang)
    return cat.turn["answer"].format(example=answer_example(cat, notes, short=True))


@cache
def _rules(lang: str, expansions: tuple[str, ...] = ()) -> str:
    from bangarena.rules_machine import rules_text

    return rules_text(lang, compact=True, expansions=expansions).strip()


def render_system(
    view: SeatView,
    lang: str = "en",
    *,
    answer_mode: str = "json_schema",
    notes: bool = False,
    notes_max: int = 400,
) -> str:
    """The system prompt of ``view.seat``: compact rules, its seat/character/role, the table's
    characters, the answer contract. Uses only what is fixed for the whole match."""
    cat = catalog(lang)
    s = cat.system
    me = view.players[view.seat]
    role = view.role or ""
    contract = s["contract"].format(example=answer_example(cat, notes))
    if notes:
        contract += "\n" + s["notes"].format(max=notes_max)
    contract += "\n" + s[f"mode_{answer_mode}"].format(tool=TOOL_NAME)
    return _template("system.j2").render(
        t=s,
        rules=_rules(cat.lang, tuple(view.expansions or ())),
        seat=s["seat"].format(
            seat=view.seat,
            seats=view.seats,
            mode=cat.mode[view.mode],
            mode_desc=cat.mode_desc[view.mode],
            last=view.seats - 1,
        ),  # fmt: skip
        character=s["character"].format(
            name=cat.character[me.character], ability=cat.ability[me.character]
        ),
        role=s["role"].format(role=cat.role.get(role, role), objective=cat.objective.get(role, "")),
        characters=[
            s["character_line"].format(seat=p.seat, name=cat.character[p.character], id=p.character)
            for p in view.players
        ],
        contract=contract,
    )


def _table(view: SeatView, cat: Catalog, memory: PromptMemory) -> list[str]:
    """The table's lines, each rendered again only when its PlayerView is a new object."""
    kept = memory.player_lines
    lines = []
    for i, p in enumerate(view.players):
        hit = kept.get(i)
        if hit is not None and hit[0] is p and hit[1] is cat:
            lines.append(hit[2])
            continue
        line = _player_line(view, i, cat)
        kept[i] = (p, cat, line)
        lines.append(line)
    return lines


def _player_line(view: SeatView, i: int, cat: Catalog) -> str:
    t = cat.turn
    p = view.players[i]
    head = f"#{p.seat}" + (f" {t['you']}" if p.seat == view.seat else "")
    parts: list[str] = []
    if not p.alive:
        parts.append(t["eliminated"])
    else:
        head += f" {cat.character[p.character]}"
        parts.append(t["life"].format(life=p.life, max=p.max_life))
        parts.append(t["hand"].format(n=p.hand_size))
        if p.distance is not None:
            parts.append(t["dist"].format(d=p.distance))
        if p.weapon:
            kind = p.weapon.rsplit("_", 1)[0]
            weapon = t["weapon"].format(name=cat.card[kind], range=KIND_BY_ID[kind].range)
            if p.loads and p.weapon in p.loads:
                weapon += f" ({cat.term['load_token']}: {p.loads[p.weapon]})"
            parts.append(weapon)
        if p.in_play:
            parts.append(
                t["in_play"].format(cards=", ".join(_card_tokens(c, p, cat) for c in p.in_play))
            )
        if p.tokens:
            parts.append(f"{cat.term['load_token']}: {p.tokens}")
        if p.stars:
            stars = ", ".join(cat.upgrade[u] if u else t["star_plain"] for u in p.stars)
            parts.append(t["stars"].format(list=stars))
    if p.role:
        name = cat.role[p.role]
        parts.append(
            name if p.revealed or p.seat == view.seat else t["role_known"].format(role=name)
        )
    return head + ": " + ", ".join(parts)


def _card_tokens(card_id: str, p: object, cat: Catalog) -> str:
    """A card in play, with its Load tokens when it has some (Armed & Dangerous)."""
    loads = getattr(p, "loads", None)
    name = cat.card_id[card_id]
    if loads and card_id in loads:
        return f"{name} ({cat.term['load_token']}: {loads[card_id]})"
    return name


def _hand(view: SeatView, cat: Catalog) -> str:
    if not view.hand:
        return cat.turn["empty_hand"]
    groups: dict[str, list[str]] = {}
    for cid in view.hand:
        groups.setdefault(cid.rsplit("_", 1)[0], []).append(cid)
    cards = "; ".join(f"{cat.card[k]} {', '.join(ids)}" for k, ids in groups.items())
    return cat.turn["your_hand"].format(cards=cards)


def move_text(m: Move, view: SeatView, cat: Catalog) -> str:
    """One line describing a legal move (without its id)."""
    mv = cat.moves
    k = m.kind
    if k == "play":
        card = KIND_BY_ID[m.card]
        name = cat.card[m.card]
        if m.target is not None:
            if m.card == "shot":
                dist = view.players[m.target].distance
                return mv["shot_at"].format(card=name, target=m.target, dist=dist)
            key = "put_on" if m.card == "jail" else "play_at"
            return mv[key].format(card=name, target=m.target)
        if card.color == "weapon":
            return mv["weapon"].format(card=name, range=card.range)
        return mv["equip" if card.color == "blue" else "play"].format(card=name)
    if k == "play_as":
        return mv["play_as"].format(
            card=cat.card[m.card], as_kind=cat.card[m.option], target=m.target
        )
    if k == "answer":
        if m.option:
            return mv["answer_as"].format(card=cat.card[m.card], as_kind=cat.card[m.option])
        return mv["answer"].format(card=cat.card[m.card])
    if k == "discard":
        return mv["discard"].format(card=cat.card[m.card])
    if k == "draw":
        if m.option == "grip":
            return mv["grip"].format(target=m.target)
        if m.option == "discard":
            top = cat.card_id.get(view.discard_top or "", "?")
            return mv["draw_discard"].format(card=top)
        return mv["draw_deck"]
    if k == "return":
        return mv["return"].format(card=f"{m.card} ({cat.card_id[m.card]})")
    if k == "pick":
        if m.option == "hand":
            return mv["pick_hand"]
        return mv["pick"].format(card=cat.card[m.card])
    if k == "upgrade":
        return mv["upgrade"].format(name=cat.upgrade[m.option], effect=cat.upgrade_effect[m.option])
    if k == "bounty":
        if m.option == "none":
            return mv["bounty_none"]
        return mv["bounty"].format(name=cat.upgrade[m.option])
    if k in ("use", "pay", "load", "take", "give", "pass"):
        # Armed & Dangerous: the move kind's sentence, with what it applies to.
        what = m.card or ""
        name = cat.card.get(what) or cat.character.get(what) or cat.term.get(what, what)
        if what == "character":  # the token holder that is a character
            owner = m.target if k == "take" and m.target is not None else view.seat
            name = cat.character[view.players[owner].character]  # type: ignore[index]
        text = cat.move_kind[k]
        if k != "pass" and name:
            text += f" {name}"
        if m.target is not None:
            text += f" → #{m.target}"
        return text
    return mv.get(k, k)


def _decision_text(decision: Decision, cat: Catalog) -> str:
    t = cat.turn
    if decision.kind == "play":  # the most common decision; the rules explain the play step
        text = t["decision_play"].format(name=cat.decision["play"])
    else:
        text = t["decision"].format(
            name=cat.decision[decision.kind], help=cat.decision_help[decision.kind]
        )
    extra = []
    kind, src = decision.kind, decision.source
    if src is not None:
        if kind == "answer_duel":
            extra.append(t["duel"].format(seat=src))
        elif kind == "answer_raid":
            extra.append(t["raid"].format(seat=src))
        elif kind == "pick_card":
            extra.append(t["target"].format(seat=src))
        elif kind == "bounty_pick":
            extra.append(t["victim"].format(seat=src))
        else:
            extra.append(t["from"].format(seat=src))
    if decision.needed is not None and decision.needed > 1:
        extra.append(t["needed"].format(n=decision.needed))
    return " ".join([text, *extra])


def turn_context(
    view: SeatView,
    decision: Decision,
    memory: PromptMemory,
    lang: str = "en",
    *,
    notes: str | None = None,
    notes_enabled: bool = False,
    move_texts: list[str] | None = None,
) -> dict:
    """The pieces of a turn prompt (header, table lines, hand, summary, recent events, the
    decision, move lines): what ``turn.j2`` renders, and what a terminal shows a person.
    Feeds ``view.events`` to ``memory``: call once per decision. ``move_texts``: the moves'
    :func:`move_text` lines when the caller made them already."""
    cat = catalog(lang)
    t = cat.turn
    recent, omitted = memory.observe(view.events, cat)
    lines = [t["omitted"].format(n=omitted)] if omitted else []
    lines += ["- " + x for x in recent]
    if not lines:
        lines.append(t["nothing"])
    header = t["header"].format(
        round=view.round, turn=view.turn, deck=view.deck_size, discard=view.discard_size
    )
    if view.discard_top:
        header += t["top"].format(card=cat.card_id[view.discard_top])
    if view.high_noon:
        header += t["high_noon"]
    if view.supply is not None:
        header += f" · {cat.term['supply']}: {view.supply}"
    named = ""
    if len(view.named_deputies) == 2:
        a, b = view.named_deputies
        named = t["named"].format(a=a, b=b)
    return {
        "t": t,
        "header": header,
        "table": _table(view, cat, memory),
        "hand": _hand(view, cat),
        "named": named,
        "summary": memory.summary(cat),
        "recent_title": t["recent_first" if memory.decisions == 1 else "recent"],
        "recent": lines,
        "notes": t["notes"].format(notes=notes) if notes_enabled and notes else "",
        "decision": _decision_text(decision, cat),
        "move_texts": (
            [move_text(m, view, cat) for m in decision.moves] if move_texts is None else move_texts
        ),
        "ids": [m.id for m in decision.moves],
        "answer": _answer_line(cat.lang, notes_enabled),
    }


def render_turn(
    view: SeatView,
    decision: Decision,
    memory: PromptMemory,
    lang: str = "en",
    *,
    notes: str | None = None,
    notes_enabled: bool = False,
    move_texts: list[str] | None = None,
) -> str:
    """The turn prompt for ``decision`` of ``view.seat``. ``view.events`` must be the events
    since this seat's previous prompt (``memory`` keeps the rest); call once per decision.
    ``move_texts``: as :func:`turn_context` takes them."""
    ctx = turn_context(
        view, decision, memory, lang,
        notes=notes, notes_enabled=notes_enabled, move_texts=move_texts,
    )  # fmt: skip
    ids = ctx["ids"]
    ctx["moves"] = [f"{i}: {d}" for i, d in zip(ids, ctx.pop("move_texts"), strict=True)]
    ctx["ids"] = ", ".join(ids)
    return _render_shared(_template("turn.j2"), ctx)


def _render_shared(template: jinja2.Template, ctx: dict[str, Any]) -> str:
    """``template.render(ctx)`` for a template that reads only ``ctx`` (no globals): jinja's
    shared context skips merging the environment's globals into a new dict at every call,
    40 % of a turn's render (every decision of every model seat and remote agent renders one;
    tests/test_prompts.py checks the text equals ``render``'s)."""
    env = template.environment
    context = template.new_context(ctx, shared=True)
    try:
        return env.concat(template.root_render_func(context))  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - as render does: the traceback points at the template
        env.handle_exception()
        raise  # pragma: no cover - handle_exception always raises


def render_feedback(kind: str, move: str | None, legal_ids: Sequence[str], lang: str = "en") -> str:
    """The re-prompt after a failed reply of class ``kind``."""
    cat = catalog(lang)
    problem = cat.feedback[kind].format(move=move or "")
    return _template("feedback.j2").render(
        t=cat.feedback, problem=problem, ids=", ".join(legal_ids)
    )


__all__ = [
    "LANGS",
    "LEGAL_IDS_PREFIX",
    "PROMPT_VERSION",
    "TOOL_NAME",
    "PromptMemory",
    "answer_example",
    "move_text",
    "render_feedback",
    "render_system",
    "render_turn",
    "turn_context",
]
