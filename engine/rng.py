"""Seeded random streams: SplitMix64, tiny state, trivially cloned and serialized.

Each purpose (the deal, reshuffles, coins and flips, random hand picks) has its own stream
derived from the game seed, so that one more coin toss never changes the next reshuffle
(rules.md §11).
"""

from __future__ import annotations

import struct

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
    # Below five items the side-by-side draws' fixed cost (the tables, the unpack) is not repaid
    if _PACKED and len(items) > 4:
        _shuffle_packed(states, slot, items)
    else:
        _shuffle_one_by_one(states, slot, items)


def _shuffle_one_by_one(states: list[int], slot: int, items: list) -> None:
    """:func:`shuffle` draw by draw."""
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


# -- the pure build's shuffle: all the draws of a shuffle at once --------------------------------
# In pure Python each draw is a dozen operations on fresh big ints (~0.35 µs per card, ~30 µs
# for the 80-card deal, ~7 % of a random-legal game). The k draws of a shuffle use the states
# s0 + i·golden (i = 1..k), so they are computed side by side in one big int with a 128-bit
# lane per draw: a lane's 64-bit product never reaches the next lane, and a mask after each
# shift drops the bits the shift brought in from the next lane. Each step is one C loop over
# the whole int; the same draws, and a shuffle falls back to the draw-by-draw loop when a lane
# would be rejected (a chance of ~n/2**64 per draw). The compiled build keeps the loop: there
# the draws are C arithmetic.
_PACKED = type(_mix).__name__ == "function"  # False in the compiled build: its functions are C
_PACKED_TABLES: dict[int, tuple[int, int, int, int, struct.Struct]] = {}


def _packed_tables(size: int) -> tuple[int, int, int, int, struct.Struct]:
    """For a list of ``size`` items: the lane units, the lanes' golden steps, the lanes' mask,
    the smallest rejection bound met, and the unpacker of the lanes' low 64 bits."""
    k = size - 1
    ones = ramp = 0
    for i in range(k):
        ones |= 1 << 128 * i
        ramp |= ((i + 1) * _GOLDEN & _MASK) << 128 * i
    bound = min(_limits(size)[2 : size + 1])
    tables = (ones, ramp, _MASK * ones, bound, struct.Struct("<" + "Q8x" * k))
    _PACKED_TABLES[size] = tables
    return tables


def _shuffle_packed(states: list[int], slot: int, items: list) -> None:
    """:func:`shuffle` with its draws computed side by side (the pure build's, see above)."""
    size = len(items)
    tables = _PACKED_TABLES.get(size) or _packed_tables(size)
    ones, ramp, lanes, bound, unpack = tables
    s0 = states[slot]
    z = (s0 * ones + ramp) & lanes  # lane i: the state after i + 1 steps
    z = ((z ^ (z >> 30)) & lanes) * _M1 & lanes
    z = ((z ^ (z >> 27)) & lanes) * _M2 & lanes
    z = (z ^ (z >> 31)) & lanes
    draws = unpack.unpack(z.to_bytes(unpack.size, "little"))
    if max(draws) > bound:
        _shuffle_one_by_one(states, slot, items)
        return
    i = size
    for d in draws:
        j = d % i
        i -= 1
        items[i], items[j] = items[j], items[i]
    states[slot] = (s0 + (size - 1) * _GOLDEN) & _MASK
