""" "Bot N": the role-aware rule bot.

It reads only its seat's view and the pending decision. Its memory is a :class:`Beliefs` (role
inference from public events); at each decision it rates every seat with a *utility* of hurting
it, from its own role and the role probabilities:

- law (sheriff, deputies) hunts likely outlaws, then the renegade once the outlaws are gone, and
  never harms the sheriff; a deputy only fires on evidence (it hides);
- outlaws (and the double agent) go for the sheriff first, then for likely deputies, and spare
  seats that look like fellow outlaws;
- the renegade fights the outlaws while keeping the sheriff alive, then the deputies, and the
  sheriff only once the two of them are left (partners: never a seat that must be a renegade).

Cards follow from the utilities (see the ``_play_*`` helpers and ``card_sense``): draw cards
first, equipment early, the weapon that reaches the best targets, Jail on the most dangerous
suspect, Buckshot before Shot, Duel only when the Shots in hand make it favourable, Canteen only
when it saves or when it would be wasted later, Dynamite only with life to spare, and High Noon
changes (no healing, no Cover, unlimited Shots) taken into account.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bangarena.engine import Decision, Move, PlayerView, SeatView
from bangarena.engine.roles import DEPUTY, DOUBLE_AGENT, OUTLAW, PARTNERS, RENEGADE, SHERIFF

from . import rule_bot_armed as armed
from .base import Bot
from .card_sense import (
    HIGH_NOON_ROUND,
    KIND_OF_ID,
    RANGE,
    WEAPONS,
    keep_value,
    kind_of,
    weapon_range,
)
from .inference import OBSERVED_KINDS, Beliefs

LAW_ROLES = (SHERIFF, DEPUTY)
OUTLAW_ROLES = (OUTLAW, DOUBLE_AGENT)
# Below this utility a seat is not worth a card (per role: the deputy hides, the sheriff
# shoots on the odds).
THRESHOLD = {SHERIFF: 0.05, DEPUTY: 0.2, OUTLAW: 0.25, DOUBLE_AGENT: 0.25, RENEGADE: 0.2}
SHOT_FRACTION = 25 / 80  # share of Shots in the deck: a hand of h cards holds ~0.31 h Shots
UNLIMITED_CHARACTERS = ("mad_dog",)


class _Hand(dict):
    """Card kinds in hand -> copies (0 for a kind not held)."""

    __slots__ = ()

    def __missing__(self, key: str) -> int:
        return 0


class Situation:
    """What one decision needs, computed once from the view (utilities lazily)."""

    __slots__ = (
        "view",
        "bot",
        "me",
        "role",
        "life",
        "hand",
        "hn",
        "_alive",
        "_u",
        "_in_play",
    )

    def __init__(self, bot: RuleBot, view: SeatView) -> None:
        # The view's fields read through ``self.view``: its C type in the compiled build (the
        # fields are then struct reads), where ``view`` is a plain object.
        self.view = view
        self.bot = bot
        self.me: PlayerView = self.view.players[bot.seat]
        self.role = self.view.role or ""
        self.life = self.me.life
        ids = self.view.hand
        if ids == bot._hand_ids:
            # The hand did not change since the last decision (answers, several plays of one
            # turn that left it alone): its counts neither (read-only below).
            self.hand = bot._hand
        else:
            # Counted in a plain dict (its get and [] are the dict's own C calls in the compiled
            # build, where a subclass's are method calls), then copied into a _Hand once.
            counts: dict[str, int] = {}
            kinds = KIND_OF_ID
            for c in ids:
                k = kinds[c]
                counts[k] = counts.get(k, 0) + 1
            hand = self.hand = _Hand(counts)
            bot._hand_ids = ids
            bot._hand = hand
        self.hn = self.view.high_noon
        self._alive: list[int] | None = None
        self._u: list[float] | None = None
        self._in_play: set[str] | None = None

    @property
    def alive(self) -> list[int]:
        """The other living seats."""
        if self._alive is None:
            me = self.bot.seat
            self._alive = [p.seat for p in self.view.players if p.alive and p.seat != me]
        return self._alive

    # -- utilities -------------------------------------------------------------------------
    @property
    def u(self) -> list[float]:
        """Utility of hurting each seat (positive: an enemy)."""
        if self._u is None:
            self._u = self.bot.utilities(self.view, self.role)
        return self._u

    @property
    def threshold(self) -> float:
        return THRESHOLD.get(self.role, 0.2)

    def keep(self, kind: str, held: int | None = None) -> float:
        if held is None:
            held = self.hand[kind] - 1
        in_play = self._in_play
        if in_play is None:
            in_play = self._in_play = {KIND_OF_ID[c] for c in self.me.in_play}
        return keep_value(
            kind,
            life=self.life,
            high_noon=self.hn,
            round_=self.view.round,
            held=max(held, 0),
            in_play=in_play,
            weapon=self.me.weapon,
        )

    def cover(self, seat: int) -> bool:
        """Whether ``seat``'s Cover still works (card or Iron Brow; not at High Noon)."""
        if self.hn:
            return False
        p = self.view.players[seat]
        if p.character == "iron_brow":
            return True
        # A loop, not any() over a generator: the compiled build makes a generator object
        for c in p.in_play:
            if c.startswith("cover"):
                return True
        return False

    def unlimited(self) -> bool:
        w = self.me.weapon
        return (
            self.hn
            or self.me.character in UNLIMITED_CHARACTERS
            or (w is not None and w.startswith("vulcan"))
        )

    def shots(self) -> int:
        n = self.hand["shot"]
        if self.me.character == "two_face":
            n += self.hand["ricochet"]
        return n

    def dodges(self) -> int:
        n = self.hand["ricochet"]
        if self.me.character == "two_face":
            n += self.hand["shot"]
        return n


