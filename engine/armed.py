"""Armed & Dangerous: playing every card of an expansion game (the 28 new cards and the base
ones, with reloads and Al Preacher's window), Dangerous card effects, weapon effects on Shot
cards, character abilities, the Bomb, Tumbleweed, Ms. Abigail and the cancel hooks (Buntline
Special, Bloody Mary, Flintlock). Only games with ``armed_dangerous`` reach this module, so the
base game's paths stay as they were (docs/rules-decisions.md, "Armed & Dangerous")."""

from __future__ import annotations

import sys

from . import combat, loads
from . import deck_ops as ops
from .armed_legal import reach, shot_reach, weapon_effect_applies
from .cards import BROWN, CARD_IDS, CARD_KIND_OF, HIGH_RANK, KIND_BY_ID, WEAPON
from .combat import heal
from .events import BombPassed, Discarded, Drew, Equipped, Ignored, Played, Stole, Used
from .loads import card_of, dangerous_cards
from .moves import DISCARD_CARD, OPTION, PASS_BOMB, TAKE_TOKEN, Move
from .state import GameState, Player
from .table import (
    DISTANCE_CARDS,
    clockwise_others,
    seat_distances,
    table_changed,
    unlimited_shots,
    weapon_range,
)

_FLINTLOCK = CARD_KIND_OF.index("flintlock")
# The base game's brown card effects (plays._BROWN), set by plays.py when it loads.
BASE_BROWN: dict = {}
_DUCK = CARD_KIND_OF.index("duck")


def _option(g: GameState, seat: int, what: str, source: int | None, *ctx: object) -> None:
    g.pending = [OPTION, seat, what, source, *ctx]


# -- playing a card ----------------------------------------------------------------------------
def play_card(g: GameState, p: Player, c: int, move: Move) -> None:
    """Play card ``c`` from ``p``'s hand (``move`` a ``play`` or ``play_as`` move)."""
    seat = p.seat
    kind = move.card
    target = move.target
    if move.kind == "play_as" or kind == "shot":
        # Reachable only by ignoring the target's Horse: Big Fifty's effect is then a must.
        forced = (
            p.weapon >= 0
            and CARD_KIND_OF[p.weapon] == "big_fifty"
            and shot_reach(g, p, g.players[target], reach(g, seat)) == 2  # type: ignore[index]
        )
        g.bell = False  # Bell Tower worked for this card
        if g.shots and not unlimited_shots(g, p):
            # The Shot limit is reached: this is Bandolier's extra Shot card.
            g.used.append("bandolier")
            b = card_of(p, "bandolier")
            g.log.append(Used.make(seat=seat, what=CARD_IDS[b], target=None))
            loads.spend(g, p, b, 1, "bandolier")
        g.shots += 1
        ops.discard_card(g, c)
        g.log.append(Played.make(seat=seat, card=CARD_IDS[c], target=target, as_kind=move.option))
        ops.remove_from_hand(g, p, c)
        t: Player = g.players[target]
        if (p.weapon < 0 or not g.loads[p.weapon]) and not (
            t.character == "ms_abigail" and HIGH_RANK[c]
        ):
            g.stack.append(["shot", seat, target, "shot"])  # no weapon effect, no Ms. Abigail
        else:
            g.stack.append(["shoot", seat, target, c, 0, "", int(forced)])
        return
    g.bell = False
    card = KIND_BY_ID[kind]
    if card.color == BROWN:
        ops.discard_card(g, c)
        g.log.append(Played.make(seat=seat, card=CARD_IDS[c], target=target, as_kind=None))
        ops.remove_from_hand(g, p, c)
        _brown(g, p, c, kind, target)
        return
    owner = g.players[target] if kind in ("jail", "bomb") else p
    replaced = None
    if card.color == WEAPON:
        if p.weapon >= 0:
            old = p.weapon
            replaced = CARD_IDS[old]
            loads.left_play(g, p, old, "replaced")
            ops.discard_card(g, old)
        p.weapon = c
    else:
        owner.in_play.append(c)
        if c in DISTANCE_CARDS:
            table_changed(g)
    owner.v += 1
    g.known[c] = ops.PUBLIC_BIT
    g.log.append(Equipped.make(seat=seat, owner=owner.seat, card=CARD_IDS[c], replaced=replaced))
    ops.remove_from_hand(g, p, c)
    if card.dangerous:
        loads.arrive(g, owner, c)
    # Al Preacher's window comes after the player's own reload (+1 for a blue card).
    for ap in g.players:
        if ap.character == "al_preacher" and ap.alive and ap.seat != seat:
            if loads.total(g, ap) >= 2:
                g.stack.append(["preacher", ap.seat, seat, CARD_IDS[c]])
            break
    loads.reload(g, p, "blue_card")


