"""Roles, teams, modes and the per-seat tables (rules.md §2)."""

from __future__ import annotations

from typing import Final

SHERIFF: Final = "sheriff"
DEPUTY: Final = "deputy"
OUTLAW: Final = "outlaw"
RENEGADE: Final = "renegade"
DOUBLE_AGENT: Final = "double_agent"
ROLES: Final = (SHERIFF, DEPUTY, OUTLAW, RENEGADE, DOUBLE_AGENT)

LAW: Final = "law"
OUTLAWS: Final = "outlaws"
TEAMS: Final = (LAW, OUTLAWS, RENEGADE)
DRAW: Final = "draw"
TEAM_OF: Final = {
    SHERIFF: LAW,
    DEPUTY: LAW,
    OUTLAW: OUTLAWS,
    DOUBLE_AGENT: OUTLAWS,
    RENEGADE: RENEGADE,
}

CLASSIC: Final = "classic"
PARTNERS: Final = "partners"
DOUBLE_AGENT_MODE: Final = "double_agent"
OLD_CLASSIC: Final = "old_classic"
MODES: Final = (CLASSIC, PARTNERS, DOUBLE_AGENT_MODE, OLD_CLASSIC)

MIN_SEATS: Final = 4
MAX_SEATS: Final = 8

ROLE_TABLE: Final[dict[int, tuple[str, ...]]] = {
    4: (SHERIFF, RENEGADE, OUTLAW, OUTLAW),
    5: (SHERIFF, DEPUTY, RENEGADE, OUTLAW, OUTLAW),
    6: (SHERIFF, DEPUTY, RENEGADE, OUTLAW, OUTLAW, OUTLAW),
    7: (SHERIFF, DEPUTY, DEPUTY, RENEGADE, OUTLAW, OUTLAW, OUTLAW),
    8: (SHERIFF, DEPUTY, DEPUTY, RENEGADE, RENEGADE, OUTLAW, OUTLAW, OUTLAW),
}

SHERIFF_LIFE_BONUS: Final = {4: 2, 5: 0, 6: 2, 7: 1, 8: 1}
SHERIFF_HAND_ADJUST: Final = {4: 0, 5: 0, 6: 2, 7: 1, 8: -1}
OLD_CLASSIC_SHERIFF_LIFE_BONUS: Final = 1
HIGH_NOON_ROUND: Final = 8
DRAW_PER_TURN: Final = 2
OLD_CLASSIC_OUTLAW_REWARD: Final = 3
TIMES_PER_MOVE_S: Final = (15, 30, 60, 90)
DISCONNECTED_TIME_S: Final = 8
UPGRADES: Final = ("marksman", "endurance", "instinct")


def roles_for(seats: int, mode: str) -> tuple[str, ...]:
    """The role set of a table: the classic table, with one outlaw turned double agent
    in double_agent mode from 5 seats."""
    base = ROLE_TABLE[seats]
    if mode == DOUBLE_AGENT_MODE and seats >= 5:
        i = base.index(OUTLAW)
        return base[:i] + (DOUBLE_AGENT,) + base[i + 1 :]
    return base
