"""The fixed-size numeric encoding of a seat's view (and only of its view).

The layout is data: :func:`encoding_spec` lists every field (name, offset, size, upper bound,
meaning) and is generated from rules.json's vocabularies (card kinds, colours, characters, roles,
modes, decision kinds, glory upgrades, seat range), so a card or role added to the rules moves
the layout with it; ``tests/test_rl_env.py`` checks the spec against rules.json.

The vector is ``float32``; one-hot blocks and counts, no normalisation (bounds are in the spec).
Seats are absolute (seat ``s``'s block is the ``s``-th player block; blocks past the table are
zero, ``present`` = 0), matching the absolute seats of the move ids. Everything comes from a
:class:`~bangarena.engine.SeatView`: the encoder never sees a game.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import cache
from typing import Final

import numpy as np

from bangarena.engine import PlayerView, SeatView
from bangarena.engine.cards import DECK_SIZE
from bangarena.engine.roles import MAX_SEATS
from bangarena.rules_machine.document import rules_document

# Bounds the vector never exceeds (a character's life plus the sheriff's bonus, glory and
# endurance stay well under 16; a distance is at most half the table plus two Horses).
LIFE_HIGH: Final = 16.0
DISTANCE_HIGH: Final = 16.0
NEEDED_HIGH: Final = 16.0


@dataclass(frozen=True, slots=True)
class Field:
    """One field of the encoding: ``size`` numbers from ``offset``, each in ``[0, high]``;
    ``labels`` names each number of a one-hot or per-kind block."""

    name: str
    offset: int
    size: int
    high: float
    meaning: str
    labels: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Vocab:
    """The vocabularies the layout is built from (all read from rules.json)."""

    kinds: tuple[str, ...]
    copies: tuple[int, ...]
    blue: tuple[str, ...]
    weapons: tuple[str, ...]
    characters: tuple[str, ...]
    roles: tuple[str, ...]
    modes: tuple[str, ...]
    decisions: tuple[str, ...]
    upgrades: tuple[str, ...]
    seat_counts: tuple[int, ...]
    deck: tuple[tuple[str, str], ...]  # (card id, card kind) of every card


@cache
def vocab() -> Vocab:
    """The vocabularies of the encoding, read from rules.json."""
    d = rules_document()
    cards = d["cards"]
    return Vocab(
        kinds=tuple(c["id"] for c in cards),
        copies=tuple(c["copies"] for c in cards),
        blue=tuple(c["id"] for c in cards if c["color"] == "blue"),
        weapons=tuple(c["id"] for c in cards if c["color"] == "weapon"),
        characters=tuple(c["id"] for c in d["characters"]),
        roles=tuple(r["id"] for r in d["roles"]),
        modes=tuple(m["id"] for m in d["modes"]),
        decisions=tuple(k["id"] for k in d["decision_kinds"]),
        upgrades=tuple(u["id"] for u in d["glory"]["upgrades"]),
        seat_counts=tuple(range(d["seats"]["min"], d["seats"]["max"] + 1)),
        deck=tuple((c["id"], c["kind"]) for c in d["deck"]["cards"]),
    )


def _fields(max_rounds: int) -> tuple[list[Field], list[Field]]:
    """(global fields, per-player fields) with offsets relative to their block."""
    v = vocab()
    seats = tuple(f"seat_{s}" for s in range(MAX_SEATS))
    out: list[Field] = []
    at = 0

    def add(name: str, size: int, high: float, meaning: str, labels=()) -> None:
        nonlocal at
        out.append(Field(name, at, size, high, meaning, tuple(labels)))
        at += size

    add("seat", MAX_SEATS, 1, "this seat (one-hot)", seats)
    add("seats", len(v.seat_counts), 1, "table size (one-hot)", map(str, v.seat_counts))
    add("mode", len(v.modes), 1, "mode (one-hot)", v.modes)
    add("role", len(v.roles), 1, "this seat's role (one-hot)", v.roles)
    add("hand", len(v.kinds), max(v.copies), "cards in hand per card kind (counts)", v.kinds)
    add("turn", MAX_SEATS, 1, "whose turn it is (one-hot)", seats)
    add("round", 1, max_rounds, "the round number")
    add("high_noon", 1, 1, "High Noon is on (round 8 and later)")
    add("deck_size", 1, DECK_SIZE, "cards in the deck")
    add("discard_size", 1, DECK_SIZE, "cards in the discard pile")
    add("discard_top", len(v.kinds), 1, "kind of the discard pile's top card (one-hot)", v.kinds)
    add("decision_kind", len(v.decisions), 1, "pending decision kind (one-hot)", v.decisions)
    add("decision_seat", MAX_SEATS, 1, "seat the pending decision is for (one-hot)", seats)
    add("decision_source", MAX_SEATS, 1, "the decision's source seat (one-hot)", seats)
    add("decision_needed", 1, NEEDED_HIGH, "the decision's `needed` (Ricochets, ♥ to lose)")
    add("decision_card", len(v.kinds), 1, "the card kind the decision answers (one-hot)", v.kinds)
    add("named_deputies", MAX_SEATS, 1, "double_agent: the sheriff's two named seats", seats)
    glob = out
    out = []
    at = 0
    add("present", 1, 1, "the seat exists at this table")
    add("alive", 1, 1, "alive")
    add("life", 1, LIFE_HIGH, "♥ now")
    add("max_life", 1, LIFE_HIGH, "♥ maximum")
    add("hand_size", 1, DECK_SIZE, "cards in hand")
    add("distance", 1, DISTANCE_HIGH, "distance from this seat (0 for itself or the dead)")
    add("character", len(v.characters), 1, "character (one-hot)", v.characters)
    blue_high = max(n for k, n in zip(v.kinds, v.copies, strict=True) if k in v.blue)
    add("in_play", len(v.blue), blue_high, "blue cards in play per kind (counts)", v.blue)
    add("weapon", len(v.weapons), 1, "weapon in play (one-hot; none: the Revolver)", v.weapons)
    add("stars", len(v.upgrades) + 1, LIFE_HIGH, "glory stars per upgrade, then unspent",
        (*v.upgrades, "none"))  # fmt: skip
    add("known_role", len(v.roles), 1, "the role this seat knows it has (one-hot)", v.roles)
    add("revealed", 1, 1, "the role is public")
    return glob, out


@cache
def encoding_spec(max_rounds: int = 40) -> tuple[Field, ...]:
    """Every field with its absolute offset: the global block, then one block per seat
    ``0 … MAX_SEATS-1`` (fields named ``player_<s>.<name>``)."""
    glob, per = _fields(max_rounds)
    g_size = sum(f.size for f in glob)
    p_size = sum(f.size for f in per)
    out = list(glob)
    for s in range(MAX_SEATS):
        base = g_size + s * p_size
        out += [
            Field(f"player_{s}.{f.name}", base + f.offset, f.size, f.high, f.meaning, f.labels)
            for f in per
        ]
    return tuple(out)


@cache
def _layout(max_rounds: int) -> tuple[dict[str, int], dict[str, int], int, int]:
    glob, per = _fields(max_rounds)
    return (
        {f.name: f.offset for f in glob},
        {f.name: f.offset for f in per},
        sum(f.size for f in glob),
        sum(f.size for f in per),
    )


def observation_size(max_rounds: int = 40) -> int:
    """Length of the vector."""
    _, _, g, p = _layout(max_rounds)
    return g + MAX_SEATS * p


@cache
def observation_high(max_rounds: int = 40) -> np.ndarray:
    """Per-number upper bounds (lower bounds are 0)."""
    high = np.zeros(observation_size(max_rounds), dtype=np.float32)
    for f in encoding_spec(max_rounds):
        high[f.offset : f.offset + f.size] = f.high
    return high


@cache
def _tables(max_rounds: int) -> tuple:
    """What every encoder of a round cap shares: the block sizes, the global offsets, and per
    id (card, kind, character, role, decision) the absolute index it sets — in the global
    block, and in each seat's block — so encoding is one dict lookup per number."""
    g, p, gsize, psize = _layout(max_rounds)
    v = vocab()
    kind_of = {**{k: k for k in v.kinds}, **dict(v.deck)}  # a kind or a card id -> its kind
    kinds = {k: i for i, k in enumerate(v.kinds)}

    def ids(offset: int, names: dict[str, int]) -> dict[str, int]:
        return {c: offset + names[k] for c, k in kind_of.items() if k in names}

    glob = {
        "static": (g["seat"], g["seats"], g["mode"], g["role"]),
        "scalars": (g["turn"], g["round"], g["high_noon"], g["deck_size"], g["discard_size"]),
        "decision": (g["decision_seat"], g["decision_source"], g["decision_needed"]),
        "hand": ids(g["hand"], kinds),
        "top": ids(g["discard_top"], kinds),
        "dcard": ids(g["decision_card"], kinds),
        "dkind": {k: g["decision_kind"] + i for i, k in enumerate(v.decisions)},
        "named": g["named_deputies"],
        "seats": {n: i for i, n in enumerate(v.seat_counts)},
        "modes": {k: i for i, k in enumerate(v.modes)},
        "roles": {k: i for i, k in enumerate(v.roles)},
    }
    blue = {k: i for i, k in enumerate(v.blue)}
    weapons = {k: i for i, k in enumerate(v.weapons)}
    players = []
    for s in range(MAX_SEATS):
        b = gsize + s * psize
        stars = {u: b + p["stars"] + i for i, u in enumerate(v.upgrades)}
        players.append(
            (
                b,
                (
                    b + p["present"],
                    b + p["alive"],
                    b + p["life"],
                    b + p["max_life"],
                    b + p["hand_size"],
                    b + p["distance"],
                    b + p["revealed"],
                ),  # fmt: skip
                {c: b + p["character"] + i for i, c in enumerate(v.characters)},
                ids(b + p["in_play"], blue),
                ids(b + p["weapon"], weapons),
                stars,
                b + p["stars"] + len(v.upgrades),  # an unspent star
                {r: b + p["known_role"] + i for i, r in enumerate(v.roles)},
            )
        )
    return gsize, psize, glob, tuple(players)


