"""Invariants of a game: what holds after every step of every game (card conservation, life
bounds, one sheriff, cards in their right places, a real choice pending), and the shape of a
game's JSON form (:meth:`Game.omniscient_state`).

The conformance suite checks them at every step of its random games; :meth:`Game.
from_omniscient_state` checks them on every state it loads, so a saved state that could not
come out of a game is refused with the same words.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any

from .cards import BLUE, EXPANSIONS, IS_DANGEROUS, KIND_BY_ID, WEAPON, game_deck_size
from .cards import CARD_KIND_OF as DECK_KIND
from .characters import CHARACTER_BY_ID
from .events import EVENT_BY_KIND
from .rng import SEED_LIMIT, STREAMS
from .roles import OLD_CLASSIC, ROLES, SHERIFF, UPGRADES
from .state import (
    EXPANSION_PLAYER_FIELDS,
    EXPANSION_STATE_FIELDS,
    OPTIONAL_STATE_FIELDS,
    PLAYER_FIELDS,
    PUBLIC_BIT,
    STATE_FIELDS,
    GameState,
)

if TYPE_CHECKING:
    from .game import Game
    from .moves import Move

_COLOR = {k: KIND_BY_ID[k].color for k in KIND_BY_ID}
_CARD_COLOR = tuple(_COLOR.get(k) for k in DECK_KIND)
"""Each card number's color, looked up once instead of card → kind → color at every step."""
_ALL_CARDS: dict[int, frozenset[int]] = {}
"""The card numbers 0..size-1 of a game, per deck size: what conservation compares with."""


_DECK_SIZE: dict[tuple[str, ...], int] = {}
"""The deck size per expansions, computed once per set of expansions."""


def _all_cards(size: int) -> frozenset[int]:
    cards = _ALL_CARDS.get(size)
    if cards is None:
        cards = _ALL_CARDS[size] = frozenset(range(size))
    return cards


def _deck_size(expansions: tuple[str, ...] | list[str]) -> int:
    key = tuple(expansions)
    size = _DECK_SIZE.get(key)
    if size is None:
        size = _DECK_SIZE[key] = game_deck_size(key)
    return size


def state_violations(g: GameState) -> list[str]:
    """Invariants of the position itself (the pending decision aside)."""
    # Run after every step of every conformance game: the checks are the plain ones, written
    # with set operations and per-card tables so that they stay a small part of a step.
    out: list[str] = []
    cards = [*g.deck, *g.discard, *g.limbo]
    sheriffs = 0
    color = _CARD_COLOR
    for i, p in enumerate(g.players):
        if p.seat != i:
            out.append(f"player {i} says it is seat {p.seat}")
        cards += p.hand
        in_play = p.in_play
        cards += in_play
        if p.weapon >= 0:
            cards.append(p.weapon)
            if color[p.weapon] != WEAPON:
                out.append(f"seat {p.seat} holds {DECK_KIND[p.weapon]} as its weapon")
        if not 0 <= p.life <= p.max_life or p.max_life < 1:
            out.append(f"seat {p.seat} life {p.life}/{p.max_life} out of bounds")
        if not p.alive and p.life != 0:
            out.append(f"eliminated seat {p.seat} has life {p.life}")
        if p.alive and p.life == 0:
            out.append(f"seat {p.seat} alive at 0 life")
        if in_play:
            kinds = [DECK_KIND[c] for c in in_play]
            if len(kinds) > 1 and len(kinds) != len(set(kinds)):
                out.append(f"seat {p.seat} has two copies of a blue card in play: {kinds}")
            if any(color[c] != BLUE for c in in_play):
                out.append(f"seat {p.seat} has a card that is not blue in play: {kinds}")
        else:
            kinds = []
        if p.role == SHERIFF:
            sheriffs += 1
            if "jail" in kinds:
                out.append(f"the sheriff (seat {p.seat}) is jailed")
        if p.stars and g.mode == OLD_CLASSIC:
            out.append(f"seat {p.seat} has glory stars in old_classic")
    if sheriffs != 1 or g.players[g.sheriff].role != SHERIFF:
        out.append(f"{sheriffs} sheriffs at the table, seat {g.sheriff} named sheriff")
    size = _deck_size(g.expansions)
    # Every number 0..size-1 exactly once: as many cards as numbers, and the same set.
    if len(cards) != size or _all_cards(size) != set(cards):
        out.append(f"card conservation broken: {len(cards)} cards, {len(set(cards))} distinct")
    if g.expansions:
        out += token_violations(g)
    return out


