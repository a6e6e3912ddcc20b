"""The fixed-size numeric encoding of a seat's view (and only of its view).

The layout is data: :func:`encoding_spec` lists every field (name, offset, size, upper bound,
meaning) and is generated from rules.json's vocabularies (card kinds, colours, characters, roles,
modes, decision kinds, glory upgrades, seat range), so a card or role added to the rules moves
the layout with it; ``tests/test_rl_env.py`` checks the spec against rules.json.

The vector is ``float32``; one-hot blocks and counts, no normalisation (bounds are in the spec).
Seats are absolute (seat ``s``'s block is the ``s``-th player block; blocks past the table are
zero, ``present`` = 0), matching the absolute seats of the move ids. Everything comes from a
:class:`~bangarena.engine.SeatView`: the encoder never sees a game.

An Armed & Dangerous game's vector (``expansions=("armed_dangerous",)``) starts with the base
layout — the same fields at the same offsets, the base cards, characters and decision kinds in
them, upper bounds from the expansion's rules.json (108 cards, more Shots) — and appends the
expansion's block: the supply, its cards in hand, on the discard pile and in a decision, its
decision kinds, then per seat its characters, cards in play, weapons, the character's Load
tokens and the tokens on each Dangerous card. An expansion card, character or decision kind
sets a number of the expansion's block, never one of the base layout.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import compress
from operator import is_not
from typing import Final

import numpy as np

from bangarena.engine import PlayerView, SeatView
from bangarena.engine.cards import ARMED_DANGEROUS
from bangarena.engine.roles import MAX_SEATS
from bangarena.rules_machine.document import rules_document

from .actions import expansions_key

# Bounds the vector never exceeds (a character's life plus the sheriff's bonus, glory and
# endurance stay well under 16; a distance is at most half the table plus two Horses).
LIFE_HIGH: Final = 16.0
DISTANCE_HIGH: Final = 16.0
NEEDED_HIGH: Final = 16.0
# What an Armed & Dangerous decision's ``card`` may hold besides a card kind or a character:
# why tokens come (a blue card played, the hand-limit discard) and Squaw's upgraded pick. They
# are the words of rules.json's decision contexts that name neither (a test holds them to it).
DECISION_CARD_WORDS: Final = ("blue_card", "hand_limit", "squaw_take")


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
class ExpansionVocab:
    """What Armed & Dangerous adds to the vocabularies (read from its rules.json)."""

    name: str
    kinds: tuple[str, ...]
    copies: tuple[int, ...]
    blue: tuple[str, ...]
    weapons: tuple[str, ...]
    dangerous: tuple[str, ...]  # the cards Load tokens sit on
    characters: tuple[str, ...]
    decisions: tuple[str, ...]
    card_words: tuple[str, ...]  # a decision's ``card`` that is no card kind nor character
    supply: int  # Load tokens in the game
    max_tokens: int  # on one holder


@dataclass(frozen=True, slots=True)
class Vocab:
    """The vocabularies the layout is built from (all read from rules.json): the base game's
    (in an expansion game too: the base layout stays), and what the expansion adds."""

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
    deck: tuple[tuple[str, str], ...]  # (card id, card kind) of every card of the game
    deck_size: int
    expansion: ExpansionVocab | None = None


def vocab(expansions: Sequence[str] = ()) -> Vocab:
    """The vocabularies of the encoding of a game with ``expansions``, read from its
    rules.json."""
    return _vocab(expansions_key(expansions))


@cache
def _vocab(key: tuple[str, ...]) -> Vocab:
    d = rules_document(key)
    cards = [c for c in d["cards"] if not c.get("expansion")]
    return Vocab(
        kinds=tuple(c["id"] for c in cards),
        copies=tuple(c["copies"] for c in cards),
        blue=tuple(c["id"] for c in cards if c["color"] == "blue"),
        weapons=tuple(c["id"] for c in cards if c["color"] == "weapon"),
        characters=tuple(c["id"] for c in d["characters"] if not c.get("expansion")),
        roles=tuple(r["id"] for r in d["roles"]),
        modes=tuple(m["id"] for m in d["modes"]),
        decisions=tuple(k["id"] for k in d["decision_kinds"] if not k.get("expansion")),
        upgrades=tuple(u["id"] for u in d["glory"]["upgrades"]),
        seat_counts=tuple(range(d["seats"]["min"], d["seats"]["max"] + 1)),
        deck=tuple((c["id"], c["kind"]) for c in d["deck"]["cards"]),
        deck_size=d["deck"]["size"],
        expansion=_expansion_vocab(d) if key else None,
    )


def _expansion_vocab(d: dict) -> ExpansionVocab:
    if d["expansions"] != [ARMED_DANGEROUS]:  # the only expansion; another needs its fields
        raise ValueError(f"no observation encoding for the expansions {d['expansions']}")
    cards = [c for c in d["cards"] if c.get("expansion") == ARMED_DANGEROUS]
    tokens = d[ARMED_DANGEROUS]["tokens"]
    return ExpansionVocab(
        name=ARMED_DANGEROUS,
        kinds=tuple(c["id"] for c in cards),
        copies=tuple(c["copies"] for c in cards),
        blue=tuple(c["id"] for c in cards if c["color"] == "blue"),
        weapons=tuple(c["id"] for c in cards if c["color"] == "weapon"),
        dangerous=tuple(c["id"] for c in cards if c["dangerous"]),
        characters=tuple(c["id"] for c in d["characters"] if c.get("expansion") == ARMED_DANGEROUS),
        decisions=tuple(
            k["id"] for k in d["decision_kinds"] if k.get("expansion") == ARMED_DANGEROUS
        ),
        card_words=DECISION_CARD_WORDS,
        supply=tokens["supply"],
        max_tokens=tokens["max_per_holder"],
    )


def context_words(expansions: Sequence[str]) -> frozenset[str]:
    """The identifiers (words with an underscore) that rules.json's decision contexts name as
    a decision's ``card`` and that are neither a card kind nor a character: what
    :data:`DECISION_CARD_WORDS` must list."""
    d = rules_document(expansions_key(expansions))
    named = {c["id"] for c in d["cards"]} | {c["id"] for c in d["characters"]}
    words: set[str] = set()
    for k in d["decision_kinds"]:
        words.update(re.findall(r"\b[a-z]+(?:_[a-z]+)+\b", k["context"]["card"] or ""))
    return frozenset(words - named)


Fields = list[Field]


def _fields(max_rounds: int, key: tuple[str, ...] = ()) -> tuple[Fields, Fields, Fields, Fields]:
    """(global fields, per-player fields, the expansion's global fields, its per-player
    fields) with offsets relative to their block (the expansion's lists are empty in a base
    game)."""
    v = _vocab(key)
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
    add("deck_size", 1, v.deck_size, "cards in the deck")
    add("discard_size", 1, v.deck_size, "cards in the discard pile")
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
    add("hand_size", 1, v.deck_size, "cards in hand")
    add("distance", 1, DISTANCE_HIGH, "distance from this seat (0 for itself or the dead)")
    add("character", len(v.characters), 1, "character (one-hot)", v.characters)
    blue_high = max(n for k, n in zip(v.kinds, v.copies, strict=True) if k in v.blue)
    add("in_play", len(v.blue), blue_high, "blue cards in play per kind (counts)", v.blue)
    add("weapon", len(v.weapons), 1, "weapon in play (one-hot; none: the Revolver)", v.weapons)
    add("stars", len(v.upgrades) + 1, LIFE_HIGH, "glory stars per upgrade, then unspent",
        (*v.upgrades, "none"))  # fmt: skip
    add("known_role", len(v.roles), 1, "the role this seat knows it has (one-hot)", v.roles)
    add("revealed", 1, 1, "the role is public")
    per = out
    x = v.expansion
    if x is None:
        return glob, per, [], []
    out = []
    at = 0
    add("supply", 1, x.supply, "Load tokens in the common supply")
    add("ad_hand", len(x.kinds), max(x.copies), "expansion cards in hand per kind (counts)",
        x.kinds)  # fmt: skip
    add("ad_discard_top", len(x.kinds), 1, "the discard pile's top card: an expansion kind",
        x.kinds)  # fmt: skip
    add("ad_decision_kind", len(x.decisions), 1, "pending decision kind: the expansion's",
        x.decisions)  # fmt: skip
    card_labels = (*x.kinds, *x.characters, *x.card_words)
    add("ad_decision_card", len(card_labels), 1,
        "the decision's `card`: an expansion kind, character or reason", card_labels)  # fmt: skip
    ad_glob = out
    out = []
    at = 0
    add("ad_character", len(x.characters), 1, "character: the expansion's (one-hot)",
        x.characters)  # fmt: skip
    high = max(n for k, n in zip(x.kinds, x.copies, strict=True) if k in x.blue)
    add("ad_in_play", len(x.blue), high, "expansion blue cards in play per kind (counts)",
        x.blue)  # fmt: skip
    add("ad_weapon", len(x.weapons), 1, "weapon in play: the expansion's (one-hot)", x.weapons)
    add("tokens", 1, x.max_tokens, "Load tokens on the character")
    add("loads", len(x.dangerous), x.max_tokens, "Load tokens on each Dangerous card in play",
        x.dangerous)  # fmt: skip
    return glob, per, ad_glob, out


def encoding_spec(max_rounds: int = 40, expansions: Sequence[str] = ()) -> tuple[Field, ...]:
    """Every field with its absolute offset: the global block, then one block per seat
    ``0 … MAX_SEATS-1`` (fields named ``player_<s>.<name>``); with an expansion, then its
    global block and its block per seat (the same naming)."""
    return _spec(max_rounds, expansions_key(expansions))


@cache
def _spec(max_rounds: int, key: tuple[str, ...]) -> tuple[Field, ...]:
    glob, per, ad_glob, ad_per = _fields(max_rounds, key)
    out: list[Field] = []

    def blocks(glob: Fields, per: Fields, start: int) -> int:
        g_size = sum(f.size for f in glob)
        p_size = sum(f.size for f in per)
        out.extend(Field(f.name, start + f.offset, f.size, f.high, f.meaning, f.labels)
                   for f in glob)  # fmt: skip
        for s in range(MAX_SEATS):
            base = start + g_size + s * p_size
            out.extend(
                Field(f"player_{s}.{f.name}", base + f.offset, f.size, f.high, f.meaning, f.labels)
                for f in per
            )
        return start + g_size + MAX_SEATS * p_size

    end = blocks(glob, per, 0)
    if ad_glob:
        blocks(ad_glob, ad_per, end)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class _Layout:
    """Field offsets relative to their block, and the block sizes."""

    glob: dict[str, int]
    per: dict[str, int]
    gsize: int
    psize: int
    ad_glob: dict[str, int]
    ad_per: dict[str, int]
    ad_gsize: int
    ad_psize: int

    @property
    def base_size(self) -> int:
        return self.gsize + MAX_SEATS * self.psize

    @property
    def size(self) -> int:
        return self.base_size + self.ad_gsize + MAX_SEATS * self.ad_psize


@cache
def _layout(max_rounds: int, key: tuple[str, ...] = ()) -> _Layout:
    glob, per, ad_glob, ad_per = _fields(max_rounds, key)
    return _Layout(
        {f.name: f.offset for f in glob},
        {f.name: f.offset for f in per},
        sum(f.size for f in glob),
        sum(f.size for f in per),
        {f.name: f.offset for f in ad_glob},
        {f.name: f.offset for f in ad_per},
        sum(f.size for f in ad_glob),
        sum(f.size for f in ad_per),
    )


def observation_size(max_rounds: int = 40, expansions: Sequence[str] = ()) -> int:
    """Length of the vector of a game with ``expansions``."""
    return _layout(max_rounds, expansions_key(expansions)).size


def observation_high(max_rounds: int = 40, expansions: Sequence[str] = ()) -> np.ndarray:
    """Per-number upper bounds (lower bounds are 0); shared: do not modify."""
    return _high(max_rounds, expansions_key(expansions))


@cache
def _high(max_rounds: int, key: tuple[str, ...]) -> np.ndarray:
    high = np.zeros(_layout(max_rounds, key).size, dtype=np.float32)
    for f in _spec(max_rounds, key):
        high[f.offset : f.offset + f.size] = f.high
    high.flags.writeable = False
    return high


@cache
def _tables(max_rounds: int, key: tuple[str, ...] = ()) -> tuple:
    """What every encoder of a round cap and expansions shares: the block sizes, the global
    offsets, and per id (card, kind, character, role, decision) the absolute index it sets —
    in the global block, and in each seat's block; an expansion's card, character or decision
    kind sets its index in the expansion's blocks — so encoding is one dict lookup per number.
    Last, the expansion's own offsets (None in a base game)."""
    lay = _layout(max_rounds, key)
    g, p, gsize, psize = lay.glob, lay.per, lay.gsize, lay.psize
    v = _vocab(key)
    x = v.expansion
    ad_kinds = x.kinds if x is not None else ()
    kind_of = {**{k: k for k in (*v.kinds, *ad_kinds)}, **dict(v.deck)}  # kind or card id -> kind
    kinds = {k: i for i, k in enumerate(v.kinds)}
    a0 = lay.base_size  # the expansion's global block
    ag, ap = lay.ad_glob, lay.ad_per

    def ids(offset: int, names: dict[str, int], ad_offset: int = 0, ad_names=None) -> dict:
        out = {c: offset + names[k] for c, k in kind_of.items() if k in names}
        if ad_names:
            out.update({c: ad_offset + ad_names[k] for c, k in kind_of.items() if k in ad_names})
        return out

    def at(offset: int, labels: tuple[str, ...]) -> dict[str, int]:
        return {k: offset + i for i, k in enumerate(labels)}

    def ad(names: tuple[str, ...]) -> dict[str, int]:
        return {k: i for i, k in enumerate(names)}

    xk = ad(ad_kinds)
    dcard = ids(g["decision_card"], kinds, a0 + ag.get("ad_decision_card", 0), xk)
    dkind = at(g["decision_kind"], v.decisions)
    if x is not None:
        dcard.update(at(a0 + ag["ad_decision_card"] + len(x.kinds), (*x.characters, *x.card_words)))
        dkind.update(at(a0 + ag["ad_decision_kind"], x.decisions))
    glob = {
        "static": (g["seat"], g["seats"], g["mode"], g["role"]),
        "scalars": (g["turn"], g["round"], g["high_noon"], g["deck_size"], g["discard_size"]),
        "decision": (g["decision_seat"], g["decision_source"], g["decision_needed"]),
        "hand": ids(g["hand"], kinds, a0 + ag.get("ad_hand", 0), xk),
        "top": ids(g["discard_top"], kinds, a0 + ag.get("ad_discard_top", 0), xk),
        "dcard": dcard,
        "dkind": dkind,
        "named": g["named_deputies"],
        "seats": {n: i for i, n in enumerate(v.seat_counts)},
        "modes": {k: i for i, k in enumerate(v.modes)},
        "roles": {k: i for i, k in enumerate(v.roles)},
    }
    blue = ad(v.blue)
    weapons = ad(v.weapons)
    players = []
    extra = []
    for s in range(MAX_SEATS):
        b = gsize + s * psize
        xb = a0 + lay.ad_gsize + s * lay.ad_psize  # the seat's expansion block
        stars = {u: b + p["stars"] + i for i, u in enumerate(v.upgrades)}
        chars = at(b + p["character"], v.characters)
        in_play = ids(b + p["in_play"], blue)
        weapon = ids(b + p["weapon"], weapons)
        if x is not None:
            chars.update(at(xb + ap["ad_character"], x.characters))
            in_play.update(ids(xb + ap["ad_in_play"], ad(x.blue)))
            weapon.update(ids(xb + ap["ad_weapon"], ad(x.weapons)))
            extra.append((xb, xb + ap["tokens"], ids(xb + ap["loads"], ad(x.dangerous))))
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
                chars,
                in_play,
                weapon,
                stars,
                b + p["stars"] + len(v.upgrades),  # an unspent star
                {r: b + p["known_role"] + i for i, r in enumerate(v.roles)},
            )
        )
    expansion = None
    if x is not None:
        expansion = (a0, lay.ad_gsize, a0 + ag["supply"], lay.ad_psize, tuple(extra))
    return gsize, psize, glob, tuple(players), lay.size, expansion


