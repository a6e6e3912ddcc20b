"""One short line per event, as the viewing seat saw it (``event_dict(e, seat)`` forms: hidden
fields are None). Events that repeat what another line says (``move``, ``turn_ended``) or that
the system prompt and the table already show (the deal, roles) are skipped."""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice
from typing import Any, Final

from bangarena.engine.views import card_kind

from .catalog import Catalog

Ev = dict[str, Any]
Formatter = Callable[[Ev, Catalog], str | None]

SKIPPED = frozenset(
    {"move", "turn_ended", "game_started", "role_dealt", "role_known", "deputies_named"}
)


def _cards(ids: list[str] | None, c: Catalog) -> str:
    """Card names grouped by kind (``Shot ×2, Horse``): the kind is what the table learns."""
    if not ids:
        return c.words["nothing"]
    counts: dict[str, int] = {}
    for cid in ids:
        name = c.card_id.get(cid, cid)
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(name if n == 1 else f"{name} ×{n}" for name, n in counts.items())


def _turn_started(e: Ev, c: Catalog) -> str:
    return c.events["turn_started"].format(seat=e["seat"])


def _check(e: Ev, c: Catalog) -> str:
    flip = [c.label.get(x, x) for x in e["cards"]]
    flip += [c.events["coin_won" if w else "coin_lost"] for w in e["coins"]]
    result = c.events["check_passed" if e["success"] else "check_failed"]
    return c.events["check"].format(
        seat=e["seat"], what=c.word(e["reason"]), flip=", ".join(flip), result=result
    )


def _jail(e: Ev, c: Catalog) -> str:
    return c.events["jail_escaped" if e["escaped"] else "jail_held"].format(seat=e["seat"])


def _drew(e: Ev, c: Catalog) -> str | None:
    if e["reason"] == "deal":
        return None
    source = c.word(e["source"])
    if e["reason"] not in ("draw", "deal"):
        source = f"{source}, {c.word(e['reason'])}"
    if e["cards"]:
        return c.events["drew_cards"].format(
            seat=e["seat"], cards=_cards(e["cards"], c), source=source
        )
    return c.events["drew"].format(seat=e["seat"], count=e["count"], source=source)


def _looked(e: Ev, c: Catalog) -> str:
    if e["cards"]:
        return c.events["looked_cards"].format(seat=e["seat"], cards=_cards(e["cards"], c))
    return c.events["looked"].format(seat=e["seat"], count=e["count"])


def _put_back(e: Ev, c: Catalog) -> str:
    if e["card"]:
        return c.events["put_back_card"].format(seat=e["seat"], card=c.card_id[e["card"]])
    return c.events["put_back"].format(seat=e["seat"])


def _revealed(e: Ev, c: Catalog) -> str:
    key = "revealed_extra" if e["extra"] else "revealed"
    return c.events[key].format(seat=e["seat"], card=f"{e['card']} {c.label[e['card']]}")


def _played(e: Ev, c: Catalog) -> str:
    card = c.card_id[e["card"]]
    if e["as_kind"]:
        return c.events["played_as"].format(
            seat=e["seat"], card=card, as_kind=c.card[e["as_kind"]], target=e["target"]
        )
    if e["target"] is not None:
        return c.events["played_at"].format(seat=e["seat"], card=card, target=e["target"])
    return c.events["played"].format(seat=e["seat"], card=card)


def _equipped(e: Ev, c: Catalog) -> str:
    card = c.card_id[e["card"]]
    if e["owner"] != e["seat"]:
        line = c.events["equipped_on"].format(seat=e["seat"], card=card, owner=e["owner"])
    else:
        line = c.events["equipped"].format(seat=e["seat"], card=card)
    if e["replaced"]:
        line += c.events["replaced"].format(card=c.card_id[e["replaced"]])
    return line


def _answered(e: Ev, c: Catalog) -> str:
    card = c.card_id[e["card"]]
    if e["as_kind"]:
        return c.events["answered_as"].format(
            seat=e["seat"], card=card, as_kind=c.card[e["as_kind"]]
        )
    return c.events["answered"].format(seat=e["seat"], card=card)


def _hit(e: Ev, c: Catalog) -> str:
    key = "hit" if e["source"] is None else "hit_by"
    return c.events[key].format(
        seat=e["seat"], amount=e["amount"], cause=c.word(e["cause"]), source=e["source"],
        life=e["life"],
    )  # fmt: skip


def _healed(e: Ev, c: Catalog) -> str:
    return c.events["healed"].format(
        seat=e["seat"], amount=e["amount"], cause=c.word(e["cause"]), life=e["life"]
    )


def _discarded(e: Ev, c: Catalog) -> str:
    return c.events["discarded"].format(
        seat=e["seat"], cards=_cards(e["cards"], c), reason=c.word(e["reason"])
    )


def _stole(e: Ev, c: Catalog) -> str:
    reason = c.word(e["reason"])
    if not e["from_hand"]:
        key = "stole"
    else:
        key = "stole_hand" if e["card"] else "stole_hidden"
    card = c.card_id.get(e["card"] or "", "")
    return c.events[key].format(seat=e["seat"], victim=e["victim"], card=card, reason=reason)


def _eliminated(e: Ev, c: Catalog) -> str:
    key = "eliminated" if e["killer"] is None else "eliminated_by"
    return c.events[key].format(seat=e["seat"], killer=e["killer"], role=c.role[e["role"]])


def _scavenged(e: Ev, c: Catalog) -> str:
    more = ""
    shown = list(e["in_play"]) + list(e["hand_cards"] or [])
    if shown:
        more = c.events["scavenged_more"].format(cards=_cards(shown, c))
    return c.events["scavenged"].format(
        seat=e["seat"], victim=e["victim"], count=e["hand_count"], more=more
    )


