"""Deal seeds: deal ``k`` of a suite plays on a seed derived from the suite's seed and ``k`` only.

The derivation is SplitMix64 (the engine's own generator, ``bangarena.engine.rng``): the seed of
deal ``k`` is the ``(k + 1)``-th output of a SplitMix64 generator whose state starts at the suite
seed, with its top bit cleared::

    state = (suite_seed + (k + 1) * 0x9E3779B97F4A7C15) mod 2**64
    z = state
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 mod 2**64
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB mod 2**64
    z = z ^ (z >> 31)
    deal_seed = z >> 1

The top bit is cleared so that every deal seed fits a signed 64-bit integer (a PostgreSQL
``bigint``, a parquet ``int64``) as well as the engine's ``0 <= seed < 2**64``. Deal ``k``'s seed
does not depend on how many deals the suite has, so adding deals keeps every earlier deal.
"""

from __future__ import annotations

from typing import Final

MASK64: Final = (1 << 64) - 1
GOLDEN_GAMMA: Final = 0x9E3779B97F4A7C15
MAX_SUITE_SEED: Final = MASK64
"""Suite seeds are 0 ≤ seed < 2**64."""


def splitmix64(state: int) -> int:
    """The SplitMix64 output function of ``state`` (already advanced)."""
    z = state & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def deal_seed(suite_seed: int, deal: int) -> int:
    """The seed of deal ``deal`` (0-based) of a suite seeded ``suite_seed``; 0 ≤ result < 2**63."""
    if isinstance(suite_seed, bool) or not isinstance(suite_seed, int):
        raise TypeError(f"suite seed must be an int, got {type(suite_seed).__name__}")
    if isinstance(deal, bool) or not isinstance(deal, int):
        raise TypeError(f"deal index must be an int, got {type(deal).__name__}")
    if not 0 <= suite_seed <= MAX_SUITE_SEED:
        raise ValueError(f"suite seed {suite_seed} is not within 0 ≤ seed < 2**64")
    if deal < 0:
        raise ValueError(f"deal index {deal} is negative")
    return splitmix64(suite_seed + (deal + 1) * GOLDEN_GAMMA) >> 1


def stream_seed(suite_seed: int, label: str) -> int:
    """A seed for one of the suite's own random streams (``label`` names the purpose, e.g. the
    pool schedule of table 2): SplitMix64 over the label's bytes, as the engine derives its
    per-purpose streams."""
    h = suite_seed & MASK64
    for byte in label.encode():
        h = splitmix64((h ^ byte) + GOLDEN_GAMMA)
    return h


__all__ = ["MAX_SUITE_SEED", "deal_seed", "splitmix64", "stream_seed"]
