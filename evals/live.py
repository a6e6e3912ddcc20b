"""Live matches in the store: matches played through the seat service, stored under the suite
``live`` and so rated apart from every planned suite.

A live match has no suite file and no plan: :func:`store_live_matches` registers the ``live``
suite and the matches' participants (once per store object: a participant is written again only
when its spec or kind changed), builds the plan of one match from each record, and writes them
as the runner writes planned matches (one transaction for the batch, the same rows). Each live
match is its own deal (the bootstrap's cluster): the deal number is its order among live
matches (one more than the highest stored, read in the transaction that writes them; a batch
numbers its matches in the order given).

```python
store = open_store("live.db")
store_live_match(store, record, [LiveParticipant("rule", "rule", "rule"), ...])
outcomes = store_live_matches(store, [(record, participants), ...])  # errors per match
```
"""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from sqlalchemy import select

from bangarena.harness.records import MatchRecord

from .execute import verdict
from .schedule import PlannedMatch, PlannedSeat
from .store import Store
from .store.rows import PreparedMatch, prepare_match
from .store.tables import ParticipantRow, SuiteRow

LIVE_SUITE: Final = "live"
LIVE_SUITE_TEXT: Final = (
    "# The matches played through the seat service (bangarena serve): no file, no plan.\n"
    '[suite]\nname = "live"\n'
)


@dataclass(frozen=True, slots=True)
class LiveParticipant:
    """Who sat in one chair of a live match, as the leaderboard names it: ``id`` (``rule``, a
    configured model participant's id, ``remote:NAME``, ``human:NAME``), its ``spec`` and its
    seat ``kind`` (the record's)."""

    id: str
    spec: str
    kind: str


def live_plan(record: MatchRecord, seats: Sequence[LiveParticipant], deal: int) -> PlannedMatch:
    """The plan of one match that ``record`` played (its key is the record's match id)."""
    c = record.config
    if len(seats) != c.seats:
        raise ValueError(f"{len(seats)} participants for a {c.seats}-seat match")
    table = {
        "seats": c.seats,
        "mode": c.mode,
        "max_rounds": c.max_rounds,
        "time_per_move": c.time_per_move_s,
        "model_time_per_move": c.model_time_per_move_s,
        "transcripts": c.transcripts,
    }
    if c.expansions:  # as a suite table has them (base tables leave the key out)
        table["expansions"] = list(c.expansions)
    planned = tuple(
        PlannedSeat(seat=i, participant=p.id, spec=p.spec, kind=p.kind, options={})
        for i, p in enumerate(seats)
    )
    return PlannedMatch(
        key=record.match_id,
        suite=LIVE_SUITE,
        table_index=0,
        table=table,
        lang=c.lang,
        deal=deal,
        deal_seed=c.seed,
        rotation=0,
        lineup=tuple(p.id for p in seats),
        seats=planned,
    )


@dataclass(slots=True)
class _Registered:
    """What one store object has registered of the live suite: its row id and each
    participant's (spec, kind) as written."""

    suite_id: int
    participants: dict[str, tuple[str, str]]


_REGISTERED: weakref.WeakKeyDictionary[Store, _Registered] = weakref.WeakKeyDictionary()
"""Per store object (gone with it). The service is the live suite's one writer, so what it
wrote stays true; filled only after a registration commits."""


def _register(store: Store, seats: Sequence[LiveParticipant]) -> int:
    """The ``live`` suite and these participants exist (a participant's spec and kind are
    updated); returns the suite's row id. Without a query when this store object registered
    them already, as they are."""
    wanted = {p.id: (p.spec, p.kind) for p in seats}
    known = _REGISTERED.get(store)
    if known is not None and all(known.participants.get(k) == v for k, v in wanted.items()):
        return known.suite_id
    now = datetime.now(UTC)
    with store._session(write=True) as s, s.begin():  # noqa: SLF001 — the store's own unit of work
        row = s.scalars(select(SuiteRow).where(SuiteRow.name == LIVE_SUITE)).first()
        if row is None:
            row = SuiteRow(
                name=LIVE_SUITE,
                hash=hashlib.sha256(LIVE_SUITE_TEXT.encode()).hexdigest(),
                file_text=LIVE_SUITE_TEXT,
                created_at=now,
                updated_at=now,
            )
            s.add(row)
            s.flush()
        suite_id = row.id
        have = {
            p.participant: p
            for p in s.scalars(select(ParticipantRow).where(ParticipantRow.suite_id == suite_id))
        }
        for pid, (spec, kind) in wanted.items():
            old = have.get(pid)
            if old is None:
                s.add(
                    ParticipantRow(
                        suite_id=suite_id, participant=pid, spec=spec, kind=kind,
                        options={}, play_options={}, versions={}, updated_at=now,
                    )
                )  # fmt: skip
            elif (old.spec, old.kind) != (spec, kind):
                old.spec, old.kind, old.updated_at = spec, kind, now
        # every participant row of the suite as it is once this commits
        written = {pid: (p.spec, p.kind) for pid, p in have.items()} | wanted
    _REGISTERED[store] = _Registered(suite_id, written)
    return suite_id