class RuleBot(Bot):
    """The rule bot ("Bot N")."""

    kind = "rule"

    def __init__(self, seed: int, seat: int) -> None:
        super().__init__(seed, seat)
        self.beliefs = Beliefs(seat)
        self._u_version = -1
        self._u: list[float] = []
        self._seen = 0  # log index up to which events were observed
        # The hand of the last decision (card ids) and its counts per kind, kept while equal.
        self._hand_ids: list[str] | None = None
        self._hand = _Hand()

    def choose(self, view: SeatView, decision: Decision) -> str:
        self.observe(view)
        sit = Situation(self, view)
        return _HANDLERS[decision.kind](self, sit, decision).id

    def observe(self, view: SeatView) -> None:
        """Take in the events of ``view`` not seen yet (what ``choose`` does first)."""
        # Only the kinds the beliefs learn from, from what was not seen yet (a caller may
        # re-send old events, e.g. since=0 every time): the view renders no other event.
        events = view.events_of(OBSERVED_KINDS, self._seen)
        if events:
            self.beliefs.observe(events)
        if view.cursor > self._seen:
            self._seen = view.cursor

    def copy(self) -> RuleBot:
        """An independent copy with the same memory and a fresh random stream from the same
        seed (a bot that has only observed, never chosen, copies into the bot it would be)."""
        b = RuleBot.__new__(RuleBot)
        b.seed = self.seed
        b.seat = self.seat
        b.rng = random.Random(self.seed)
        b.beliefs = self.beliefs.copy()
        b._u_version = -1
        b._u = []
        b._seen = self._seen
        b._hand_ids = None
        b._hand = _Hand()
        return b

    # -- who to hurt -----------------------------------------------------------------------
    def utilities(self, view: SeatView, role: str) -> list[float]:
        """Per seat, how much this bot wants to hurt it (0 for itself and the dead). They change
        only with the beliefs (an elimination is an event too), so they are kept per version."""
        if self._u_version != self.beliefs.version:
            self._u = self._utilities(view, role)
            self._u_version = self.beliefs.version
        return self._u

    def _utilities(self, view: SeatView, role: str) -> list[float]:
        b = self.beliefs
        odds = b.odds()
        players = view.players
        me = self.seat
        alive = [p.seat for p in players if p.alive]
        # Outlaw-side seats still alive, as far as this seat can count them.
        pool = b.pool()
        known = b.known
        outlaws_left = pool[OUTLAW] + pool[DOUBLE_AGENT]
        for s in alive:
            if known.get(s) in OUTLAW_ROLES:
                outlaws_left += 1
        if role in OUTLAW_ROLES:
            outlaws_left -= 1  # myself
        out = [0.0] * len(players)
        others = len(alive) - 2  # besides me and the sheriff
        if role in LAW_ROLES:
            wr = 1.2 if outlaws_left <= 0 else 0.35
            wd = 1.6 if role == SHERIFF else 1.2
            for s in alive:
                if s != me:
                    po, pd, pr, ps = odds[s]
                    out[s] = po + pr * wr - pd * wd - ps * 5.0
        elif role in OUTLAW_ROLES:
            for s in alive:
                if s != me:
                    po, pd, pr, ps = odds[s]
                    out[s] = ps * 2.0 + pd + pr * 0.35 - po * 1.2
        elif role == RENEGADE:
            if view.mode == PARTNERS:
                wr = -1.0
            else:
                wr = 0.2 if outlaws_left > 0 else 0.8
            for s in alive:
                if s == me:
                    continue
                po, pd, pr, ps = odds[s]
                if ps:
                    out[s] = 1.5 if others <= 0 else -3.0
                elif outlaws_left > 0:
                    out[s] = po + pd * 0.1 + pr * wr
                else:
                    out[s] = pd + pr * wr + po
        return out


