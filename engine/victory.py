"""Victory conditions (rules.md §2) and the end of a game."""

from __future__ import annotations

from .events import GameOver
from .roles import DEPUTY, DOUBLE_AGENT, DRAW, LAW, OUTLAW, OUTLAWS, PARTNERS, RENEGADE, SHERIFF
from .state import GameState


def _finish(g: GameState, team: str, winners: list[int], reason: str) -> None:
    g.over = True
    g.winning_team = team
    g.winners = winners
    g.end_reason = reason
    g.pending = None
    g.stack.clear()
    g.log.append(
        GameOver.make(
            winning_team=team, winners=winners, reason=reason, roles=[p.role for p in g.players]
        )
    )


def end_as_draw(g: GameState) -> None:
    """The declared round cap was reached: a draw with no winner (rules.md §11)."""
    _finish(g, DRAW, [], "round_cap")


def outcome(g: GameState) -> tuple[str, list[int], str] | None:
    """The victory the position shows, as ``(team, winners, reason)``, or None while every
    side can still win. Pure: :func:`check_victory` ends the game with it, and a scenario is
    refused with it when its position is already over."""
    players = g.players
    alive = [p for p in players if p.alive]
    if not players[g.sheriff].alive:
        if g.mode == PARTNERS and all(p.role == RENEGADE for p in alive):
            renegades = [p.seat for p in players if p.role == RENEGADE]
            return RENEGADE, renegades, "renegades_partners"
        if len(alive) == 1 and alive[0].role == RENEGADE:
            return RENEGADE, [alive[0].seat], "renegade_last_alive"
        winners = [p.seat for p in players if p.role in (OUTLAW, DOUBLE_AGENT)]
        return OUTLAWS, winners, "sheriff_eliminated"
    if not any(p.role in (OUTLAW, DOUBLE_AGENT, RENEGADE) for p in alive):
        winners = [p.seat for p in players if p.role in (SHERIFF, DEPUTY)]
        return LAW, winners, "law_restored"
    return None


def check_victory(g: GameState) -> bool:
    """Check the objectives after an elimination; ends the game and returns True on a win."""
    won = outcome(g)
    if won is None:
        return False
    _finish(g, *won)
    return True