@dataclass(frozen=True, slots=True)
class LiveOutcome:
    """What became of one live match given to :func:`store_live_matches`: ``status``
    (``done``, or ``void`` with ``void_reason``) and ``written`` (False: a done match with its
    id was stored already, so nothing was written), or ``error``, the exception that kept it
    out of the store."""

    status: str
    void_reason: str | None = None
    written: bool = False
    error: Exception | None = None


def _write(store: Store, batch: list[PreparedMatch]) -> list[bool | Exception]:
    """Write ``batch`` in one transaction, numbered after the highest stored deal in order;
    when that fails (a match done already, a match the database refuses), one transaction
    per match, each numbered in its own, so the written ones keep consecutive deals. Per
    match: written, False for done already, or the error."""
    if len(batch) > 1:
        try:
            store.write_all(batch, append_deals=True)
        except Exception:  # noqa: BLE001 — found out match by match below
            pass
        else:
            return [True] * len(batch)
    out: list[bool | Exception] = []
    for p in batch:
        try:
            out.append(store.write_prepared(p, append_deals=True))
        except Exception as exc:  # noqa: BLE001 — one match's failure is its own
            out.append(exc)
    return out


def store_live_matches(
    store: Store, matches: Sequence[tuple[MatchRecord, Sequence[LiveParticipant]]]
) -> list[LiveOutcome]:
    """Write finished live matches under suite ``live``, in one transaction and numbered in
    the order given: each ``done`` when it is a result, else ``void`` with its reason (an
    aborted match). A match id already stored as done (or done earlier in ``matches``) is not
    written twice and takes no deal number. Never raises for a store failure: each match's
    :class:`LiveOutcome` holds its error (a registration or connection failure is every
    match's)."""
    outcomes: list[LiveOutcome | None] = [None] * len(matches)
    ready: list[tuple[int, PreparedMatch]] = []
    done_ids: set[str] = set()
    for i, (record, seats) in enumerate(matches):
        status, why = "void", None
        try:
            why = verdict(record)
            status = "done" if why is None else "void"
            if status == "done" and record.match_id in done_ids:
                outcomes[i] = LiveOutcome(status)
                continue
            # deal 0 for now: the store numbers it in the transaction that writes it
            prepared = prepare_match(live_plan(record, seats, 0), record, status, why)
        except Exception as exc:  # noqa: BLE001 — a record that cannot be stored is its own
            outcomes[i] = LiveOutcome(status, why, error=exc)
            continue
        if status == "done":
            done_ids.add(record.match_id)
        ready.append((i, prepared))
    if ready:
        try:
            _register(store, [p for i, _ in ready for p in matches[i][1]])
        except Exception as exc:  # noqa: BLE001 — nothing of the batch was written
            results: list[bool | Exception] = [exc] * len(ready)
        else:
            results = _write(store, [p for _, p in ready])
        for (i, p), res in zip(ready, results, strict=True):
            why = p.match["void_reason"]
            if isinstance(res, Exception):
                outcomes[i] = LiveOutcome(p.status, why, error=res)
            else:
                outcomes[i] = LiveOutcome(p.status, why, written=res)
    final = [o for o in outcomes if o is not None]
    assert len(final) == len(matches), "every match has its outcome"
    return final


def store_live_match(
    store: Store, record: MatchRecord, seats: Sequence[LiveParticipant]
) -> tuple[str, str | None]:
    """Write one live match under suite ``live`` (see :func:`store_live_matches`). Returns
    (status, void reason); raises what kept it out of the store. A match id already stored as
    done is not written twice."""
    (outcome,) = store_live_matches(store, [(record, seats)])
    if outcome.error is not None:
        raise outcome.error
    return outcome.status, outcome.void_reason


__all__ = [
    "LIVE_SUITE",
    "LiveOutcome",
    "LiveParticipant",
    "live_plan",
    "store_live_match",
    "store_live_matches",
]
