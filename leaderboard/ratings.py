"""The global rating fit: a multinomial logit over the factions of each match, estimated jointly
by maximum likelihood with a weak Gaussian prior (docs/leaderboard.md, "The model").

Each participant *p* has a strength θ_p. In a match at a table of *s* seats in mode *m*, each
faction present — the law (sheriff and deputies), the outlaws (and the double agent), each
renegade playing alone (in ``partners`` mode the renegades form one faction) — has the utility

    u_f = β[s, m, kind(f)] + mean of θ over the seats of f

with β[s, m, law] = 0 (the reference). When the data hold draws at the round cap for a table
(seats, mode), the draw is one more outcome, the null outcome, with utility
``δ[s, m] + mean of θ over every seat`` (its own baseline, and neutral to a common shift of all
strengths). P(outcome) is the softmax over the outcomes present. θ, β and δ are fitted together
by minimising the negative log-likelihood plus ``Σ φ²/(2σ²)`` (σ = 4 log-odds for every
parameter): scipy's L-BFGS with the analytic gradient, polished by a few exact Newton steps.

The likelihood does not change when every θ moves by the same amount, so the prior puts the
strengths' mean at 0; ratings are then read off relative to an anchor on an Elo-like scale:
``rating = anchor_rating + (400 / ln 10)·(θ_p − θ_anchor)``, the anchor being one participant
(the rule bot) or, without one, the mean of all strengths.

Matches are sorted by key before anything is computed, so the fit does not depend on the order
the matches come in (and is bit-for-bit the same for any order).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Final

import numpy as np
from scipy.optimize import minimize

from .data import LeaderboardError, RatedMatch

SCALE: Final = 400.0 / math.log(10.0)
"""Rating points per unit of log-odds (Elo's: 400 points for a factor of 10 in odds)."""
STRENGTH_SIGMA: Final = 4.0
"""The prior's standard deviation of a strength (log-odds; ≈ 695 rating points)."""
EFFECT_SIGMA: Final = 4.0
"""The prior's standard deviation of a faction or draw effect (log-odds)."""
FACTION_KINDS: Final = ("law", "outlaws", "renegade")
LAW_ROLES: Final = frozenset({"sheriff", "deputy"})
OUTLAW_ROLES: Final = frozenset({"outlaw", "double_agent"})
DRAW: Final = "draw"


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the block with one BLAS thread: the fit's matrices are small (tens of columns), so
    BLAS threads only contend — with each other and with the other processes of a loaded
    machine (5× slower on 2 busy cores). Without ``threadpoolctl`` the block runs as is."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - threadpoolctl is a dependency
        yield
        return
    with threadpool_limits(limits=1, user_api="blas"):
        yield


class MatchShapeError(LeaderboardError):
    """A stored match whose roles and result do not fit together (it cannot be rated)."""


@dataclass(frozen=True, slots=True)
class Faction:
    """A side of a match that wins or loses as one: its kind and its seats."""

    kind: str
    seats: tuple[int, ...]


def config_of(match: RatedMatch) -> str:
    """The table a role effect belongs to: ``SEATS/MODE``."""
    return f"{match.seats}/{match.mode}"


def factions_of(match: RatedMatch) -> tuple[list[Faction], int]:
    """The factions of ``match`` (law, outlaws, then renegades by seat) and the index of the
    winning one, or -1 for a draw. Raises :class:`MatchShapeError` when the roles or the
    result do not fit."""
    roles = match.roles
    if len(roles) != match.seats or len(match.lineup) != match.seats:
        raise MatchShapeError(f"match {match.key}: {len(roles)} roles for {match.seats} seats")
    law = tuple(i for i, r in enumerate(roles) if r in LAW_ROLES)
    outlaws = tuple(i for i, r in enumerate(roles) if r in OUTLAW_ROLES)
    renegades = tuple(i for i, r in enumerate(roles) if r == "renegade")
    if len(law) + len(outlaws) + len(renegades) != len(roles) or not law:
        raise MatchShapeError(f"match {match.key}: roles {list(roles)} are not a table's")
    factions = [Faction("law", law)]
    if outlaws:
        factions.append(Faction("outlaws", outlaws))
    if match.mode == "partners" and len(renegades) > 1:
        factions.append(Faction("renegade", renegades))
    else:
        factions.extend(Faction("renegade", (i,)) for i in renegades)
    winner = match.winner
    if winner == DRAW:
        return factions, -1
    if winner in ("law", "outlaws"):
        for i, f in enumerate(factions):
            if f.kind == winner:
                return factions, i
    elif winner == "renegade" and match.winning_seats:
        first = match.winning_seats[0]
        for i, f in enumerate(factions):
            if f.kind == "renegade" and first in f.seats:
                return factions, i
    raise MatchShapeError(
        f"match {match.key}: winner {winner!r} (seats {list(match.winning_seats)}) "
        f"is not a faction of roles {list(roles)}"
    )


@dataclass(frozen=True)
class RatingData:
    """Matches compiled for the fit. Parameters φ (``K`` of them) are the strengths (one per
    participant, in :attr:`participants` order) then the effects (:attr:`effects`). Outcome
    ``f`` of match ``m`` has utility ``X[m, f] @ φ``; :attr:`present` marks the outcomes a
    match has (the draw, always the last column when there is one, only at tables whose data
    hold a draw)."""

    participants: tuple[str, ...]
    effects: tuple[str, ...]
    """``SEATS/MODE:outlaws``, ``SEATS/MODE:renegade``, ``SEATS/MODE:draw``."""
    configs: tuple[str, ...]
    keys: tuple[str, ...]
    X: np.ndarray
    present: np.ndarray
    y: np.ndarray
    config: np.ndarray
    """Each match's table (index into :attr:`configs`)."""
    draw_effect: np.ndarray
    """Per table, the index of its draw parameter in φ, or -1 without one."""
    cluster: np.ndarray
    """Each match's deal (index into :attr:`clusters`)."""
    clusters: tuple[tuple[str, int], ...]
    precision: np.ndarray
    """The prior's precision (1/σ²) of each parameter."""
    has_draw: bool

    @property
    def n_params(self) -> int:
        return self.X.shape[2]

    @property
    def n_matches(self) -> int:
        return self.X.shape[0]

    @property
    def n_clusters(self) -> int:
        return len(self.clusters)

    def cluster_draws(self) -> np.ndarray:
        """(clusters, tables): the draws each deal holds at each table."""
        out = np.zeros((self.n_clusters, len(self.configs)))
        draws = self.y == self.X.shape[1] - 1 if self.has_draw else np.zeros(len(self.y), bool)
        np.add.at(out, (self.cluster[draws], self.config[draws]), 1.0)
        return out


def compile_matches(
    matches: Sequence[RatedMatch], participants: Sequence[str] | None = None
) -> RatingData:
    """Compile ``matches`` (any order) for the fit; ``participants`` fixes the strength order
    (default: the ids in the matches, sorted). Raises :class:`MatchShapeError` for a match that
    cannot be rated and :class:`LeaderboardError` when there is nothing to rate."""
    if not matches:
        raise LeaderboardError("no done matches to rate")
    ordered = sorted(matches, key=lambda m: (m.suite, m.key, m.order))
    shaped = [(m, *factions_of(m)) for m in ordered]
    pids = (
        tuple(participants)
        if participants is not None
        else tuple(sorted({p for m in ordered for p in m.lineup}))
    )
    p_index = {p: i for i, p in enumerate(pids)}
    missing = {p for m in ordered for p in m.lineup} - set(p_index)
    if missing:
        raise LeaderboardError(f"participants {sorted(missing)} are not in the rated list")
    configs = tuple(sorted({config_of(m) for m in ordered}, key=_config_order))
    c_index = {c: i for i, c in enumerate(configs)}
    draw_configs = {config_of(m) for m, _, w in shaped if w < 0}
    effects: list[str] = []
    e_index: dict[tuple[str, str], int] = {}
    kinds_at: dict[str, set[str]] = {}
    for m, fs, _ in shaped:
        kinds_at.setdefault(config_of(m), set()).update(f.kind for f in fs)
    for c in configs:
        for kind in ("outlaws", "renegade"):
            if kind in kinds_at[c]:
                e_index[(c, kind)] = len(pids) + len(effects)
                effects.append(f"{c}:{kind}")
        if c in draw_configs:
            e_index[(c, DRAW)] = len(pids) + len(effects)
            effects.append(f"{c}:{DRAW}")
    has_draw = bool(draw_configs)
    n_factions = max(len(fs) for _, fs, _ in shaped)
    F = n_factions + (1 if has_draw else 0)
    K = len(pids) + len(effects)
    M = len(ordered)
    X = np.zeros((M, F, K))
    present = np.zeros((M, F), dtype=bool)
    y = np.zeros(M, dtype=np.int64)
    config = np.zeros(M, dtype=np.int64)
    cluster_keys = sorted({m.deal_key for m in ordered})
    k_index = {k: i for i, k in enumerate(cluster_keys)}
    cluster = np.zeros(M, dtype=np.int64)
    for i, (m, fs, won) in enumerate(shaped):
        c = config_of(m)
        config[i] = c_index[c]
        cluster[i] = k_index[m.deal_key]
        for j, f in enumerate(fs):
            share = 1.0 / len(f.seats)
            for seat in f.seats:
                X[i, j, p_index[m.lineup[seat]]] += share
            if f.kind != "law":
                X[i, j, e_index[(c, f.kind)]] = 1.0
            present[i, j] = True
        if (c, DRAW) in e_index:
            share = 1.0 / m.seats
            for pid in m.lineup:
                X[i, F - 1, p_index[pid]] += share
            X[i, F - 1, e_index[(c, DRAW)]] = 1.0
            present[i, F - 1] = True
        y[i] = won if won >= 0 else F - 1
    draw_effect = np.array([e_index.get((c, DRAW), -1) for c in configs], dtype=np.int64)
    precision = np.concatenate(
        [np.full(len(pids), 1.0 / STRENGTH_SIGMA**2), np.full(len(effects), 1.0 / EFFECT_SIGMA**2)]
    )
    return RatingData(
        participants=pids,
        effects=tuple(effects),
        configs=configs,
        keys=tuple(m.key for m in ordered),
        X=X,
        present=present,
        y=y,
        config=config,
        draw_effect=draw_effect,
        cluster=cluster,
        clusters=tuple(cluster_keys),
        precision=precision,
        has_draw=has_draw,
    )


def _config_order(c: str) -> tuple[int, str]:
    seats, _, mode = c.partition("/")
    return int(seats), mode


def _probabilities(data: RatingData, phi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(P (M, F) the outcome probabilities, log-likelihood of each match) at ``phi``."""
    U = data.X @ phi
    U = np.where(data.present, U, -np.inf)
    top = U.max(axis=1, keepdims=True)
    E = np.exp(U - top)
    Z = E.sum(axis=1, keepdims=True)
    P = E / Z
    ll = U[np.arange(len(U)), data.y] - (top[:, 0] + np.log(Z[:, 0]))
    return P, ll


def objective(
    phi: np.ndarray, data: RatingData, w: np.ndarray | None = None
) -> tuple[float, np.ndarray]:
    """The negative log-posterior (up to a constant) and its gradient at ``phi``, the matches
    weighted by ``w`` (default 1 each)."""
    P, ll = _probabilities(data, phi)
    if w is None:
        w = np.ones(data.n_matches)
    Xy = data.X[np.arange(data.n_matches), data.y]
    expected = np.einsum("mf,mfk->mk", P, data.X)
    grad = -(w @ (Xy - expected)) + data.precision * phi
    value = -float(w @ ll) + 0.5 * float(data.precision @ (phi * phi))
    return value, grad


def match_hessians(data: RatingData, phi: np.ndarray) -> np.ndarray:
    """(M, K, K): each match's Hessian of its negative log-likelihood at ``phi`` (the
    covariance of its outcome's design row)."""
    P, _ = _probabilities(data, phi)
    mean = np.einsum("mf,mfk->mk", P, data.X)
    A = np.sqrt(P)[:, :, None] * data.X
    return np.einsum("mfk,mfl->mkl", A, A) - mean[:, :, None] * mean[:, None, :]


def hessian(data: RatingData, phi: np.ndarray, w: np.ndarray | None = None) -> np.ndarray:
    """The negative log-posterior's Hessian at ``phi``."""
    H = match_hessians(data, phi)
    Hs = H.sum(axis=0) if w is None else np.tensordot(w, H, axes=1)
    return Hs + np.diag(data.precision)


@dataclass
class FitReport:
    """How an optimisation went."""

    iterations: int
    converged: bool
    gradient_norm: float
    message: str = ""


def fit_phi(
    data: RatingData,
    w: np.ndarray | None = None,
    start: np.ndarray | None = None,
    newton_steps: int = 3,
) -> tuple[np.ndarray, FitReport]:
    """The posterior mode of φ (weights ``w`` per match), by L-BFGS from ``start`` (default
    0) with the analytic gradient, then ``newton_steps`` exact Newton steps."""
    x0 = np.zeros(data.n_params) if start is None else np.asarray(start, dtype=float).copy()
    res = minimize(
        objective,
        x0,
        args=(data, w),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": 2000, "gtol": 1e-9, "ftol": 1e-14, "maxcor": 20},
    )
    phi = np.asarray(res.x, dtype=float)
    for _ in range(newton_steps):
        value, grad = objective(phi, data, w)
        step = np.linalg.solve(hessian(data, phi, w), grad)
        trial = phi - step
        if objective(trial, data, w)[0] <= value + 1e-12 * max(1.0, abs(value)):
            phi = trial
        if float(np.max(np.abs(step))) < 1e-12:
            break
    grad = objective(phi, data, w)[1]
    gnorm = float(np.max(np.abs(grad)))
    return phi, FitReport(int(res.nit), bool(gnorm < 1e-5), gnorm, str(res.message))


@dataclass
class Anchor:
    """What fixes the ratings' location: one participant (``id``) at ``rating``, or (``id``
    None) the mean of every strength at ``rating``."""

    id: str | None
    spec: str | None
    rating: float

    @property
    def kind(self) -> str:
        return "participant" if self.id is not None else "mean"


def choose_anchor(
    participants: Sequence[str],
    specs: dict[str, str],
    anchor_spec: str | None = "rule",
    anchor_rating: float = 1000.0,
) -> Anchor:
    """The participant whose spec is ``anchor_spec`` (the one whose id is also
    ``anchor_spec`` when several are, else the first by id), or the mean when none is."""
    if anchor_spec is not None:
        matching = [p for p in participants if specs.get(p) == anchor_spec]
        if matching:
            pick = anchor_spec if anchor_spec in matching else sorted(matching)[0]
            return Anchor(pick, anchor_spec, anchor_rating)
    return Anchor(None, None, anchor_rating)


def to_ratings(theta: np.ndarray, participants: Sequence[str], anchor: Anchor) -> np.ndarray:
    """Strengths (…, P) → ratings on the board's scale (the last axis: participants)."""
    if anchor.id is not None:
        ref = theta[..., list(participants).index(anchor.id)]
    else:
        ref = theta.mean(axis=-1)
    return anchor.rating + SCALE * (theta - np.asarray(ref)[..., None])


@dataclass
class RatingFit:
    """The point estimate."""

    data: RatingData
    phi: np.ndarray
    anchor: Anchor
    report: FitReport
    ratings: np.ndarray = field(init=False)
    log_likelihood: float = field(init=False)

    def __post_init__(self) -> None:
        self.ratings = to_ratings(self.theta, self.data.participants, self.anchor)
        self.log_likelihood = float(_probabilities(self.data, self.phi)[1].sum())

    @property
    def theta(self) -> np.ndarray:
        return self.phi[: len(self.data.participants)]

    def rating_of(self) -> dict[str, float]:
        """Participant id → rating."""
        return {p: float(r) for p, r in zip(self.data.participants, self.ratings, strict=True)}

    def effects(self) -> dict[str, float]:
        """Effect name → value (log-odds, relative to the law at the same table)."""
        n = len(self.data.participants)
        return {e: float(v) for e, v in zip(self.data.effects, self.phi[n:], strict=True)}


def fit_ratings(
    matches: Sequence[RatedMatch],
    specs: dict[str, str] | None = None,
    *,
    participants: Sequence[str] | None = None,
    anchor_spec: str | None = "rule",
    anchor_rating: float = 1000.0,
) -> RatingFit:
    """Fit the model to ``matches`` (one rules version; any order) and anchor it."""
    data = compile_matches(matches, participants)
    anchor = choose_anchor(data.participants, specs or {}, anchor_spec, anchor_rating)
    with one_blas_thread():
        phi, report = fit_phi(data)
    return RatingFit(data, phi, anchor, report)


# -- many weighted refits at once ---------------------------------------------------------------
def _cluster_hessians(data: RatingData, phi: np.ndarray) -> np.ndarray:
    """(C, K*K): each deal's summed match Hessians at ``phi``."""
    H = match_hessians(data, phi).reshape(data.n_matches, -1)
    out = np.zeros((data.n_clusters, H.shape[1]))
    np.add.at(out, data.cluster, H)
    return out


@dataclass
class RefitReport:
    """How a batch of refits went: Newton iterations, and refits that needed L-BFGS."""

    iterations: int
    fallbacks: int


_ABSENT: Final = -1000.0
"""A utility whose exp is exactly 0: what an outcome a match does not have gets."""


def refit_weighted(
    fit: RatingFit,
    counts: np.ndarray,
    **options: Any,
) -> tuple[np.ndarray, RefitReport]:
    """The posterior mode for each row of ``counts`` (R, C): deal *c* weighted by
    ``counts[r, c]`` (bootstrap multiplicities, or 0/1 for a split). Returns (R, K) and how the
    refits went. See :func:`_refit_weighted` for how, and its keyword options (``tol``,
    ``max_iter``, ``chunk_elements``, ``slow_ratio``, ``fallback``)."""
    with one_blas_thread():
        return _refit_weighted(fit, counts, **options)


def _refit_weighted(
    fit: RatingFit,
    counts: np.ndarray,
    *,
    tol: float = 1e-5,
    max_iter: int = 40,
    chunk_elements: int = 1_000_000,
    slow_ratio: float = 0.6,
    fallback: bool = True,
) -> tuple[np.ndarray, RefitReport]:
    """Refit every row of ``counts`` (see :func:`refit_weighted`).

    All rows of a chunk are refitted at once, as matrix products, by Newton steps from the
    point estimate (a warm start). The Hessian is at first the point estimate's, reweighted
    (the deals' Hessians there times the row's weights: no per-match work). Draws are rare, so
    their curvature follows their probability closely: each draw parameter starts where the
    row's own number of draws puts it (δ + log(draws_row / draws)), and at every step its
    exact curvature (a diagonal entry: one pass) is read and the Hessian rescaled to it. A step
    that does not lower a row's objective is halved; a row whose steps shrink by less than
    ``slow_ratio`` gets its exact Hessian at its current value. The fixed point of the steps is
    the exact weighted mode; a row stops when no parameter moved by ``tol`` log-odds (1e-5 ≈
    0.002 rating points). A row still moving after ``max_iter`` steps is refitted with L-BFGS
    (:func:`fit_phi`). A table whose draws a row leaves out has no draw outcome in that refit,
    as a table without draws has none in the point fit.

    Utilities are taken relative to the law's (always present), so a match's law outcome costs
    nothing and no maximum is subtracted: the relative utilities stay within a few tens of
    log-odds. An outcome a match lacks gets a utility of -1000 through one extra column whose
    coefficient is fixed at 1."""
    data = fit.data
    counts = np.asarray(counts, dtype=float)
    R, K = counts.shape[0], data.n_params
    M, F = data.X.shape[0], data.X.shape[1]
    law = data.X[:, 0, :]
    # Outcome f ≥ 1 relative to the law, with the absent-outcome column appended: (M, K + 1).
    D = [
        np.ascontiguousarray(
            np.concatenate(
                [data.X[:, f, :] - law, np.where(data.present[:, f], 0.0, _ABSENT)[:, None]],
                axis=1,
            )
        )
        for f in range(1, F)
    ]
    Dk = [d[:, :K] for d in D]
    DDf = [np.einsum("mk,ml->mkl", d, d).reshape(M, K * K) for d in Dk]
    Xy = data.X[np.arange(M), data.y] - law  # (M, K)
    Hc = _cluster_hessians(data, fit.phi)
    draws = data.cluster_draws()  # (C, n_conf)
    full_draws = draws.sum(axis=0)
    prior = data.precision
    draw_params = data.draw_effect[data.draw_effect >= 0]
    draw_design = Dk[-1][:, draw_params] if draw_params.size else None  # (M, draw params)
    out = np.empty((R, K))
    iterations = 0
    pending: list[int] = []
    step_rows = max(1, chunk_elements // max(1, M * max(1, F - 1)))
    for start in range(0, R, step_rows):
        rows = slice(start, min(R, start + step_rows))
        cnt = counts[rows]
        n = cnt.shape[0]
        W = cnt[:, data.cluster]  # (n, M)
        H = (cnt @ Hc).reshape(n, K, K)
        phi = np.ones((n, K + 1))
        phi[:, :K] = fit.phi
        keep = np.ones((n, K))
        if data.has_draw:
            row_draws = cnt @ draws  # (n, n_conf)
            for j, e in enumerate(data.draw_effect):
                if e < 0:
                    continue
                ratio = row_draws[:, j] / full_draws[j]
                on = ratio > 0
                # The rare-outcome warm start: δ moves by log(draws_row / draws), and its
                # curvature (∝ the expected draws) scales by that ratio. A row without the
                # table's draws fixes δ where its outcome's probability is exactly 0.
                phi[on, e] += np.log(ratio[on])
                phi[~on, e] = _ABSENT
                scale = np.sqrt(np.where(on, ratio, 0.0))
                H[:, e, :] *= scale[:, None]
                H[:, :, e] *= scale[:, None]
                keep[~on, e] = 0.0
        Hinv = _inverse(H, prior, keep)
        wy = W @ Xy  # (n, K): the observed outcomes' design rows, weighted
        best = np.full(n, np.inf)  # each row's objective at its last accepted point
        accepted = phi.copy()
        last_step = np.full(n, np.inf)
        active = np.arange(n)
        for it in range(max_iter):
            if active.size == 0:
                break
            iterations = max(iterations, it + 1)
            ph, w = phi[active], W[active]
            th = ph[:, :K] * keep[active]  # left-out draws count as 0 in the prior
            exps = [ph @ d.T for d in D]
            total = np.ones_like(w)
            for e in exps:
                np.exp(e, out=e)
                total += e
            value = (
                np.einsum("bm,bm->b", w, np.log(total))
                - np.einsum("bk,bk->b", th, wy[active])
                + 0.5 * (th * th) @ prior
            )
            np.divide(w, total, out=total)  # w / Z
            grad = prior * th - wy[active]
            for e, d in zip(exps, Dk, strict=True):
                e *= total  # w · p_f
                grad += e @ d
            grad *= keep[active]
            if draw_params.size:
                # Rare outcomes: the draws' curvature follows their probability, so it is
                # re-read every step (cheap: the diagonal) and the Hessian rescaled to it.
                wp = exps[-1]
                q = wp - wp * wp / np.where(w > 0, w, 1.0)
                exact = q @ draw_design + 1e-300
                sub = H[active]
                diag = sub[:, draw_params, draw_params]
                live = (keep[active][:, draw_params] > 0) & (diag > 0)
                scale = np.sqrt(np.divide(exact, diag, out=np.ones_like(diag), where=live))
                sub[:, draw_params, :] *= scale[:, :, None]
                sub[:, :, draw_params] *= scale[:, None, :]
                H[active] = sub
                Hinv[active] = _inverse(sub, prior, keep[active])
            step = np.einsum("bkl,bl->bk", Hinv[active], grad)
            size = np.max(np.abs(step), axis=1)
            worse = np.isfinite(best[active]) & ~(
                value <= best[active] + 1e-12 * np.abs(best[active])
            )
            slow = ~worse & (size > slow_ratio * last_step[active])
            if slow.any():
                sel = np.flatnonzero(slow)
                Hn = _exact_hessians([e[sel] for e in exps], w[sel], Dk, DDf)
                H[active[sel]] = Hn
                Hinv[active[sel]] = _inverse(Hn, prior, keep[active[sel]])
                step[sel] = np.einsum("bkl,bl->bk", Hinv[active[sel]], grad[sel])
                size[sel] = np.max(np.abs(step[sel]), axis=1)
            ok = ~worse & np.isfinite(value) & np.isfinite(size)
            # Accepted rows step on; rows that got worse go back half way.
            acc = active[ok]
            accepted[acc] = ph[ok]
            best[acc] = value[ok]
            last_step[acc] = size[ok]
            phi[acc, :K] = ph[ok, :K] - step[ok]
            back = active[worse]
            phi[back] = 0.5 * (accepted[back] + phi[back])
            last_step[back] = np.inf
            failed = ~worse & ~ok
            if failed.any():
                pending.extend(int(start + b) for b in active[failed])
            active = active[~(ok & (size < tol)) & ~failed]
        pending.extend(int(start + b) for b in active)
        out[rows] = phi[:, :K] * keep
    for r in sorted(set(pending)) if fallback else ():
        out[r] = _fallback(fit, counts[r])
    return out, RefitReport(iterations, len(set(pending)))


def _inverse(H: np.ndarray, prior: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Inverses of the data Hessians ``H`` (n, K, K) plus the prior; a left-out draw
    parameter (``keep`` 0) is fixed: no coupling, unit curvature."""
    K = H.shape[1]
    full = (H + np.diag(prior)) * keep[:, :, None] * keep[:, None, :]
    full += np.eye(K) * (1.0 - keep)[:, None, :]
    return np.linalg.inv(full)


def _exact_hessians(
    wp: list[np.ndarray], w: np.ndarray, D: list[np.ndarray], DD: list[np.ndarray]
) -> np.ndarray:
    """(n, K, K): each row's Hessian of the weighted negative log-likelihood, from ``wp`` (the
    weighted probabilities of the outcomes other than the law's) and the weights ``w``: with
    utilities relative to the law, Σ_m w_m (Σ_f p_f d_f d_fᵀ − d̄ d̄ᵀ) where d̄ = Σ_f p_f d_f."""
    n, K = w.shape[0], D[0].shape[1]
    second = np.zeros((n, K * K))
    mean = np.zeros((n, w.shape[1], K))
    safe = np.where(w > 0, w, 1.0)
    for e, d, dd in zip(wp, D, DD, strict=True):
        second += e @ dd
        mean += (e / safe)[:, :, None] * d[None, :, :]
    root = mean * np.sqrt(w)[:, :, None]
    return second.reshape(n, K, K) - np.matmul(root.transpose(0, 2, 1), root)


def _fallback(fit: RatingFit, counts: np.ndarray) -> np.ndarray:
    """One weighted refit by L-BFGS over the matches the weights keep, with the draw outcomes
    they leave out removed."""
    data = fit.data
    w = counts[data.cluster]
    used = w > 0
    start = fit.phi.copy()
    lost: list[int] = []
    present = data.present
    if data.has_draw:
        on = (counts @ data.cluster_draws()) > 0
        lost = [int(e) for j, e in enumerate(data.draw_effect) if e >= 0 and not on[j]]
        if lost:
            present = data.present.copy()
            present[~on[data.config], -1] = False
            start[lost] = 0.0
    part = replace(
        data,
        keys=tuple(k for k, u in zip(data.keys, used, strict=True) if u),
        X=data.X[used],
        present=present[used],
        y=data.y[used],
        config=data.config[used],
        cluster=data.cluster[used],
    )
    phi, _ = fit_phi(part, w[used], start)
    phi[lost] = 0.0
    return phi


__all__ = [
    "DRAW",
    "EFFECT_SIGMA",
    "FACTION_KINDS",
    "SCALE",
    "STRENGTH_SIGMA",
    "Anchor",
    "Faction",
    "FitReport",
    "MatchShapeError",
    "RatingData",
    "RatingFit",
    "RefitReport",
    "choose_anchor",
    "compile_matches",
    "config_of",
    "factions_of",
    "fit_phi",
    "fit_ratings",
    "hessian",
    "match_hessians",
    "objective",
    "one_blas_thread",
    "refit_weighted",
    "to_ratings",
]
