"""Seats around the table: turn order, distance, weapon range, built-in equipment."""

from __future__ import annotations

from .cards import CARD_KIND_OF, KIND_BY_ID, REVOLVER_RANGE
from .characters import ALL_CHARACTERS, CHARACTER_BY_ID
from .state import GameState, Player


def living(g: GameState) -> list[int]:
    """Seats still alive, in seat (turn) order."""
    # Loops with the player declared, here and below: a C type in the compiled build, whose
    # fields are then struct reads (docs/speed.md); a comprehension's variable is not declared.
    out = []
    p: Player
    for p in g.players:
        if p.alive:
            out.append(p.seat)
    return out


def next_living(g: GameState, seat: int) -> int:
    """The next living seat clockwise after ``seat`` (``seat`` itself if it is the only one)."""
    n = g.seats
    players = g.players
    p: Player
    for step in range(1, n + 1):
        s = (seat + step) % n
        p = players[s]
        if p.alive:
            return s
    return seat


def clockwise_others(g: GameState, seat: int) -> list[int]:
    """Every other living seat, clockwise starting after ``seat``."""
    n = g.seats
    players = g.players
    p: Player
    out = []
    for i in range(1, n):
        s = (seat + i) % n
        p = players[s]
        if p.alive:
            out.append(s)
    return out


def has_in_play(p: Player, kind: str) -> bool:
    for c in p.in_play:
        if CARD_KIND_OF[c] == kind:
            return True
    return False


_HORSE = {c.id: c.builtin_horse for c in ALL_CHARACTERS}
_SCOPE = {c.id: int(c.builtin_scope) for c in ALL_CHARACTERS}
_HORSE_CARDS = frozenset(i for i, k in enumerate(CARD_KIND_OF) if k == "horse")
_SCOPE_CARDS = frozenset(i for i, k in enumerate(CARD_KIND_OF) if k == "scope")
# The cards whose coming into or leaving play changes distances.
DISTANCE_CARDS = _HORSE_CARDS | _SCOPE_CARDS


def horse_bonus(p: Player) -> int:
    """How much further others see ``p`` (canyon_shadow: 2, a Horse adds nothing to it)."""
    return _HORSE[p.character] or (1 if has_in_play(p, "horse") else 0)


def scope_bonus(p: Player) -> int:
    """How much closer ``p`` sees others (a built-in Scope and a Scope card stack)."""
    return _SCOPE[p.character] + (1 if has_in_play(p, "scope") else 0)


def distances_from(g: GameState, seat: int) -> list[int]:
    """Distance from ``seat`` to every seat (0 for itself and for eliminated seats)."""
    return _walk(g, seat, -1)


def _walk(g: GameState, seat: int, rng: int) -> list[int]:
    """The ring walked once from ``seat``: with ``rng`` < 0 the distance to every seat (0 for
    itself and for eliminated seats), else the other living seats at distance ``rng`` or less,
    in seat order (the targets of a Shot)."""
    players = g.players
    me: Player = players[seat]
    if not me.alive:
        return [0] * g.seats if rng < 0 else living_others(g, seat)[:]  # every distance 0
    # Called for every view and most play decisions, so horse_bonus/scope_bonus are inlined
    # (a set test on the in-play card indexes) and the ring is walked once, clockwise.
    scope = _SCOPE[me.character]
    if me.in_play and not _SCOPE_CARDS.isdisjoint(me.in_play):
        scope += 1
    p: Player
    n = 0  # living seats (a loop: a comprehension is a call of its own in Python 3.11)
    for p in players:
        if p.alive:
            n += 1
    horse = _HORSE
    out = [0] * g.seats if rng < 0 else []  # distances, or the seats after ``seat`` in range
    before = []  # the seats in range before ``seat`` (they come first in seat order)
    k = 0  # steps clockwise (n - k counter-clockwise)
    for p in players[seat + 1 :] + players[:seat]:
        if not p.alive:
            continue
        k += 1
        d = (k if k + k <= n else n - k) - scope
        h = horse[p.character]
        if h:
            d += h
        elif p.in_play and not _HORSE_CARDS.isdisjoint(p.in_play):
            d += 1
        if d < 1:
            d = 1
        if rng < 0:
            out[p.seat] = d
        elif d <= rng:
            (out if p.seat > seat else before).append(p.seat)
    return before + out if before else out


