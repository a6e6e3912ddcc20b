"""The rule bot's Armed & Dangerous sense: which expansion cards and effects to play, where its
Load tokens go and what they pay for.

Tokens follow the role's needs: effects that hurt enemies (Mexicali Kid, Whip, Lockpick, extra
Quick Shot or Arrow targets, weapon effects) and draws are paid for; a Crate is a defence and is
never the holder a payment comes from while another one can pay; tokens go first on a Bomb in
front of the bot (it explodes when they run out), then on the Crate, then on the character (the
most flexible holder); upgrades are bought only when they are not wasted (A Little Nip only
when it heals more, Mule Train only while the hand is short). Nothing here runs in base games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bangarena.engine import Decision, Move

from .card_sense import KIND_OF_ID, WEAPONS, kind_of

if TYPE_CHECKING:
    from .rule_bot import RuleBot, Situation

# Payment: the lower, the sooner a holder pays (a Bomb in front of the bot is paid from last:
# every token it loses brings its explosion closer; the Crate is kept for defence).
PAY_ORDER = {
    "character": 0,
    "bandolier": 1,
    "bell_tower": 1,
    "tumbleweed": 1,
    "crate": 8,
    "bomb": 9,
}
# Loading: the lower, the sooner a holder gets a token.
LOAD_ORDER = {"bomb": 0, "crate": 1, "character": 2}
_DANGEROUS_OBJECTS = (
    "crate",
    "bandolier",
    "ace_up_the_sleeve",
    "whip",
    "lockpick",
    "beer_keg",
    "tumbleweed",
    "bell_tower",
)


def _tokens(sit: Situation) -> int:
    me = sit.me
    return (me.tokens or 0) + sum((me.loads or {}).values())


def _best_enemy(sit: Situation, moves: list[Move]) -> Move | None:
    best, best_v = None, sit.threshold
    for m in moves:
        if m.target is None:
            continue
        v = sit.u[m.target]
        p = sit.view.players[m.target]
        if p.life <= 1:
            v *= 1.5
        if v > best_v:
            best, best_v = m, v
    return best


def play_step(bot: RuleBot, sit: Situation, d: Decision, plays: dict) -> Move | None:
    """The expansion's plays, tried before the base game's ones: draws and equipment first,
    then the effects that hurt enemies."""
    uses: dict[str, list[Move]] = {}
    for m in d.moves:
        if m.kind == "use":
            uses.setdefault(m.card or "", []).append(m)
    # Draws: the Mule Train, Ace Up the Sleeve, Reloading while holders have room.
    if "mule_train" in plays:
        return plays["mule_train"][0]
    if "ace_up_the_sleeve" in uses:
        return uses["ace_up_the_sleeve"][0]
    for k in ("red_ringo", "frankie_canton"):
        if k in uses:
            return uses[k][0]
    if "reloading" in plays:
        return plays["reloading"][0]
    # Equipment: Dangerous objects early; the Bomb on the most hated seat, never on a friend.
    for k in _DANGEROUS_OBJECTS:
        if k in plays:
            return plays[k][0]
    if "bomb" in plays:
        m = _best_enemy(sit, [m for m in plays["bomb"] if m.target != bot.seat])
        if m is not None:
            return m
    if "bass_greeves" in uses and len(sit.view.hand) > sit.life:
        return uses["bass_greeves"][0]
    # Effects on enemies.
    for k in ("whip", "lockpick", "mexicali_kid"):
        if k in uses:
            m = _best_enemy(sit, uses[k])
            if m is not None:
                return m
    if "whip" in uses:
        # A friend (or the bot itself) rid of a Jail or a Bomb.
        for m in uses["whip"]:
            p = sit.view.players[m.target]  # type: ignore[index]
            bad = any(kind_of(c) in ("jail", "bomb") for c in p.in_play)
            if bad and (m.target == bot.seat or sit.u[m.target] < -0.3):  # type: ignore[index]
                return m
    if "beer_keg" in uses and sit.life <= 2:
        return uses["beer_keg"][0]
    for k in ("quick_shot", "flintlock", "arrow", "squaw"):
        if k in plays:
            m = _best_enemy(sit, plays[k])
            if m is not None:
                return m
    if "little_nip" in plays and (sit.life <= 2 or sit.life < sit.me.max_life - 1):
        return plays["little_nip"][0]
    if "rust" in plays and any(
        (p.tokens or 0) + sum((p.loads or {}).values())
        for p in sit.view.players
        if p.alive and p.seat != bot.seat
    ):
        return plays["rust"][0]
    # Nobody in range for the Shots in hand: Bell Tower brings everyone to 1.
    wanted = any(sit.u[s] > sit.threshold for s in sit.alive)
    if "bell_tower" in uses and sit.shots() and plays.get("shot") is None and wanted:
        return uses["bell_tower"][0]
    return None


def answer_shot(bot: RuleBot, sit: Situation, d: Decision) -> Move | None:
    """Duck! like a Ricochet (kept behind the Ricochets); the Crate when no card answers."""
    needed = d.needed or 1
    duck = d.get("duck")
    crate = d.get("use:crate")
    ric = d.get("ricochet") or d.get("shot_as_ricochet")
    if ric is not None and sit.dodges() >= needed:
        return None  # the base game's answer
    cards = sit.dodges() + sit.hand["duck"] + (1 if crate is not None else 0)
    if cards < needed:
        return None
    if ric is not None:
        return ric
    if duck is not None:
        return duck
    return crate


def _last_check(sit: Situation) -> dict[str, Any] | None:
    for e in reversed(sit.view.events):
        if e["kind"] == "check":
            return e
    return None


def option(bot: RuleBot, sit: Situation, d: Decision) -> Move:
    """An optional effect: pay for it when it helps the bot's side."""
    what = d.card or ""
    use = [m for m in d.moves if m.kind == "use"]
    skip = d.get("pass") or d.moves[0]
    if not use:
        return skip
    if what == "tumbleweed":
        e = _last_check(sit)
        if e is None:
            return skip
        seat, good = e["seat"], e["success"]
        if seat == bot.seat:
            return use[0] if not good else skip
        u = sit.u[seat]
        return use[0] if (good and u > sit.threshold) or (not good and u < -0.3) else skip
    if what in ("quick_shot", "arrow"):
        return _best_enemy(sit, use) or skip
    if what == "mule_train":
        return use[0] if len(sit.view.hand) + 2 <= sit.life and _tokens(sit) >= 3 else skip
    if what == "squaw":
        return use[0] if _tokens(sit) >= 4 else skip
    # Weapon effects, Ms. Abigail, Al Preacher, taking Flintlock or Duck! back, A Little Nip
    # (offered only while it heals more): worth their tokens.
    return use[0]


