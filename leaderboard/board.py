"""The leaderboard as data: a pydantic :class:`Board` per rules version, exactly what
``leaderboard.json`` holds (its JSON Schema is :func:`board_json_schema`, published as
``leaderboard/published/board.schema.json``).

```python
from bangarena.evals.store import open_store
from bangarena.leaderboard import build_boards

boards = build_boards(open_store("quickstart.db"), suite="quickstart")  # newest rules first
for board in boards:
    print(board.rules_version, [(p.id, p.rating, p.ci) for p in board.participants])
```

An empty store (or a suite without done matches) gives no board; an unknown suite raises
:class:`UnknownSuiteError`; matches of different rules versions give one board each, every
board naming the versions rated apart; a single participant gets a board whose note says there
is nothing to compare it with.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from bangarena.evals.store import Store

from .bootstrap import DEFAULT_RESAMPLES, LEVEL, BootstrapResult, bootstrap
from .data import (
    FAILURE_ORDER,
    ROLE_ORDER,
    LeaderboardError,
    Participant,
    RatedMatch,
    Telemetry,
    load_store,
)
from .online import online_ratings
from .ratings import (
    EFFECT_SIGMA,
    SCALE,
    STRENGTH_SIGMA,
    MatchShapeError,
    RatingFit,
    factions_of,
    fit_ratings,
)
from .stats import DEFAULT_SPLITS, HeadToHead, SplitHalf, head_to_head, split_half, wilson

BOARD_FORMAT: Final = "bangarena.leaderboard"
BOARD_VERSION: Final = 1
SCHEMA_PATH: Final = Path(__file__).resolve().parent / "published" / "board.schema.json"

Pair = tuple[float, float]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RoleRecord(_Model):
    """Seats played and won in one role, with the win rate's Wilson interval."""

    wins: int
    played: int
    rate: float | None
    ci: Pair | None = Field(description="95 % Wilson interval of the win rate")


class RuleFollowing(_Model):
    """How a participant's seats followed the answer contract — apart from how well they played.
    ``applies`` is false for bots, which pick from the legal list (their counts are 0)."""

    applies: bool
    decisions: int = Field(description="decisions its seats made (forced moves left out)")
    answered: int = Field(description="decisions on which it gave an answer (the rate's base)")
    first_try_valid: int
    first_try_valid_rate: float | None
    retries: int = Field(description="answer attempts after the first (transport excluded)")
    retries_per_decision: float | None
    attempts: int
    failures: dict[str, int] = Field(
        description="attempts by failure class: illegal, unparsable, refusal, truncated, empty, "
        "timeout, and transport (the provider's fault, never counted against the participant)"
    )
    autopilot_moves: int
    autopilot_rate: float | None
    autopilot: dict[str, int] = Field(description="autopilot moves by cause")


class Usage(_Model):
    """Tokens, cost and latency of a participant's seats."""

    input_tokens: int
    output_tokens: int
    cached_tokens: int
    reasoning_tokens: int
    tokens_per_decision: float | None
    cost_usd: float | None = Field(description="null when no attempt had a price")
    cost_per_decision: float | None
    cost_per_match: float | None
    cost_per_win: float | None = Field(description="cost over the matches it won")
    latency_s: float
    latency_s_per_decision: float | None = Field(
        description="mean over decisions that called a provider (all attempts summed)"
    )


class OpenSkill(_Model):
    """The provisional online rating (openskill Plackett–Luce): order-dependent."""

    mu: float
    sigma: float
    ordinal: float = Field(description="mu − 3·sigma")
    matches: int


class ParticipantEntry(_Model):
    """One row of the board."""

    id: str
    spec: str
    kind: str
    anchor: bool = Field(description="whether this participant fixes the ratings' location")
    position: int = Field(description="1-based place by rating (ties by id)")
    rating: float
    ci: Pair = Field(description="95 % cluster-bootstrap interval of the rating")
    rank: tuple[int, int] = Field(
        description="[best, worst]: the bootstrap rank interval widened so that participants "
        "whose intervals overlap share a rank range"
    )
    rank_bootstrap: tuple[int, int] = Field(description="2.5/97.5 % of the bootstrap rank")
    strength: float = Field(description="θ, log-odds (the fit's own unit)")
    matches: int
    seats: int
    deals: int = Field(description="distinct deals behind the rating")
    wins: int = Field(description="seats that won")
    matches_won: int
    win_rate: float | None = Field(description="seats won / seats played")
    win_rate_ci: Pair | None
    by_role: dict[str, RoleRecord]
    first_try_valid: float | None = Field(description="first-try valid rate (text-path seats)")
    retries_per_decision: float | None
    autopilot_rate: float | None
    cost_usd: float | None
    cost_per_match: float | None
    cost_per_win: float | None
    tokens_per_decision: float | None
    latency_s_per_decision: float | None
    rule_following: RuleFollowing
    usage: Usage
    openskill: OpenSkill | None