def _write_block(x: memoryview, b: int, pv: PlayerView, tables: tuple) -> None:
    """Write ``pv`` into its zeroed base block at ``b`` (tables from :func:`_player_tables`)."""
    scal, chars, in_play, weapons, stars, unspent, roles = tables
    a_present, a_alive, a_life, a_max, a_hand, a_dist, a_rev = scal
    x[b + a_present] = 1.0
    x[b + a_alive] = pv.alive
    x[b + a_life] = pv.life
    x[b + a_max] = pv.max_life
    x[b + a_hand] = pv.hand_size
    x[b + a_rev] = pv.revealed
    if pv.distance:
        x[b + a_dist] = pv.distance
    x[b + chars[pv.character]] = 1.0
    for c in pv.in_play:
        k = in_play.get(c)
        if k is not None:
            x[b + k] += 1.0
    if pv.weapon:
        x[b + weapons[pv.weapon]] = 1.0
    for star in pv.stars:
        x[b + (stars.get(star, unspent) if star else unspent)] += 1.0
    if pv.role:
        x[b + roles[pv.role]] = 1.0


@cache
def _player_tables(max_rounds: int, key: tuple[str, ...] = ()) -> tuple:
    """Seat 0's player tables of :func:`_tables` with offsets relative to its block: every
    seat's block has the same layout, so one set of small tables serves every seat (seven
    sets of absolute ones cost more in cache misses than the additions they save)."""
    gsize, _psize, _glob, players, _size, _ad = _tables(max_rounds, key)
    b, scal, chars, in_play, weapons, stars, unspent, roles = players[0]

    def rel(d: dict[str, int]) -> dict[str, int]:
        return {k: i - b for k, i in d.items()}

    return (
        tuple(i - b for i in scal),
        rel(chars),
        rel(in_play),
        rel(weapons),
        rel(stars),
        unspent - b,
        rel(roles),
    )


