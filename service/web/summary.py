"""The summary screen's numbers: per-player stats, match badges and the viewer's achievements,
computed only from what is public once the game is over — the spectator's events, the result
(every role is revealed at the end) and how each decision was made (autopilot or not, which is
table talk)."""

from __future__ import annotations

import re
from typing import Any

from ..registry import LiveMatch

_CARD_ID = re.compile(r"_\d+$")


def card_kind(card_id: str) -> str:
    """``shot_14`` → ``shot`` (a card id is its kind and a number)."""
    return _CARD_ID.sub("", card_id)


def player_stats(live: LiveMatch) -> list[dict[str, Any]]:
    """One row per seat: character, role, alive, damage dealt and taken, eliminations, cards
    played, stars, decisions, autopilot moves and the mean time per decision."""
    view = live.game.view(None, since=0)
    result = live.game.result() or {}
    roles = result.get("roles") or [p.role for p in view.players]
    rows = [
        {
            "seat": p.seat,
            "name": live.info[p.seat].name,
            "kind": live.info[p.seat].kind,
            "character": p.character,
            "role": roles[p.seat],
            "alive": p.alive,
            "life": p.life,
            "max_life": p.max_life,
            "stars": len(p.stars),
            "damage_dealt": 0,
            "damage_taken": 0,
            "eliminations": 0,
            "cards_played": 0,
            "shots": 0,
            "dodged": 0,
            "decisions": 0,
            "autopilot": 0,
            "mean_time_s": 0.0,
        }  # fmt: skip
        for p in view.players
    ]
    for e in view.events:
        k = e.get("kind")
        if k == "hit":
            rows[e["seat"]]["damage_taken"] += e["amount"]
            if e.get("source") is not None:
                rows[e["source"]]["damage_dealt"] += e["amount"]
        elif k == "eliminated" and e.get("killer") is not None:
            rows[e["killer"]]["eliminations"] += 1
        elif k == "played":
            rows[e["seat"]]["cards_played"] += 1
            if card_kind(e["card"]) == "shot" or e.get("as_kind") == "shot":
                rows[e["seat"]]["shots"] += 1
        elif k == "cancelled":
            rows[e["seat"]]["dodged"] += 1
    for seat, t in live.decision_tally().items():
        row = rows[seat]
        row["decisions"], row["autopilot"] = t.decisions, t.autopilot
        row["mean_time_s"] = round(t.seconds / t.decisions, 2)
    return rows


BADGES = (
    ("top_gun", "damage_dealt"),
    ("executioner", "eliminations"),
    ("iron_hide", "damage_taken"),
    ("card_shark", "cards_played"),
    ("glory", "stars"),
)
"""Match badges: the best seat on one stat (nobody gets one for a zero)."""


def match_badges(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for badge, stat in BADGES:
        best = max(rows, key=lambda r: (r[stat], -r["seat"]))
        if best[stat] > 0:
            out.append({"badge": badge, "seat": best["seat"], "value": best[stat]})
    return out


def achievements(rows: list[dict[str, Any]], winners: list[int], seat: int | None) -> list[str]:
    """The viewer's achievements (ids; the page words them)."""
    if seat is None:
        return []
    me = rows[seat]
    out = []
    if seat in winners:
        out.append("won")
    if me["alive"]:
        out.append("survivor")
    if me["eliminations"] >= 2:
        out.append("gunslinger")
    if me["stars"] > 0:
        out.append("glory")
    if me["dodged"] >= 2:
        out.append("untouchable")
    if me["decisions"] > 0 and me["autopilot"] == 0:
        out.append("always_there")
    return out


__all__ = ["achievements", "card_kind", "match_badges", "player_stats"]