def token_violations(g: GameState) -> list[str]:
    """Armed & Dangerous: tokens on holders + supply = 32, at most 4 per holder, tokens only on
    Dangerous cards in play, and none of those without a token."""
    from .loads import MAX_LOAD, SUPPLY, conserved

    out: list[str] = []
    loads = g.loads
    if len(loads) != len(g.known):
        return [f"loads has {len(loads)} entries for {len(g.known)} cards"]
    if conserved(g) != SUPPLY or g.supply < 0:
        out.append(f"token conservation broken: {conserved(g)} tokens (supply {g.supply})")
    in_play = set()
    for p in g.players:
        if not 0 <= p.tokens <= MAX_LOAD:
            out.append(f"seat {p.seat}'s character has {p.tokens} tokens")
        if not p.alive and p.tokens:
            out.append(f"eliminated seat {p.seat} keeps {p.tokens} tokens")
        cards = p.in_play + [p.weapon] if p.weapon >= 0 else p.in_play
        for c in cards:
            in_play.add(c)
            if IS_DANGEROUS[c] and not 1 <= loads[c] <= MAX_LOAD:
                out.append(f"Dangerous card {c} of seat {p.seat} has {loads[c]} tokens")
    # No stray token when none is negative and the Dangerous cards in play hold them all: a
    # sum instead of a scan of every card at every step; the scan names them otherwise.
    on_cards = sum(loads[c] for c in in_play if IS_DANGEROUS[c])
    if on_cards != sum(loads) or min(loads, default=0) < 0:
        stray = [c for c, n in enumerate(loads) if n and (c not in in_play or not IS_DANGEROUS[c])]
        if stray:
            out.append(f"tokens on cards not in play as Dangerous cards: {stray[:5]}")
    return out


def decision_violations(g: GameState, moves: tuple[Move, ...] | list[Move]) -> list[str]:
    """Invariants of the pending decision, given its legal moves."""
    out: list[str] = []
    if g.over:
        if moves:
            out.append("legal moves listed in a finished game")
        return out
    if len(moves) < 2:
        out.append(
            f"pending decision with {len(moves)} legal moves (forced moves must be automatic)"
        )
    if not g.players[g.pending[1]].alive:
        out.append(f"decision pending for eliminated seat {g.pending[1]}")
    if len({m.id for m in moves}) != len(moves):
        out.append("duplicate legal move ids")
    if any(" " in m.id for m in moves):
        out.append("a move id contains a space")
    return out


def step_violations(game: Game) -> list[str]:
    """Invariants that hold after every step of every game."""
    return state_violations(game.state) + decision_violations(game.state, game.legal_moves)


def all_moves_apply(game: Game) -> list[str]:
    """Every legal move applies, on a copy, up to the next decision without an error."""
    out = []
    for m in game.legal_moves:
        c = game.clone()
        try:
            c.apply(game.to_move, m.id)  # type: ignore[arg-type]
        except Exception as e:  # noqa: BLE001 — any failure is a violation to report
            out.append(f"legal move {m.id} failed: {type(e).__name__}: {e}")
    return out


# -- the shape of the JSON form ---------------------------------------------------------------
_INT, _STR, _BOOL, _LIST = "int", "str", "bool", "list"


def _is_int(v: Any) -> bool:
    return type(v) is int


def _ints(v: Any, lo: int, hi: int) -> bool:
    """A list of ints in ``lo..hi-1``."""
    return type(v) is list and all(type(x) is int and lo <= x < hi for x in v)


