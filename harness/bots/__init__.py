"""Bots: seeded players that see only their seat's view and the pending decision.

``make_bot(kind, seed, seat)`` builds one; ``kind`` is one of :data:`BOT_KINDS`: ``random``
(uniform over legal moves, the baseline) and ``rule`` ("Bot N", the role-aware rule bot).
"""

from __future__ import annotations

from .base import Bot
from .random_bot import RandomBot
from .rule_bot import RuleBot

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "rule": RuleBot}
BOT_KINDS: tuple[str, ...] = tuple(BOTS)


def make_bot(kind: str, seed: int, seat: int) -> Bot:
    """A new bot of ``kind`` for ``seat``, drawing randomness only from ``random.Random(seed)``."""
    try:
        cls = BOTS[kind]
    except KeyError:
        raise ValueError(f"unknown bot kind {kind!r}; valid: {', '.join(BOT_KINDS)}") from None
    return cls(seed, seat)


__all__ = ["BOT_KINDS", "Bot", "RandomBot", "RuleBot", "make_bot"]
