"""Legal moves: small typed values with stable, readable ids, and the decision kinds.

A move id names the same choice in every decision (``end_turn``, ``shot@3``, ``take_hit``,
``discard:shot``); :func:`parse_move_id` reads one back. Moves are interned, so generating a
legal list allocates almost nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .roles import MAX_SEATS

# Decision kinds (rules.md §3, §5, §7, §9).
PLAY: Final = "play"
DISCARD_EXCESS: Final = "discard_excess"
ANSWER_SHOT: Final = "answer_shot"
ANSWER_RAID: Final = "answer_raid"
ANSWER_DUEL: Final = "answer_duel"
BRACE: Final = "brace"
HEAL_DISCARD: Final = "heal_discard"
DRAW_CHOICE: Final = "draw_choice"
DRAW_KEEP: Final = "draw_keep"
PICK_CARD: Final = "pick_card"
GLORY_UPGRADE: Final = "glory_upgrade"
BOUNTY_PICK: Final = "bounty_pick"
DECISION_KINDS: Final = (
    PLAY,
    DISCARD_EXCESS,
    ANSWER_SHOT,
    ANSWER_RAID,
    ANSWER_DUEL,
    BRACE,
    HEAL_DISCARD,
    DRAW_CHOICE,
    DRAW_KEEP,
    PICK_CARD,
    GLORY_UPGRADE,
    BOUNTY_PICK,
)
"""The base game's decision kinds."""

# Armed & Dangerous decision kinds.
OPTION: Final = "optional_effect"  # pass or use an optional effect (upgrade, weapon, window)
PAY_TOKEN: Final = "pay_token"  # which holder pays the next token of a cost
LOAD_TOKEN: Final = "load_token"  # which holder gets the next token(s)
DISCARD_CARD: Final = "discard_card"  # discard a card of one's choice (Buntline, Bass Greeves)
TAKE_TOKEN: Final = "take_token"  # Frankie Canton: which holder he takes a token from
PASS_BOMB: Final = "pass_bomb"  # the Bomb's red flip: to whom it goes
AD_DECISION_KINDS: Final = (OPTION, PAY_TOKEN, LOAD_TOKEN, DISCARD_CARD, TAKE_TOKEN, PASS_BOMB)
ALL_DECISION_KINDS: Final = DECISION_KINDS + AD_DECISION_KINDS

# Move kinds.
MOVE_KINDS: Final = (
    "end_turn",
    "play",
    "play_as",
    "answer",
    "take_hit",
    "heal",
    "discard",
    "draw",
    "return",
    "pick",
    "upgrade",
    "bounty",
)
MOVE_ID_PATTERNS: Final = {
    "end_turn": "end_turn",
    "play": "<card_kind> or <card_kind>@<seat>",
    "play_as": "ricochet_as_shot@<seat>",
    "answer": "ricochet | shot_as_ricochet | canteen | shot | ricochet_as_shot",
    "take_hit": "take_hit",
    "heal": "heal",
    "discard": "discard:<card_kind>",
    "draw": "draw_deck | draw_discard | grip@<seat>",
    "return": "return:<card_id>",
    "pick": "pick:hand | pick:<card_kind>",
    "upgrade": "upgrade:<marksman|endurance|instinct>",
    "bounty": "bounty:<marksman|endurance|instinct|none>",
}
"""The base game's move kinds and id shapes."""
AD_MOVE_KINDS: Final = ("pass", "use", "pay", "load", "take", "give")
ALL_MOVE_KINDS: Final = MOVE_KINDS + AD_MOVE_KINDS
AD_MOVE_ID_PATTERNS: Final = {
    "answer": "ricochet | shot_as_ricochet | canteen | shot | ricochet_as_shot | duck",
    "pass": "pass",
    "use": "use:<card_kind> or use:<character> or use:<card_kind>@<seat> or use:<character>@<seat>",
    "pay": "pay:character or pay:<card_kind>",
    "load": "load:character or load:<card_kind>",
    "take": "take:character@<seat> or take:<card_kind>@<seat>",
    "give": "give@<seat>",
}
"""What Armed & Dangerous adds to :data:`MOVE_ID_PATTERNS` (``answer`` replaces the base one)."""