class Encoder:
    """Encodes one seat's successive views into one buffer. A player's block is rewritten only
    when the view hands back a different :class:`PlayerView` object (``Game.view`` reuses the
    unchanged ones). The buffer is an ``array.array`` written number by number (a numpy item
    write or fancy assignment costs several times more) and handed out as a numpy copy; every
    index comes from one lookup in the shared tables (:func:`_tables`)."""

    __slots__ = ("max_rounds", "_gsize", "_psize", "_glob", "_players", "_kept", "_buf",
                 "_pzero", "_static")  # fmt: skip

    def __init__(self, max_rounds: int = 40) -> None:
        self.max_rounds = max_rounds
        self._gsize, self._psize, self._glob, self._players = _tables(max_rounds)
        self._kept: list[PlayerView | None] = [None] * MAX_SEATS
        self._buf = array("f", bytes(4 * (self._gsize + MAX_SEATS * self._psize)))
        self._pzero = array("f", bytes(4 * self._psize))
        self._static: array | None = None

    def _static_block(self, view: SeatView) -> array:
        """The global numbers that never change for one seat: seat, table size, mode, role."""
        glob = self._glob
        o_seat, o_seats, o_mode, o_role = glob["static"]
        static = array("f", bytes(4 * self._gsize))
        static[o_seats + glob["seats"][view.seats]] = 1.0
        static[o_mode + glob["modes"][view.mode]] = 1.0
        if view.seat is not None:
            static[o_seat + view.seat] = 1.0
        if view.role:
            static[o_role + glob["roles"][view.role]] = 1.0
        self._static = static
        return static

    def encode(self, view: SeatView) -> np.ndarray:
        """The vector of ``view`` (a new array; the caller may keep it)."""
        x = self._buf
        glob = self._glob
        x[0 : self._gsize] = self._static or self._static_block(view)
        hand = glob["hand"]
        for c in view.hand:
            x[hand[c]] += 1.0
        o_turn, o_round, o_hn, o_deck, o_disc = glob["scalars"]
        turn = view.turn
        if 0 <= turn < MAX_SEATS:
            x[o_turn + turn] = 1.0
        x[o_round] = view.round
        x[o_hn] = view.high_noon
        x[o_deck] = view.deck_size
        x[o_disc] = view.discard_size
        top = view.discard_top
        if top:
            x[glob["top"][top]] = 1.0
        d = view.decision
        if d is not None:
            o_dseat, o_dsrc, o_dneed = glob["decision"]
            x[glob["dkind"][d.kind]] = 1.0
            x[o_dseat + d.seat] = 1.0
            if d.source is not None:
                x[o_dsrc + d.source] = 1.0
            if d.needed is not None:
                x[o_dneed] = d.needed
            k = glob["dcard"].get(d.card) if d.card is not None else None
            if k is not None:
                x[k] = 1.0
        for s in view.named_deputies:
            x[glob["named"] + s] = 1.0
        kept = self._kept
        players = self._players
        p = self._psize
        for s, pv in enumerate(view.players):
            if kept[s] is pv:
                continue
            kept[s] = pv
            base, scal, chars, in_play, weapons, stars, unspent, roles = players[s]
            x[base : base + p] = self._pzero
            a_present, a_alive, a_life, a_max, a_hand, a_dist, a_rev = scal
            x[a_present] = 1.0
            x[a_alive] = pv.alive
            x[a_life] = pv.life
            x[a_max] = pv.max_life
            x[a_hand] = pv.hand_size
            x[a_rev] = pv.revealed
            if pv.distance:
                x[a_dist] = pv.distance
            x[chars[pv.character]] = 1.0
            for c in pv.in_play:
                k = in_play.get(c)
                if k is not None:
                    x[k] += 1.0
            if pv.weapon:
                x[weapons[pv.weapon]] = 1.0
            for star in pv.stars:
                x[stars.get(star, unspent) if star else unspent] += 1.0
            if pv.role:
                x[roles[pv.role]] = 1.0
        return np.frombuffer(x.__copy__(), dtype=np.float32)
