"""Bots: seeded players that see only their seat's view and the pending decision.

``make_bot(kind, seed, seat)`` builds one; ``kind`` is one of :data:`BOT_KINDS`: ``random``
(uniform over legal moves, the baseline), ``rule`` ("Bot N", the role-aware rule bot) and
``search`` (IS-MCTS with rule-bot rollouts over games sampled from its information set; it asks
the driver for a sampler, :mod:`.information_set`), or a bot spec such as ``rule:eps=0.3`` or
``search:sims=50`` (:mod:`.spec`).
"""

from __future__ import annotations

# ruff: noqa: E402 (the build switch runs before the modules it redirects are imported)
from bangarena.engine.compiled import activate as _activate_build

# BANGARENA_ENGINE=compiled: the rule bot's modules load from the compiled build (docs/speed.md).
_activate_build(__name__, __path__[0])

from .base import Bot
from .exploring import ExploringBot
from .random_bot import RandomBot
from .rule_bot import RuleBot
from .search_bot import SearchBot
from .spec import BOT_PARAMS, BotSpec, BotSpecError, is_bot_spec, parse_bot_spec

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "rule": RuleBot, "search": SearchBot}
BOT_KINDS: tuple[str, ...] = tuple(BOTS)
BOT_VERSIONS: dict[str, str] = {"rule": "1", "random": "1"}
"""A version per bot kind, bumped whenever the bot's play changes: evaluation keys include it,
so a changed bot plays new matches (``tests/test_evals_keys.py`` pins the rule bot's golden-game
fingerprint to its version so a change cannot slip by)."""
# The search bot plays with the rule bot (prior, beliefs, rollouts): its version carries the
# rule bot's, so a rule bot change replays search matches too.
BOT_VERSIONS["search"] = "1+rule" + BOT_VERSIONS["rule"]


def make_bot(kind: str | BotSpec, seed: int, seat: int) -> Bot:
    """A new bot for ``seat`` from a kind or bot spec (``rule``, ``rule:eps=0.3``), drawing
    randomness only from streams seeded by ``seed``; raises :class:`BotSpecError`."""
    spec = kind if isinstance(kind, BotSpec) else parse_bot_spec(kind)
    if spec.kind == "search":
        return SearchBot(seed, seat, sims=round(spec.param("sims")))
    bot = BOTS[spec.kind](seed, seat)
    eps = spec.param("eps") if spec.kind == "rule" else 0.0
    return ExploringBot(bot, eps) if eps > 0 else bot


__all__ = [
    "BOT_KINDS",
    "BOT_PARAMS",
    "BOT_VERSIONS",
    "Bot",
    "BotSpec",
    "BotSpecError",
    "ExploringBot",
    "RandomBot",
    "RuleBot",
    "SearchBot",
    "is_bot_spec",
    "make_bot",
    "parse_bot_spec",
]