def _abigail_guard(g: GameState, seat: int, target: int, c: int, then: list) -> None:
    """Queue ``then`` (a brown card's effect on ``target`` alone), or Ms. Abigail's choice to
    ignore it when the card is a J, Q, K or A."""
    t: Player = g.players[target]
    if t.character == "ms_abigail" and target != seat and HIGH_RANK[c] and t.alive:
        g.stack.append(["abigail", target, seat, c, then])
    else:
        g.stack.append(then)


def _brown(g: GameState, p: Player, c: int, kind: str, target: int | None) -> None:
    seat = p.seat
    if kind in ("snatch", "knock_off"):
        _abigail_guard(g, seat, target, c, ["pick_card", seat, target, kind])  # type: ignore[arg-type]
    elif kind == "duel":
        _abigail_guard(g, seat, target, c, ["duel", target, seat])  # type: ignore[arg-type]
    elif kind in BASE_BROWN:
        BASE_BROWN[kind](g, seat, target)
    elif kind == "mule_train":
        g.stack.append(["mule_train", seat, 0])
    elif kind == "little_nip":
        g.stack.append(["little_nip", seat, 0])
    elif kind == "quick_shot":
        g.stack.append(["quick_shot", seat, [target], g.bell, c])
    elif kind == "flintlock":
        _abigail_guard(g, seat, target, c, ["shot", seat, target, "flintlock"])  # type: ignore[arg-type]
    elif kind == "arrow":
        g.stack.append(["arrow", seat, [target], c])
    elif kind == "squaw":
        g.stack.append(["squaw", seat, target, 0, c])
    elif kind == "reloading":
        loads.load(g, seat, 3, 1, "reloading")
    elif kind == "rust":
        _rust(g, p)


def _rust(g: GameState, p: Player) -> None:
    for s in clockwise_others(g, p.seat):
        q: Player = g.players[s]
        holders = ([-1] if q.tokens else []) + [x for x in dangerous_cards(q) if g.loads[x]]
        for h in holders:
            loads.spend(g, q, h, 1, "rust")
            loads.gain(g, p, -1, 1, "rust")


def _can_pay(g: GameState, seat: int, cost: int) -> bool:
    return loads.total(g, g.players[seat]) >= cost


def task_mule_train(g: GameState, task: list) -> None:
    """``["mule_train", seat, upgrades]``: draw 2, +1 per upgrade (2 tokens each, repeatable)."""
    _, seat, ups = task
    if _can_pay(g, seat, 2) and g.deck + g.discard:
        _option(g, seat, "mule_train", None, ups)
        return
    ops.draw(g, g.players[seat], 2 + ups, "mule_train")


def task_little_nip(g: GameState, task: list) -> None:
    """``["little_nip", seat, upgrades]``: heal 1, +1 per upgrade (3 tokens each), offered
    while one more would still heal."""
    _, seat, ups = task
    p: Player = g.players[seat]
    if _can_pay(g, seat, 3) and p.life + 1 + ups < p.max_life:
        _option(g, seat, "little_nip", None, ups)
        return
    heal(g, p, 1 + ups, "little_nip")


def task_quick_shot(g: GameState, task: list) -> None:
    """``["quick_shot", seat, targets, bell, card]``: one more target in range per token."""
    _, seat, targets, bell, c = task
    if _can_pay(g, seat, 1):
        p: Player = g.players[seat]
        dist = [1] * g.seats if bell else seat_distances(g, seat)
        rng = weapon_range(p)
        if any(
            q.alive and q.seat != seat and q.seat not in targets and dist[q.seat] <= rng
            for q in g.players
        ):
            _option(g, seat, "quick_shot", None, targets, bell, c)
            return
    _shots_at(g, seat, targets, c, "quick_shot")


