"""What the leaderboard reads from a store: one typed :class:`RatedMatch` per ``done`` match
(void matches are no result and are never read), the participants, and per participant the
rule-following, token, cost and latency aggregates of its seats (:class:`Telemetry`).

Everything is grouped by rules version, because matches of different rules versions are rated
apart. The match rows are read without their records (the columns hold all a rating needs), and
telemetry is summed by the database (``GROUP BY``), so a store of 10,000 matches and millions of
decision rows is read in a few queries.

With ``suite=None`` every suite of the store is read; a participant is then known by its id
across suites, unless one id names different specs in different suites: those are told apart
as ``SUITE/ID``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import Integer, cast, func, or_, select

from bangarena.evals.store import Store
from bangarena.evals.store.tables import (
    DecisionRow,
    MatchRow,
    MatchSeatRow,
    ParticipantRow,
    SuiteRow,
)
from bangarena.harness.records import RULE_FOLLOWING_KINDS

ROLE_ORDER: Final = ("sheriff", "deputy", "outlaw", "renegade", "double_agent")
WINNERS: Final = ("law", "outlaws", "renegade", "draw")
FAILURE_ORDER: Final = (
    "illegal",
    "unparsable",
    "refusal",
    "truncated",
    "empty",
    "timeout",
    "transport",
)
"""Attempt outcomes that are not ``ok``; ``transport`` is the provider's fault and is shown
apart (it never counts against a participant's first-try rate or retries)."""


class LeaderboardError(ValueError):
    """A leaderboard request that cannot be met (``str()`` is one line)."""


class UnknownSuiteError(LeaderboardError):
    """The suite asked for is not in the store."""


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """One done match, as the ratings see it."""

    key: str
    suite: str
    table_index: int
    deal: int
    deal_seed: int
    rotation: int
    seats: int
    mode: str
    max_rounds: int
    rules_version: str
    lineup: tuple[str, ...]
    """The participant id at each seat."""
    roles: tuple[str, ...]
    """The role dealt to each seat."""
    winner: str
    """``law``, ``outlaws``, ``renegade`` or ``draw``."""
    winning_seats: tuple[int, ...]
    order: int
    """The store's row id: the order matches were stored in (only the online rating uses it)."""
    finished_at: datetime | None = None
    cost_usd: float = 0.0

    @property
    def deal_key(self) -> tuple[str, int]:
        """The bootstrap cluster: a deal of a suite with every rotation (and every table) that
        played it, because they share the deal's seed."""
        return (self.suite, self.deal)


@dataclass(frozen=True, slots=True)
class Participant:
    """A participant as registered: its id on the board, spec and seat kind."""

    id: str
    spec: str
    kind: str
    suites: tuple[str, ...]


@dataclass
class Telemetry:
    """One participant's seats over the done matches of one rules version: results, rule
    following (text-path seats only), tokens, cost and latency. Counts only; rates are the
    board's (:mod:`.board`)."""

    participant: str
    matches: int = 0
    """Distinct matches it sat in (a participant may hold several seats of one match)."""
    matches_won: int = 0
    """Distinct matches in which at least one of its seats won."""
    seats: int = 0
    wins: int = 0
    """Seats that won."""
    by_role: dict[str, tuple[int, int]] = field(default_factory=dict)
    """role → (seats won, seats played)."""
    decisions: int = 0
    """Decisions its seats made (the engine's forced moves left out)."""
    rule_following: bool = False
    """Whether any of its seats answers through the text path (models, scripted seats)."""
    answered: int = 0
    first_try_valid: int = 0
    retries: int = 0
    attempts: int = 0
    failures: dict[str, int] = field(default_factory=dict)
    """Attempt outcome → attempts (``ok`` left out)."""
    autopilot_moves: int = 0
    autopilot: dict[str, int] = field(default_factory=dict)
    """Autopilot reason → moves."""
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    reasoning_tokens: int = 0
    cost_usd: float = 0.0
    priced: bool = False
    """Whether any of its attempts had a price (else cost is unknown, not zero)."""
    latency_s: float = 0.0
    """Summed over attempts."""
    timed_decisions: int = 0
    """Decisions with at least one attempt (the latency's denominator)."""


@dataclass
class StoreData:
    """Everything the boards need from a store, grouped by rules version."""

    suites: list[str]
    participants: dict[str, Participant]
    matches: dict[str, list[RatedMatch]]
    """rules version → its done matches, in stored order."""
    telemetry: dict[str, dict[str, Telemetry]]
    """rules version → participant id → its telemetry."""
    void_matches: int = 0


def _utc(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _suite_ids(store: Store, suite: str | None) -> dict[int, str]:
    with store.engine.connect() as conn:
        rows = conn.execute(select(SuiteRow.id, SuiteRow.name).order_by(SuiteRow.name)).all()
    ids = {int(i): str(n) for i, n in rows}
    if suite is None:
        return ids
    chosen = {i: n for i, n in ids.items() if n == suite}
    if not chosen:
        have = ", ".join(sorted(ids.values())) or "none"
        raise UnknownSuiteError(
            f"suite {suite!r} is not in {store.shown_url} (suites there: {have})"
        )
    return chosen


def _participants(
    store: Store, suites: dict[int, str]
) -> tuple[dict[str, Participant], dict[tuple[str, str], str]]:
    """The participants and, per (suite, participant id), the id on the board."""
    q = select(
        ParticipantRow.suite_id,
        ParticipantRow.participant,
        ParticipantRow.spec,
        ParticipantRow.kind,
    ).where(ParticipantRow.suite_id.in_(list(suites)))
    with store.engine.connect() as conn:
        rows = conn.execute(q).all()
    specs: dict[str, set[str]] = {}
    for _, pid, spec, _ in rows:
        specs.setdefault(pid, set()).add(spec)
    board_id: dict[tuple[str, str], str] = {}
    found: dict[str, Participant] = {}
    for sid, pid, spec, kind in sorted(rows, key=lambda r: (suites[r[0]], r[1])):
        name = suites[sid]
        shown = pid if len(specs[pid]) == 1 else f"{name}/{pid}"
        board_id[(name, pid)] = shown
        have = found.get(shown)
        in_suites = (*have.suites, name) if have is not None else (name,)
        found[shown] = Participant(shown, spec, kind, in_suites)
    return found, board_id


def _ident(board_id: dict[tuple[str, str], str], suite: str, pid: str) -> str:
    # A match seat may name a participant the suite file no longer declares (it was removed
    # after the match was played): it keeps its id.
    return board_id.get((suite, pid), pid)


def load_matches(
    store: Store, suites: dict[int, str], board_id: dict[tuple[str, str], str]
) -> dict[str, list[RatedMatch]]:
    """Every done match of ``suites`` (row id → name), per rules version, in stored order."""
    m = MatchRow
    q = (
        select(
            m.id,
            m.key,
            m.suite_id,
            m.table_index,
            m.deal,
            m.deal_seed,
            m.rotation,
            m.seats,
            m.mode,
            m.table_config,
            m.rules_version,
            m.lineup,
            m.roles,
            m.winner,
            m.winning_seats,
            m.finished_at,
            m.cost_usd,
        )
        .where(m.status == "done", m.suite_id.in_(list(suites)))
        .order_by(m.id)
    )
    out: dict[str, list[RatedMatch]] = {}
    with store.engine.connect() as conn:
        for r in conn.execution_options(yield_per=2000).execute(q):
            name = suites[int(r.suite_id)]
            table = dict(r.table_config or {})
            out.setdefault(str(r.rules_version), []).append(
                RatedMatch(
                    key=str(r.key),
                    suite=name,
                    table_index=int(r.table_index),
                    deal=int(r.deal),
                    deal_seed=int(r.deal_seed),
                    rotation=int(r.rotation),
                    seats=int(r.seats),
                    mode=str(r.mode),
                    max_rounds=int(table.get("max_rounds") or 0),
                    rules_version=str(r.rules_version),
                    lineup=tuple(_ident(board_id, name, str(p)) for p in r.lineup),
                    roles=tuple(str(x) for x in r.roles or ()),
                    winner=str(r.winner) if r.winner is not None else "",
                    winning_seats=tuple(int(s) for s in r.winning_seats or ()),
                    order=int(r.id),
                    finished_at=_utc(r.finished_at),
                    cost_usd=float(r.cost_usd or 0.0),
                )
            )
    return out


def _tel(
    out: dict[str, dict[str, Telemetry]], version: str, suite: str, pid: str, ids: dict
) -> Telemetry:
    shown = _ident(ids, suite, pid)
    per = out.setdefault(version, {})
    t = per.get(shown)
    if t is None:
        t = per[shown] = Telemetry(shown)
    return t


def load_telemetry(
    store: Store, suites: dict[int, str], board_id: dict[tuple[str, str], str]
) -> dict[str, dict[str, Telemetry]]:
    """Per rules version and participant: its seats' results and telemetry over done matches."""
    out: dict[str, dict[str, Telemetry]] = {}
    m, s, d = MatchRow, MatchSeatRow, DecisionRow
    done = (m.status == "done", m.suite_id.in_(list(suites)))
    seat_q = (
        select(
            m.rules_version,
            m.suite_id,
            s.participant,
            s.kind,
            s.role,
            func.count(),
            func.sum(cast(s.won, Integer)),
            func.sum(s.decisions),
            func.sum(s.answered),
            func.sum(s.first_try_valid),
            func.sum(s.autopilot_moves),
        )
        .join(m, m.id == s.match_id)
        .where(*done)
        .group_by(m.rules_version, m.suite_id, s.participant, s.kind, s.role)
    )
    # Distinct matches (and matches won): a participant may sit at several seats of one match.
    per_match = (
        select(
            m.rules_version.label("rv"),
            m.suite_id.label("sid"),
            s.participant.label("pid"),
            s.match_id.label("mid"),
            func.max(cast(s.won, Integer)).label("won"),
            func.sum(func.coalesce(s.cost_usd, 0.0)).label("cost"),
            func.max(cast(s.cost_usd.is_not(None), Integer)).label("priced"),
        )
        .join(m, m.id == s.match_id)
        .where(*done)
        .group_by(m.rules_version, m.suite_id, s.participant, s.match_id)
        .subquery()
    )
    match_q = select(
        per_match.c.rv,
        per_match.c.sid,
        per_match.c.pid,
        func.count(),
        func.sum(per_match.c.won),
        func.sum(per_match.c.cost),
        func.max(per_match.c.priced),
    ).group_by(per_match.c.rv, per_match.c.sid, per_match.c.pid)
    # Only decisions that called a provider or were autopiloted carry telemetry (a bot's
    # chosen move has no attempt): the filter keeps bot-only stores quick to read.
    telemetry_rows = or_(d.attempts > 0, d.how == "autopilot")
    decision_q = (
        select(
            m.rules_version,
            m.suite_id,
            d.participant,
            d.how,
            d.autopilot_reason,
            func.count(),
            func.sum(d.attempts),
            func.sum(d.retries),
            func.sum(d.input_tokens),
            func.sum(d.output_tokens),
            func.sum(d.cached_tokens),
            func.sum(d.reasoning_tokens),
            func.sum(d.latency_s),
            func.sum(cast(d.attempts > 0, Integer)),
        )
        .join(m, m.id == d.match_id)
        .where(*done, telemetry_rows)
        .group_by(m.rules_version, m.suite_id, d.participant, d.how, d.autopilot_reason)
    )
    outcome_q = (
        select(m.rules_version, m.suite_id, d.participant, d.attempt_outcomes, func.count())
        .join(m, m.id == d.match_id)
        .where(*done, d.attempts > 0)
        .group_by(m.rules_version, m.suite_id, d.participant, d.attempt_outcomes)
    )
    with store.engine.connect() as conn:
        seat_rows = conn.execute(seat_q).all()
        match_rows = conn.execute(match_q).all()
        decision_rows = conn.execute(decision_q).all()
        outcome_rows = conn.execute(outcome_q).all()
    for rv, sid, pid, kind, role, n, won, dec, answered, ftv, auto in seat_rows:
        t = _tel(out, str(rv), suites[int(sid)], str(pid), board_id)
        t.seats += int(n)
        t.wins += int(won or 0)
        if role is not None:
            w0, n0 = t.by_role.get(str(role), (0, 0))
            t.by_role[str(role)] = (w0 + int(won or 0), n0 + int(n))
        t.decisions += int(dec or 0)
        t.autopilot_moves += int(auto or 0)
        if kind in RULE_FOLLOWING_KINDS:
            t.rule_following = True
            t.answered += int(answered or 0)
            t.first_try_valid += int(ftv or 0)
    for rv, sid, pid, n, won, cost, priced in match_rows:
        t = _tel(out, str(rv), suites[int(sid)], str(pid), board_id)
        t.matches += int(n)
        t.matches_won += int(won or 0)
        t.cost_usd += float(cost or 0.0)
        t.priced = t.priced or bool(priced)
    for row in decision_rows:
        rv, sid, pid, how, reason, n, att, ret, tin, tout, tcached, treason, lat, timed = row
        t = _tel(out, str(rv), suites[int(sid)], str(pid), board_id)
        t.attempts += int(att or 0)
        t.retries += int(ret or 0)  # 0 for bots: they make no answer attempts
        if how == "autopilot":
            key = str(reason) if reason is not None else "no_answer"
            t.autopilot[key] = t.autopilot.get(key, 0) + int(n)
        t.input_tokens += int(tin or 0)
        t.output_tokens += int(tout or 0)
        t.cached_tokens += int(tcached or 0)
        t.reasoning_tokens += int(treason or 0)
        t.latency_s += float(lat or 0.0)
        t.timed_decisions += int(timed or 0)
    for rv, sid, pid, outcomes, n in outcome_rows:
        t = _tel(out, str(rv), suites[int(sid)], str(pid), board_id)
        for outcome in str(outcomes).split(","):
            if outcome and outcome != "ok":
                t.failures[outcome] = t.failures.get(outcome, 0) + int(n)
    return out


def _void_count(store: Store, suites: dict[int, str]) -> int:
    q = (
        select(func.count())
        .select_from(MatchRow)
        .where(MatchRow.status == "void", MatchRow.suite_id.in_(list(suites)))
    )
    with store.engine.connect() as conn:
        return int(conn.execute(q).scalar_one())


def load_store(store: Store, suite: str | None = None) -> StoreData:
    """Read every done match, participant and telemetry aggregate of ``suite`` (every suite
    when None). Raises :class:`UnknownSuiteError` for a suite the store does not hold; an empty
    store gives empty data."""
    suites = _suite_ids(store, suite)
    if not suites:
        return StoreData([], {}, {}, {})
    participants, board_id = _participants(store, suites)
    matches = load_matches(store, suites, board_id)
    telemetry = load_telemetry(store, suites, board_id)
    for per in matches.values():
        for match in per:
            for pid in match.lineup:
                if pid not in participants:
                    participants[pid] = Participant(pid, "", "", (match.suite,))
    return StoreData(
        suites=sorted(suites.values()),
        participants=participants,
        matches=matches,
        telemetry=telemetry,
        void_matches=_void_count(store, suites),
    )


def participants_of(matches: Iterable[RatedMatch]) -> list[str]:
    """The participant ids that sat in ``matches``, sorted."""
    return sorted({p for m in matches for p in m.lineup})


def describe(match: RatedMatch) -> dict[str, Any]:
    """A match as a small JSON object (for error messages and tests)."""
    return {
        "key": match.key,
        "suite": match.suite,
        "deal": match.deal,
        "rotation": match.rotation,
        "seats": match.seats,
        "mode": match.mode,
        "winner": match.winner,
    }


__all__ = [
    "FAILURE_ORDER",
    "ROLE_ORDER",
    "WINNERS",
    "LeaderboardError",
    "Participant",
    "RatedMatch",
    "StoreData",
    "Telemetry",
    "UnknownSuiteError",
    "describe",
    "load_matches",
    "load_store",
    "load_telemetry",
    "participants_of",
]
