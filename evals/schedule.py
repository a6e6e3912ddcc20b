"""The plan of a suite: every match it must play, in the order a runner should start them.

- **rotation** (duplicate deals): each table's lineup plays every deal once per cyclic rotation,
  seat ``i`` getting ``lineup[(i + r) mod seats]`` for ``r = 0 .. seats-1``, all on the deal's
  seed, so every participant of the lineup sits in every seat of every deal.
- **pool**: more participants than seats; :mod:`bangarena.evals.pool` picks one lineup per deal
  and table, and that lineup plays its deal in every rotation.

Matches come deal by deal (deal 0 at every table, in every rotation, then deal 1 …), so a suite
stopped by a budget holds whole duplicate sets. Each :class:`PlannedMatch` carries what a runner
needs: its key, :meth:`PlannedMatch.settings` for the match driver and
:meth:`PlannedMatch.build_seats` for the seats; :meth:`PlannedMatch.play` does both. A planned
match is exactly the match ``bangarena play --seed DEAL_SEED --seat i=SPEC …`` plays with the
same seats (:meth:`PlannedMatch.play_command`).
"""

from __future__ import annotations

import functools
import json
import shlex
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bangarena.engine import ENGINE_VERSION
from bangarena.harness.match import MatchSettings, OnMove, run_match
from bangarena.harness.providers.base import Provider
from bangarena.harness.records import MatchRecord
from bangarena.harness.seats.factory import SeatPlan, SeatSpecError, build_seat
from bangarena.harness.seats.protocol import Seat
from bangarena.prompts.render import PROMPT_VERSION

from .keys import (
    hash_payload,
    key_payload,
    play_options,
    seat_spec,
    table_rules_version,
    uses_prompts,
)
from .pool import pool_lineups
from .seeds import deal_seed, stream_seed
from .suite import Suite


@dataclass(frozen=True, slots=True)
class PlannedSeat:
    """One chair of a planned match."""

    seat: int
    participant: str
    spec: str = ""
    kind: str = ""
    options: Mapping[str, Any] | None = None
    """The play-relevant options (what the key sees)."""
    plan: SeatPlan | None = None
    """The full seat plan (all options, prices and timeouts included) that builds the seat."""