def seat_distances(g: GameState, seat: int) -> list[int]:
    """:func:`distances_from`, kept in ``g.memo`` (under ``seat``) until the table changes
    (read-only: the list is shared). Every view and most play decisions need it, and distances change only when a
    Horse or a Scope leaves or enters play or a player dies: the engine forgets the memo there
    (:func:`table_changed`)."""
    memo = g.memo
    if memo is None:
        memo = g.memo = {}
    out = memo.get(seat)
    if out is None:
        out = memo[seat] = distances_from(g, seat)
    return out


def living_others(g: GameState, seat: int) -> list[int]:
    """The other living seats, in seat order; kept in ``g.memo`` (under a negative key) with
    the distances, which a death also forgets. Read-only: the list is shared."""
    memo = g.memo
    if memo is None:
        memo = g.memo = {}
    key = -1 - (seat << 8 | 255)
    out = memo.get(key)
    if out is None:
        out = memo[key] = []
        q: Player
        for q in g.players:
            if q.alive and q.seat != seat:
                out.append(q.seat)
    return out


def in_range(g: GameState, seat: int, rng: int) -> list[int]:
    """The other living seats at distance ``rng`` or less from ``seat``, in seat order (the
    targets of a Shot); kept in ``g.memo`` like the distances. Read-only: the list is shared."""
    if not 0 <= rng < 255:
        dist = seat_distances(g, seat)
        return [s for s in living_others(g, seat) if dist[s] <= rng]
    memo = g.memo
    if memo is None:
        memo = g.memo = {}
    key = -1 - (seat << 8 | rng)
    out = memo.get(key)
    if out is None:
        # The seat's distances when a view has kept them; else one walk round the table, with
        # no distance list kept (random playouts, which build no views, miss here ~40 times a
        # game: the memo is forgotten at every death and every Horse or Scope moved).
        dist = memo.get(seat)
        if dist is not None:
            out = [s for s in living_others(g, seat) if dist[s] <= rng]
        else:
            out = _walk(g, seat, rng)
        memo[key] = out
    return out


def table_changed(g: GameState) -> None:
    """Forget the distances kept by :func:`seat_distances` (a Horse or a Scope entered or left
    play, or a player died); code that edits ``in_play`` or ``alive`` directly must call it."""
    g.memo = None


def distance(g: GameState, a: int, b: int) -> int:
    """Distance from ``a`` to ``b`` as ``a`` sees it (rules.md §4)."""
    return distances_from(g, a)[b]


# Per card number, a weapon's range; one more entry, read as ``[-1]`` (no weapon): the Revolver.
RANGE_OF = tuple(KIND_BY_ID[k].range for k in CARD_KIND_OF) + (REVOLVER_RANGE,)


def weapon_range(p: Player) -> int:
    """Shot range: the weapon's (Revolver 1) plus one per marksman upgrade."""
    stars = p.stars
    return RANGE_OF[p.weapon] + stars.count("marksman") if stars else RANGE_OF[p.weapon]


def unlimited_shots(g: GameState, p: Player) -> bool:
    """Vulcan, Mad Dog and High Noon lift the one-Shot-per-turn limit."""
    if g.high_noon or CHARACTER_BY_ID[p.character].unlimited_shots:
        return True
    return p.weapon >= 0 and CARD_KIND_OF[p.weapon] == "vulcan"


def can_shoot(g: GameState, p: Player) -> bool:
    return g.shots == 0 or unlimited_shots(g, p)


def has_cover(g: GameState, p: Player) -> bool:
    """Cover works (card or built-in; one check either way) — not during High Noon."""
    if g.high_noon:
        return False
    # set tests, not a loop over in_play: asked at every Shot
    return p.character in _BUILTIN_COVER or not _COVER_CARDS.isdisjoint(p.in_play)


_BUILTIN_COVER = frozenset(c.id for c in ALL_CHARACTERS if c.builtin_cover)
_COVER_CARDS = frozenset(i for i, k in enumerate(CARD_KIND_OF) if k == "cover")


def can_heal(g: GameState, p: Player) -> bool:
    """Healing works at all (High Noon stops it) and ``p`` is hurt but alive."""
    return not g.high_noon and 0 < p.life < p.max_life


def bonesetter_can_heal(g: GameState, p: Player) -> bool:
    return p.character == "bonesetter" and len(p.hand) >= 2 and can_heal(g, p)
