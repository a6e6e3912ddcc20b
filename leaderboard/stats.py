"""The statistics beside the ratings: Wilson intervals for win rates, head-to-head paired
differences on duplicate deals, and split-half rank stability (docs/leaderboard.md).

- **Wilson score interval** for k wins in n seats: the usual 95 % interval for a proportion that
  stays inside [0, 1] and behaves at 0 and n.
- **Head to head**: on duplicate deals, participant A at seat *s* of deal *d* (one rotation)
  and participant B at the same seat of the same deal (another rotation) held the same role,
  character and cards. Every such (deal, table, seat) with both is a paired unit; its difference
  is A's win share there minus B's. The estimate is the mean difference over the units; its 95 %
  interval comes from the same cluster bootstrap over deals as the ratings.
- **Split-half stability**: the deals are split at random into two halves many times; each half
  is fitted alone (warm-started from the full fit) and the Spearman correlation between the two
  halves' ratings is taken; the board shows its mean (and its 2.5–97.5 % spread).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from .data import RatedMatch
from .ratings import RatingFit, refit_weighted, to_ratings

Z95: Final = 1.959963984540054
DEFAULT_SPLITS: Final = 100


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of ``wins``/``n`` (None when ``n`` is 0)."""
    if n <= 0:
        return None
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # At 0 and n the bounds are exactly 0 and 1 (rounding would leave 1e-16 off them).
    lo = 0.0 if wins <= 0 else max(0.0, centre - half)
    hi = 1.0 if wins >= n else min(1.0, centre + half)
    return (lo, hi)


def spearman_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Spearman's correlation between each row of ``a`` and the same row of ``b`` (average
    ranks for ties; NaN for a constant row)."""
    from scipy.stats import rankdata

    ra = rankdata(a, axis=1)
    rb = rankdata(b, axis=1)
    ra -= ra.mean(axis=1, keepdims=True)
    rb -= rb.mean(axis=1, keepdims=True)
    num = (ra * rb).sum(axis=1)
    den = np.sqrt((ra * ra).sum(axis=1) * (rb * rb).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


@dataclass
class SplitHalf:
    """Split-half rank stability."""

    splits: int
    """Splits that could be scored (both halves with at least 3 common participants)."""
    mean: float | None
    low: float | None
    """The 2.5 % quantile of the splits' correlations."""
    high: float | None
    deals_per_half: int
    values: list[float]


def split_half(fit: RatingFit, splits: int = DEFAULT_SPLITS, seed: int = 0) -> SplitHalf:
    """Split the deals at random into halves ``splits`` times, fit each half and correlate
    the halves' ratings (Spearman) over the participants that played in both."""
    data = fit.data
    C = data.n_clusters
    P = len(data.participants)
    half = C // 2
    if splits < 1 or half < 1 or P < 3:
        return SplitHalf(0, None, None, None, half, [])
    rng = np.random.default_rng(seed)
    counts = np.zeros((2 * splits, C))
    for i in range(splits):
        perm = rng.permutation(C)
        counts[2 * i, perm[:half]] = 1.0
        counts[2 * i + 1, perm[half : 2 * half]] = 1.0
    phis, _ = refit_weighted(fit, counts)
    ratings = to_ratings(phis[:, :P], data.participants, fit.anchor)
    # Which participants each half saw: a participant's seats per deal.
    seen = np.zeros((C, P))
    rows = np.abs(data.X[:, :-1, :P] if data.has_draw else data.X[:, :, :P]).sum(axis=1) > 0
    np.add.at(seen, data.cluster, rows.astype(float))
    played = (counts @ seen) > 0  # (2·splits, P)
    values: list[float] = []
    a, b = ratings[0::2], ratings[1::2]
    both = played[0::2] & played[1::2]
    full = both.all(axis=1)
    if full.any():
        values.extend(float(v) for v in spearman_rows(a[full], b[full]) if np.isfinite(v))
    for i in np.flatnonzero(~full):
        keep = both[i]
        if keep.sum() >= 3:
            v = spearman_rows(a[i : i + 1, keep], b[i : i + 1, keep])[0]
            if np.isfinite(v):
                values.append(float(v))
    if not values:
        return SplitHalf(0, None, None, None, half, [])
    arr = np.array(values)
    return SplitHalf(
        splits=len(values),
        mean=float(arr.mean()),
        low=float(np.quantile(arr, 0.025)),
        high=float(np.quantile(arr, 0.975)),
        deals_per_half=half,
        values=values,
    )


