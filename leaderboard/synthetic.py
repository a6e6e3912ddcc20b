"""Synthetic match outcomes drawn from the rating model itself, with known strengths: the ground
truth of the recovery tests and benchmarks (``tests/test_leaderboard_ratings.py``,
``benchmarks/rating_recovery.py``, ``benchmarks/rating_speed.py``).

A synthetic suite is a pool design as the evals runner plays it: each deal seats a lineup of
distinct participants at one of the tables, deals the table's roles to the seats, and is played
once per rotation of the lineup (the same roles by seat, so every participant of the lineup
plays every role of the deal); each match's winner is drawn from the model's softmax. An
optional per-deal effect on each faction (``deal_sigma``) imitates what the cards of a deal do
to every rotation of it — the correlation the cluster bootstrap is there for.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

import numpy as np

from bangarena.engine.roles import roles_for

from .data import RatedMatch
from .ratings import DRAW, factions_of

REALISTIC_EFFECTS: Final[dict[str, dict[str, float]]] = {
    # log-odds against the law at the same table: outlaws win about half of bot games, the
    # renegade about a tenth (the 5-seat probe of docs/leaderboard.md), draws are rare.
    "4/classic": {"outlaws": 0.35, "renegade": -0.6, DRAW: -4.5},
    "5/classic": {"outlaws": 0.5, "renegade": -1.1, DRAW: -5.0},
    "6/classic": {"outlaws": 0.6, "renegade": -1.3},
    "7/classic": {"outlaws": 0.4, "renegade": -1.4, DRAW: -4.0},
}
"""Role effects per table (seats/mode) used by default."""


@dataclass
class SyntheticTruth:
    """What a synthetic suite was drawn from."""

    strengths: dict[str, float]
    """Participant id → θ (log-odds)."""
    specs: dict[str, str]
    effects: dict[str, dict[str, float]] = field(default_factory=lambda: dict(REALISTIC_EFFECTS))


def ladder_truth(n: int = 12, spread: float = 1.2, seed: int = 0) -> SyntheticTruth:
    """``n`` participants with strengths evenly spaced over ±``spread`` log-odds in a random
    order; ``p0`` has the spec ``rule`` (the anchor), the others ``synthetic:K``."""
    rng = np.random.default_rng(seed)
    values = np.linspace(-spread, spread, n)
    rng.shuffle(values)
    ids = [f"p{i}" for i in range(n)]
    specs = {p: ("rule" if i == 0 else f"synthetic:{i}") for i, p in enumerate(ids)}
    return SyntheticTruth({p: float(v) for p, v in zip(ids, values, strict=True)}, specs)


def _softmax_pick(rng: np.random.Generator, utilities: Sequence[float]) -> int:
    top = max(utilities)
    weights = [math.exp(u - top) for u in utilities]
    total = sum(weights)
    r = rng.random() * total
    for i, wt in enumerate(weights):
        r -= wt
        if r <= 0:
            return i
    return len(weights) - 1


def simulate_suite(
    truth: SyntheticTruth,
    deals: int,
    *,
    seed: int = 0,
    tables: Sequence[str] | None = None,
    deal_sigma: float = 0.0,
    suite: str = "synthetic",
    rules_version: str = "synthetic",
) -> list[RatedMatch]:
    """``deals`` deals of a pool suite (each at one of ``tables``, in turn), every deal played
    in every rotation of its lineup; outcomes drawn from the model with ``truth``."""
    rng = np.random.default_rng(seed)
    ids = sorted(truth.strengths)
    configs = list(tables or truth.effects)
    out: list[RatedMatch] = []
    order = 0
    for deal in range(deals):
        config = configs[deal % len(configs)]
        seats_text, _, mode = config.partition("/")
        seats = int(seats_text)
        if seats > len(ids):
            raise ValueError(f"table {config}: {seats} seats for {len(ids)} participants")
        lineup = [ids[i] for i in rng.choice(len(ids), size=seats, replace=False)]
        roles = list(roles_for(seats, mode))
        rng.shuffle(roles)
        effects = truth.effects[config]
        noise = {k: float(rng.normal(0.0, deal_sigma)) if deal_sigma else 0.0 for k in effects}
        noise["law"] = float(rng.normal(0.0, deal_sigma)) if deal_sigma else 0.0
        for rotation in range(seats):
            seated = tuple(lineup[(i + rotation) % seats] for i in range(seats))
            probe = RatedMatch(
                key="",
                suite=suite,
                table_index=0,
                deal=deal,
                deal_seed=deal,
                rotation=rotation,
                seats=seats,
                mode=mode,
                max_rounds=40,
                rules_version=rules_version,
                lineup=seated,
                roles=tuple(roles),
                winner="law",
                winning_seats=(),
                order=0,
            )
            factions, _ = factions_of(probe)
            utilities = []
            for f in factions:
                strength = sum(truth.strengths[seated[s]] for s in f.seats) / len(f.seats)
                base = 0.0 if f.kind == "law" else effects[f.kind]
                utilities.append(base + noise.get(f.kind, 0.0) + strength)
            if DRAW in effects:
                mean = sum(truth.strengths[p] for p in seated) / seats
                utilities.append(effects[DRAW] + mean)
            pick = _softmax_pick(rng, utilities)
            if pick == len(factions):
                winner, winning = DRAW, ()
            else:
                winner = factions[pick].kind
                winning = factions[pick].seats
            order += 1
            out.append(
                RatedMatch(
                    key=f"{suite}-{deal:06d}-{rotation}",
                    suite=suite,
                    table_index=0,
                    deal=deal,
                    deal_seed=deal,
                    rotation=rotation,
                    seats=seats,
                    mode=mode,
                    max_rounds=40,
                    rules_version=rules_version,
                    lineup=seated,
                    roles=tuple(roles),
                    winner=winner,
                    winning_seats=tuple(winning),
                    order=order,
                )
            )
    return out


__all__ = ["REALISTIC_EFFECTS", "SyntheticTruth", "ladder_truth", "simulate_suite"]