@dataclass(frozen=True, slots=True)
class PlannedMatch:
    """One match of a suite."""

    key: str
    suite: str
    table_index: int
    table: Mapping[str, Any]
    """The table as played: seats, mode, max_rounds, time_per_move, model_time_per_move,
    transcripts and, when there are some, expansions."""
    lang: str
    deal: int
    deal_seed: int
    rotation: int
    lineup: tuple[str, ...]
    """The lineup before rotation (the one the table or the pool gave for this deal)."""
    seats: tuple[PlannedSeat, ...]

    @property
    def participants(self) -> tuple[str, ...]:
        """Participant id per seat (after rotation)."""
        return tuple(s.participant for s in self.seats)

    @property
    def specs(self) -> tuple[str, ...]:
        """Canonical spec per seat."""
        return tuple(s.spec for s in self.seats)

    @property
    def uses_prompts(self) -> bool:
        """Whether a seat reads the harness's prompts (models, scripted seats, agents)."""
        return any(
            uses_prompts(s.plan) if s.plan is not None else s.kind in ("model", "scripted")
            for s in self.seats
        )

    @property
    def versions(self) -> dict[str, str | None]:
        """The versions the key covers (rules, engine, prompts when a seat reads them)."""
        return {
            "rules": table_rules_version(self.table),
            "engine": ENGINE_VERSION,
            "prompts": PROMPT_VERSION if self.uses_prompts else None,
        }

    def settings(self) -> MatchSettings:
        """The match driver's settings."""
        t = self.table
        return MatchSettings(
            seats=t["seats"],
            mode=t["mode"],
            seed=self.deal_seed,
            max_rounds=t["max_rounds"],
            lang=self.lang,
            time_per_move_s=float(t["time_per_move"]),
            model_time_per_move_s=(
                None if t["model_time_per_move"] is None else float(t["model_time_per_move"])
            ),
            transcripts=bool(t["transcripts"]),
            expansions=tuple(t.get("expansions", ())),
        )

    def build_seats(
        self,
        environ: Mapping[str, str] | None = None,
        wrap: Callable[[PlannedSeat, Provider], Provider] | None = None,
        people: Callable[[PlannedSeat], Seat] | None = None,
    ) -> list[Seat]:
        """Build every seat (model seats build their provider, which checks the API key and
        raises SeatSpecError without one). ``wrap``: what a runner puts around each model or
        scripted seat's provider (shared limits, circuit breakers); play is unchanged.
        ``people``: the seat of each person (``human:NAME``), made by whoever seats them (the
        seat service); without it a person's seat is a SeatSpecError."""
        out: list[Seat] = []
        for s in self.seats:
            assert s.plan is not None
            if s.plan.kind == "human":
                if people is None:
                    raise SeatSpecError(
                        f"seat {s.seat} ({s.spec}): a person plays this seat; run the suite "
                        "with `bangarena serve --suite FILE`"
                    )
                out.append(people(s))
                continue
            out.append(
                build_seat(
                    s.plan,
                    seat=s.seat,
                    seed=self.deal_seed,
                    lang=self.lang,
                    transcripts=bool(self.table["transcripts"]),
                    environ=environ,
                    wrap_provider=None if wrap is None else functools.partial(wrap, s),
                )
            )
        return out

    async def play(
        self,
        *,
        environ: Mapping[str, str] | None = None,
        on_move: OnMove | None = None,
        command: Sequence[str] | None = None,
    ) -> MatchRecord:
        """Play the match; the record's ``match_id`` is the key (``command``: the command line
        for the record's provenance)."""
        return await run_match(
            self.settings(),
            self.build_seats(environ),
            on_move=on_move,
            match_id=self.key,
            command=command,
        )

    def play_command(self) -> str:
        """The ``bangarena play`` command that plays this match by hand. Seats with options
        name a table of a models file (see :meth:`models_file`) by their participant id."""
        t = self.table
        args = [
            "bangarena",
            "play",
            "--seats",
            str(t["seats"]),
            "--mode",
            t["mode"],
            "--seed",
            str(self.deal_seed),
            "--time-per-move",
            f"{t['time_per_move']:g}",
            "--lang",
            self.lang,
        ]
        if t["model_time_per_move"] is not None:
            args += ["--model-time-per-move", f"{t['model_time_per_move']:g}"]
        if t["max_rounds"] != MatchSettings().max_rounds:
            args += ["--max-rounds", str(t["max_rounds"])]
        if not t["transcripts"]:
            args.append("--no-transcripts")
        if t.get("expansions"):
            args += ["--expansions", ",".join(t["expansions"])]
        needs_file = False
        for s in self.seats:
            named = (
                s.plan is not None
                and s.plan.options is not None
                and bool(s.plan.options.model_fields_set)
            )
            needs_file |= named
            args += ["--seat", f"{s.seat}={s.participant if named else s.spec}"]
        if needs_file:
            args += ["--models-file", "MODELS.toml"]
        return shlex.join(args)

    def models_file(self) -> str:
        """A models file (TOML) with one table per seat that has options, keyed by its
        participant id, for :meth:`play_command`."""
        out: list[str] = []
        seen: set[str] = set()
        for s in self.seats:
            plan = s.plan
            if plan is None or plan.options is None or not plan.options.model_fields_set:
                continue
            if s.participant in seen:
                continue
            seen.add(s.participant)
            out.append(f"[{_toml_key(s.participant)}]")
            out.append(f"spec = {_toml_value(s.spec)}")
            for name, value in plan.options.model_dump(exclude_unset=True).items():
                out.append(f"{name} = {_toml_value(value)}")
            out.append("")
        return "\n".join(out)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (for ``--dry-run --json`` and logs)."""
        return {
            "key": self.key,
            "suite": self.suite,
            "table_index": self.table_index,
            "table": dict(self.table),
            "lang": self.lang,
            "deal": self.deal,
            "deal_seed": self.deal_seed,
            "rotation": self.rotation,
            "lineup": list(self.participants),
            "specs": list(self.specs),
            "options": [dict(s.options or {}) for s in self.seats],
        }


def _toml_key(name: str) -> str:
    return name if name.replace("-", "").replace("_", "").isalnum() else _toml_value(name)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_toml_key(str(k))} = {_toml_value(v)}" for k, v in value.items())
        return "{ " + inner + " }"
    if isinstance(value, Sequence):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


def rotate(lineup: Sequence[str], rotation: int) -> list[str]:
    """Seat ``i`` gets ``lineup[(i + rotation) mod seats]``."""
    n = len(lineup)
    return [lineup[(i + rotation) % n] for i in range(n)]


def table_lineups(suite: Suite, table_index: int) -> list[list[str]]:
    """The lineup of each deal at one table (the same lineup for every deal of a rotation
    table; seeded pool lineups otherwise)."""
    f = suite.file
    table = f.tables[table_index]
    if f.suite.design == "rotation":
        return [f.lineup(table_index)] * f.suite.deals
    seed = stream_seed(f.suite.seed, f"pool/{table_index}")
    return pool_lineups([p.id for p in f.participants], table.seats, f.suite.deals, seed)


def plan_suite(suite: Suite) -> list[PlannedMatch]:
    """Every match of the suite, deal by deal (see the module docstring); keys are unique."""
    f = suite.file
    plans = {p.id: p.plan for p in f.participants}
    lineups = [table_lineups(suite, t) for t in range(len(f.tables))]
    seen: Counter[str] = Counter()
    out: list[PlannedMatch] = []
    for deal in range(f.suite.deals):
        seed = deal_seed(f.suite.seed, deal)
        for t, table in enumerate(f.tables):
            config = table.play_config()
            lineup = lineups[t][deal]
            for r in range(table.seats):
                ids = rotate(lineup, r)
                seat_plans = [plans[pid] for pid in ids]
                payload = key_payload(config, f.suite.lang, seed, r, seat_plans)
                base = hash_payload(payload)
                repeat = seen[base]
                seen[base] += 1
                key = (
                    base
                    if repeat == 0
                    else hash_payload(
                        key_payload(config, f.suite.lang, seed, r, seat_plans, repeat)
                    )
                )
                seats = tuple(
                    PlannedSeat(
                        seat=i,
                        participant=pid,
                        spec=seat_spec(plan),
                        kind=plan.kind,
                        options=play_options(plan) if uses_prompts(plan) else {},
                        plan=plan,
                    )
                    for i, (pid, plan) in enumerate(zip(ids, seat_plans, strict=True))
                )
                out.append(
                    PlannedMatch(
                        key=key,
                        suite=f.suite.name,
                        table_index=t,
                        table=config,
                        lang=f.suite.lang,
                        deal=deal,
                        deal_seed=seed,
                        rotation=r,
                        lineup=tuple(lineup),
                        seats=seats,
                    )
                )
    return out


__all__ = ["PlannedMatch", "PlannedSeat", "plan_suite", "rotate", "table_lineups"]
