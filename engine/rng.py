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


_M1 = 0xBF58476D1CE4E5B9  # SplitMix64's two multipliers
_M2 = 0x94D049BB133111EB


def _mix(z: int) -> int:
    z = (z ^ (z >> 30)) * _M1 & _MASK
    z = (z ^ (z >> 27)) * _M2 & _MASK
    return z ^ (z >> 31)


def stream_seed(seed: int, purpose: str) -> int:
    """The starting state of the stream ``purpose`` of a game seeded with ``seed``."""
    h = seed & _MASK
    # _mix inlined, its constants in locals: C 64-bit unsigned ints in the compiled build
    # (rng.pxd), where Python's big ints made the four streams of a deal ~20 µs of its ~100.
    golden, m1, m2, mask = _GOLDEN, _M1, _M2, _MASK
    for ch in purpose.encode():
        z = (h ^ ch) + golden & mask
        z = (z ^ (z >> 30)) * m1 & mask
        z = (z ^ (z >> 27)) * m2 & mask
        h = z ^ (z >> 31)
    return h


def next_u64(state: int) -> tuple[int, int]:
    """Advance a SplitMix64 state; returns (new_state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    return state, _mix(state)


def below(states: list[int], slot: int, n: int) -> int:
    """A uniform integer in [0, n) from stream ``slot`` of ``states`` (advanced in place)."""
    if n <= 1:
        return 0
    # Rejection sampling keeps the draw exactly uniform. next_u64 inlined, its constants in
    # locals: the compiled build types them as C 64-bit unsigned ints (rng.pxd), and the masks
    # are then no-ops of C's own wrap-around arithmetic.
    limit = _limits(n)[n]
    golden, m1, m2, mask = _GOLDEN, _M1, _M2, _MASK
    state = states[slot]
    while True:
        state = (state + golden) & mask
        z = (state ^ (state >> 30)) * m1 & mask
        z = (z ^ (z >> 27)) * m2 & mask
        z ^= z >> 31
        if z <= limit:
            states[slot] = state
            return z % n


# The rejection bound of :func:`below` per range size n: the largest draw accepted, one below
# the largest multiple of n that fits in 64 bits (itself 2**64 for a power of two, which a C
# 64-bit int does not hold), for the sizes a shuffle meets: computed once, not at every draw.
_LIMITS: list[int] = [0] + [_TWO64 - _TWO64 % n - 1 for n in range(1, 129)]


def _limits(size: int) -> list[int]:
    """:data:`_LIMITS`, long enough for a list of ``size`` items."""
    while len(_LIMITS) <= size:
        n = len(_LIMITS)
        _LIMITS.append(_TWO64 - _TWO64 % n - 1)
    return _LIMITS


def shuffle(states: list[int], slot: int, items: list) -> None:
    """Fisher–Yates shuffle of ``items`` in place with stream ``slot``: the same draws as
    :func:`below` for each position, inlined (a game shuffles a few hundred times)."""
    state = states[slot]
    limits = _limits(len(items))
    golden, m1, m2, mask = _GOLDEN, _M1, _M2, _MASK  # C ints in the compiled build (below)
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = limits[n]
        while True:
            state = (state + golden) & mask
            z = (state ^ (state >> 30)) * m1 & mask
            z = (z ^ (z >> 27)) * m2 & mask
            z ^= z >> 31
            if z <= limit:
                break
        j = z % n
        items[i], items[j] = items[j], items[i]
    states[slot] = state
