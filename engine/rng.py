"""Seeded random streams: SplitMix64, tiny state, trivially cloned and serialized.

Each purpose (the deal, reshuffles, coins and flips, random hand picks) has its own stream
derived from the game seed, so that one more coin toss never changes the next reshuffle
(rules.md §11).
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_TWO64 = 1 << 64
SEED_LIMIT = _TWO64  # game seeds are ints with 0 <= seed < SEED_LIMIT (stream_seed masks)
_GOLDEN = 0x9E3779B97F4A7C15
STREAMS = ("deal", "shuffle", "coin", "pick")


def _mix(z: int) -> int:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _MASK
    return z ^ (z >> 31)


def stream_seed(seed: int, purpose: str) -> int:
    """The starting state of the stream ``purpose`` of a game seeded with ``seed``."""
    h = seed & _MASK
    for ch in purpose.encode():
        h = _mix((h ^ ch) + 0x9E3779B97F4A7C15 & _MASK)
    return h


def next_u64(state: int) -> tuple[int, int]:
    """Advance a SplitMix64 state; returns (new_state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    return state, _mix(state)


def below(states: list[int], slot: int, n: int) -> int:
    """A uniform integer in [0, n) from stream ``slot`` of ``states`` (advanced in place)."""
    if n <= 1:
        return 0
    # Rejection sampling keeps the draw exactly uniform.
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        s, out = next_u64(states[slot])
        states[slot] = s
        if out < limit:
            return out % n


# The rejection bound of :func:`below` per range size n (the largest multiple of n that fits in
# 64 bits), for the sizes a shuffle meets: computed once instead of at every position.
_LIMITS: list[int] = [0] + [_TWO64 - _TWO64 % n for n in range(1, 129)]


def _limits(size: int) -> list[int]:
    """:data:`_LIMITS`, long enough for a list of ``size`` items."""
    while len(_LIMITS) <= size:
        n = len(_LIMITS)
        _LIMITS.append(_TWO64 - _TWO64 % n)
    return _LIMITS


def shuffle(states: list[int], slot: int, items: list) -> None:
    """Fisher–Yates shuffle of ``items`` in place with stream ``slot``: the same draws as
    :func:`below` for each position, inlined (a game shuffles a few hundred times)."""
    state = states[slot]
    limits = _limits(len(items))
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = limits[n]
        while True:
            state = (state + _GOLDEN) & _MASK
            z = (state ^ (state >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
            z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _MASK
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        items[i], items[j] = items[j], items[i]
    states[slot] = state
