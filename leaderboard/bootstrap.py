"""Uncertainty by cluster bootstrap over deals (docs/leaderboard.md, "The bootstrap").

A resample draws as many deals as there are, with replacement; a deal comes with every match
played on it (all its rotations, at every table of the suite), so the correlation between the
rotations of a deal — the same cards — stays inside a resample, as it is in the data. Each
resample is the fit refitted with every match weighted by its deal's multiplicity
(:func:`.ratings.refit_weighted`: warm-started from the point estimate, all resamples at once).

Per participant: the 2.5 and 97.5 percentiles of its bootstrap ratings (the 95 % interval) and
of its bootstrap rank (the rank interval). Ranks are then widened so that participants whose
intervals overlap share a rank range: a participant's best rank is 1 + the number of
participants whose interval lies wholly above its own, its worst the number of participants
whose interval does not lie wholly below its own, and the published range is the hull of that
and the bootstrap's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np

from .ratings import RatingFit, RefitReport, refit_weighted, to_ratings

DEFAULT_RESAMPLES: Final = 1000
LEVEL: Final = 0.95


def cluster_counts(n_clusters: int, resamples: int, seed: int = 0) -> np.ndarray:
    """(resamples, n_clusters): how many times each deal is drawn in each resample."""
    rng = np.random.default_rng(seed)
    if n_clusters == 0 or resamples == 0:
        return np.zeros((resamples, n_clusters))
    p = np.full(n_clusters, 1.0 / n_clusters)
    return rng.multinomial(n_clusters, p, size=resamples).astype(float)


@dataclass
class BootstrapResult:
    """The resampled ratings and the intervals read off them (participants in the fit's
    order)."""

    resamples: int
    seed: int
    counts: np.ndarray
    """(resamples, deals): each deal's multiplicity in each resample."""
    ratings: np.ndarray
    """(resamples, participants)."""
    phis: np.ndarray
    """(resamples, parameters): every refit's φ (a draw parameter the resample leaves out is 0
    there, see :func:`.ratings.refit_weighted`)."""
    ci: np.ndarray
    """(participants, 2): the 95 % percentile interval."""
    rank_bootstrap: np.ndarray
    """(participants, 2): the 2.5 and 97.5 percentiles of the bootstrap rank (1 = best)."""
    rank_overlap: np.ndarray
    """(participants, 2): the rank range the intervals allow (overlapping intervals share)."""
    rank: np.ndarray
    """(participants, 2): the published rank range, the hull of the two above."""
    report: RefitReport


def ranks_of(ratings: np.ndarray) -> np.ndarray:
    """Ranks (1 = highest) along the last axis; ties share the best rank of the tie."""
    order = -ratings
    return (order[..., :, None] > order[..., None, :]).sum(axis=-1) + 1


def overlap_ranks(ci: np.ndarray) -> np.ndarray:
    """(P, 2) rank ranges from intervals (P, 2): best = 1 + #intervals wholly above, worst =
    P − #intervals wholly below. Two overlapping intervals always get intersecting ranges."""
    lo, hi = ci[:, 0], ci[:, 1]
    above = (lo[None, :] > hi[:, None]).sum(axis=1)
    below = (hi[None, :] < lo[:, None]).sum(axis=1)
    return np.stack([1 + above, len(lo) - below], axis=1)


def summarise(
    ratings: np.ndarray,
    counts: np.ndarray,
    seed: int,
    report: RefitReport,
    phis: np.ndarray | None = None,
) -> BootstrapResult:
    """Intervals and rank ranges from bootstrap ratings (resamples, participants)."""
    tail = (1.0 - LEVEL) / 2.0
    ci = np.percentile(ratings, [100 * tail, 100 * (1 - tail)], axis=0).T
    ranks = ranks_of(ratings)
    rb = np.stack(
        [
            np.quantile(ranks, tail, axis=0, method="inverted_cdf"),
            np.quantile(ranks, 1 - tail, axis=0, method="inverted_cdf"),
        ],
        axis=1,
    ).astype(int)
    ro = overlap_ranks(ci)
    hull = np.stack([np.minimum(rb[:, 0], ro[:, 0]), np.maximum(rb[:, 1], ro[:, 1])], axis=1)
    return BootstrapResult(
        resamples=ratings.shape[0],
        seed=seed,
        counts=counts,
        ratings=ratings,
        phis=phis if phis is not None else np.zeros((ratings.shape[0], 0)),
        ci=ci,
        rank_bootstrap=rb,
        rank_overlap=ro,
        rank=hull,
        report=report,
    )


def bootstrap(fit: RatingFit, resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> BootstrapResult:
    """The cluster bootstrap of ``fit``: ``resamples`` refits over deals drawn with
    replacement (seeded: the same data and seed give the same intervals)."""
    if resamples < 1:
        raise ValueError(f"resamples {resamples}: at least 1")
    counts = cluster_counts(fit.data.n_clusters, resamples, seed)
    phis, report = refit_weighted(fit, counts)
    n = len(fit.data.participants)
    ratings = to_ratings(phis[:, :n], fit.data.participants, fit.anchor)
    return summarise(ratings, counts, seed, report, phis)


__all__ = [
    "DEFAULT_RESAMPLES",
    "LEVEL",
    "BootstrapResult",
    "bootstrap",
    "cluster_counts",
    "overlap_ranks",
    "ranks_of",
    "summarise",
]
