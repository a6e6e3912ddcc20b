"""The statistics beside the ratings: Wilson intervals, rank ranges (overlapping intervals share
a range), Spearman, head-to-head paired differences on duplicate deals, split-half stability,
and the openskill rating (order-dependent, and said to be)."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import spearmanr

from bangarena.leaderboard.bootstrap import cluster_counts, overlap_ranks, ranks_of
from bangarena.leaderboard.data import RatedMatch
from bangarena.leaderboard.online import online_ratings
from bangarena.leaderboard.ratings import fit_ratings
from bangarena.leaderboard.stats import head_to_head, spearman_rows, split_half, wilson
from bangarena.leaderboard.synthetic import SyntheticTruth, ladder_truth, simulate_suite


def test_wilson_matches_the_textbook_values() -> None:
    assert wilson(0, 0) is None
    lo, hi = wilson(5, 10)  # type: ignore[misc]
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson(0, 10)  # type: ignore[misc]
    assert lo == 0.0 and round(hi, 4) == 0.2775
    lo, hi = wilson(10, 10)  # type: ignore[misc]
    assert round(lo, 4) == 0.7225 and hi == 1.0
    lo, hi = wilson(81, 263)  # type: ignore[misc]
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(-500, 500), st.floats(0, 300)), min_size=1, max_size=12))
def test_overlapping_intervals_share_a_rank_range(spans: list[tuple[float, float]]) -> None:
    ci = np.array([(lo, lo + width) for lo, width in spans])
    ranks = overlap_ranks(ci)
    n = len(spans)
    assert ((ranks[:, 0] >= 1) & (ranks[:, 0] <= ranks[:, 1]) & (ranks[:, 1] <= n)).all()
    for i in range(n):
        for j in range(n):
            overlap = ci[i, 0] <= ci[j, 1] and ci[j, 0] <= ci[i, 1]
            shared = ranks[i, 0] <= ranks[j, 1] and ranks[j, 0] <= ranks[i, 1]
            if overlap:
                assert shared
            elif ci[i, 0] > ci[j, 1]:  # i wholly above j: its range lies higher
                assert ranks[i, 0] < ranks[j, 0] and ranks[i, 1] < ranks[j, 1]


def test_ranks_and_spearman() -> None:
    r = np.array([[10.0, 30.0, 20.0], [5.0, 5.0, 1.0]])
    assert ranks_of(r).tolist() == [[3, 1, 2], [1, 1, 3]]
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(20, 7)), rng.normal(size=(20, 7))
    b[3] = a[3]
    ours = spearman_rows(a, b)
    for i in range(20):
        assert ours[i] == pytest.approx(spearmanr(a[i], b[i]).statistic)
    assert ours[3] == pytest.approx(1.0)
    assert np.isnan(spearman_rows(np.ones((1, 4)), a[:1, :4])[0])


def _seat(m: RatedMatch, winner: str, seats: tuple[int, ...]) -> RatedMatch:
    return dataclasses.replace(m, winner=winner, winning_seats=seats)


def test_head_to_head_pairs_the_same_seat_of_the_same_deal() -> None:
    roles = ("sheriff", "renegade", "outlaw", "outlaw")
    base = RatedMatch(
        key="",
        suite="s",
        table_index=0,
        deal=0,
        deal_seed=0,
        rotation=0,
        seats=4,
        mode="classic",
        max_rounds=40,
        rules_version="v",
        lineup=("a", "b", "c", "d"),
        roles=roles,
        winner="law",
        winning_seats=(0,),
        order=0,
    )
    lineup = ("a", "b", "c", "d")
    matches = []
    # Deal 0: the sheriff's seat wins in every rotation; deal 1: the outlaws always win.
    for deal, (winner, won) in enumerate([("law", (0,)), ("outlaws", (2, 3))]):
        for r in range(4):
            seated = tuple(lineup[(i + r) % 4] for i in range(4))
            matches.append(
                dataclasses.replace(
                    _seat(base, winner, won), key=f"{deal}{r}", deal=deal, rotation=r, lineup=seated
                )
            )
    out = {(h.a, h.b): h for h in head_to_head(matches, ["a", "b", "c", "d"], [("s", 0), ("s", 1)])}
    assert len(out) == 6
    ab = out[("a", "b")]
    # Every participant sat at every seat of both deals: equal cards, equal results.
    assert ab.units == 8 and ab.deals == 2 and ab.diff == 0.0 and ab.a_wins == ab.b_wins == 3
    # Now a wins every seat it holds on deal 1 (its result changed, the cards did not).
    favoured = [
        _seat(m, "outlaws", tuple(sorted({2, 3} | {m.lineup.index("a")}))) if m.deal == 1 else m
        for m in matches
    ]
    out = {(h.a, h.b): h for h in head_to_head(favoured, ["a", "b"], [("s", 0), ("s", 1)])}
    assert out[("a", "b")].diff == pytest.approx(2 / 8)
    # With the bootstrap's counts: a deal drawn twice counts twice.
    counts = np.array([[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    (h,) = head_to_head(favoured, ["a", "b"], [("s", 0), ("s", 1)], counts)
    assert h.ci == pytest.approx((0.0, 0.5), abs=0.02)
    # A participant that never shared a seat with another has no pair.
    lone = dataclasses.replace(matches[0], key="x", deal=5, lineup=("e", "f", "g", "h"))
    out = head_to_head([*matches, lone], ["a", "e"], [("s", 0), ("s", 1), ("s", 5)])
    assert out == []


def test_split_half_is_high_for_a_clear_ladder_and_lower_for_equals() -> None:
    clear = ladder_truth(6, spread=1.5, seed=1)
    fit = fit_ratings(simulate_suite(clear, 200, seed=1, tables=["5/classic"]), clear.specs)
    sh = split_half(fit, splits=20, seed=0)
    assert sh.splits == 20 and sh.deals_per_half == 100
    assert sh.mean is not None and sh.mean > 0.85 and sh.low is not None and sh.low <= sh.mean
    equal = SyntheticTruth({p: 0.0 for p in clear.strengths}, clear.specs)
    fit0 = fit_ratings(simulate_suite(equal, 200, seed=1, tables=["5/classic"]), equal.specs)
    sh0 = split_half(fit0, splits=20, seed=0)
    assert sh0.mean is not None and sh0.mean < sh.mean - 0.3
    two = [
        RatedMatch(
            key=f"k{d}",
            suite="s",
            table_index=0,
            deal=d,
            deal_seed=d,
            rotation=0,
            seats=4,
            mode="classic",
            max_rounds=40,
            rules_version="v",
            lineup=("a", "b", "a", "b"),
            roles=("sheriff", "renegade", "outlaw", "outlaw"),
            winner="law" if d % 2 else "outlaws",
            winning_seats=(0,) if d % 2 else (2, 3),
            order=d,
        )
        for d in range(10)
    ]
    assert split_half(fit_ratings(two, {"a": "rule"}), splits=5).mean is None  # fewer than 3


def test_openskill_is_order_dependent_and_the_fit_is_not() -> None:
    truth = ladder_truth(6, spread=1.5, seed=2)
    matches = simulate_suite(truth, 80, seed=3, tables=["5/classic"])
    online = online_ratings(matches)
    assert set(online) == set(truth.strengths)
    assert all(r.matches > 0 and r.sigma > 0 for r in online.values())
    best = max(truth.strengths, key=truth.strengths.__getitem__)
    worst = min(truth.strengths, key=truth.strengths.__getitem__)
    assert online[best].mu > online[worst].mu
    shuffled = list(matches)
    random.Random(1).shuffle(shuffled)
    reordered = [dataclasses.replace(m, order=i) for i, m in enumerate(shuffled)]
    again = online_ratings(reordered)
    assert any(abs(again[p].mu - online[p].mu) > 1e-6 for p in online)  # order-dependent
    a, b = fit_ratings(matches, truth.specs), fit_ratings(reordered, truth.specs)
    assert np.array_equal(a.ratings, b.ratings)  # the global fit is not


def test_cluster_counts_resample_whole_deals() -> None:
    counts = cluster_counts(30, 500, seed=2)
    assert counts.shape == (500, 30) and (counts.sum(axis=1) == 30).all()
    assert np.array_equal(counts, cluster_counts(30, 500, seed=2))
    # Each deal is drawn once per resample on average; about 1/e of them not at all.
    assert counts.mean() == pytest.approx(1.0)
    assert (counts == 0).mean() == pytest.approx(np.exp(-1), abs=0.03)