# -- decisions ---------------------------------------------------------------------------


def _by_id(decision: Decision, mid: str) -> Move | None:
    return decision.get(mid)


def _first(decision: Decision, kind: str) -> Move | None:
    for m in decision.moves:
        if m.kind == kind:
            return m
    return None


def _play(bot: RuleBot, sit: Situation, d: Decision) -> Move:
    plays: dict[str, list[Move]] = {}
    for m in d.moves:
        k = m.kind
        if k == "play":
            key = m.card
        elif k == "play_as":
            key = "shot"
        else:
            continue
        same = plays.get(key)
        if same is None:
            plays[key] = [m]
        else:
            same.append(m)
    for step, kinds in _PLAY_STEPS:
        if kinds is None or not kinds.isdisjoint(plays):
            m = step(bot, sit, d, plays)
            if m is not None:
                return m
    return _first(d, "end_turn") or d.moves[0]


def _draws(bot: RuleBot, sit: Situation, d: Decision, plays: dict) -> Move | None:
    for k in ("caravan", "wagon"):
        if k in plays:
            return plays[k][0]
    if "bazaar" in plays:
        return plays["bazaar"][0]
    return None


def _armed(bot: RuleBot, sit: Situation, d: Decision, plays: dict) -> Move | None:
    """Armed & Dangerous games only (``supply`` is in their views)."""
    if sit.view.supply is None:
        return None
    return armed.play_step(bot, sit, d, plays)


def _equipment(bot: RuleBot, sit: Situation, d: Decision, plays: dict) -> Move | None:
    for k in ("scope", "horse"):
        if k in plays:
            return plays[k][0]
    if "cover" in plays and not sit.hn:
        return plays["cover"][0]
    if "dynamite" in plays and sit.life >= 4:
        sheriff = sit.view.players[bot.beliefs.sheriff]
        if sit.role in OUTLAW_ROLES or sheriff.life >= 4:
            return plays["dynamite"][0]
    return None


def _weapon_score(sit: Situation, rng: int, unlimited: bool) -> float:
    u, thr = sit.u, sit.threshold
    total = 0.0
    reach = False
    for s in sit.alive:
        dist = sit.view.players[s].distance
        if u[s] > thr and dist is not None and dist <= rng:
            total += u[s]
            reach = True
    if unlimited and reach:
        total += 0.5 * min(sit.shots() - 1, 2)
    return total + 0.03 * rng


def _weapon(bot: RuleBot, sit: Situation, d: Decision, plays: dict) -> Move | None:
    cands = [k for k in plays if k in WEAPONS]
    if not cands:
        return None
    marks = sit.me.stars.count("marksman")
    innate = sit.hn or sit.me.character in UNLIMITED_CHARACTERS
    cur = weapon_range(sit.me.weapon, sit.me.stars)
    cur_unl = innate or (sit.me.weapon is not None and sit.me.weapon.startswith("vulcan"))
    best, best_score = None, _weapon_score(sit, cur, cur_unl) + 0.01
    for k in cands:
        score = _weapon_score(sit, RANGE[k] + marks, innate or k == "vulcan")
        if score > best_score:
            best, best_score = k, score
    return plays[best][0] if best else None


def _danger(p: PlayerView) -> float:
    return 1.0 + 0.1 * p.hand_size + (0.3 if p.weapon and not p.weapon.startswith("vulcan") else 0)