class Effect(_Model):
    """A faction's or the draw's effect at one table, log-odds against the law there."""

    table: str = Field(description="SEATS/MODE")
    outcome: Literal["outlaws", "renegade", "draw"]
    value: float
    ci: Pair | None


class AnchorInfo(_Model):
    kind: Literal["participant", "mean"]
    id: str | None
    spec: str | None
    rating: float


class ModelInfo(_Model):
    """How the ratings were made (docs/leaderboard.md)."""

    name: str = "faction-softmax"
    scale: float = Field(description="rating points per unit of log-odds: 400 / ln 10")
    anchor: AnchorInfo
    prior_sigma_strength: float
    prior_sigma_effect: float
    level: float
    resamples: int
    seed: int
    bootstrap_fallbacks: int = Field(description="resamples refitted by L-BFGS")
    clusters: int = Field(description="deals (bootstrap clusters)")
    log_likelihood: float
    converged: bool
    effects: list[Effect]


class SplitHalfInfo(_Model):
    """Split-half rank stability: mean Spearman correlation between the ratings fitted on two
    random halves of the deals, over many splits."""

    splits: int
    deals_per_half: int
    mean_spearman: float | None
    ci: Pair | None = Field(description="2.5–97.5 % of the splits' correlations")


class HeadToHeadEntry(_Model):
    """A against B on duplicate deals: the same deal, table and seat (so the same role,
    character and cards), each in its own rotation."""

    a: str
    b: str
    units: int = Field(description="paired (deal, table, seat) units")
    deals: int
    a_wins: float
    b_wins: float
    diff: float = Field(description="mean of A's win share minus B's over the units")
    ci: Pair | None = Field(description="95 % cluster-bootstrap interval of diff")


class Board(_Model):
    """One rules version's leaderboard (``leaderboard.json`` holds a list of these)."""

    format: Literal["bangarena.leaderboard"] = BOARD_FORMAT
    version: int = BOARD_VERSION
    generated_at: str = Field(description="UTC, ISO 8601")
    suite: str | None = Field(description="the suite rated, or null for every suite")
    suites: list[str]
    rules_version: str
    rules_versions: list[str] = Field(
        description="every rules version in scope: each is rated apart, on its own board"
    )
    matches: int
    deals: int
    draws: int
    void_matches: int = Field(description="void matches in scope: no result, never rated")
    excluded: int = Field(description="done matches that could not be rated (see notes)")
    notes: list[str]
    model: ModelInfo
    participants: list[ParticipantEntry]
    split_half: SplitHalfInfo
    head_to_head: list[HeadToHeadEntry]

    def participant(self, pid: str) -> ParticipantEntry:
        """The entry of ``pid`` (KeyError when it is not on the board)."""
        for p in self.participants:
            if p.id == pid:
                return p
        raise KeyError(pid)


def _r(value: float | None, digits: int) -> float | None:
    if value is None or not np.isfinite(value):
        return None
    return round(float(value), digits)


def _ratio(num: float, den: float, digits: int = 6) -> float | None:
    return _r(num / den, digits) if den else None


def _pair(lo_hi: Sequence[float] | None, digits: int) -> Pair | None:
    if lo_hi is None:
        return None
    lo, hi = (float(x) for x in lo_hi)
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return None
    return (round(lo, digits), round(hi, digits))