def state_shape_violations(d: Any) -> list[str]:
    """What is malformed in ``{"config": …, "state": …}`` (types, keys, ranges), checked before
    the state is rebuilt so a hostile document cannot crash the rebuild. Ranges that depend on
    the seat count use the state's own ``seats``."""
    if not isinstance(d, dict) or set(d) != {"config", "state"}:
        return ['a game state is {"config": {...}, "state": {...}}']
    s = d["state"]
    if not isinstance(d["config"], dict):
        return ["config is not an object"]
    if not isinstance(s, dict):
        return ["state is not an object"]
    want = {*STATE_FIELDS, "players", "log"}
    if "expansions" in s:
        want |= set(EXPANSION_STATE_FIELDS)
    want |= set(OPTIONAL_STATE_FIELDS) & set(s)
    if set(s) != want:
        missing, extra = sorted(want - set(s)), sorted(map(str, set(s) - want))
        return [f"state keys: missing {missing[:10]}, unknown {extra[:10]}"]
    n = s["seats"]
    if not _is_int(n) or not 1 <= n <= 64:
        return ["state.seats is not a seat count"]
    out: list[str] = []
    exps = s.get("expansions", [])
    if type(exps) is not list or any(type(e) is not str or e not in EXPANSIONS for e in exps):
        return ["state.expansions is not a list of known expansions"]
    size = game_deck_size(exps)
    card = (0, size)
    checks: dict[str, bool] = {
        "mode": type(s["mode"]) is str,
        "max_rounds": _is_int(s["max_rounds"]) and s["max_rounds"] >= 1,
        "seed": _is_int(s["seed"]) and 0 <= s["seed"] < SEED_LIMIT,
        "deck": _ints(s["deck"], *card),
        "discard": _ints(s["discard"], *card),
        "limbo": _ints(s["limbo"], *card),
        "rng": _ints(s["rng"], 0, SEED_LIMIT) and len(s["rng"]) == len(STREAMS),
        "sheriff": _is_int(s["sheriff"]) and 0 <= s["sheriff"] < n,
        "named_deputies": _ints(s["named_deputies"], 0, n),
        "coins": type(s["coins"]) is list and all(type(x) is bool for x in s["coins"]),
        "known": _ints(s["known"], 0, PUBLIC_BIT << 1) and len(s["known"]) == size,
        "turn": _is_int(s["turn"]) and -1 <= s["turn"] < n,
        "round": _is_int(s["round"]) and 0 <= s["round"] <= s["max_rounds"],
        "high_noon": type(s["high_noon"]) is bool,
        "shots": _is_int(s["shots"]) and 0 <= s["shots"] <= size,
        "jailed": s["jailed"] in (0, 1, 2) and _is_int(s["jailed"]),
        "stack": type(s["stack"]) is list and all(_task_ok(t) for t in s["stack"]),
        "pending": s["pending"] is None or _pending_ok(s["pending"], n),
        "history": type(s["history"]) is list
        and all(
            type(h) is list
            and len(h) == 2
            and _is_int(h[0])
            and 0 <= h[0] < n
            and type(h[1]) is str
            for h in s["history"]
        ),  # fmt: skip
        "forced": _is_int(s["forced"]) and s["forced"] >= 0,
        "over": type(s["over"]) is bool,
        "winning_team": s["winning_team"] is None or type(s["winning_team"]) is str,
        "winners": _ints(s["winners"], 0, n),
        "end_reason": s["end_reason"] is None or type(s["end_reason"]) is str,
    }
    if exps:
        checks |= {
            "supply": _is_int(s["supply"]) and 0 <= s["supply"] <= 32,
            "loads": _ints(s["loads"], 0, 5) and len(s["loads"]) == size,
            "used": type(s["used"]) is list and all(type(x) is str for x in s["used"]),
            "bell": type(s["bell"]) is bool,
        }
    if "picks" in s:
        checks["picks"] = _ints(s["picks"], *card)
    out += [f"state.{k} is malformed" for k, ok in checks.items() if not ok]
    if not out and s["over"] == (s["pending"] is not None):
        out.append("a game is either over or waiting for a decision (state.over, state.pending)")
    players = s["players"]
    if type(players) is not list or len(players) != n:
        return [*out, f"state.players is not a list of {n} players"]
    for i, p in enumerate(players):
        out += [f"state.players[{i}]: {w}" for w in _player_shape(p, n, size, bool(exps))]
    log = s["log"]
    if type(log) is not list:
        return [*out, "state.log is not a list"]
    for i, e in enumerate(log):
        why = _event_shape(e, n)
        if why:
            out.append(f"state.log[{i}]: {why}")
            if len(out) > 20:
                break
    return out