def _star(e: Ev, c: Catalog) -> str:
    upgrade = c.events["star_upgrade"].format(name=c.upgrade[e["upgrade"]]) if e["upgrade"] else ""
    return c.events["star_gained"].format(
        seat=e["seat"], reason=c.word(e["reason"]), upgrade=upgrade
    )


def _game_over(e: Ev, c: Catalog) -> str:
    team = c.team.get(e["winning_team"], c.words["draw_game"])
    return c.events["game_over"].format(team=team, reason=c.word(e["reason"]))


def _tokens(e: Ev, c: Catalog) -> str:
    """Armed & Dangerous: tokens on a holder changed."""
    h = e["holder"]
    where = c.words.get("character", "character") if h == "character" else c.card_id.get(h, h)
    return (
        f"#{e['seat']} {where}: {e['change']:+d} {c.term['load_token']} → {e['tokens']}"
        f" ({c.term['supply']}: {e['supply']}; {c.word(e['reason'])})"
    )


def _used(e: Ev, c: Catalog) -> str:
    w = e["what"]
    name = c.card_id.get(w) or c.card.get(w) or c.character.get(w) or w
    target = f" → #{e['target']}" if e["target"] is not None else ""
    return f"#{e['seat']}: {name}{target}"


FORMATTERS: dict[str, Formatter] = {
    "tokens": _tokens,
    "used": _used,
    "bomb_passed": lambda e, c: f"#{e['seat']}: {c.card['bomb']} → #{e['to']}",
    "bomb_exploded": lambda e, c: f"#{e['seat']}: {c.card['bomb']} 💥",
    "ignored": lambda e, c: (
        f"#{e['seat']} {c.character['ms_abigail']}: ✗ {c.card_id.get(e['card'], e['card'])} (#{e['source']})"
    ),
    "turn_started": _turn_started,
    "high_noon": lambda e, c: c.events["high_noon"],
    "check": _check,
    "dynamite_passed": lambda e, c: c.events["dynamite_passed"].format(seat=e["seat"], to=e["to"]),
    "dynamite_exploded": lambda e, c: c.events["dynamite_exploded"].format(seat=e["seat"]),
    "jail_result": _jail,
    "drew": _drew,
    "looked": _looked,
    "put_back": _put_back,
    "revealed": _revealed,
    "played": _played,
    "equipped": _equipped,
    "answered": _answered,
    "cancelled": lambda e, c: c.events["cancelled"].format(seat=e["seat"], by=c.word(e["by"])),
    "hit": _hit,
    "healed": _healed,
    "discarded": _discarded,
    "stole": _stole,
    "reshuffled": lambda e, c: c.events["reshuffled"].format(n=e["deck_size"]),
    "eliminated": _eliminated,
    "scavenged": _scavenged,
    "penalty": lambda e, c: c.events["penalty"].format(seat=e["seat"], cards=_cards(e["cards"], c)),
    "star_gained": _star,
    "game_over": _game_over,
}


def event_line(e: Ev, c: Catalog) -> str | None:
    """The line for one event, or None when the event is not shown."""
    kind = e["kind"]
    if kind in SKIPPED:
        return None
    fmt = FORMATTERS.get(kind)
    if fmt is None:  # an event kind newer than these prompts: show its fields plainly
        return " ".join(f"{k}={v}" for k, v in e.items())
    return fmt(e, c)


# The engine hands every viewer of a public event the same dict (its shared forms), so at a
# table of seven each line would be rendered seven times: an event's facts (its line, and what
# the prompt memory tallies) are kept per event object. An entry holds its event, so the
# event's id is not reused while the entry lives. The oldest half goes when the cap is reached
# (a dict keeps insertion order): the seats of one match read an event within a round of it,
# so recent entries are the ones read again. At most ~15 MB.
Attack = tuple[int, int]
"""(attacker, target): a card played at another seat (:func:`hostile_target`)."""
Kill = tuple[int, int | None]
"""(eliminated seat, killer or None): an ``eliminated`` event."""
Facts = tuple[Ev, Catalog, str | None, Attack | None, Kill | None]
_LINES: dict[int, Facts] = {}
_LINES_CAP: Final = 30_000


def shared_event_facts(e: Ev, c: Catalog) -> Facts:
    """``(e, c, event_line(e, c), hostile_target(e), (seat, killer) of an elimination or
    None)``, made once per event object and catalog."""
    hit = _LINES.get(id(e))
    if hit is not None and hit[0] is e and hit[1] is c:
        return hit
    kill = (e["seat"], e["killer"]) if e["kind"] == "eliminated" else None
    facts = (e, c, event_line(e, c), hostile_target(e), kill)
    if len(_LINES) >= _LINES_CAP:
        try:
            for key in list(islice(_LINES, _LINES_CAP // 2)):
                _LINES.pop(key, None)
        except RuntimeError:  # another thread changed the cache meanwhile: start it over
            _LINES.clear()
    _LINES[id(e)] = facts
    return facts


def shared_event_line(e: Ev, c: Catalog) -> str | None:
    """:func:`event_line`, rendered once per event object and catalog."""
    return shared_event_facts(e, c)[2]


def hostile_target(e: Ev) -> tuple[int, int] | None:
    """(attacker, target) when the event is a card played at another seat (Shot, Duel, Jail,
    Snatch, Knock Off), for the public tally of who attacks whom."""
    if e["kind"] == "played" and e["target"] is not None and e["target"] != e["seat"]:
        return e["seat"], e["target"]
    if e["kind"] == "equipped" and e["owner"] != e["seat"] and card_kind(e["card"]) == "jail":
        return e["seat"], e["owner"]
    return None
