"""Legal moves of Armed & Dangerous games: the play step with the expansion's cards, Dangerous
card effects and character abilities, the answer window with Duck! and Crate, and the
expansion's own decision kinds (docs/rules-decisions.md, "Armed & Dangerous")."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import (
    BLUE,
    CARD_KIND_OF,
    DANGEROUS,
    DIAMONDS,
    IS_DANGEROUS,
    KIND_BY_ID,
    WEAPON,
)
from .characters import ALL_CHARACTERS
from .loads import MAX_LOAD, card_of, dangerous_cards, holder_name, load_targets, payers, total
from .moves import (
    END_TURN,
    HEAL,
    PASS,
    TAKE_HIT,
    Move,
    answer_move,
    discard_move,
    give_move,
    holder_move,
    play_as_move,
    play_move,
    use_move,
)
from .roles import MAX_SEATS, OLD_CLASSIC
from .state import GameState, Player
from .table import (
    bonesetter_can_heal,
    can_heal,
    horse_bonus,
    seat_distances,
    unlimited_shots,
    weapon_range,
)

_ORDER = {k: i for i, k in enumerate(KIND_BY_ID)}
_COLOR = {k: v.color for k, v in KIND_BY_ID.items()}
# Brown cards that aim at one player in range (Shot effects that are not Shot cards).
_SHOT_EFFECTS = ("quick_shot", "flintlock")
# Effects the expansion's own decisions ask about, and their costs (tokens).
WEAPON_EFFECTS = frozenset({"big_fifty", "buntline_special", "double_barrel", "thunderer"})
ABILITY_COST = {"mexicali_kid": 2, "al_preacher": 2}


def has_kind(p: Player, kind: str) -> bool:
    for c in p.in_play:
        if CARD_KIND_OF[c] == kind:
            return True
    return p.weapon >= 0 and CARD_KIND_OF[p.weapon] == kind


def loads_on(g: GameState, p: Player, kind: str) -> int:
    c = card_of(p, kind)
    return g.loads[c] if c >= 0 else 0


def _others(g: GameState, seat: int) -> list[Player]:
    return [q for q in g.players if q.alive and q.seat != seat]


def _in_play_cards(p: Player) -> bool:
    return bool(p.in_play or p.weapon >= 0)


def reach(g: GameState, seat: int) -> list[int]:
    """Distances as the next card played sees them: all 1 under Bell Tower."""
    if g.bell:
        return [0 if s == seat else 1 for s in range(g.seats)]
    return seat_distances(g, seat)  # shared: read-only


def shot_reach(g: GameState, p: Player, q: Player, dist: list[int]) -> int:
    """Whether ``p``'s Shot card reaches ``q``: 1 in range, 2 only with Big Fifty's effect
    (which ignores ``q``'s Horse and built-in Horse), 0 not at all."""
    rng = weapon_range(p)
    if dist[q.seat] <= rng:
        return 1
    w = p.weapon
    big_fifty = w >= 0 and CARD_KIND_OF[w] == "big_fifty" and g.loads[w] and not g.bell
    if big_fifty and max(1, dist[q.seat] - horse_bonus(q)) <= rng:
        return 2
    return 0


def can_shoot_card(g: GameState, p: Player) -> bool:
    """A Shot card may be played: none yet this turn, no limit, or Bandolier's extra Shot."""
    if g.shots == 0 or unlimited_shots(g, p):
        return True
    return "bandolier" not in g.used and loads_on(g, p, "bandolier") > 0


# Play moves by kind (and target seat), built once: legal-move generation runs at every decision.
_AT = {k: tuple(play_move(k, s) for s in range(MAX_SEATS)) for k in KIND_BY_ID}
_AS_SHOT_AT = tuple(play_as_move(s) for s in range(MAX_SEATS))
_UNTARGETED = {k: play_move(k) for k in KIND_BY_ID}
_CRATE = CARD_KIND_OF.index("crate")
_USE_CRATE = use_move("crate")
_CHAR_USES = frozenset({"bass_greeves", "frankie_canton", "mexicali_kid", "red_ringo"})
_TARGETED_USES = ("whip", "lockpick", "mexicali_kid")
_KEY = tuple(_ORDER[k] for k in CARD_KIND_OF)  # per card number: its kind's table order


def _category(kind: str) -> int:
    if kind == "shot":
        return _SHOT
    if kind in ("ricochet", "duck"):
        return _ANSWER
    if kind in ("canteen", "little_nip"):
        return _HEALS
    if kind in ("snatch", "knock_off", "duel", "arrow", "quick_shot", "flintlock", "squaw"):
        return _TARGETED
    if kind in ("jail", "bomb"):
        return _ON_OTHERS
    color = _COLOR[kind]
    if color == BLUE:
        return _DANGER_BLUE if kind in DANGEROUS else _BLUE
    if color == WEAPON:
        return _DANGER_WEAPON if kind in DANGEROUS else _WEAPON
    return _PLAIN


_PLAIN, _SHOT, _ANSWER, _HEALS, _TARGETED, _ON_OTHERS = range(6)
_BLUE, _DANGER_BLUE, _WEAPON, _DANGER_WEAPON = range(6, 10)
_CAT = {k: _category(k) for k in KIND_BY_ID}
_CARD_CAT = tuple(_CAT[k] for k in CARD_KIND_OF)


# Per kind's table order (``_ORDER``): the kind and its category, so the play step sorts the
# hand's kinds as ints (no key function) and dispatches without a dict lookup per kind.
_KIND_AT = tuple(KIND_BY_ID)
_CAT_AT = tuple(_CAT[k] for k in _KIND_AT)
# Card numbers by kind (a set test on ``in_play`` replaces a loop over it) and the Dangerous
# ones; every Dangerous kind has one copy, so its card number is its holder.
_CARDS_OF = {k: frozenset(i for i, x in enumerate(CARD_KIND_OF) if x == k) for k in KIND_BY_ID}
_DANGER_CARDS = frozenset(i for i, d in enumerate(IS_DANGEROUS) if d)
_BANDOLIER = CARD_KIND_OF.index("bandolier")
_BIG_FIFTY = CARD_KIND_OF.index("big_fifty")
_VULCANS = _CARDS_OF["vulcan"]
_SHOTS = _CARDS_OF["shot"]
_RICOCHETS = _CARDS_OF["ricochet"]
_DUCKS = _CARDS_OF["duck"]
_CANTEENS = _CARDS_OF["canteen"]
_JAILS = _CARDS_OF["jail"]
_UNLIMITED = frozenset(c.id for c in ALL_CHARACTERS if c.unlimited_shots)
# ``use:`` moves, built once (formatting ids at every play step was a visible cost).
_USE = {k: use_move(k) for k in (*DANGEROUS, *_CHAR_USES)}
_USE_AT = {k: tuple(use_move(k, s) for s in range(MAX_SEATS)) for k in _TARGETED_USES}
# The Dangerous cards with an effect used in the play step, and the tokens it needs on them.
_NEED = {
    CARD_KIND_OF.index(k): n
    for k, n in (("ace_up_the_sleeve", 2), ("beer_keg", 3), ("bell_tower", 1), ("whip", 3),
                 ("lockpick", 3))
}  # fmt: skip
_ACTIVE_CARDS = frozenset(_NEED)


def play_moves(g: GameState, pending: list) -> list[Move]:
    """The play step of an Armed & Dangerous game (the hot path: the checks of
    :func:`has_kind`, :func:`can_shoot_card`, :func:`can_heal` and :func:`unlimited_shots` are
    inlined as set tests on card numbers; the moves come out in the same canonical order)."""
    seat = pending[1]
    players = g.players
    p: Player = players[seat]
    moves = [END_TURN]
    in_play = p.in_play
    weapon = p.weapon
    # Loops, not comprehensions, on these short lists: in Python 3.11 a comprehension is a
    # call of its own.
    others = []
    for q in players:
        if q.alive and q.seat != seat:
            others.append(q)
    hand = p.hand
    if hand:
        dist = None  # computed when a card needs it (most hands need none)
        rng = -1
        shoot = -1  # whether a Shot card may be played (-1: not asked yet)
        orders = set()
        for c in hand:
            orders.add(_KEY[c])
        for o in sorted(orders) if len(orders) > 1 else orders:
            cat = _CAT_AT[o]
            if cat == _PLAIN:
                moves.append(_UNTARGETED[_KIND_AT[o]])
            elif cat in (_SHOT, _ANSWER):
                kind = _KIND_AT[o]
                if cat == _ANSWER and (kind != "ricochet" or p.character != "two_face"):
                    continue
                if shoot < 0:
                    shoot = (
                        g.shots == 0
                        or g.high_noon
                        or p.character in _UNLIMITED
                        or weapon in _VULCANS
                        or (
                            _BANDOLIER in in_play
                            and "bandolier" not in g.used
                            and g.loads[_BANDOLIER] > 0
                        )
                    )
                if not shoot:
                    continue
                if dist is None:
                    dist = reach(g, seat) if g.bell else seat_distances(g, seat)
                if rng < 0:
                    rng = weapon_range(p)
                at = _AT["shot"] if kind == "shot" else _AS_SHOT_AT
                if weapon == _BIG_FIFTY:
                    for q in others:
                        if dist[q.seat] <= rng or shot_reach(g, p, q, dist):
                            moves.append(at[q.seat])
                else:
                    for q in others:
                        if dist[q.seat] <= rng:
                            moves.append(at[q.seat])
            elif cat in (_BLUE, _DANGER_BLUE):
                kind = _KIND_AT[o]
                if (cat == _BLUE or g.supply >= 3) and _CARDS_OF[kind].isdisjoint(in_play):
                    moves.append(_UNTARGETED[kind])
            elif cat in (_WEAPON, _DANGER_WEAPON):
                kind = _KIND_AT[o]
                if (cat == _WEAPON or g.supply >= 3) and (
                    weapon < 0 or CARD_KIND_OF[weapon] != kind
                ):
                    moves.append(_UNTARGETED[kind])
            elif cat == _HEALS:
                if (
                    not g.high_noon
                    and 0 < p.life < p.max_life
                    and not (g.mode == OLD_CLASSIC and len(others) < 2)
                ):
                    moves.append(_UNTARGETED[_KIND_AT[o]])
            elif cat == _TARGETED:
                kind = _KIND_AT[o]
                at = _AT[kind]
                if kind == "knock_off":
                    for q in others:
                        if q.hand or q.in_play or q.weapon >= 0:
                            moves.append(at[q.seat])
                elif kind == "duel" or kind == "arrow":
                    for q in others:
                        moves.append(at[q.seat])
                elif kind == "squaw":
                    moves += [
                        at[q.seat] for q in players if q.alive and (q.in_play or q.weapon >= 0)
                    ]
                else:
                    if dist is None:
                        dist = reach(g, seat) if g.bell else seat_distances(g, seat)
                    if kind == "snatch":
                        moves += [
                            at[q.seat]
                            for q in others
                            if dist[q.seat] == 1 and (q.hand or q.in_play or q.weapon >= 0)
                        ]
                    else:  # Quick Shot, Flintlock: a player in range
                        if rng < 0:
                            rng = weapon_range(p)
                        moves += [at[q.seat] for q in others if dist[q.seat] <= rng]
            elif _KIND_AT[o] == "jail":
                at = _AT["jail"]
                sheriff = g.sheriff
                for q in others:
                    if q.seat != sheriff and _JAILS.isdisjoint(q.in_play):
                        moves.append(at[q.seat])
            elif g.supply >= 3:  # the Bomb, on any living player
                at = _AT["bomb"]
                moves += [at[q.seat] for q in players if q.alive]
    # Only five Dangerous cards have an effect of their own to use in the play step (the
    # others work when something else happens), all of them blue: a set test skips the rest.
    if in_play and not _ACTIVE_CARDS.isdisjoint(in_play):
        active = [c for c in in_play if c in _ACTIVE_CARDS]
        if len(active) > 1:
            active.sort(key=_KEY.__getitem__)
        moves += _uses(g, p, others, active)
    elif p.character in _CHAR_USES:
        moves += _uses(g, p, others, ())
    if p.character == "bonesetter" and bonesetter_can_heal(g, p):
        moves.append(HEAL)
    return moves


def _uses(g: GameState, p: Player, others: list[Player], active: Sequence[int]) -> list[Move]:
    """Dangerous card effects (``active``: the player's cards of :data:`_ACTIVE_CARDS`, in
    table order) and character abilities usable in the play step."""
    out: list[Move] = []
    seat = p.seat
    loads = g.loads
    for c in active:
        if loads[c] < _NEED[c]:
            continue
        kind = CARD_KIND_OF[c]
        if kind == "whip":
            at = _USE_AT[kind]
            for q in g.players:
                if not q.alive:
                    continue
                if q.weapon >= 0 or (q.in_play and (len(q.in_play) > 1 or q.in_play[0] != c)):
                    out.append(at[q.seat])
        elif kind == "lockpick":
            at = _USE_AT[kind]
            out += [at[q.seat] for q in others if q.hand]
        elif kind == "beer_keg":
            if can_heal(g, p):
                out.append(_USE[kind])
        elif kind != "bell_tower" or not g.bell:
            out.append(_USE[kind])  # Ace Up the Sleeve, Bell Tower
    ch = p.character
    if ch not in _CHAR_USES or ch in g.used:
        return out
    if ch == "bass_greeves":
        if p.hand and g.supply and load_targets(g, p, ch, 2):
            out.append(_USE[ch])
    elif ch == "frankie_canton":
        if p.tokens < MAX_LOAD and take_token_moves(g, seat):
            out.append(_USE[ch])
    elif ch == "mexicali_kid":
        if total(g, p) >= 2:
            dist = seat_distances(g, seat)
            rng = weapon_range(p)
            at = _USE_AT[ch]
            out += [at[q.seat] for q in others if dist[q.seat] <= rng]
    elif ch == "red_ringo" and p.tokens and load_targets(g, p, ch, 1):
        out.append(_USE[ch])
    return out


_ANSWER_MOVES = {k: answer_move(k) for k in ("ricochet", "duck", "shot_as_ricochet", "canteen")}


def answer_shot_moves(g: GameState, pending: list) -> list[Move]:
    """A Shot-symbol hit: Ricochet-symbol cards (Ricochet, Duck!, Crate) cancel it; Big Fifty
    ignores the target's ability and cards in play; Double Barrel's ♦ Shot is uncancellable."""
    p = g.players[pending[1]]
    flag = pending[5] if len(pending) > 5 else ""
    moves = [TAKE_HIT]
    if flag == "sure":
        if p.character == "bonesetter" and bonesetter_can_heal(g, p):
            moves.append(HEAL)
        return moves
    ignore = flag == "big_fifty"
    hand = p.hand
    answers = _ANSWER_MOVES
    if not _RICOCHETS.isdisjoint(hand):
        moves.append(answers["ricochet"])
    if not _DUCKS.isdisjoint(hand):
        moves.append(answers["duck"])
    if not ignore:
        if p.character == "two_face" and not _SHOTS.isdisjoint(hand):
            moves.append(answers["shot_as_ricochet"])
        if _CRATE in p.in_play and g.loads[_CRATE] >= 2:
            moves.append(_USE_CRATE)
    if (
        not _CANTEENS.isdisjoint(hand)
        and p.life == 1
        and not g.high_noon
        and sum(1 for q in g.players if q.alive) >= 3
    ):
        moves.append(answers["canteen"])
    if not ignore and p.character == "bonesetter" and bonesetter_can_heal(g, p):
        moves.append(HEAL)
    return moves


def answer_shot_single(g: GameState, pending: list) -> Move | None:
    """:func:`answer_shot_moves`'s move when it is the only one (Take the hit: no card, Crate or
    heal answers), else None."""
    p = g.players[pending[1]]
    flag = pending[5] if len(pending) > 5 else ""
    bonesetter = p.character == "bonesetter"
    if flag == "sure":
        return None if bonesetter and bonesetter_can_heal(g, p) else TAKE_HIT
    ignore = flag == "big_fifty"
    hand = p.hand
    if hand:
        if not (_RICOCHETS.isdisjoint(hand) and _DUCKS.isdisjoint(hand)):
            return None
        if not ignore and p.character == "two_face" and not _SHOTS.isdisjoint(hand):
            return None
        if (
            p.life == 1
            and not g.high_noon
            and not _CANTEENS.isdisjoint(hand)
            and sum(1 for q in g.players if q.alive) >= 3
        ):
            return None
        if not ignore and bonesetter and bonesetter_can_heal(g, p):
            return None
    if not ignore and _CRATE in p.in_play and g.loads[_CRATE] >= 2:
        return None
    return TAKE_HIT


def option_moves(g: GameState, pending: list) -> list[Move]:
    """``[optional_effect, seat, what, source, *context]``: pass, or use the effect."""
    seat, what = pending[1], pending[2]
    if what == "quick_shot":
        targets, bell = pending[4], pending[5]
        p: Player = g.players[seat]
        dist = [1] * g.seats if bell else seat_distances(g, seat)
        rng = weapon_range(p)
        return [PASS] + [
            use_move(what, q.seat)
            for q in _others(g, seat)
            if q.seat not in targets and dist[q.seat] <= rng
        ]
    if what == "arrow":
        targets = pending[4]
        return [PASS] + [use_move(what, q.seat) for q in _others(g, seat) if q.seat not in targets]
    return [PASS, use_move(what)]


# ``pay:`` and ``load:`` moves by holder (-1 the character, else a Dangerous card's number).
_HOLDERS = (-1, *sorted(_DANGER_CARDS))
_PAY = {c: holder_move("pay", holder_name(c)) for c in _HOLDERS}
_LOAD = {c: holder_move("load", holder_name(c)) for c in _HOLDERS}


def pay_moves(g: GameState, pending: list) -> list[Move]:
    p = g.players[pending[1]]
    return [_PAY[c] for c in payers(g, p)]


def load_moves(g: GameState, pending: list) -> list[Move]:
    _, seat, count, size, reason = pending
    p: Player = g.players[seat]
    moves = [PASS] if reason == "red_ringo" and count == 1 else []
    return moves + [_LOAD[c] for c in load_targets(g, p, reason, size)]


def discard_card_moves(g: GameState, pending: list) -> list[Move]:
    """One discard per kind in hand, the kind of the most recently acquired card first."""
    p = g.players[pending[1]]
    out: list[Move] = []
    seen: set[str] = set()
    for c in reversed(p.hand):
        k = CARD_KIND_OF[c]
        if k not in seen:
            seen.add(k)
            out.append(discard_move(k))
    return out


def take_token_moves(g: GameState, seat: int) -> list[Move]:
    """Frankie Canton: every holder in play with a token (his own character aside)."""
    out: list[Move] = []
    for q in g.players:
        if not q.alive:
            continue
        if q.seat != seat and q.tokens:
            out.append(holder_move("take", "character", q.seat))
        out += [
            holder_move("take", CARD_KIND_OF[c], q.seat) for c in dangerous_cards(q) if g.loads[c]
        ]
    return out


def take_moves(g: GameState, pending: list) -> list[Move]:
    return take_token_moves(g, pending[1])


def give_moves(g: GameState, pending: list) -> list[Move]:
    return [give_move(q.seat) for q in _others(g, pending[1])]


def weapon_effect_applies(g: GameState, p: Player, card: int) -> str | None:
    """The Dangerous weapon whose effect ``p`` may pay for with the Shot card ``card``."""
    w = p.weapon
    if w < 0 or not IS_DANGEROUS[w] or not g.loads[w]:
        return None
    kind = CARD_KIND_OF[w]
    if kind == "double_barrel" and not DIAMONDS[card]:
        return None  # only a ♦ Shot is made uncancellable: paying for another does nothing
    if kind == "thunderer" and card not in g.discard:
        return None
    return kind