def _shots_at(g: GameState, seat: int, targets: list[int], c: int, card: str) -> None:
    """The hits of a Quick Shot or an Arrow: Ms. Abigail may ignore one aimed at her alone."""
    tasks = [
        ["raid", seat, t, "arrow"] if card == "arrow" else ["shot", seat, t, card] for t in targets
    ]
    if len(tasks) == 1:
        _abigail_guard(g, seat, targets[0], c, tasks[0])
        return
    g.stack.extend(reversed(tasks))


def task_arrow(g: GameState, task: list) -> None:
    """``["arrow", seat, targets, card]``: one more target at any distance per token."""
    _, seat, targets, c = task
    if _can_pay(g, seat, 1) and any(
        q.alive and q.seat != seat and q.seat not in targets for q in g.players
    ):
        _option(g, seat, "arrow", None, targets, c)
        return
    _shots_at(g, seat, targets, c, "arrow")


def task_squaw(g: GameState, task: list) -> None:
    """``["squaw", seat, target, upgraded, card]``: discard a card in play, or (2 tokens) take
    it into the hand."""
    _, seat, target, up, c = task
    t: Player = g.players[target]
    if not (t.alive and (t.in_play or t.weapon >= 0)):
        return
    if not up and _can_pay(g, seat, 2):
        _option(g, seat, "squaw", None, target, c)
        return
    _abigail_guard(g, seat, target, c, ["pick_card", seat, target, "squaw_take" if up else "squaw"])


# -- Shot cards with a Dangerous weapon --------------------------------------------------------
def task_shoot(g: GameState, task: list) -> None:
    """``["shoot", seat, target, card, stage, flag, forced]``: a Shot card on its way: the
    weapon's effect (stage 0; ``forced``: the target is reachable only with Big Fifty), Ms.
    Abigail (stage 1), then the hit."""
    _, seat, target, c, stage, flag, forced = task
    p: Player = g.players[seat]
    t: Player = g.players[target]
    if not t.alive:
        return
    if stage == 0:
        kind = weapon_effect_applies(g, p, c) if p.alive else None
        if kind is not None:
            if forced and kind == "big_fifty":
                _weapon_effect(g, p, target, c, kind)
            else:
                _option(g, seat, kind, None, target, c)
            return
    then = ["shot", seat, target, "shot", flag] if flag else ["shot", seat, target, "shot"]
    if flag == "big_fifty":
        g.stack.append(then)  # Big Fifty ignores Ms. Abigail's ability too
    else:
        _abigail_guard(g, seat, target, c, then)


def _weapon_effect(g: GameState, p: Player, target: int, c: int, kind: str) -> None:
    w = p.weapon
    g.log.append(Used.make(seat=p.seat, what=CARD_IDS[w], target=target))
    loads.spend(g, p, w, 1, kind)
    flag = ""
    if kind == "big_fifty":
        flag = "big_fifty"
    elif kind == "buntline_special":
        flag = "buntline"
    elif kind == "double_barrel":
        flag = "sure"
    elif kind == "thunderer" and c in g.discard:
        g.discard.remove(c)
        p.hand.append(c)
        p.v += 1
        g.log.append(
            Drew.make(seat=p.seat, count=1, source="discard", reason="thunderer",
                     cards=[CARD_IDS[c]])
        )  # fmt: skip
    g.stack.append(["shoot", p.seat, target, c, 1, flag, 0])


def on_shot_cancelled(g: GameState, target: int, shooter: int, card: str, flag: str) -> None:
    """A Shot-symbol hit was cancelled: Buntline Special, Bloody Mary, Flintlock."""
    s: Player = g.players[shooter]
    if flag == "buntline" and g.players[target].hand and g.players[target].alive:
        g.stack.append(["discard_card", target, "buntline_special"])
    if card == "shot" and s.character == "bloody_mary" and s.alive:
        ops.draw(g, s, 1, "bloody_mary")
    if card == "flintlock" and s.alive and _FLINTLOCK in g.discard and _can_pay(g, shooter, 2):
        g.stack.append(["take_back", shooter, "flintlock"])


def task_take_back(g: GameState, task: list) -> None:
    """``["take_back", seat, flintlock|duck]``: pay 2 to take the card back into the hand."""
    _, seat, kind = task
    c = _FLINTLOCK if kind == "flintlock" else _DUCK
    if g.players[seat].alive and c in g.discard and _can_pay(g, seat, 2):
        _option(g, seat, kind, None, c)


