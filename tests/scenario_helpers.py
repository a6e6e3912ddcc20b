"""Shared helpers for the table-driven rules tests (tests/test_rules_*.py).

A test builds an exact position with :func:`load` (a thin layer over
``bangarena.engine.scenario.load_scenario``), applies moves with :func:`run`, and asserts concrete
outcomes with :func:`check`. Seats whose character a test does not name get one from
:data:`FILLERS`, the characters whose abilities stay out of the way of most positions, so that no
test depends on a seeded character pick.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bangarena.engine import Game
from bangarena.engine.cards import ALL_CARD_BY_ID as CARD_BY_ID
from bangarena.engine.cards import ALL_CARDS, DECK, KIND_BY_ID
from bangarena.engine.scenario import load_scenario

# Fillers, least intrusive first: red_suit acts only at its own draw, twin_barrels only when
# it shoots a neighbour, two_face only adds answers, lucky only acts in checks.
FILLERS = (
    "red_suit",
    "twin_barrels",
    "two_face",
    "lucky",
    "three_eyes",
    "grip",
    "eagle_eye",
    "iron_brow",
)

Move = str | tuple[int, str]


def seat(role: str, character: str | None = None, **fields: Any) -> dict[str, Any]:
    """One seat of a scenario (``fields``: life, max_life, alive, hand, in_play, weapon, stars)."""
    out: dict[str, Any] = {"role": role, **fields}
    if character is not None:
        out["character"] = character
    return out


def scenario(*seats: dict[str, Any] | str, **fields: Any) -> dict[str, Any]:
    """A scenario dict; unnamed characters come from :data:`FILLERS` in seat order."""
    specs = [dict(s) if isinstance(s, dict) else {"role": s} for s in seats]
    used = {s.get("character") for s in specs}
    pool = [c for c in FILLERS if c not in used]
    for s in specs:
        if s.get("character") is None and pool:
            s["character"] = pool.pop(0)
    return {"seed": 1, **fields, "seats": specs}


def load(*seats: dict[str, Any] | str, **fields: Any) -> Game:
    """Build the game of :func:`scenario` (the engine runs to the first real decision)."""
    return load_scenario(scenario(*seats, **fields))


# -- cards -----------------------------------------------------------------------------------


def card(
    kind: str,
    *,
    hearts: bool | None = None,
    red: bool | None = None,
    explodes: bool | None = None,
    skip: Iterable[str] = (),
) -> str:
    """The lowest-numbered card id of ``kind`` with the given suit properties."""
    skip = set(skip)
    for c in DECK:
        if c.kind != kind or c.id in skip:
            continue
        if hearts is not None and (c.suit == "hearts") != hearts:
            continue
        if red is not None and c.red != red:
            continue
        if explodes is not None and c.explodes != explodes:
            continue
        return c.id
    raise LookupError(f"no {kind} card with hearts={hearts} red={red} explodes={explodes}")


def kind_of(card_id: str) -> str:
    return CARD_BY_ID[card_id].kind


def kinds(card_ids: Iterable[str]) -> list[str]:
    return [kind_of(c) for c in card_ids]


def placed_ids(sc: dict[str, Any]) -> list[str]:
    """The card ids a scenario places, resolving kinds as the engine does (lowest free copy,
    in the order seats (hand, in_play, weapon), deck, discard)."""
    used: list[str] = []
    taken: set[str] = set()

    def take(name: str) -> None:
        if name in CARD_BY_ID:
            cid = name
        else:
            cid = next(c.id for c in DECK if c.kind == name and c.id not in taken)
        taken.add(cid)
        used.append(cid)

    for s in sc["seats"]:
        for name in s.get("hand", []):
            take(name)
        for name in s.get("in_play", []):
            take(name)
        if s.get("weapon"):
            take(s["weapon"])
    for name in sc.get("deck", []):
        take(name)
    for name in sc.get("discard", []):
        take(name)
    return used


def rest_of_deck(sc: dict[str, Any], *, exclude: Iterable[str] = ()) -> list[str]:
    """Every card id the scenario does not place (in deck-table order), minus ``exclude``:
    put them somewhere to control an empty or nearly empty deck exactly."""
    placed = set(placed_ids(sc)) | set(exclude)
    return [c.id for c in DECK if c.id not in placed]


def with_everything_placed(
    sc: dict[str, Any], holder: int, *, keep_out: Iterable[str] = ()
) -> dict[str, Any]:
    """``sc`` with every unplaced card (except ``keep_out``) added to seat ``holder``'s hand, so
    the deck holds exactly the listed cards."""
    extra = rest_of_deck(sc, exclude=keep_out)
    sc["seats"][holder]["hand"] = list(sc["seats"][holder].get("hand", [])) + extra
    return sc


# -- running and looking ---------------------------------------------------------------------


def run(game: Game, moves: Sequence[Move]) -> list[dict[str, Any]]:
    """Apply ``moves`` (an id, applied by the seat to move, or ``(seat, id)``); returns the full
    events they caused, forced moves included."""
    start = len(game.state.log)
    for m in moves:
        s, mid = (game.to_move, m) if isinstance(m, str) else m
        game.apply(s, mid)
    return events(game, start)


def events(game: Game, since: int = 0, viewer: int | None | str = "full") -> list[dict[str, Any]]:
    """The log from ``since``: the whole truth (``viewer="full"``) or as a seat saw it."""
    if viewer == "full":
        return game.omniscient_events(since)
    return game.events(viewer, since)  # type: ignore[arg-type]


def of_kind(evs: Iterable[dict[str, Any]], kind: str, **match: Any) -> list[dict[str, Any]]:
    """The events of ``kind`` whose fields equal ``match``."""
    return [e for e in evs if e["kind"] == kind and all(e.get(k) == v for k, v in match.items())]


def assert_in_order(evs: Sequence[dict[str, Any]], expected: Sequence[tuple]) -> None:
    """Each ``(kind, {field: value})`` of ``expected`` occurs in ``evs``, in this order."""
    i = 0
    for kind, fields in expected:
        while i < len(evs):
            e = evs[i]
            i += 1
            if e["kind"] == kind and all(e.get(k) == v for k, v in fields.items()):
                break
        else:
            raise AssertionError(f"event {kind} {fields} not found in order in:\n{_fmt(evs)}")


def _fmt(evs: Sequence[dict[str, Any]]) -> str:
    return "\n".join(str(e) for e in evs)


def legal(game: Game) -> list[str]:
    return [m.id for m in game.legal_moves]


def life(game: Game, s: int) -> int:
    return game.view(None).players[s].life


def hand(game: Game, s: int) -> list[str]:
    """Seat ``s``'s hand as it sees it (card ids in acquisition order)."""
    return game.view(s).hand