def _jail(bot: RuleBot, sit: Situation, d: Decision, plays: dict) -> Move | None:
    if "jail" not in plays:
        return None
    u, players = sit.u, sit.view.players
    best, best_v = None, 0.0
    for m in plays["jail"]:
        if u[m.target] > sit.threshold:
            v = u[m.target] * _danger(players[m.target])
            if v > best_v:
                best, best_v = m, v
    return best


def _steal_value(sit: Situation, seat: int, how: str) -> tuple[float, str]:
    """Best piece to take from ``seat`` with Snatch/Knock Off: (value, pick option)."""
    p = sit.view.players[seat]
    friend = sit.u[seat] < -0.1
    best, best_v = "hand", 0.0
    kinds = [kind_of(c) for c in p.in_play]
    if p.weapon:
        kinds.append(kind_of(p.weapon))
    if friend:
        for k in kinds:
            v = 1.0 if k == "jail" else (0.4 if k == "dynamite" else 0.0)
            if v > best_v:
                best, best_v = k, v
        return best_v, best
    if p.hand_size:
        best_v = 0.5 + (0.3 if how == "snatch" else 0.0)
    for k in kinds:
        if k == "cover":
            v = 0.2 if sit.hn else 1.0
        elif k == "horse":
            v = 0.8
        elif k == "scope":
            v = 0.6
        elif k in WEAPONS:
            v = 0.6 if k == "vulcan" else 0.2 + 0.15 * RANGE[k]
        else:
            v = 0.0  # never free an enemy from its Jail or Dynamite
        if how == "snatch":
            v += 0.2
        if v > best_v:
            best, best_v = k, v
    return best_v, best


def _steal(bot: RuleBot, sit: Situation, d: Decision, plays: dict) -> Move | None:
    u = sit.u
    best, best_v = None, 0.3
    for how in ("knock_off", "snatch"):
        for m in plays.get(how, ()):
            v, _ = _steal_value(sit, m.target, how)
            t = u[m.target]
            if t < -0.1:
                score = v
            elif t >= 0.0 or how == "snatch":
                score = v * max(t, 0.4 if how == "snatch" else 0.0) * 1.5
            else:
                continue
            if score > best_v:
                best, best_v = m, score
    return best


def _friend_critical(sit: Situation) -> bool:
    """An area attack would risk a friend (or, for the renegade, the sheriff) at 1 life."""
    players, u = sit.view.players, sit.u
    for s in sit.alive:
        if players[s].life <= 1 and u[s] < -0.3:
            return True
    return False


def _area(bot: RuleBot, sit: Situation, d: Decision, plays: dict, kind: str) -> Move | None:
    if kind not in plays or _friend_critical(sit):
        return None
    players, u = sit.view.players, sit.u
    total = 0.0
    for s in sit.alive:
        hit = 0.5 if sit.cover(s) else 1.0
        if players[s].life <= 1:
            hit *= 1.5
        total += u[s] * hit
    return plays[kind][0] if total > 0.3 else None


def _buckshot(bot: RuleBot, sit: Situation, d: Decision, plays: dict) -> Move | None:
    return _area(bot, sit, d, plays, "buckshot")


def _raid(bot: RuleBot, sit: Situation, d: Decision, plays: dict) -> Move | None:
    return _area(bot, sit, d, plays, "raid")


def _target_value(sit: Situation, seat: int) -> float:
    u = sit.u[seat]
    p = sit.view.players[seat]
    if u <= 0:
        return u
    if sit.cover(seat):
        u *= 0.6
    if p.life == 1:
        u *= 1.5
    elif p.life == 2:
        u *= 1.2
    return u


def _shot(bot: RuleBot, sit: Situation, d: Decision, plays: dict) -> Move | None:
    moves = plays.get("shot")
    if not moves:
        return None
    thr, u, rnd = sit.threshold, sit.u, bot.rng.random
    best, best_v = None, thr
    for m in moves:
        v = _target_value(sit, m.target) + 0.001 * rnd()
        if u[m.target] > thr and v > best_v:
            best, best_v = m, v
    if best is None:
        return None
    # Two-Face: fire the more plentiful of Shot and Ricochet.
    same = [m for m in moves if m.target == best.target]
    if len(same) > 1:
        want_as = sit.hand["ricochet"] > sit.hand["shot"]
        for m in same:
            if (m.kind == "play_as") == want_as:
                return m
    return best