def task_discard_card(g: GameState, task: list) -> None:
    """``["discard_card", seat, reason]``: a card of the seat's choice from its hand."""
    p = g.players[task[1]]
    if p.alive and p.hand:
        g.pending = [DISCARD_CARD, task[1], task[2]]


def resolve_discard_card(g: GameState, pending: list, move: Move) -> None:
    _, seat, reason = pending
    p: Player = g.players[seat]
    ops.discard_from_hand(g, p, ops.last_of_kind(p, move.card), reason)  # type: ignore[arg-type]


# -- optional effects ---------------------------------------------------------------------------
def resolve_option(g: GameState, pending: list, move: Move) -> None:
    seat, what = pending[1], pending[2]
    used = move.kind == "use"
    p: Player = g.players[seat]
    if what in ("big_fifty", "buntline_special", "double_barrel", "thunderer"):
        target, c = pending[4], pending[5]
        if used:
            _weapon_effect(g, p, target, c, what)
        else:
            g.stack.append(["shoot", seat, target, c, 1, "", 0])
        return
    if what == "ms_abigail":
        then = pending[4]
        if used:
            g.log.append(Ignored.make(seat=seat, source=pending[3], card=pending[5]))
        else:
            g.stack.append(then)
        return
    if what == "tumbleweed":
        if used:
            _tumbleweed(g, p, pending[4], pending[5])
        return
    if what == "al_preacher":
        if used:
            g.log.append(Used.make(seat=seat, what=p.character, target=None))
            g.stack.append(["draw_n", seat, 1, "al_preacher"])
            loads.pay(g, seat, 2, "al_preacher")
        return
    if what in ("flintlock", "duck"):
        if used:
            c = pending[4]
            g.log.append(Used.make(seat=seat, what=what, target=None))
            g.stack.append(["to_hand", seat, c, what])
            loads.pay(g, seat, 2, what)
        return
    if what == "mule_train":
        ups = pending[4]
        if used:
            g.log.append(Used.make(seat=seat, what=what, target=None))
            g.stack.append(["mule_train", seat, ups + 1])
            loads.pay(g, seat, 2, what)
        else:
            ops.draw(g, p, 2 + ups, "mule_train")
        return
    if what == "little_nip":
        ups = pending[4]
        if used:
            g.log.append(Used.make(seat=seat, what=what, target=None))
            g.stack.append(["little_nip", seat, ups + 1])
            loads.pay(g, seat, 3, what)
        else:
            heal(g, p, 1 + ups, "little_nip")
        return
    if what == "squaw":
        target, c = pending[4], pending[5]
        if used:
            g.log.append(Used.make(seat=seat, what=what, target=target))
            g.stack.append(["squaw", seat, target, 1, c])
            loads.pay(g, seat, 2, what)
        else:
            _abigail_guard(g, seat, target, c, ["pick_card", seat, target, "squaw"])
        return
    if what == "quick_shot":
        targets, bell, c = pending[4], pending[5], pending[6]
        if used:
            g.log.append(Used.make(seat=seat, what=what, target=move.target))
            g.stack.append(["quick_shot", seat, [*targets, move.target], bell, c])
            loads.pay(g, seat, 1, what)
        else:
            _shots_at(g, seat, targets, c, what)
        return
    if what == "arrow":
        targets, c = pending[4], pending[5]
        if used:
            g.log.append(Used.make(seat=seat, what=what, target=move.target))
            g.stack.append(["arrow", seat, [*targets, move.target], c])
            loads.pay(g, seat, 1, what)
        else:
            _shots_at(g, seat, targets, c, what)
        return


def task_abigail(g: GameState, task: list) -> None:
    """``["abigail", her seat, source, card, then]``: she may ignore the card."""
    _, seat, source, c, then = task
    if g.players[seat].alive:
        _option(g, seat, "ms_abigail", source, then, CARD_IDS[c])
    # A dead Ms. Abigail needs no effect either: every effect queued here aims at her alone.


def task_draw_n(g: GameState, task: list) -> None:
    """``["draw_n", seat, count, reason]``."""
    p = g.players[task[1]]
    if p.alive:
        ops.draw(g, p, task[2], task[3])