def _entry(
    pid: str,
    position: int,
    fit: RatingFit,
    boot: BootstrapResult,
    participant: Participant | None,
    tel: Telemetry,
    deals: int,
    online: dict[str, Any],
) -> ParticipantEntry:
    i = fit.data.participants.index(pid)
    roles = {
        r: RoleRecord(
            wins=w,
            played=n,
            rate=_ratio(w, n, 4),
            ci=_pair(wilson(w, n), 4),
        )
        for r in (*ROLE_ORDER, *sorted(set(tel.by_role) - set(ROLE_ORDER)))
        if r in tel.by_role
        for w, n in [tel.by_role[r]]
    }
    rf = tel.rule_following
    failures = {k: tel.failures.get(k, 0) for k in FAILURE_ORDER}
    failures.update({k: v for k, v in sorted(tel.failures.items()) if k not in failures})
    rule = RuleFollowing(
        applies=rf,
        decisions=tel.decisions,
        answered=tel.answered,
        first_try_valid=tel.first_try_valid,
        first_try_valid_rate=_ratio(tel.first_try_valid, tel.answered, 4) if rf else None,
        retries=tel.retries,
        retries_per_decision=_ratio(tel.retries, tel.answered, 4) if rf else None,
        attempts=tel.attempts,
        failures=failures,
        autopilot_moves=tel.autopilot_moves,
        autopilot_rate=_ratio(tel.autopilot_moves, tel.decisions, 4),
        autopilot=dict(sorted(tel.autopilot.items())),
    )
    cost = tel.cost_usd if tel.priced else None
    tokens = tel.input_tokens + tel.output_tokens
    usage = Usage(
        input_tokens=tel.input_tokens,
        output_tokens=tel.output_tokens,
        cached_tokens=tel.cached_tokens,
        reasoning_tokens=tel.reasoning_tokens,
        tokens_per_decision=_ratio(tokens, tel.timed_decisions, 2) if tokens else None,
        cost_usd=_r(cost, 6),
        cost_per_decision=_ratio(cost, tel.decisions, 8) if cost is not None else None,
        cost_per_match=_ratio(cost, tel.matches, 6) if cost is not None else None,
        cost_per_win=_ratio(cost, tel.matches_won, 6) if cost is not None else None,
        latency_s=round(tel.latency_s, 6),
        latency_s_per_decision=_ratio(tel.latency_s, tel.timed_decisions, 4),
    )
    os_rating = online.get(pid)
    win_rate = _ratio(tel.wins, tel.seats, 4)
    return ParticipantEntry(
        id=pid,
        spec=participant.spec if participant is not None else "",
        kind=participant.kind if participant is not None else "",
        anchor=fit.anchor.id == pid,
        position=position,
        rating=round(float(fit.ratings[i]), 1),
        ci=_pair(boot.ci[i], 1) or (0.0, 0.0),
        rank=(int(boot.rank[i, 0]), int(boot.rank[i, 1])),
        rank_bootstrap=(int(boot.rank_bootstrap[i, 0]), int(boot.rank_bootstrap[i, 1])),
        strength=round(float(fit.theta[i]), 5),
        matches=tel.matches,
        seats=tel.seats,
        deals=deals,
        wins=tel.wins,
        matches_won=tel.matches_won,
        win_rate=win_rate,
        win_rate_ci=_pair(wilson(tel.wins, tel.seats), 4),
        by_role=roles,
        first_try_valid=rule.first_try_valid_rate,
        retries_per_decision=rule.retries_per_decision,
        autopilot_rate=rule.autopilot_rate,
        cost_usd=usage.cost_usd,
        cost_per_match=usage.cost_per_match,
        cost_per_win=usage.cost_per_win,
        tokens_per_decision=usage.tokens_per_decision,
        latency_s_per_decision=usage.latency_s_per_decision,
        rule_following=rule,
        usage=usage,
        openskill=OpenSkill(
            mu=round(os_rating.mu, 4),
            sigma=round(os_rating.sigma, 4),
            ordinal=round(os_rating.ordinal, 4),
            matches=os_rating.matches,
        )
        if os_rating is not None
        else None,
    )


def _effects(fit: RatingFit, boot: BootstrapResult) -> list[Effect]:
    data = fit.data
    n = len(data.participants)
    out = []
    draws = boot.counts @ data.cluster_draws() if data.has_draw else None
    for k, name in enumerate(data.effects):
        table, _, outcome = name.partition(":")
        values = boot.phis[:, n + k] if boot.phis.shape[1] > n + k else np.zeros(0)
        if outcome == "draw" and draws is not None and values.size:
            j = data.configs.index(table)
            values = values[draws[:, j] > 0]  # resamples without the table's draws have none
        ci = np.quantile(values, [0.025, 0.975]) if values.size else None
        out.append(
            Effect(
                table=table,
                outcome=outcome,  # type: ignore[arg-type]
                value=round(float(fit.phi[n + k]), 4),
                ci=_pair(ci, 4),
            )
        )
    return out


def _rateable(matches: Sequence[RatedMatch]) -> tuple[list[RatedMatch], list[str]]:
    good: list[RatedMatch] = []
    bad: list[str] = []
    for m in matches:
        try:
            factions_of(m)
        except MatchShapeError as exc:
            bad.append(str(exc))
            continue
        good.append(m)
    return good, bad


