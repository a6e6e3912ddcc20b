"""Elimination and glory (rules.md §7, §11): role reveal, Scavenger, the sheriff's penalty,
bounty, stars and upgrades, Vulture Junior, last bullet, then the victory check."""

from __future__ import annotations

from .deck_ops import discard_card, draw, ids
from .events import Discarded, Eliminated, Penalty, Scavenged, StarGained
from .loads import character_out, left_play
from .moves import BOUNTY_PICK, GLORY_UPGRADE, Move
from .roles import DEPUTY, OLD_CLASSIC, OLD_CLASSIC_OUTLAW_REWARD, OUTLAW
from .state import GameState, Player
from .table import table_changed
from .victory import check_victory


def _all_cards(g: GameState, p: Player, reason: str) -> tuple[list[int], list[int]]:
    """(hand, in play with the weapon last) and empties the player's areas (Armed &
    Dangerous: the tokens on its Dangerous cards go back to the supply)."""
    hand, table = p.hand, p.in_play
    if p.weapon >= 0:
        table = table + [p.weapon]
    if g.expansions:
        for c in table:
            left_play(g, p, c, reason)
    p.hand, p.in_play, p.weapon = [], [], -1
    p.v += 1
    return hand, table


def task_eliminate(g: GameState, task: list) -> None:
    """``["eliminate", victim, killer]`` (killer -1: nobody, e.g. Dynamite)."""
    _, seat, killer = task
    victim: Player = g.players[seat]
    victim.alive = False
    victim.v += 1
    table_changed(g)
    g.log.append(
        Eliminated.make(seat=seat, role=victim.role, killer=killer if killer >= 0 else None)
    )
    hand, table = _all_cards(g, victim, "eliminated")
    if g.expansions:
        character_out(g, victim, "eliminated")
    scavenger = next((p for p in g.players if p.alive and p.character == "scavenger"), None)
    if scavenger is not None:
        bit = 1 << scavenger.seat
        for c in hand:
            g.known[c] |= bit
        scavenger.hand.extend(hand + table)
        scavenger.v += 1
        g.log.append(
            Scavenged.make(
                seat=scavenger.seat,
                victim=seat,
                hand_count=len(hand),
                in_play=ids(table),
                hand_cards=ids(hand),
                private_to=[scavenger.seat],
            )
        )
    elif hand or table:
        for c in hand + table:
            discard_card(g, c)
        g.log.append(Discarded.make(seat=seat, cards=ids(hand + table), reason="eliminated"))

    k = g.players[killer] if killer >= 0 else None
    penalty = k is not None and k.seat == g.sheriff and victim.role == DEPUTY
    if penalty:
        hand, table = _all_cards(g, k, "penalty")
        for c in hand + table:
            discard_card(g, c)
        g.log.append(Penalty.make(seat=k.seat, cards=ids(hand + table)))
        if k.character == "empty_hands" and k.alive:
            draw(g, k, 1, "empty_hands")

    picks: list[list] = []
    if k is not None and k.alive and not penalty:
        if g.mode == OLD_CLASSIC:
            if victim.role == OUTLAW:
                draw(g, k, OLD_CLASSIC_OUTLAW_REWARD, "outlaw_reward")
        else:
            if victim.stars:
                draw(g, k, len(victim.stars), "bounty")
                picks.append(["bounty_pick", k.seat, seat])
            picks.append(["new_star", k.seat, "elimination"])
    for p in g.players:
        if p.alive and p.character == "vulture_junior":
            draw(g, p, 2, "vulture_junior")
    if (
        victim.role == DEPUTY
        and g.mode != OLD_CLASSIC
        and g.players[g.sheriff].alive
        and not any(p.alive and p.role == DEPUTY for p in g.players)
    ):
        picks.append(["new_star", g.sheriff, "last_bullet"])
    # A victory ends the game at once: the picks, which cannot change it, are dropped.
    if check_victory(g):
        return
    g.stack.extend(reversed(picks))


def upgrade_options(g: GameState, p: Player) -> list[str]:
    """Upgrades a new star may carry: instinct at most once, never for Three Eyes."""
    opts = ["marksman", "endurance"]
    if "instinct" not in p.stars and p.character != "three_eyes":
        opts.append("instinct")
    return opts


def bounty_options(g: GameState, killer: Player, victim: Player) -> list[str]:
    """The victim's stars the killer may take, one entry per distinct upgrade ("" = none)."""
    opts: list[str] = []
    for up in victim.stars:
        if up not in opts:
            opts.append(up)
    if "instinct" in killer.stars and len(opts) > 1 and "instinct" in opts:
        opts.remove("instinct")
    return opts


def add_star(g: GameState, p: Player, upgrade: str, reason: str) -> None:
    p.stars.append(upgrade)
    p.v += 1
    if upgrade == "endurance":
        p.max_life += 1
        p.life += 1
    g.log.append(StarGained.make(seat=p.seat, upgrade=upgrade or None, reason=reason))


def task_new_star(g: GameState, task: list) -> None:
    if g.players[task[1]].alive:
        g.pending = [GLORY_UPGRADE, task[1], task[2]]


def resolve_glory_upgrade(g: GameState, pending: list, move: Move) -> None:
    add_star(g, g.players[pending[1]], move.option, pending[2])


def task_bounty_pick(g: GameState, task: list) -> None:
    if g.players[task[1]].alive and g.players[task[2]].stars:
        g.pending = [BOUNTY_PICK, task[1], task[2]]


def resolve_bounty_pick(g: GameState, pending: list, move: Move) -> None:
    killer, victim = g.players[pending[1]], g.players[pending[2]]
    up = "" if move.option == "none" else move.option
    victim.stars.remove(up)
    victim.v += 1
    if up == "instinct" and "instinct" in killer.stars:
        up = ""  # the only star left carries instinct, which he already has: no upgrade
    add_star(g, killer, up, "bounty")
