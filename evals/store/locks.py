"""The run lock: one runner per suite and database.

A lock is a row of ``run_locks`` (suite name → run id, pid, host, heartbeat). A second runner is
refused with :class:`SuiteLocked`, whose message says who holds the lock, unless the lock is
stale: its heartbeat is older than ``stale_after_s``, or its holder ran on this host and its
process is gone (so a run killed with SIGKILL can be resumed at once). Taking over a stale lock
is a compare-and-swap on its run id, so two runners can never both win it. Each lock has a row in
``runs`` whose ``wall_s`` the heartbeat advances (cumulative wall-time budgets).
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Final

from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from .database import StoreError, write_options
from .tables import LockRow, RunRow

DEFAULT_STALE_AFTER_S: Final = 60.0
DEFAULT_HEARTBEAT_S: Final = 10.0


class SuiteLocked(StoreError):
    """Another runner holds the suite's lock."""


class LockLost(StoreError):
    """This runner's lock was taken over (its heartbeat stopped for too long)."""


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass(frozen=True, slots=True)
class LockHolder:
    """Who holds a lock."""

    run_id: str
    pid: int
    host: str
    acquired_at: float
    heartbeat_at: float

    def describe(self, now: float) -> str:
        return (
            f"pid {self.pid} on host {self.host} (started {now - self.acquired_at:.0f} s ago, "
            f"last heartbeat {now - self.heartbeat_at:.0f} s ago)"
        )


class RunLock:
    """A held run lock; release it (or use it as a context manager). ``start_heartbeat`` keeps
    it fresh from a background thread, so a busy event loop cannot let it go stale."""

    def __init__(self, engine: Engine, suite: str, run_id: str, started_at: float) -> None:
        self.engine = engine
        self.suite = suite
        self.run_id = run_id
        self.started_at = started_at
        self.released = False
        self.lost = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def heartbeat(self) -> None:
        """Refresh the lock and the run's wall time; raises :class:`LockLost` if another runner
        took the lock over."""
        now = time.time()
        with self.engine.connect().execution_options(**write_options()) as conn, conn.begin():
            n = conn.execute(
                update(LockRow)
                .where(LockRow.suite == self.suite, LockRow.run_id == self.run_id)
                .values(heartbeat_at=now)
            ).rowcount
            conn.execute(
                update(RunRow)
                .where(RunRow.id == self.run_id)
                .values(heartbeat_at=now, wall_s=now - self.started_at)
            )
        if n != 1:
            self.lost = True
            raise LockLost(f"the lock of suite {self.suite!r} was taken over by another runner")

    def start_heartbeat(self, interval_s: float = DEFAULT_HEARTBEAT_S) -> None:
        """Heartbeat every ``interval_s`` seconds from a daemon thread until released."""
        if self._thread is not None:
            return

        def beat() -> None:
            while not self._stop.wait(interval_s):
                try:
                    self.heartbeat()
                except LockLost:
                    return
                except Exception:  # noqa: BLE001 — a database hiccup: try again next beat
                    continue

        self._thread = threading.Thread(target=beat, name=f"lock:{self.suite}", daemon=True)
        self._thread.start()

    def release(self, stopped: str | None = None) -> None:
        """Give the lock up and close the run (``stopped``: why it stopped, if it did)."""
        if self.released:
            return
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        now = time.time()
        with self.engine.connect().execution_options(**write_options()) as conn, conn.begin():
            conn.execute(
                delete(LockRow).where(LockRow.suite == self.suite, LockRow.run_id == self.run_id)
            )
            conn.execute(
                update(RunRow)
                .where(RunRow.id == self.run_id)
                .values(
                    heartbeat_at=now,
                    finished_at=now,
                    wall_s=now - self.started_at,
                    stopped=stopped,
                )
            )
        self.released = True

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _stale(holder: LockHolder, now: float, stale_after_s: float, host: str) -> bool:
    if now - holder.heartbeat_at > stale_after_s:
        return True
    return holder.host == host and holder.pid != os.getpid() and not _pid_alive(holder.pid)


def try_lock(engine: Engine, suite: str, shown_url: str, stale_after_s: float) -> RunLock:
    """Take the suite's lock now or raise :class:`SuiteLocked`."""
    host = socket.gethostname()[:255]
    for _ in range(5):  # a racing runner may insert or take over between our read and write
        now = time.time()
        run_id = uuid.uuid4().hex
        mine = {
            "run_id": run_id,
            "pid": os.getpid(),
            "host": host,
            "acquired_at": now,
            "heartbeat_at": now,
        }
        try:
            with engine.connect().execution_options(**write_options()) as conn, conn.begin():
                row = conn.execute(select(LockRow).where(LockRow.suite == suite)).first()
                if row is None:
                    conn.execute(insert(LockRow).values(suite=suite, **mine))
                else:
                    holder = LockHolder(
                        row.run_id, row.pid, row.host, row.acquired_at, row.heartbeat_at
                    )
                    if not _stale(holder, now, stale_after_s, host):
                        raise SuiteLocked(
                            f"suite {suite!r} is being run by {holder.describe(now)} in "
                            f"{shown_url}: wait for it (--wait) or stop it first"
                        )
                    taken = conn.execute(
                        update(LockRow)
                        .where(LockRow.suite == suite, LockRow.run_id == holder.run_id)
                        .values(**mine)
                    ).rowcount
                    if taken != 1:
                        continue
                    # The stale run ends here: its wall time is what its last heartbeat said.
                    conn.execute(
                        update(RunRow)
                        .where(RunRow.id == holder.run_id, RunRow.finished_at.is_(None))
                        .values(finished_at=holder.heartbeat_at, stopped="lost")
                    )
                conn.execute(
                    insert(RunRow).values(
                        id=run_id,
                        suite=suite,
                        pid=mine["pid"],
                        host=host,
                        started_at=now,
                        heartbeat_at=now,
                        finished_at=None,
                        wall_s=0.0,
                        stopped=None,
                    )
                )
        except IntegrityError:
            continue
        return RunLock(engine, suite, run_id, now)
    raise SuiteLocked(f"could not take the lock of suite {suite!r} in {shown_url}: contended")


def wait_lock(
    engine: Engine,
    suite: str,
    shown_url: str,
    stale_after_s: float,
    timeout_s: float | None = None,
    poll_s: float = 1.0,
) -> RunLock:
    """Take the suite's lock, waiting while another runner holds it (``timeout_s`` None: wait as
    long as it takes); raises :class:`SuiteLocked` on timeout."""
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    while True:
        try:
            return try_lock(engine, suite, shown_url, stale_after_s)
        except SuiteLocked:
            if deadline is not None and time.monotonic() + poll_s > deadline:
                raise
        time.sleep(poll_s)


def lock_holder(engine: Engine, suite: str) -> LockHolder | None:
    """Who holds the suite's lock now (None: nobody)."""
    with engine.connect() as conn:
        row = conn.execute(select(LockRow).where(LockRow.suite == suite)).first()
    if row is None:
        return None
    return LockHolder(row.run_id, row.pid, row.host, row.acquired_at, row.heartbeat_at)


__all__ = [
    "DEFAULT_HEARTBEAT_S",
    "DEFAULT_STALE_AFTER_S",
    "LockHolder",
    "LockLost",
    "RunLock",
    "SuiteLocked",
    "lock_holder",
    "try_lock",
    "wait_lock",
]