def build_board(
    matches: Sequence[RatedMatch],
    participants: dict[str, Participant],
    telemetry: dict[str, Telemetry] | None = None,
    *,
    suite: str | None = None,
    suites: Sequence[str] = (),
    rules_versions: Sequence[str] = (),
    void_matches: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    anchor_spec: str | None = "rule",
    anchor_rating: float = 1000.0,
    splits: int = DEFAULT_SPLITS,
    online: bool = True,
    now: datetime | None = None,
) -> Board:
    """The board of ``matches`` (done matches of one rules version). ``telemetry`` (from
    :func:`.data.load_store`) fills the per-participant counts; without it they are computed
    from the matches alone (no rule-following figures). Raises :class:`LeaderboardError` when
    nothing can be rated."""
    if resamples < 1:
        raise LeaderboardError(f"resamples {resamples}: at least 1")
    versions = sorted({m.rules_version for m in matches})
    if len(versions) > 1:
        raise LeaderboardError(f"matches of rules versions {versions}: rate them apart")
    good, bad = _rateable(matches)
    if not good:
        raise LeaderboardError("no done match can be rated" + (f" ({bad[0]})" if bad else ""))
    rules_version = versions[0]
    specs = {pid: p.spec for pid, p in participants.items()}
    fit = fit_ratings(good, specs, anchor_spec=anchor_spec, anchor_rating=anchor_rating)
    boot = bootstrap(fit, resamples, seed)
    data = fit.data
    pids = data.participants
    tel = telemetry if telemetry is not None else telemetry_from_matches(good)
    deals_of = {p: len({m.deal_key for m in good if p in m.lineup}) for p in pids}
    online_map = online_ratings(good) if online else {}
    order = sorted(range(len(pids)), key=lambda i: (-fit.ratings[i], pids[i]))
    entries = [
        _entry(
            pids[i],
            pos + 1,
            fit,
            boot,
            participants.get(pids[i]),
            tel.get(pids[i]) or Telemetry(pids[i]),
            deals_of[pids[i]],
            online_map,
        )
        for pos, i in enumerate(order)
    ]
    sh: SplitHalf = (
        split_half(fit, splits, seed) if splits else SplitHalf(0, None, None, None, 0, [])
    )
    ranked = [pids[i] for i in order]
    h2h: list[HeadToHead] = head_to_head(good, ranked, data.clusters, boot.counts)
    notes = _notes(fit, rules_version, rules_versions, bad, anchor_spec)
    return Board(
        generated_at=(now or datetime.now(UTC)).isoformat(timespec="seconds"),
        suite=suite,
        suites=sorted(set(suites) or {m.suite for m in good}),
        rules_version=rules_version,
        rules_versions=sorted(set(rules_versions) or {rules_version}),
        matches=len(good),
        deals=data.n_clusters,
        draws=sum(1 for m in good if m.winner == "draw"),
        void_matches=void_matches,
        excluded=len(bad),
        notes=notes,
        model=ModelInfo(
            scale=round(SCALE, 6),
            anchor=AnchorInfo(
                kind=fit.anchor.kind,  # type: ignore[arg-type]
                id=fit.anchor.id,
                spec=fit.anchor.spec,
                rating=fit.anchor.rating,
            ),
            prior_sigma_strength=STRENGTH_SIGMA,
            prior_sigma_effect=EFFECT_SIGMA,
            level=LEVEL,
            resamples=boot.resamples,
            seed=seed,
            bootstrap_fallbacks=boot.report.fallbacks,
            clusters=data.n_clusters,
            log_likelihood=round(fit.log_likelihood, 4),
            converged=fit.report.converged,
            effects=_effects(fit, boot),
        ),
        participants=entries,
        split_half=SplitHalfInfo(
            splits=sh.splits,
            deals_per_half=sh.deals_per_half,
            mean_spearman=_r(sh.mean, 4),
            ci=_pair((sh.low, sh.high), 4) if sh.low is not None and sh.high is not None else None,
        ),
        head_to_head=[
            HeadToHeadEntry(
                a=h.a,
                b=h.b,
                units=h.units,
                deals=h.deals,
                a_wins=round(h.a_wins, 4),
                b_wins=round(h.b_wins, 4),
                diff=round(h.diff, 4),
                ci=_pair(h.ci, 4),
            )
            for h in h2h
        ],
    )