@dataclass(frozen=True, slots=True)
class Move:
    """One legal choice. ``card`` is a card kind (or a card id for ``return``), ``target`` a seat,
    ``option`` the rest (a draw source, an upgrade, a pick)."""

    id: str
    kind: str
    card: str | None = None
    target: int | None = None
    option: str | None = None


@dataclass(slots=True)
class Decision:
    """The pending decision: whose it is, its kind, the legal moves, and public context
    (``source``: who attacks; ``needed``: Ricochets still needed; ``card``: the card answered).

    Read-only by convention: one is built per decision, and a frozen dataclass costs four times
    as much to build (a measured 0.5 µs of every decision in bot games)."""

    seat: int
    kind: str
    moves: tuple[Move, ...]
    source: int | None = None
    needed: int | None = None
    card: str | None = None

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(m.id for m in self.moves)

    def get(self, move_id: str) -> Move | None:
        for m in self.moves:
            if m.id == move_id:
                return m
        return None


_CACHE: dict[str, Move] = {}


def intern(move: Move) -> Move:
    """The shared instance of ``move`` (moves are values; interning keeps lists cheap).

    The cache key is the id prefixed with the move kind, because one id may name the same card
    played on one's turn and in an answer (``canteen``)."""
    return _CACHE.setdefault(move.kind + "|" + move.id, move)


END_TURN: Final = intern(Move("end_turn", "end_turn"))
TAKE_HIT: Final = intern(Move("take_hit", "take_hit"))
HEAL: Final = intern(Move("heal", "heal"))
DRAW_DECK: Final = intern(Move("draw_deck", "draw", option="deck"))
DRAW_DISCARD: Final = intern(Move("draw_discard", "draw", option="discard"))
PICK_HAND: Final = intern(Move("pick:hand", "pick", option="hand"))
PASS: Final = intern(Move("pass", "pass"))


def use_move(what: str, target: int | None = None) -> Move:
    """Use an effect: a Dangerous card's, a character's ability, an upgrade (at ``target``)."""
    mid = "use:" + what if target is None else f"use:{what}@{target}"
    m = _CACHE.get("use|" + mid)
    if m is None:
        m = intern(Move(mid, "use", card=what, target=target))
    return m


def holder_move(kind: str, holder: str, target: int | None = None) -> Move:
    """``pay:<holder>``, ``load:<holder>`` or ``take:<holder>@<seat>``; ``holder`` is
    ``character`` or a Dangerous card's kind."""
    mid = f"{kind}:{holder}" if target is None else f"{kind}:{holder}@{target}"
    m = _CACHE.get(kind + "|" + mid)
    if m is None:
        m = intern(Move(mid, kind, card=holder, target=target))
    return m


def give_move(target: int) -> Move:
    mid = f"give@{target}"
    m = _CACHE.get("give|" + mid)
    if m is None:
        m = intern(Move(mid, "give", target=target))
    return m


def play_move(kind: str, target: int | None = None) -> Move:
    """The move that plays a card of ``kind`` (at ``target``)."""
    mid = kind if target is None else f"{kind}@{target}"
    m = _CACHE.get("play|" + mid)
    if m is None:
        m = intern(Move(mid, "play", card=kind, target=target))
    return m


def play_as_move(target: int) -> Move:
    mid = f"ricochet_as_shot@{target}"
    m = _CACHE.get("play_as|" + mid)
    if m is None:
        m = intern(Move(mid, "play_as", card="ricochet", target=target, option="shot"))
    return m


def answer_move(name: str) -> Move:
    """An answer: ``ricochet``, ``shot_as_ricochet``, ``canteen``, ``shot``, ``ricochet_as_shot``."""
    m = _CACHE.get("answer|" + name)
    if m is None:
        card = name.split("_as_")[0]
        as_kind = name.split("_as_")[1] if "_as_" in name else None
        m = intern(Move(name, "answer", card=card, option=as_kind))
    return m


def discard_move(kind: str) -> Move:
    mid = "discard:" + kind
    m = _CACHE.get("discard|" + mid)
    if m is None:
        m = intern(Move(mid, "discard", card=kind))
    return m


def grip_move(target: int) -> Move:
    mid = f"grip@{target}"
    m = _CACHE.get("draw|" + mid)
    if m is None:
        m = intern(Move(mid, "draw", target=target, option="grip"))
    return m