def _duel(bot: RuleBot, sit: Situation, d: Decision, plays: dict) -> Move | None:
    moves = plays.get("duel")
    if not moves:
        return None
    mine = sit.shots()
    thr, u, players = sit.threshold, sit.u, sit.view.players
    best, best_v = None, thr
    for m in moves:
        p = players[m.target]
        theirs = SHOT_FRACTION * p.hand_size
        if mine + 0.5 < theirs and p.life > 1:
            continue
        v = _target_value(sit, m.target)
        if u[m.target] > thr and v > best_v:
            best, best_v = m, v
    return best


def _canteen(bot: RuleBot, sit: Situation, d: Decision, plays: dict) -> Move | None:
    if "canteen" not in plays:
        return None
    hand = len(sit.view.hand)
    if (
        sit.life <= 2
        or sit.view.round >= HIGH_NOON_ROUND - 1
        or hand > sit.life + 1
        or sit.hand["canteen"] > 1
    ):
        return plays["canteen"][0]
    return None


def _saloon(bot: RuleBot, sit: Situation, d: Decision, plays: dict) -> Move | None:
    if "saloon" not in plays or sit.hn:
        return None
    players = sit.view.players
    if sit.role in OUTLAW_ROLES:
        sheriff = players[bot.beliefs.sheriff]
        if sheriff.life < sheriff.max_life:
            return None  # never heal the sheriff
    value = 1.0 if sit.me.life < sit.me.max_life else 0.0
    for s in sit.alive:
        p = players[s]
        if p.life < p.max_life:
            value -= sit.u[s]
    return plays["saloon"][0] if value > 0.3 else None


def _heal(bot: RuleBot, sit: Situation, d: Decision, plays: dict) -> Move | None:
    m = _first(d, "heal")
    if m is None:
        return None
    hand = len(sit.view.hand)
    if hand - 2 >= sit.life + 1 or (sit.life <= 2 and _junk(sit) >= 2):
        return m
    return None


def _junk(sit: Situation) -> int:
    return sum(c for k, c in sit.hand.items() if sit.keep(k) < 2.0)


def _last_resort(bot: RuleBot, sit: Situation, d: Decision, plays: dict) -> Move | None:
    """Cards that would be discarded at the end of the turn anyway: use the harmless ones."""
    excess = len(sit.view.hand) - sit.life
    if excess <= 0:
        return None
    for k in ("cover", "dynamite"):
        if k in plays and (k != "dynamite" or sit.life >= 4):
            return plays[k][0]
    return None


# Each step with the playable card kinds it looks at (None: it looks at the heal move).
_PLAY_STEPS: tuple[
    tuple[Callable[[RuleBot, Situation, Decision, dict], Move | None], frozenset[str] | None], ...
] = (
    (_draws, frozenset({"caravan", "wagon", "bazaar"})),
    (_armed, None),
    (_equipment, frozenset({"scope", "horse", "cover", "dynamite"})),
    (_weapon, WEAPONS),
    (_steal, frozenset({"knock_off", "snatch"})),
    (_jail, frozenset({"jail"})),
    (_buckshot, frozenset({"buckshot"})),
    (_shot, frozenset({"shot"})),
    (_raid, frozenset({"raid"})),
    (_duel, frozenset({"duel"})),
    (_canteen, frozenset({"canteen"})),
    (_saloon, frozenset({"saloon"})),
    (_heal, None),
    (_last_resort, frozenset({"cover", "dynamite"})),
)


def _discard(bot: RuleBot, sit: Situation, d: Decision) -> Move:
    best, best_v = d.moves[0], 1e9
    for m in d.moves:
        v = sit.keep(m.card)
        if v < best_v:
            best, best_v = m, v
    return best


def _answer_shot(bot: RuleBot, sit: Situation, d: Decision) -> Move:
    if sit.view.supply is not None:
        m = armed.answer_shot(bot, sit, d)
        if m is not None:
            return m
    needed = d.needed or 1
    ric = _by_id(d, "ricochet")
    as_ric = _by_id(d, "shot_as_ricochet")
    canteen = _by_id(d, "canteen")
    heal = _by_id(d, "heal")
    if sit.dodges() >= needed:
        if ric and as_ric:
            return ric if sit.hand["ricochet"] >= sit.hand["shot"] else as_ric
        if ric or as_ric:
            return ric or as_ric
    if canteen:
        return canteen
    if heal and sit.life <= 2:
        return heal
    return _first(d, "take_hit") or d.moves[0]


