"""A provisional online rating with openskill's Plackett–Luce model, shown apart from the global
fit and labelled **order-dependent**: it is updated match by match in the order the store holds
them (the order they finished), so the same matches in another order give other numbers; the
global fit (:mod:`.ratings`) does not.

Each match is one openskill game whose teams are the factions (law, outlaws, each renegade),
the winning faction ranked first and every other faction tied second (a draw ties them all).
A participant at several seats of one match is rated from one copy per seat, and its new
rating is the mean of its copies' (openskill has no notion of one player on two seats). There
are no role effects: a faction that wins more often by the rules is not told apart from one
that plays better, which is why this rating is provisional.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .data import RatedMatch
from .ratings import factions_of


@dataclass(frozen=True)
class OnlineRating:
    """A participant's openskill rating after every match it played."""

    mu: float
    sigma: float
    ordinal: float
    """mu − 3·sigma: openskill's conservative display value."""
    matches: int


def online_ratings(matches: Sequence[RatedMatch]) -> dict[str, OnlineRating]:
    """Openskill Plackett–Luce ratings from ``matches`` in stored order (their ``order``);
    matches that cannot be rated (see :func:`.ratings.factions_of`) are skipped."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    state: dict[str, tuple[float, float]] = {}
    played: dict[str, int] = {}
    rating = model.rating
    for m in sorted(matches, key=lambda x: x.order):
        try:
            factions, winner = factions_of(m)
        except ValueError:
            continue
        if len(factions) < 2:
            continue
        teams = []
        owners: list[list[str]] = []
        for f in factions:
            team = []
            names = []
            for seat in f.seats:
                pid = m.lineup[seat]
                mu, sigma = state.get(pid, (model.mu, model.sigma))
                team.append(rating(mu=mu, sigma=sigma))
                names.append(pid)
            teams.append(team)
            owners.append(names)
        ranks = [0.0 if i == winner or winner < 0 else 1.0 for i in range(len(factions))]
        new = model.rate(teams, ranks=ranks)
        sums: dict[str, list[float]] = {}
        for names, team in zip(owners, new, strict=True):
            for pid, r in zip(names, team, strict=True):
                acc = sums.setdefault(pid, [0.0, 0.0, 0.0])
                acc[0] += r.mu
                acc[1] += r.sigma
                acc[2] += 1.0
        for pid, (mu_sum, sigma_sum, n) in sums.items():
            state[pid] = (mu_sum / n, sigma_sum / n)
            played[pid] = played.get(pid, 0) + 1
    return {
        pid: OnlineRating(mu=mu, sigma=sigma, ordinal=mu - 3.0 * sigma, matches=played[pid])
        for pid, (mu, sigma) in sorted(state.items())
    }


__all__ = ["OnlineRating", "online_ratings"]
