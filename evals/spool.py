"""A match as the runner plays it: the harness's :class:`~bangarena.harness.match.Match` with its
list of decisions replaced by a :class:`MovesLog`, which tells the run about every decision as
it is made and, for matches whose seats keep transcripts, writes finished decisions out of the
live heap (compressed, a chunk at a time) instead of holding every prompt and reply until the
end. The record built at the end is the same record, decision for decision.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

from bangarena.harness.match import Match, MatchSettings, OnMove
from bangarena.harness.records import MatchRecord, MoveRecord
from bangarena.harness.seats.protocol import Seat

CHUNK_MOVES: Final = 16
"""Decisions compressed together (one zlib stream: prompts repeat, so chunks compress well)."""
ZLIB_LEVEL: Final = 1

OnDecision = Callable[[MoveRecord], None]


class MovesLog:
    """The decisions of one match in order: ``append`` (what the match driver calls), ``len``
    and iteration (which yields :class:`MoveRecord` objects equal to those appended). With
    ``spool`` the records are kept as compressed JSON chunks once :data:`CHUNK_MOVES` of them
    have gathered."""

    __slots__ = ("_chunks", "_tail", "_count", "_spool", "_on_decision")

    def __init__(self, *, spool: bool = False, on_decision: OnDecision | None = None) -> None:
        self._chunks: list[bytes] = []
        self._tail: list[MoveRecord] = []
        self._count = 0
        self._spool = spool
        self._on_decision = on_decision

    def append(self, rec: MoveRecord) -> None:
        if self._on_decision is not None:
            self._on_decision(rec)
        self._tail.append(rec)
        self._count += 1
        if self._spool and len(self._tail) >= CHUNK_MOVES:
            blob = b"\n".join(m.model_dump_json().encode("utf-8") for m in self._tail)
            self._chunks.append(zlib.compress(blob, ZLIB_LEVEL))
            self._tail = []

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[MoveRecord]:
        for chunk in self._chunks:
            for line in zlib.decompress(chunk).split(b"\n"):
                yield MoveRecord.model_validate_json(line)
        yield from self._tail

    def __getitem__(self, index: int) -> MoveRecord:
        if -len(self._tail) <= index < 0:
            return self._tail[index]
        return list(self)[index]

    @property
    def spooled_bytes(self) -> int:
        """Bytes of compressed decisions held."""
        return sum(len(c) for c in self._chunks)


class RunnerMatch(Match):
    """A :class:`Match` whose decisions go to a :class:`MovesLog`."""

    def __init__(
        self,
        settings: MatchSettings,
        seats: Sequence[Seat],
        *,
        spool: bool = False,
        on_decision: OnDecision | None = None,
        on_move: OnMove | None = None,
        match_id: str | None = None,
        command: Sequence[str] | None = None,
    ) -> None:
        super().__init__(settings, seats, on_move=on_move, match_id=match_id, command=command)
        self.log = MovesLog(spool=spool, on_decision=on_decision)
        self.moves = self.log  # type: ignore[assignment]  # the driver only appends and counts

    def record(self) -> MatchRecord:
        """The record so far (decisions read back from the log once)."""
        log = self.log
        self.moves = list(log)
        try:
            return super().record()
        finally:
            self.moves = log  # type: ignore[assignment]


def live_cost(seats: Sequence[Any]) -> tuple[float, int]:
    """(cost in USD, tokens) the seats of a live match have used so far."""
    cost, tokens = 0.0, 0
    for s in seats:
        cost += float(getattr(s, "cost", 0.0) or 0.0)
        usage = getattr(s, "usage", None)
        if usage is not None:
            tokens += usage.input_tokens + usage.output_tokens
    return cost, tokens


__all__ = ["CHUNK_MOVES", "MovesLog", "OnDecision", "RunnerMatch", "live_cost"]
