"""The global rating fit: recovery of known strengths from outcomes drawn from the model (12
participants, realistic role effects), bootstrap interval coverage, order independence, the
anchor and scale, the factions of every table, and the batched refits against L-BFGS."""

from __future__ import annotations

import dataclasses
import math
import random

import numpy as np
import pytest
from scipy.optimize import check_grad
from scipy.stats import spearmanr

from bangarena.leaderboard.bootstrap import bootstrap, cluster_counts
from bangarena.leaderboard.data import LeaderboardError, RatedMatch
from bangarena.leaderboard.ratings import (
    SCALE,
    MatchShapeError,
    _fallback,
    compile_matches,
    factions_of,
    fit_ratings,
    objective,
    refit_weighted,
    to_ratings,
)
from bangarena.leaderboard.synthetic import ladder_truth, simulate_suite

COVERAGE_REPS = 20
COVERAGE_RESAMPLES = 200
COVERAGE_DEALS = 150


def _true_ratings(truth, fit) -> np.ndarray:  # noqa: ANN001
    theta = np.array([truth.strengths[p] for p in fit.data.participants])
    return to_ratings(theta, fit.data.participants, fit.anchor)


@pytest.mark.parametrize("seed", [1, 2])
def test_recovery_ranks_twelve_participants(seed: int) -> None:
    truth = ladder_truth(12, spread=1.2, seed=seed)
    matches = simulate_suite(truth, 400, seed=seed)
    fit = fit_ratings(matches, truth.specs)
    assert fit.report.converged and len(fit.data.participants) == 12
    rho = spearmanr(_true_ratings(truth, fit), fit.ratings).statistic
    assert rho >= 0.9
    # The role effects are found too (the law is the reference at every table).
    effects = fit.effects()
    for table, values in truth.effects.items():
        for outcome in ("outlaws", "renegade"):
            assert effects[f"{table}:{outcome}"] == pytest.approx(values[outcome], abs=0.35)


def test_bootstrap_intervals_cover_the_truth() -> None:
    truth = ladder_truth(12, spread=1.2, seed=5)
    hits = total = 0
    for rep in range(COVERAGE_REPS):
        matches = simulate_suite(truth, COVERAGE_DEALS, seed=100 + rep)
        fit = fit_ratings(matches, truth.specs)
        boot = bootstrap(fit, COVERAGE_RESAMPLES, seed=rep)
        assert boot.report.fallbacks <= COVERAGE_RESAMPLES // 20
        true = _true_ratings(truth, fit)
        for i, pid in enumerate(fit.data.participants):
            if pid == fit.anchor.id:
                continue
            total += 1
            hits += bool(boot.ci[i, 0] <= true[i] <= boot.ci[i, 1])
    assert total == COVERAGE_REPS * 11
    coverage = 100.0 * hits / total
    assert 80.0 <= coverage <= 100.0, coverage


def test_shuffling_the_matches_changes_no_rating() -> None:
    truth = ladder_truth(8, seed=3)
    matches = simulate_suite(truth, 60, seed=9, tables=["5/classic", "7/classic"])
    shuffled = list(matches)
    random.Random(4).shuffle(shuffled)
    relabelled = [dataclasses.replace(m, order=len(matches) - m.order) for m in shuffled]
    a = fit_ratings(matches, truth.specs)
    b = fit_ratings(relabelled, truth.specs)
    assert np.array_equal(a.ratings, b.ratings) and np.array_equal(a.phi, b.phi)
    ba, bb = bootstrap(a, 100, seed=1), bootstrap(b, 100, seed=1)
    assert np.array_equal(ba.ci, bb.ci) and np.array_equal(ba.rank, bb.rank)
    # Not only the canonical sort: the objective itself is a sum over matches.
    data = a.data
    perm = np.random.default_rng(0).permutation(data.n_matches)
    permuted = dataclasses.replace(
        data, X=data.X[perm], present=data.present[perm], y=data.y[perm], cluster=data.cluster[perm]
    )
    v1, g1 = objective(a.phi + 0.1, data)
    v2, g2 = objective(a.phi + 0.1, permuted)
    assert v1 == pytest.approx(v2, rel=1e-12) and np.allclose(g1, g2, rtol=1e-10, atol=1e-12)