@dataclass
class HeadToHead:
    """A against B on the units (deal, table, seat) where both sat."""

    a: str
    b: str
    units: int
    deals: int
    a_wins: float
    """A's wins on the paired units (a share when A sat there more than once)."""
    b_wins: float
    diff: float
    """Mean over the units of A's win share minus B's (−1 … 1)."""
    ci: tuple[float, float] | None


def head_to_head(
    matches: Sequence[RatedMatch],
    participants: Sequence[str],
    clusters: Sequence[tuple[str, int]],
    counts: np.ndarray | None = None,
) -> list[HeadToHead]:
    """Every pair of ``participants`` (in that order: A before B) that met on a duplicate
    deal's same seat, with its paired difference and — with the bootstrap's ``counts``
    (resamples, deals in ``clusters`` order) — a 95 % percentile interval."""
    index = {p: i for i, p in enumerate(participants)}
    k_index = {k: i for i, k in enumerate(clusters)}
    units: dict[tuple[str, int, int, int], dict[int, list[int]]] = {}
    for m in matches:
        won = set(m.winning_seats)
        for seat, pid in enumerate(m.lineup):
            i = index.get(pid)
            if i is None:
                continue
            unit = units.setdefault((m.suite, m.table_index, m.deal, seat), {})
            unit.setdefault(i, []).append(1 if seat in won else 0)
    P = len(participants)
    pair_index = {
        (i, j): n for n, (i, j) in enumerate((i, j) for i in range(P) for j in range(i + 1, P))
    }
    C = len(clusters)
    npairs = len(pair_index)
    D = np.zeros((C, npairs))
    N = np.zeros((C, npairs))
    WA = np.zeros((C, npairs))
    WB = np.zeros((C, npairs))
    for (suite, _table, deal, _seat), who in units.items():
        if len(who) < 2:
            continue
        c = k_index[(suite, deal)]
        shares = {i: sum(v) / len(v) for i, v in who.items()}
        ids = sorted(shares)
        for x in range(len(ids)):
            for y in range(x + 1, len(ids)):
                i, j = ids[x], ids[y]
                col = pair_index[(i, j)]
                D[c, col] += shares[i] - shares[j]
                N[c, col] += 1.0
                WA[c, col] += shares[i]
                WB[c, col] += shares[j]
    n_units = N.sum(axis=0)
    out: list[HeadToHead] = []
    boot: np.ndarray | None = None
    if counts is not None and counts.size and npairs:
        num = counts @ D
        den = counts @ N
        with np.errstate(invalid="ignore", divide="ignore"):
            boot = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
    for (i, j), col in pair_index.items():
        if n_units[col] == 0:
            continue
        ci: tuple[float, float] | None = None
        if boot is not None:
            col_boot = boot[:, col]
            col_boot = col_boot[np.isfinite(col_boot)]
            if col_boot.size:
                lo, hi = np.quantile(col_boot, [0.025, 0.975])
                ci = (float(lo), float(hi))
        out.append(
            HeadToHead(
                a=participants[i],
                b=participants[j],
                units=int(n_units[col]),
                deals=int((N[:, col] > 0).sum()),
                a_wins=float(WA[:, col].sum()),
                b_wins=float(WB[:, col].sum()),
                diff=float(D[:, col].sum() / n_units[col]),
                ci=ci,
            )
        )
    return out


__all__ = [
    "DEFAULT_SPLITS",
    "Z95",
    "HeadToHead",
    "SplitHalf",
    "head_to_head",
    "spearman_rows",
    "split_half",
    "wilson",
]