def return_move(card_id: str) -> Move:
    mid = "return:" + card_id
    m = _CACHE.get("return|" + mid)
    if m is None:
        m = intern(Move(mid, "return", card=card_id))
    return m


def pick_move(kind: str) -> Move:
    mid = "pick:" + kind
    m = _CACHE.get("pick|" + mid)
    if m is None:
        m = intern(Move(mid, "pick", card=kind, option="in_play"))
    return m


def upgrade_move(name: str) -> Move:
    mid = "upgrade:" + name
    m = _CACHE.get("upgrade|" + mid)
    if m is None:
        m = intern(Move(mid, "upgrade", option=name))
    return m


def bounty_move(name: str) -> Move:
    mid = "bounty:" + (name or "none")
    m = _CACHE.get("bounty|" + mid)
    if m is None:
        m = intern(Move(mid, "bounty", option=name or "none"))
    return m


SECRET_MOVE_KINDS: Final = frozenset({"return"})

# The target of an id is one ASCII digit: a seat of the largest table. Anything else ("@99",
# "@01", "@٣", a 5,000-digit number) is no move id, so parsing never interns a new Move for
# junk and the cache stays bounded by the finite set of well-formed ids.
_TARGETS: Final = {str(s): s for s in range(MAX_SEATS)}
_FIXED: Final = {
    m.id: m for m in (END_TURN, TAKE_HIT, HEAL, DRAW_DECK, DRAW_DISCARD, PICK_HAND, PASS)
}


def parse_move_id(text: str) -> Move:
    """Read a move id back into a :class:`Move` (whether or not it is legal anywhere).

    Raises :class:`MoveSyntaxError` for a value that is no move id at all (not a string, an
    unknown word, a target that is not a seat number below ``MAX_SEATS``), so callers can tell "cannot parse"
    from "not legal now". The Move's id always equals ``text``. Only well-formed ids are
    interned (a few hundred at most), so hostile input cannot grow the cache.
    """
    from .cards import ALL_CARD_BY_ID as CARD_BY_ID
    from .cards import DANGEROUS, KIND_BY_ID
    from .characters import CHARACTER_BY_ID
    from .errors import MoveSyntaxError
    from .roles import UPGRADES

    if type(text) is not str:  # a str subclass could compare equal yet hash or print apart
        raise MoveSyntaxError(text, "a move id is a string")
    if text in _FIXED:
        return _FIXED[text]
    if text in ("ricochet", "shot_as_ricochet", "shot", "ricochet_as_shot", "duck"):
        return answer_move(text)
    head, sep, tail = text.partition(":")
    if sep and head in ("use", "pay", "load", "take"):
        name, at, seat_text = tail.partition("@")
        seat = _TARGETS.get(seat_text) if at else None
        if at and seat is None:
            raise MoveSyntaxError(text, f"a target is a seat number from 0 to {MAX_SEATS - 1}")
        if head == "use" and (name in KIND_BY_ID or name in CHARACTER_BY_ID):
            return use_move(name, seat)
        holder_ok = name == "character" or name in DANGEROUS
        if head in ("pay", "load") and holder_ok and not at:
            return holder_move(head, name)
        if head == "take" and holder_ok and at:
            return holder_move(head, name, seat)
        raise MoveSyntaxError(text)
    if sep:
        if head == "discard" and tail in KIND_BY_ID:
            return discard_move(tail)
        if head == "return" and tail in CARD_BY_ID:
            return return_move(tail)
        if head == "pick" and tail in KIND_BY_ID:
            return pick_move(tail)
        if head == "upgrade" and tail in UPGRADES:
            return upgrade_move(tail)
        if head == "bounty" and (tail in UPGRADES or tail == "none"):
            return bounty_move("" if tail == "none" else tail)
        raise MoveSyntaxError(text)
    head, sep, tail = text.partition("@")
    if sep:
        seat = _TARGETS.get(tail)
        if seat is None:
            raise MoveSyntaxError(text, f"a target is a seat number from 0 to {MAX_SEATS - 1}")
        if head == "grip":
            return grip_move(seat)
        if head == "ricochet_as_shot":
            return play_as_move(seat)
        if head == "give":
            return give_move(seat)
        if head in KIND_BY_ID:
            return play_move(head, seat)
        raise MoveSyntaxError(text)
    if text in KIND_BY_ID:
        return play_move(text)
    raise MoveSyntaxError(text)