def pay(bot: RuleBot, sit: Situation, d: Decision) -> Move:
    return min(d.moves, key=lambda m: PAY_ORDER.get(m.card or "", 3))


def load(bot: RuleBot, sit: Situation, d: Decision) -> Move:
    loads = sit.me.loads or {}
    best, best_v = d.moves[0], 99.0
    for m in d.moves:
        if m.kind == "pass":
            continue
        k = m.card or ""
        v = float(LOAD_ORDER.get(k, 3))
        if k == "bomb":
            tokens = next((n for c, n in loads.items() if KIND_OF_ID.get(c) == "bomb"), 0)
            v = 0.0 if tokens <= 2 else 4.0
        if k in WEAPONS:
            v = 2.5
        if v < best_v:
            best, best_v = m, v
    return best


def take(bot: RuleBot, sit: Situation, d: Decision) -> Move:
    """Frankie Canton: a token off an enemy (off a Bomb in front of one first)."""
    best, best_v = d.moves[0], -99.0
    for m in d.moves:
        t = m.target if m.target is not None else bot.seat
        v = sit.u[t] if t != bot.seat else -0.5
        if m.card == "bomb":
            v = v * 2 if t != bot.seat else 1.0
        if v > best_v:
            best, best_v = m, v
    return best


def give(bot: RuleBot, sit: Situation, d: Decision) -> Move:
    """The Bomb goes to the most hated seat."""
    return max(d.moves, key=lambda m: sit.u[m.target] if m.target is not None else -99.0)