def task_to_hand(g: GameState, task: list) -> None:
    """``["to_hand", seat, card, reason]``: a card of the discard pile back into a hand."""
    _, seat, c, reason = task
    p: Player = g.players[seat]
    if p.alive and c in g.discard:
        g.discard.remove(c)
        p.hand.append(c)
        p.v += 1
        g.log.append(
            Drew.make(seat=seat, count=1, source="discard", reason=reason, cards=[CARD_IDS[c]])
        )


def task_preacher(g: GameState, task: list) -> None:
    """``["preacher", seat, player, card]``: Al Preacher may pay 2 to draw 1."""
    _, seat, player, card = task
    if g.players[seat].alive and loads.total(g, g.players[seat]) >= 2:
        _option(g, seat, "al_preacher", player, card)


# -- effects used in the play step --------------------------------------------------------------
def resolve_use(g: GameState, p: Player, move: Move) -> None:
    """A ``use:`` move of the play step: a Dangerous card's effect or a character ability."""
    what, target = move.card, move.target
    seat = p.seat
    c = card_of(p, what)  # type: ignore[arg-type]
    if c >= 0:
        g.log.append(Used.make(seat=seat, what=CARD_IDS[c], target=target))
        cost = KIND_BY_ID[what].cost  # type: ignore[index]
        if what == "ace_up_the_sleeve":
            g.stack.append(["draw_n", seat, 1, what])
        elif what == "beer_keg":
            g.stack.append(["heal_n", seat, 1, what])
        elif what == "bell_tower":
            g.bell = True
        elif what == "whip":
            g.stack.append(["pick_card", seat, target, "whip"])
        elif what == "lockpick":
            g.stack.append(["lockpick", seat, target])
        loads.spend(g, p, c, cost, what)  # type: ignore[arg-type]
        return
    g.log.append(Used.make(seat=seat, what=what, target=target))  # type: ignore[arg-type]
    g.used.append(what)  # type: ignore[arg-type]
    if what == "bass_greeves":
        loads.load(g, seat, 1, 2, what)
        g.stack.append(["discard_card", seat, what])
    elif what == "frankie_canton":
        g.pending = [TAKE_TOKEN, seat]
    elif what == "mexicali_kid":
        g.stack.append(["shot", seat, target, "mexicali_kid"])
        loads.pay(g, seat, 2, what)
    elif what == "red_ringo":
        loads.load(g, seat, 2, 1, what)


def task_heal_n(g: GameState, task: list) -> None:
    heal(g, g.players[task[1]], task[2], task[3])


def task_lockpick(g: GameState, task: list) -> None:
    """``["lockpick", seat, target]``: a random card from the target's hand."""
    _, seat, target = task
    p, t = g.players[seat], g.players[target]
    if not (p.alive and t.alive and t.hand):
        return
    c = ops.random_hand_card(g, t)
    p.hand.append(c)
    p.v += 1
    g.known[c] |= 1 << seat
    g.log.append(
        Stole.make(seat=seat, victim=target, from_hand=True, reason="lockpick", card=CARD_IDS[c],
              private_to=[seat, target])
    )  # fmt: skip
    ops.remove_from_hand(g, t, c)


def resolve_take_token(g: GameState, pending: list, move: Move) -> None:
    """Frankie Canton takes 1 token from a holder onto his character."""
    seat = pending[1]
    p: Player = g.players[seat]
    q = g.players[move.target]  # type: ignore[index]
    c = card_of(q, move.card)  # type: ignore[arg-type]
    loads.spend(g, q, c, 1, "frankie_canton")
    loads.gain(g, p, -1, 1, "frankie_canton")


# -- the Bomb -------------------------------------------------------------------------------------
_BOMB = BOMB = CARD_KIND_OF.index("bomb")


def task_bomb(g: GameState, task: list) -> None:
    """``["bomb", seat]``: the Bomb's check at its holder's turn start (after Jail)."""
    p = g.players[task[1]]
    if not p.alive or _BOMB not in p.in_play:
        return
    red = ops.flip_check(g, p, "bomb")
    if red is None or tumbleweed_window(g, p.seat, "bomb", red):
        return
    bomb_result(g, p.seat, red, [])


def bomb_result(g: GameState, seat: int, red: bool, ctx: list) -> None:
    p: Player = g.players[seat]
    if _BOMB not in p.in_play:
        return
    if red:
        others = [q.seat for q in g.players if q.alive and q.seat != seat]
        if len(others) == 1:
            pass_bomb(g, p, others[0])
        elif others:
            g.pending = [PASS_BOMB, seat]
        return
    loads.spend(g, p, _BOMB, min(2, g.loads[_BOMB]), "bomb")