def _notes(
    fit: RatingFit,
    rules_version: str,
    rules_versions: Sequence[str],
    bad: Sequence[str],
    anchor_spec: str | None,
) -> list[str]:
    notes: list[str] = []
    others = sorted(set(rules_versions) - {rules_version})
    if others:
        notes.append(
            f"rules version {rules_version} is rated apart from "
            f"{', '.join(others)}: each rules version has its own board"
        )
    if len(fit.data.participants) == 1:
        notes.append(
            "only one participant: a rating says how a participant does against others, so "
            "there is nothing to compare it with yet"
        )
    if fit.anchor.id is None:
        wanted = f"spec {anchor_spec!r}" if anchor_spec else "an anchor"
        notes.append(
            f"no participant has {wanted}: the mean of all strengths sits at "
            f"{fit.anchor.rating:g} instead"
        )
    if bad:
        notes.append(f"{len(bad)} done matches could not be rated (e.g. {bad[0]})")
    return notes


def telemetry_from_matches(matches: Sequence[RatedMatch]) -> dict[str, Telemetry]:
    """Results per participant from the matches alone (for boards built without a store)."""
    out: dict[str, Telemetry] = {}
    for m in matches:
        won = set(m.winning_seats)
        seen: dict[str, bool] = {}
        for seat, pid in enumerate(m.lineup):
            t = out.setdefault(pid, Telemetry(pid))
            t.seats += 1
            w = seat in won
            t.wins += w
            role = m.roles[seat]
            a, b = t.by_role.get(role, (0, 0))
            t.by_role[role] = (a + w, b + 1)
            seen[pid] = seen.get(pid, False) or w
        for pid, w in seen.items():
            out[pid].matches += 1
            out[pid].matches_won += w
    return out


def build_boards(
    store: Store,
    suite: str | None = None,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    anchor_spec: str | None = "rule",
    anchor_rating: float = 1000.0,
    *,
    splits: int = DEFAULT_SPLITS,
    online: bool = True,
    now: datetime | None = None,
) -> list[Board]:
    """One board per rules version of ``store``'s done matches (of ``suite``, or every suite),
    the newest rules version (by its latest match) first. No done match: no board. Raises
    :class:`UnknownSuiteError` for a suite the store does not hold."""
    data = load_store(store, suite)
    newest = {
        v: max((m.finished_at or datetime.min.replace(tzinfo=UTC)) for m in ms)
        for v, ms in data.matches.items()
        if ms
    }
    versions = sorted(newest, key=lambda v: (newest[v], v), reverse=True)
    boards = []
    when = now or datetime.now(UTC)
    for v in versions:
        matches = data.matches[v]
        good, _ = _rateable(matches)
        if not good:
            continue
        boards.append(
            build_board(
                matches,
                data.participants,
                data.telemetry.get(v, {}),
                suite=suite,
                suites=data.suites,
                rules_versions=versions,
                void_matches=data.void_matches,
                resamples=resamples,
                seed=seed,
                anchor_spec=anchor_spec,
                anchor_rating=anchor_rating,
                splits=splits,
                online=online,
                now=when,
            )
        )
    return boards


def board_json_schema() -> dict[str, Any]:
    """The JSON Schema (Draft 2020-12) of one board; ``leaderboard.json`` is a list of them."""
    schema = Board.model_json_schema(mode="serialization")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **schema,
    }


def schema_text() -> str:
    """The published schema file's text."""
    return json.dumps(board_json_schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def write_board_schema(path: Path | None = None) -> Path:
    """Write :func:`board_json_schema` to ``path`` (default: the published file)."""
    target = path or SCHEMA_PATH
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(schema_text(), encoding="utf-8")
    return target


def boards_json(boards: Sequence[Board]) -> str:
    """``leaderboard.json``: the list of boards, newest rules version first."""
    return json.dumps([b.model_dump(mode="json") for b in boards], indent=1, ensure_ascii=False)


__all__ = [
    "BOARD_FORMAT",
    "BOARD_VERSION",
    "SCHEMA_PATH",
    "AnchorInfo",
    "Board",
    "Effect",
    "HeadToHeadEntry",
    "ModelInfo",
    "OpenSkill",
    "ParticipantEntry",
    "RoleRecord",
    "RuleFollowing",
    "SplitHalfInfo",
    "Usage",
    "board_json_schema",
    "boards_json",
    "build_board",
    "build_boards",
    "schema_text",
    "telemetry_from_matches",
    "write_board_schema",
]
