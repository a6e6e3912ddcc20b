"""Research interfaces: BangArena as a PettingZoo AEC environment (``env``) and, in
:mod:`.openspiel_game`, as an OpenSpiel Python game.

Needs the optional extras ``[rl]`` (pettingzoo, gymnasium) and, for OpenSpiel, ``[openspiel]``;
importing this package without them raises ImportError naming the extra. The action enumeration
(:mod:`.actions`) and the observation encoding (:mod:`.encoding`) are documented in
``docs/research.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import action_ids, action_index, action_table
from .encoding import encoding_spec, observation_size

try:
    from .aec import ENV_NAME, BangArenaEnv, IllegalAction
except ImportError as e:  # pragma: no cover - the extra is installed in CI
    raise ImportError(
        f"bangarena.harness.rl needs the [rl] extra (pettingzoo, gymnasium): {e}"
    ) from e


def env(
    seats: int = 5,
    mode: str = "classic",
    seed: int | None = None,
    expansions: Sequence[str] = (),
    **options: Any,
) -> BangArenaEnv:
    """A new AEC environment: ``seats`` 4–8, a mode of rules.json, ``seed`` for the sequence of
    deals (None: fresh entropy), ``expansions`` the game's (``("armed_dangerous",)``: Armed &
    Dangerous games, with that enumeration and encoding); ``options``: ``max_rounds`` (the round
    cap, 40), ``render_mode`` (``"ansi"`` or ``"human"``)."""
    return BangArenaEnv(seats=seats, mode=mode, seed=seed, expansions=expansions, **options)


__all__ = [
    "ENV_NAME",
    "BangArenaEnv",
    "IllegalAction",
    "action_ids",
    "action_index",
    "action_table",
    "encoding_spec",
    "env",
    "observation_size",
]