def public(game: Game, s: int):
    """Seat ``s`` as a spectator sees it."""
    return game.view(None).players[s]


def deck_top(game: Game, n: int = 1) -> list[str]:
    """The top ``n`` deck card ids, top first (test-only peek at the state)."""
    return [ALL_CARDS[c].id for c in reversed(game.state.deck[-n:])]


def discard_ids(game: Game) -> list[str]:
    """The discard pile, bottom to top."""
    return [ALL_CARDS[c].id for c in game.state.discard]


def check(game: Game, expect: dict[str, Any], evs: Sequence[dict[str, Any]] = ()) -> None:
    """Assert the outcomes listed in ``expect`` (see the keys below) on ``game`` and ``evs``."""
    view = game.view(None)
    players = view.players
    for key, want in expect.items():
        if key == "life":
            got = {s: players[s].life for s in want}
        elif key == "max_life":
            got = {s: players[s].max_life for s in want}
        elif key == "alive":
            got = {s: players[s].alive for s in want}
        elif key == "hand":
            got = {s: game.view(s).hand for s in want}
        elif key == "hand_kinds":
            got = {s: kinds(game.view(s).hand) for s in want}
        elif key == "hand_size":
            got = {s: players[s].hand_size for s in want}
        elif key == "in_play":
            got = {s: kinds(players[s].in_play) for s in want}
        elif key == "weapon":
            got = {s: players[s].weapon and kind_of(players[s].weapon) for s in want}
        elif key == "stars":
            got = {s: players[s].stars for s in want}
        elif key == "decision":
            d = game.decision
            got = None if d is None else (d.seat, d.kind)
        elif key == "legal":
            got = legal(game)
        elif key == "legal_has":
            missing = [m for m in want if m not in legal(game)]
            assert not missing, f"legal moves lack {missing}: {legal(game)}"
            continue
        elif key == "legal_lacks":
            present = [m for m in want if m in legal(game)]
            assert not present, f"legal moves should not have {present}: {legal(game)}"
            continue
        elif key == "events":
            assert_in_order(evs, want)
            continue
        elif key == "absent":
            found = [e for kind, fields in want for e in of_kind(evs, kind, **fields)]
            assert not found, f"unexpected events: {found}"
            continue
        elif key == "no_events":
            found = [e for e in evs if e["kind"] in want]
            assert not found, f"unexpected events: {found}"
            continue
        elif key == "tokens":  # Armed & Dangerous: Load tokens on characters
            got = {s: players[s].tokens for s in want}
        elif key == "loads":  # Armed & Dangerous: {seat: {card kind: tokens}}
            got = {s: {kind_of(c): n for c, n in (players[s].loads or {}).items()} for s in want}
        elif key == "supply":
            got = view.supply
        elif key == "discard_top":
            got = view.discard_top
        elif key == "discard":
            got = discard_ids(game)
        elif key == "deck_top":
            got = deck_top(game, len(want))
        elif key == "deck_size":
            got = view.deck_size
        elif key == "turn":
            got = view.turn
        elif key == "round":
            got = view.round
        elif key == "high_noon":
            got = view.high_noon
        elif key == "over":
            got = view.over
        elif key == "winners":
            got = view.winners
        elif key == "team":
            got = view.winning_team
        else:
            raise KeyError(f"unknown expectation {key!r}")
        assert got == want, f"{key}: expected {want!r}, got {got!r}"


def kinds_count(kind: str) -> int:
    return KIND_BY_ID[kind].copies
