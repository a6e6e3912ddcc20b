"""A compact text picture of a view, for ``render()`` of the research interfaces."""

from __future__ import annotations

from bangarena.engine import SeatView


def render_view(view: SeatView) -> str:
    """One line for the table, one per seat: life, hand size, cards in play, known role (and
    in an Armed & Dangerous game the supply and each seat's Load tokens)."""
    head = f"round {view.round}{' (High Noon)' if view.high_noon else ''}, turn of seat {view.turn}"
    head += f", deck {view.deck_size}, discard {view.discard_size}"
    if view.discard_top:
        head += f" (top {view.discard_top})"
    if view.supply is not None:  # Armed & Dangerous
        head += f", supply {view.supply} tokens"
    lines = [head]
    if view.over:
        lines.append(f"game over: {view.winning_team} (winners {view.winners})")
    elif view.decision is not None:
        d = view.decision
        lines.append(f"decision: {d.kind} for seat {d.seat}")
    for p in view.players:
        mark = "x" if not p.alive else ">" if p.seat == view.turn else " "
        gear = ", ".join([*p.in_play, *([p.weapon] if p.weapon else [])]) or "-"
        role = p.role or "?"
        line = (
            f"{mark} seat {p.seat} {p.character:<14} {role:<12} ♥ {p.life}/{p.max_life} "
            f"hand {p.hand_size} in play: {gear}"
        )
        if p.tokens is not None:  # Armed & Dangerous: the character's tokens, then the cards'
            loads = "".join(f", {c} {n}" for c, n in (p.loads or {}).items())
            line += f" tokens {p.tokens}{loads}"
        lines.append(line)
    if view.seat is not None:
        lines.append(f"seat {view.seat}'s hand: {', '.join(view.hand) or '-'}")
    return "\n".join(lines)