def pass_bomb(g: GameState, p: Player, to: int) -> None:
    p.in_play.remove(_BOMB)
    p.v += 1
    q: Player = g.players[to]
    q.in_play.append(_BOMB)
    q.v += 1
    g.log.append(BombPassed.make(seat=p.seat, to=to))


def resolve_pass_bomb(g: GameState, pending: list, move: Move) -> None:
    pass_bomb(g, g.players[pending[1]], move.target)  # type: ignore[arg-type]


# -- Tumbleweed and Julie Cutter -----------------------------------------------------------------
_TUMBLEWEED = CARD_KIND_OF.index("tumbleweed")


def tumbleweed_window(g: GameState, seat: int, reason: str, result: bool, *ctx: object) -> bool:
    """After a flip of ``seat``'s check: when a Tumbleweed with a token is in play, queue the
    result (``["checked", …]``) under its holder's choice to have the flip repeated. Returns
    whether it did (the caller then stops)."""
    for q in g.players:
        if q.alive and _TUMBLEWEED in q.in_play and g.loads[_TUMBLEWEED]:
            g.stack.append(["checked", reason, seat, result, list(ctx)])
            g.stack.append(["tumbleweed", q.seat, seat, reason])
            return True
    return False


def task_tumbleweed(g: GameState, task: list) -> None:
    _, holder, seat, reason = task
    q: Player = g.players[holder]
    if q.alive and _TUMBLEWEED in q.in_play and g.loads[_TUMBLEWEED]:
        _option(g, holder, "tumbleweed", None, seat, reason)


def _tumbleweed(g: GameState, q: Player, seat: int, reason: str) -> None:
    g.log.append(Used.make(seat=q.seat, what=CARD_IDS[_TUMBLEWEED], target=seat))
    loads.spend(g, q, _TUMBLEWEED, 1, "tumbleweed")
    again = ops.flip_check(g, g.players[seat], reason)
    if again is not None:
        # The queued ["checked", …] (the latest one) now holds the new result.
        for task in reversed(g.stack):
            if task[0] == "checked":
                task[3] = again
                break
    if q.alive and _TUMBLEWEED in q.in_play and g.loads[_TUMBLEWEED]:
        g.stack.append(["tumbleweed", q.seat, seat, reason])


def julie_trigger(g: GameState, p: Player, source: int) -> None:
    """Julie Cutter lost life to ``source``: her flip, queued."""
    g.stack.append(["julie", p.seat, source])


def task_julie(g: GameState, task: list) -> None:
    _, seat, source = task
    p: Player = g.players[seat]
    if not (p.alive and g.players[source].alive):
        return
    red = ops.flip_check(g, p, "julie_cutter")
    if red is None or tumbleweed_window(g, seat, "julie_cutter", red, source):
        return
    julie_result(g, seat, red, [source])


def julie_result(g: GameState, seat: int, red: bool, ctx: list) -> None:
    source = ctx[0]
    if red and g.players[seat].alive and g.players[source].alive:
        g.stack.append(["shot", seat, source, "julie_cutter"])


# -- leaving play ------------------------------------------------------------------------------
def pick_in_play(g: GameState, p: Player, t: Player, kind: str, how: str) -> None:
    """Whip and Squaw: a card in play of ``t`` discarded (``squaw_take``: taken into the hand)."""
    if t.weapon >= 0 and CARD_KIND_OF[t.weapon] == kind:
        c = t.weapon
        loads.left_play(g, t, c, how)
        t.weapon = -1
    else:
        c = next(x for x in t.in_play if CARD_KIND_OF[x] == kind)
        loads.left_play(g, t, c, how)
        t.in_play.remove(c)
        if c in DISTANCE_CARDS:
            table_changed(g)
    t.v += 1
    if how == "squaw_take":
        p.hand.append(c)
        p.v += 1
        g.log.append(
            Stole.make(
                seat=p.seat, victim=t.seat, from_hand=False, reason="squaw", card=CARD_IDS[c]
            )
        )
    else:
        ops.discard_card(g, c)
        g.log.append(Discarded.make(seat=t.seat, cards=[CARD_IDS[c]], reason=how))


combat.ARMED = sys.modules[__name__]