class Encoder:
    """Encodes one seat's successive views into one buffer. A player's block is rewritten only
    when the view hands back a different :class:`PlayerView` object (``Game.view`` reuses the
    unchanged ones). The buffer is an ``array.array`` written number by number (a numpy item
    write or fancy assignment costs several times more) and handed out as a numpy copy; every
    index comes from one lookup in the shared tables (:func:`_tables`).

    ``expansions``: the game's (its views carry the expansion's fields, encoded after the base
    layout)."""

    __slots__ = ("max_rounds", "expansions", "_gsize", "_psize", "_glob", "_players", "_kept",
                 "_buf", "_out", "_mv", "_pzero", "_static", "_ad", "_ad_gzero", "_ad_pzero",
                 "_rel", "_bases", "_flat")  # fmt: skip

    def __init__(self, max_rounds: int = 40, expansions: Sequence[str] = ()) -> None:
        self.max_rounds = max_rounds
        self.expansions = key = expansions_key(expansions)
        self._gsize, self._psize, self._glob, self._players, size, self._ad = _tables(
            max_rounds, key
        )
        self._kept: list[PlayerView | None] = [None] * MAX_SEATS
        self._buf = array("f", bytes(4 * size))
        # A numpy view of the buffer (its size never changes): an encoding is one copy of it.
        self._out = np.frombuffer(self._buf, dtype=np.float32)
        # Numbers are written through a memoryview: an array.array item write parses its
        # value with PyArg_Parse, a memoryview's packs it directly (a third fewer
        # instructions per number, counted with callgrind in the environment's loop). Slices
        # are copied on the array itself (a memoryview slice wants a memoryview of its shape).
        self._mv = memoryview(self._buf)
        self._pzero = array("f", bytes(4 * self._psize))
        self._static: array | None = None
        ad = self._ad
        self._ad_gzero = array("f", bytes(4 * ad[1])) if ad is not None else None
        self._ad_pzero = array("f", bytes(4 * ad[3])) if ad is not None else None
        # Base games update a changed player's block in place from its previous PlayerView (an
        # expansion's player spans two blocks, which its own pass and the base pass rewrite).
        self._rel = _player_tables(max_rounds, key) if ad is None else None
        self._bases = tuple(entry[0] for entry in self._players)
        g = self._glob
        self._flat = (g["hand"], *g["scalars"], g["top"], *g["decision"], g["dkind"], g["dcard"],
                      g["named"])  # fmt: skip

    def reset(self) -> None:
        """Forget the views encoded so far (a new game of the same table): the next
        :meth:`encode` writes every block afresh."""
        self._kept = [None] * MAX_SEATS
        self._static = None

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

    def _expansion_fields(self, view: SeatView) -> None:
        """The expansion's own numbers: the supply and, for each seat whose PlayerView changed,
        its tokens and loads. Runs before the base pass, which then writes the expansion's
        cards, characters and decisions into the blocks this clears."""
        x = self._buf
        start, gsize, o_supply, psize, seats = self._ad  # type: ignore[misc]
        x[start : start + gsize] = self._ad_gzero
        x[o_supply] = view.supply
        kept = self._kept
        pzero = self._ad_pzero
        for s, pv in enumerate(view.players):
            if kept[s] is pv:
                continue
            b, o_tokens, loads = seats[s]
            x[b : b + psize] = pzero
            x[o_tokens] = pv.tokens
            for c, n in pv.loads.items():
                x[loads[c]] = n

    def _write_globals(self, view: SeatView) -> None:
        """The global block of ``view``: the static numbers, the hand, the turn and round,
        the piles and the pending decision (every offset from one tuple)."""
        buf, x = self._buf, self._mv
        buf[0 : self._gsize] = self._static or self._static_block(view)
        (hand, o_turn, o_round, o_hn, o_deck, o_disc, tops, o_dseat, o_dsrc, o_dneed, dkinds,
         dcards, o_named) = self._flat  # fmt: skip
        for c in view.hand:
            x[hand[c]] += 1.0
        turn = view.turn
        if 0 <= turn < MAX_SEATS:
            x[o_turn + turn] = 1.0
        x[o_round] = view.round
        x[o_hn] = view.high_noon
        x[o_deck] = view.deck_size
        x[o_disc] = view.discard_size
        top = view.discard_top
        if top:
            x[tops[top]] = 1.0
        d = view.decision
        if d is not None:
            x[dkinds[d.kind]] = 1.0
            x[o_dseat + d.seat] = 1.0
            if d.source is not None:
                x[o_dsrc + d.source] = 1.0
            if d.needed is not None:
                x[o_dneed] = d.needed
            if d.card is not None:
                k = dcards.get(d.card)
                if k is not None:
                    x[k] = 1.0
        for s in view.named_deputies:
            x[o_named + s] = 1.0

    def _encode_base(self, view: SeatView) -> np.ndarray:
        """:meth:`encode` of a base game: the same numbers as the general pass, in fewer steps
        (it runs once per environment step, where it was most of the environment's own cost):
        the seats whose PlayerView changed are picked out at C level, and a changed block is
        updated in place from its previous PlayerView."""
        buf, x = self._buf, self._mv
        self._write_globals(view)
        players, kept = view.players, self._kept
        for s in compress(range(len(players)), map(is_not, players, kept)):
            pv, old = players[s], kept[s]
            kept[s] = pv
            b = self._bases[s]
            if old is None:
                buf[b : b + self._psize] = self._pzero
                _write_block(x, b, pv, self._rel)  # type: ignore[arg-type]
                continue
            # The block of ``old`` becomes ``pv``'s: the scalars are written, the one-hot
            # parts cleared and set only where they differ (a new PlayerView usually differs
            # in a hand size or a life).
            scal, chars, in_play, weapons, stars, unspent, roles = self._rel  # type: ignore[misc]
            _present, a_alive, a_life, a_max, a_hand, a_dist, a_rev = scal
            # a comparison costs a third of a write, and usually one number changed
            if old.hand_size != pv.hand_size:
                x[b + a_hand] = pv.hand_size
            if old.life != pv.life:
                x[b + a_life] = pv.life
            if old.distance != pv.distance:
                x[b + a_dist] = pv.distance or 0
            if old.alive is not pv.alive:
                x[b + a_alive] = pv.alive
            if old.max_life != pv.max_life:
                x[b + a_max] = pv.max_life
            if old.revealed is not pv.revealed:
                x[b + a_rev] = pv.revealed
            if old.character != pv.character:
                x[b + chars[old.character]] = 0.0
                x[b + chars[pv.character]] = 1.0
            if old.in_play != pv.in_play:
                for c in old.in_play:
                    k = in_play.get(c)
                    if k is not None:
                        x[b + k] = 0.0
                for c in pv.in_play:
                    k = in_play.get(c)
                    if k is not None:
                        x[b + k] += 1.0
            if old.weapon != pv.weapon:
                if old.weapon:
                    x[b + weapons[old.weapon]] = 0.0
                if pv.weapon:
                    x[b + weapons[pv.weapon]] = 1.0
            if old.stars != pv.stars:
                for star in old.stars:
                    x[b + (stars.get(star, unspent) if star else unspent)] = 0.0
                for star in pv.stars:
                    x[b + (stars.get(star, unspent) if star else unspent)] += 1.0
            if old.role != pv.role:
                if old.role:
                    x[b + roles[old.role]] = 0.0
                if pv.role:
                    x[b + roles[pv.role]] = 1.0
        return self._out.copy()

    def encode(self, view: SeatView) -> np.ndarray:
        """The vector of ``view`` (a new array; the caller may keep it)."""
        if self._rel is not None:
            return self._encode_base(view)
        buf, x = self._buf, self._mv
        self._expansion_fields(view)
        self._write_globals(view)
        kept = self._kept
        players = self._players
        p = self._psize
        for s, pv in enumerate(view.players):
            if kept[s] is pv:
                continue
            kept[s] = pv
            base = players[s][0]
            buf[base : base + p] = self._pzero
            # this seat's tables hold absolute offsets (its expansion ids point into its
            # expansion block): the block is written from offset 0
            _write_block(x, 0, pv, players[s][1:])
        return self._out.copy()