def _player_shape(p: Any, n: int, size: int, expansion: bool) -> list[str]:
    keys = PLAYER_FIELDS + EXPANSION_PLAYER_FIELDS if expansion else PLAYER_FIELDS
    if not isinstance(p, dict) or set(p) != set(keys):
        return [f"a player has exactly the keys {', '.join(keys)}"]
    card = (0, size)
    checks = {
        "seat": _is_int(p["seat"]) and 0 <= p["seat"] < n,
        "role": p["role"] in ROLES and type(p["role"]) is str,
        "character": type(p["character"]) is str and p["character"] in CHARACTER_BY_ID,
        "life": _is_int(p["life"]),
        "max_life": _is_int(p["max_life"]),
        "hand": _ints(p["hand"], *card),
        "in_play": _ints(p["in_play"], *card),
        "weapon": _is_int(p["weapon"]) and -1 <= p["weapon"] < size,
        "stars": type(p["stars"]) is list
        and all(type(x) is str and (x == "" or x in UPGRADES) for x in p["stars"]),
        "alive": type(p["alive"]) is bool,
    }
    if expansion:
        checks["tokens"] = _is_int(p["tokens"]) and 0 <= p["tokens"] <= 4
    return [f"{k} is malformed" for k, ok in checks.items() if not ok]


def _scalar(v: Any) -> bool:
    return v is None or type(v) in (int, str, bool)


def _task_ok(t: Any) -> bool:
    """A queued task: ``[name, *args]`` with a known name and JSON scalars (or lists of them)
    as arguments. Each task's own arity is the engine's business: a state whose tasks were
    tampered with beyond this is caught by :func:`all_moves_apply` when the next move runs
    them (or not at all if the tampered task lies deeper in the stack)."""
    from .flow import TASKS

    return (
        type(t) is list
        and bool(t)
        and type(t[0]) is str
        and t[0] in TASKS
        and all(_scalar(a) or (type(a) is list and all(_scalar(x) for x in a)) for a in t[1:])
    )


def _pending_ok(p: Any, n: int) -> bool:
    """``[kind, seat, *context]`` with a known kind, a seat of the table, and the public
    context (views.decision_context) well typed: the source a seat, the count an int."""
    from .flow import RESOLVERS
    from .views import decision_context

    if not (
        type(p) is list
        and len(p) >= 2
        and type(p[0]) is str
        and p[0] in RESOLVERS
        and _is_int(p[1])
        and 0 <= p[1] < n
        and all(_scalar(a) or (type(a) is list and all(_scalar(x) for x in a)) for a in p[2:])
    ):
        return False
    try:
        source, needed, card = decision_context(p)
    except IndexError:
        return False
    return (
        (source is None or (_is_int(source) and 0 <= source < n))
        and (needed is None or (_is_int(needed) and needed >= 0))
        and (card is None or type(card) is str)
    )


_TYPES = {"int": int, "str": str, "bool": bool}


def _value_ok(v: Any, annotation: str) -> bool:
    """``v`` fits an event field's annotation (``int``, ``list[str] | None``, …)."""
    options = [a.strip() for a in annotation.split(" | ")] if "[" not in annotation else None
    if options is None:  # a list annotation, maybe optional: "list[int] | None"
        base, _, rest = annotation.partition("]")
        if v is None:
            return "None" in rest
        inner = base.removeprefix("list[")
        if type(v) is not list:
            return False
        if inner in _TYPES:
            return all(type(x) is _TYPES[inner] for x in v)
        return all(x is None or isinstance(x, dict) for x in v)  # list[dict | None]
    if v is None:
        return "None" in options
    return any(type(v) is _TYPES[o] for o in options if o in _TYPES)


_EVENT_FIELDS = {
    kind: {f.name: str(f.type) for f in fields(cls) if f.name not in ("private_to", "forms")}
    for kind, cls in EVENT_BY_KIND.items()
}


def _event_shape(e: Any, n: int) -> str:
    """Why ``e`` is not a full event form ('' if it is one)."""
    if not isinstance(e, dict) or type(e.get("kind")) is not str:
        return "an event is an object with a kind"
    want = _EVENT_FIELDS.get(e["kind"])
    if want is None:
        return f"unknown event kind {e['kind'][:40]!r}"
    if set(e) - {"private_to"} != {"kind", *want}:
        return f"a {e['kind']} event has the keys kind, {', '.join(want)} (and private_to)"
    pt = e.get("private_to")
    if pt is not None and not _ints(pt, 0, n):
        return "private_to is null or a list of seats"
    bad = [k for k, a in want.items() if not _value_ok(e[k], a)]
    return f"malformed {', '.join(bad)}" if bad else ""


__all__ = [
    "all_moves_apply",
    "decision_violations",
    "state_shape_violations",
    "state_violations",
    "step_violations",
]
