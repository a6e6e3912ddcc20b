"""Live matches in the store: matches played through the seat service, stored under the suite
``live`` and so rated apart from every planned suite.

A live match has no suite file and no plan: :func:`store_live_match` registers the ``live``
suite (once) and the match's participants, builds the plan of one match from its record, and
writes it as the runner writes a planned match (one transaction, the same rows). Each live match
is its own deal (the bootstrap's cluster): the deal number is its order among live matches
(one more than the highest stored).

```python
store = open_store("live.db")
store_live_match(store, record, [LiveParticipant("rule", "rule", "rule"), ...])
```
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from sqlalchemy import func, select

from bangarena.harness.records import MatchRecord

from .execute import verdict
from .schedule import PlannedMatch, PlannedSeat
from .store import Store
from .store.rows import prepare_match
from .store.tables import MatchRow, ParticipantRow, SuiteRow

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


def _register(store: Store, seats: Sequence[LiveParticipant]) -> None:
    """The ``live`` suite and these participants exist (a participant's spec is updated)."""
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
        for p in {p.id: p for p in seats}.values():
            old = have.get(p.id)
            if old is None:
                s.add(
                    ParticipantRow(
                        suite_id=suite_id, participant=p.id, spec=p.spec, kind=p.kind,
                        options={}, play_options={}, versions={}, updated_at=now,
                    )
                )  # fmt: skip
            elif (old.spec, old.kind) != (p.spec, p.kind):
                old.spec, old.kind, old.updated_at = p.spec, p.kind, now


def store_live_match(
    store: Store, record: MatchRecord, seats: Sequence[LiveParticipant]
) -> tuple[str, str | None]:
    """Write one live match under suite ``live``: ``done`` when it is a result, else ``void``
    with its reason (an aborted match). Returns (status, void reason). A match id already
    stored as done is not written twice."""
    _register(store, seats)
    sid = store.suite_id(LIVE_SUITE)
    with store.engine.connect() as conn:
        # a lookup in ix_matches_suite_deal (a count would read every stored live match)
        last = conn.execute(select(func.max(MatchRow.deal)).where(MatchRow.suite_id == sid))
        deal = last.scalar_one()
    planned = live_plan(record, seats, 0 if deal is None else int(deal) + 1)
    why = verdict(record)
    status = "done" if why is None else "void"
    store.write_prepared(prepare_match(planned, record, status, why))
    return status, why


__all__ = ["LIVE_SUITE", "LiveParticipant", "live_plan", "store_live_match"]