def test_the_gradient_is_the_objectives() -> None:
    truth = ladder_truth(8, seed=2)
    truth.effects = {"4/classic": {"outlaws": 0.3, "renegade": -0.5, "draw": -1.0},
                     "8/partners": {"outlaws": 0.2, "renegade": -1.0}}  # fmt: skip
    matches = simulate_suite(truth, 40, seed=2)
    data = compile_matches(matches)
    assert data.has_draw and data.X.shape[1] == 4  # law, outlaws, renegades, draw
    rng = np.random.default_rng(1)
    w = rng.integers(0, 3, data.n_matches).astype(float)
    for _ in range(3):
        x = rng.normal(0, 0.5, data.n_params)
        err = check_grad(lambda p: objective(p, data, w)[0], lambda p: objective(p, data, w)[1], x)
        assert err < 1e-4 * max(1.0, float(np.linalg.norm(objective(x, data, w)[1])))


def test_anchor_and_scale() -> None:
    truth = ladder_truth(5, seed=1)
    matches = simulate_suite(truth, 80, seed=1, tables=["5/classic"])
    fit = fit_ratings(matches, truth.specs, anchor_rating=1200.0)
    r = fit.rating_of()
    assert r["p0"] == 1200.0 and truth.specs["p0"] == "rule"
    assert pytest.approx(400 / math.log(10)) == SCALE
    i, j = fit.data.participants.index("p1"), fit.data.participants.index("p2")
    assert r["p1"] - r["p2"] == pytest.approx(SCALE * (fit.theta[i] - fit.theta[j]))
    # The likelihood ignores a common shift of strengths: the prior centres them on 0.
    assert abs(float(fit.theta.mean())) < 1e-6
    none = fit_ratings(matches, {}, anchor_spec="rule")
    assert none.anchor.kind == "mean" and float(none.ratings.mean()) == pytest.approx(1000.0)
    assert np.allclose(none.ratings - none.ratings.mean(), fit.ratings - fit.ratings.mean())


def _match(seats: int, mode: str, roles: tuple[str, ...], winner: str, won: tuple[int, ...]):
    return RatedMatch(
        key="k",
        suite="s",
        table_index=0,
        deal=0,
        deal_seed=0,
        rotation=0,
        seats=seats,
        mode=mode,
        max_rounds=40,
        rules_version="v",
        lineup=tuple(f"p{i}" for i in range(seats)),
        roles=roles,
        winner=winner,
        winning_seats=won,
        order=0,
    )


def test_factions_of_every_table() -> None:
    eight = ("sheriff", "renegade", "outlaw", "deputy", "renegade", "outlaw", "deputy", "outlaw")
    fs, w = factions_of(_match(8, "classic", eight, "renegade", (4,)))
    assert [(f.kind, f.seats) for f in fs] == [
        ("law", (0, 3, 6)),
        ("outlaws", (2, 5, 7)),
        ("renegade", (1,)),
        ("renegade", (4,)),
    ]
    assert w == 3  # the renegade who won, not the other one
    fs, w = factions_of(_match(8, "partners", eight, "renegade", (1, 4)))
    assert [(f.kind, f.seats) for f in fs][2:] == [("renegade", (1, 4))] and w == 2
    agent = ("sheriff", "deputy", "renegade", "double_agent", "outlaw")
    fs, w = factions_of(_match(5, "double_agent", agent, "outlaws", (3, 4)))
    assert fs[1].seats == (3, 4) and w == 1
    fs, w = factions_of(
        _match(4, "classic", ("sheriff", "renegade", "outlaw", "outlaw"), "draw", ())
    )
    assert w == -1 and len(fs) == 3
    with pytest.raises(MatchShapeError, match="not a faction"):
        factions_of(
            _match(4, "classic", ("sheriff", "renegade", "outlaw", "outlaw"), "renegade", (2,))
        )
    with pytest.raises(MatchShapeError, match="roles"):
        factions_of(_match(4, "classic", ("sheriff", "outlaw"), "law", (0,)))
    with pytest.raises(LeaderboardError, match="no done matches"):
        compile_matches([])


def test_batched_refits_are_the_weighted_modes() -> None:
    truth = ladder_truth(10, seed=4)
    matches = simulate_suite(truth, 120, seed=4)
    fit = fit_ratings(matches, truth.specs)
    data = fit.data
    assert data.has_draw  # the realistic effects include draws at some tables
    counts = cluster_counts(data.n_clusters, 12, seed=3)
    # A resample without any of a table's draws, and a split half.
    draws = data.cluster_draws()
    no_draws = counts[0].copy()
    no_draws[draws.sum(axis=1) > 0] = 0.0
    half = np.zeros(data.n_clusters)
    half[: data.n_clusters // 2] = 1.0
    counts = np.vstack([counts, no_draws, half])
    phis, report = refit_weighted(fit, counts, fallback=False)
    assert report.fallbacks == 0
    n = len(data.participants)
    for r in range(counts.shape[0]):
        exact = _fallback(fit, counts[r])
        assert np.max(np.abs(phis[r, :n] - exact[:n])) < 1e-4, r
