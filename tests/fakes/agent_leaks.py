"""The hidden-information check for what agents outside the process are sent.

Every body an agent received is compared with the game's omniscient state at the moment of its
decision (the match replayed from its record): no card the deciding seat does not know (other
seats' hands and the deck, by the engine's knowledge masks) and has never seen in an event may
appear in it by id, no other
seat's unrevealed role may appear in its view, and the deck's order (any three of its next cards
in a row) never appears.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from bangarena.engine import GameConfig, new_game
from bangarena.engine.cards import CARD_IDS
from bangarena.engine.state import PUBLIC_BIT
from bangarena.harness.records import MatchRecord
from bangarena.rules_machine import rules_text

# the rules' own examples name a card or two ("e.g. shot_07"): fixed text, not the game
_RULES_TEXT = rules_text("en", compact=True) + rules_text("en", compact=False)


def _hidden_from(state: Mapping[str, Any], seat: int) -> tuple[set[str], list[str]]:
    """Card ids ``seat`` may not know now, and the deck's ids in order."""
    known = state["known"]
    mine = (1 << seat) | PUBLIC_BIT
    hidden: set[str] = set()
    for p in state["players"]:
        if p["seat"] == seat:
            continue
        hidden.update(CARD_IDS[c] for c in p["hand"] if not known[c] & mine)
    hidden.update(CARD_IDS[c] for c in state["deck"] if not known[c] & mine)
    return hidden, [CARD_IDS[c] for c in state["deck"]]


def leaks(record: MatchRecord, received: Iterable[tuple[int, int, Any]]) -> tuple[list[str], int]:
    """Problems found in ``received`` (seat, decision_id, body as sent) and how many bodies
    were checked. The match is replayed from ``record``; a body names its decision by the
    index the driver gave it (the length of the engine's history then)."""
    by_decision: dict[tuple[int, int], list[Any]] = {}
    for seat, did, body in received:
        by_decision.setdefault((seat, did), []).append(body)
    cfg = record.config
    game = new_game(GameConfig(cfg.seats, cfg.mode, cfg.max_rounds), cfg.seed)
    problems: list[str] = []
    checked = 0
    for mv in record.moves:
        did = len(game.state.history)
        bodies = by_decision.pop((mv.seat, did), [])
        if bodies:
            state = game.omniscient_state()["state"]
            hidden, deck = _hidden_from(state, mv.seat)
            # a card the seat saw in public once (a check, a discard later reshuffled) is
            # history, not where it is now: only ids it has never seen must be absent
            seen = json.dumps(game.view(mv.seat, since=0).events)
            hidden = {c for c in hidden if c not in seen and c not in _RULES_TEXT}
            for body in bodies:
                checked += 1
                text = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)
                for cid in hidden:
                    if cid in text:
                        problems.append(f"decision {did}, seat {mv.seat}: hidden card {cid}")
                for i in range(max(0, len(deck) - 2)):
                    run = json.dumps(deck[i : i + 3])[1:-1]
                    if run in text:
                        problems.append(f"decision {did}: deck order {run}")
                        break
                view = _view_of(body)
                for p in (view or {}).get("players", []):
                    who = int(p["seat"])  # A2A data parts carry numbers as doubles
                    truth = state["players"][who]
                    revealed = who == state["sheriff"] or not truth["alive"]
                    if who != mv.seat and p.get("role") and not revealed:
                        problems.append(f"decision {did}: role of seat {p['seat']} shown")
        game.apply(mv.seat, mv.move)
    problems += [f"a body for decision {k} that the match never had" for k in by_decision]
    return problems, checked


def _view_of(body: Any) -> dict[str, Any] | None:
    if isinstance(body, str):
        try:
            body = json.loads(body)
        except ValueError:
            return None
    if isinstance(body, dict):
        if isinstance(body.get("view"), dict):
            return body["view"]
        for value in body.values():  # a payload nested in an envelope (A2A data part, MCP)
            if isinstance(value, dict) and isinstance(value.get("view"), dict):
                return value["view"]
    return None


__all__ = ["leaks"]