def _answer_card(bot: RuleBot, sit: Situation, d: Decision) -> Move:
    """Raid and Duel: discard a Shot (Two-Face: or a Ricochet as one) or lose 1 life."""
    shot = _by_id(d, "shot")
    as_shot = _by_id(d, "ricochet_as_shot")
    heal = _by_id(d, "heal")
    take = _first(d, "take_hit") or d.moves[0]
    friend_duel = d.kind == "answer_duel" and d.source is not None and sit.u[d.source] < -0.3
    if friend_duel and sit.life >= 3:
        return take  # a friend's Duel: lose 1 life rather than cost him his
    if shot and as_shot:
        return shot if sit.hand["shot"] >= sit.hand["ricochet"] else as_shot
    if shot or as_shot:
        return shot or as_shot
    if heal and sit.life <= 2:
        return heal
    return take


def _brace(bot: RuleBot, sit: Situation, d: Decision) -> Move:
    heal = _by_id(d, "heal")
    if heal and (sit.life <= 2 or len(sit.view.hand) - 2 >= sit.life):
        return heal
    return _first(d, "take_hit") or d.moves[0]


def _draw_choice(bot: RuleBot, sit: Situation, d: Decision) -> Move:
    deck = _by_id(d, "draw_deck") or d.moves[0]
    best, best_v = deck, 0.0
    top = sit.view.discard_top
    players = sit.view.players
    for m in d.moves:
        if m.option == "discard" and top is not None:
            v = sit.keep(kind_of(top), sit.hand[kind_of(top)]) - 2.3
        elif m.option == "grip":
            u = sit.u[m.target]
            if u < -0.1:
                continue
            v = 0.1 + max(u, 0.0) + 0.05 * players[m.target].hand_size
        else:
            continue
        if v > best_v:
            best, best_v = m, v
    return best


def _draw_keep(bot: RuleBot, sit: Situation, d: Decision) -> Move:
    """Three Eyes / instinct: put back the card worth least."""
    best, best_v = d.moves[0], 1e9
    for m in d.moves:
        k = kind_of(m.card)
        v = sit.keep(k, sit.hand[k])
        if v < best_v:
            best, best_v = m, v
    return best


def _pick_card(bot: RuleBot, sit: Situation, d: Decision) -> Move:
    target = d.source
    how = d.card or "knock_off"
    if target is None:
        return d.moves[0]
    _, option = _steal_value(sit, target, how)
    if option == "hand":
        m = _by_id(d, "pick:hand")
    else:
        m = _by_id(d, "pick:" + option)
    return m or d.moves[0]


def _upgrade_pref(bot: RuleBot, sit: Situation) -> tuple[str, ...]:
    thr = sit.threshold
    rng = weapon_range(sit.me.weapon, sit.me.stars)
    u = sit.u
    near = far = False
    for s in sit.alive:
        dist = sit.view.players[s].distance or 99
        if u[s] > thr:
            near |= dist <= rng
            far |= dist == rng + 1
    if sit.hn or sit.life <= 2:
        return ("endurance", "marksman", "instinct")
    if not near and far:
        return ("marksman", "instinct", "endurance")
    if sit.view.round < HIGH_NOON_ROUND - 2:
        return ("instinct", "endurance", "marksman")
    return ("endurance", "marksman", "instinct")


def _glory(bot: RuleBot, sit: Situation, d: Decision) -> Move:
    options = {m.option: m for m in d.moves}
    for up in _upgrade_pref(bot, sit):
        if up in options:
            return options[up]
    return d.moves[0]


_HANDLERS: dict[str, Callable[[RuleBot, Situation, Decision], Move]] = {
    "play": _play,
    "discard_excess": _discard,
    "heal_discard": _discard,
    "answer_shot": _answer_shot,
    "answer_raid": _answer_card,
    "answer_duel": _answer_card,
    "brace": _brace,
    "draw_choice": _draw_choice,
    "draw_keep": _draw_keep,
    "pick_card": _pick_card,
    "glory_upgrade": _glory,
    "bounty_pick": _glory,
    # Armed & Dangerous
    "optional_effect": armed.option,
    "pay_token": armed.pay,
    "load_token": armed.load,
    "discard_card": _discard,
    "take_token": armed.take,
    "pass_bomb": armed.give,
}
