"""Pool schedules: which participants sit at a table for each deal, when there are more
participants than seats.

Lineups are chosen one deal at a time from a seeded stream, so deal ``k``'s lineup depends only
on the deals before it (adding deals keeps every earlier lineup). Each deal seats the
participants that have played least (so appearances never differ by more than one) and, among
those choices, the set whose pairs have met least (greedy with a few seeded restarts; this
minimises the sum of squared pair counts one deal at a time). ``tests/test_evals_schedule.py``
checks the bounds stated in docs/evals.md over a grid of pool sizes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Final

RESTARTS: Final = 8


def _pick(counts: list[int], pairs: list[list[int]], seats: int, rng: random.Random) -> list[int]:
    least = min(counts)
    low = [i for i, c in enumerate(counts) if c == least]
    # Appearances stay within one of each other, so everyone else has played least + 1 times.
    if len(low) >= seats:
        forced: list[int] = []
        pool = low
    else:
        forced = low
        pool = [i for i, c in enumerate(counts) if c != least]
    best: tuple[tuple[int, int], list[int]] | None = None
    for _ in range(RESTARTS):
        chosen = list(forced)
        added = {c: sum(pairs[c][x] for x in chosen) for c in pool}
        candidates = list(pool)
        rng.shuffle(candidates)
        while len(chosen) < seats:
            pick = min(candidates, key=added.__getitem__)  # first minimum: the shuffled order
            candidates.remove(pick)
            chosen.append(pick)
            for c in candidates:
                added[c] += pairs[c][pick]
        _improve(chosen, len(forced), pool, pairs)
        inside = [pairs[a][b] for a, b in combinations(chosen, 2)]
        score = (sum(inside), max(inside, default=0))
        if best is None or score < best[0]:
            best = (score, chosen)
    assert best is not None
    return best[1]


def _improve(chosen: list[int], fixed: int, pool: list[int], pairs: list[list[int]]) -> None:
    """Swap chosen participants (after the ``fixed`` first) for unchosen ones of the same pool
    while a swap lowers the sum of pair counts inside the lineup (the greedy pass cannot look
    back at its first picks)."""
    while True:
        best_gain, best_swap = 0, None
        outside = [c for c in pool if c not in chosen]
        for i in range(fixed, len(chosen)):
            x = chosen[i]
            rest = chosen[:i] + chosen[i + 1 :]
            cost_x = sum(pairs[x][r] for r in rest)
            for y in outside:
                gain = cost_x - sum(pairs[y][r] for r in rest)
                if gain > best_gain:
                    best_gain, best_swap = gain, (i, y)
        if best_swap is None:
            return
        i, y = best_swap
        chosen[i] = y


def pool_lineups(participants: Sequence[str], seats: int, deals: int, seed: int) -> list[list[str]]:
    """One lineup (participant ids, seat 0 first, no repeats) per deal."""
    n = len(participants)
    if len(set(participants)) != n:
        raise ValueError("pool participants must be distinct")
    if n <= seats:
        raise ValueError(f"a pool needs more participants than seats ({n} for {seats})")
    rng = random.Random(seed)
    counts = [0] * n
    pairs = [[0] * n for _ in range(n)]
    out: list[list[str]] = []
    for _ in range(deals):
        chosen = _pick(counts, pairs, seats, rng)
        for a in chosen:
            counts[a] += 1
        for a, b in combinations(chosen, 2):
            pairs[a][b] += 1
            pairs[b][a] += 1
        rng.shuffle(chosen)
        out.append([participants[i] for i in chosen])
    return out


def appearance_counts(lineups: Sequence[Sequence[str]]) -> dict[str, int]:
    """How many lineups each participant is in."""
    out: dict[str, int] = {}
    for lineup in lineups:
        for p in lineup:
            out[p] = out.get(p, 0) + 1
    return out


def pair_counts(
    lineups: Sequence[Sequence[str]], participants: Sequence[str]
) -> dict[tuple[str, str], int]:
    """How many lineups each unordered pair of participants shares (every pair listed)."""
    out = {tuple(sorted(pq)): 0 for pq in combinations(participants, 2)}
    for lineup in lineups:
        for pq in combinations(sorted(lineup), 2):
            out[pq] += 1  # type: ignore[index]
    return out  # type: ignore[return-value]


__all__ = ["appearance_counts", "pair_counts", "pool_lineups"]
