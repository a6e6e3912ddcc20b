"""The suite file: a TOML description of an evaluation suite, validated with pydantic.

```toml
[suite]
name = "quickstart"
seed = 1
deals = 6
design = "rotation"         # or "pool"

[[participants]]
id = "rule"
spec = "rule"

[[tables]]
seats = 5
lineup = ["rule", "rule", "rule", "rule", "rule"]
```

:func:`load_suite` reads and checks a file; :func:`parse_suite` checks text. Every problem that can
be found without the network (malformed TOML, an unknown key, a lineup naming an undeclared
participant, a lineup whose length is not the table's seats, a seat spec that does not parse, a
nameless ``human`` seat, a table with a person and a clock people do not play with, an
unknown expansion) is a :class:`SuiteError` whose message is one line naming the place and the
problem. :func:`check_api_keys` adds the run's check (model participants' API keys; people
only where the seat service seats them).
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)

from bangarena.engine import DEFAULT_MAX_ROUNDS, EXPANSIONS, ConfigError
from bangarena.engine.config import check_expansions
from bangarena.engine.roles import MAX_SEATS, MIN_SEATS, MODES
from bangarena.harness.agent_spec import check_agent_options
from bangarena.harness.match import PEOPLE_TIMES_S
from bangarena.harness.model_spec import PROVIDERS, ModelOptions, ModelSpecError, api_key_for
from bangarena.harness.seats.factory import SeatPlan, plan_seat
from bangarena.prompts.catalog import LANGS

from .seeds import MAX_SUITE_SEED

NAME_PATTERN: Final = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"
PARTICIPANT_ID_PATTERN: Final = r"^[A-Za-z0-9][A-Za-z0-9._:@/+-]{0,99}$"
MAX_DEALS: Final = 100_000
Design = Literal["rotation", "pool"]


class SuiteError(ValueError):
    """A suite file that cannot be run; ``str()`` is one line naming the place and the problem."""


class _Section(BaseModel):
    """A table of the suite file: strict types (TOML has them) and unknown keys named with the
    valid ones."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any) -> Any:
        if isinstance(data, Mapping):
            valid = tuple(cls.model_fields)
            for key in data:
                if key not in valid:
                    raise ValueError(f"unknown key {key!r} (valid keys: {', '.join(valid)})")
        return data


class SuiteSection(_Section):
    """``[suite]``: what the suite is called and how its deals are made."""

    name: str = Field(
        pattern=NAME_PATTERN,
        description="identifies the suite in a store (letters, digits, '.', '_', '-')",
    )
    seed: int = Field(
        default=0,
        ge=0,
        le=MAX_SUITE_SEED,
        description="base seed: deal k's seed is derived from (seed, k) (docs/evals.md)",
    )
    deals: int = Field(ge=1, le=MAX_DEALS, description="deals per table")
    design: Design = Field(
        default="rotation",
        description="rotation: each table's lineup in every cyclic rotation; pool: seeded "
        "lineups drawn from more participants than seats",
    )
    lang: str = Field(default="en", description=f"prompt language: {', '.join(LANGS)}")
    description: str | None = None

    @field_validator("lang")
    @classmethod
    def _lang_known(cls, value: str) -> str:
        if value not in LANGS:
            raise ValueError(f"no prompts in language {value!r}; valid: {', '.join(LANGS)}")
        return value


class Participant(_Section):
    """``[[participants]]``: a named seat spec (the name is what the leaderboard shows)."""

    id: str = Field(pattern=PARTICIPANT_ID_PATTERN, description="the name on the leaderboard")
    spec: str = Field(
        description="a seat spec as `bangarena play` takes it: rule, random, "
        "scripted[:rule|random], PROVIDER:MODEL[@BASE_URL], http:URL (a push agent), a2a:URL, "
        "or human:NAME (a person at the web table: `bangarena serve --suite`)"
    )
    options: ModelOptions = Field(
        default_factory=ModelOptions,
        description="the per-model options of the models file (not for rule/random bots)",
    )
    _plan: SeatPlan | None = PrivateAttr(default=None)

    @field_validator("options", mode="before")
    @classmethod
    def _option_keys(cls, value: Any) -> Any:
        if isinstance(value, Mapping):
            if "spec" in value:
                raise ValueError("'spec' belongs to the participant, not to its options")
            valid = tuple(k for k in ModelOptions.model_fields if k != "spec")
            for key in value:
                if key not in valid:
                    raise ValueError(f"unknown option {key!r} (valid options: {', '.join(valid)})")
        return value

    @model_validator(mode="after")
    def _spec_plays(self) -> Participant:
        text = self.spec.strip()
        if text == "human":
            raise _Located(
                ("spec",),
                "'human': suites run unattended, but a named person (human:NAME) can play "
                "one served with `bangarena serve --suite`",
            )
        try:
            plan = plan_seat(text)
        except ModelSpecError as exc:
            raise _Located(("spec",), str(exc)) from None
        if plan.kind == "human":
            if self.options.model_fields_set:
                raise _Located(("options",), f"{plan.text!r} is a person: it takes no options")
        elif plan.kind in ("rule", "random", "search"):
            if self.options.model_fields_set:
                raise _Located(("options",), f"bot {plan.kind!r} takes no options")
        elif plan.agent is not None:  # http:URL / a2a:URL: only the options agents take
            try:
                check_agent_options(plan.agent, self.options)
            except ModelSpecError as exc:
                raise _Located(("options",), str(exc)) from None
            plan = SeatPlan(plan.text, plan.kind, options=self.options, agent=plan.agent)
        else:
            plan = SeatPlan(plan.text, plan.kind, plan.spec, self.options)
        self._plan = plan
        return self

    @property
    def plan(self) -> SeatPlan:
        """The checked seat plan (options attached for scripted and model seats)."""
        assert self._plan is not None
        return self._plan


class Table(_Section):
    """``[[tables]]``: one table configuration; every table plays every deal."""

    seats: int = Field(ge=MIN_SEATS, le=MAX_SEATS)
    mode: str = Field(default="classic", description=f"roles mode: {', '.join(MODES)}")
    time_per_move: float = Field(
        default=60.0, gt=0, allow_inf_nan=False, description="seconds per decision"
    )
    model_time_per_move: float | None = Field(
        default=None,
        gt=0,
        allow_inf_nan=False,
        description="seconds per model decision (default: time_per_move)",
    )
    max_rounds: int = Field(default=DEFAULT_MAX_ROUNDS, ge=1, le=1000)
    transcripts: bool = Field(default=True, description="keep prompts and replies in records")
    lineup: list[str] | None = Field(
        default=None,
        description="rotation: one participant id per seat (repeats allowed); default: the "
        "participants in order when there are exactly `seats` of them",
    )
    expansions: list[str] = Field(
        default_factory=list, description=f"expansions in play: {', '.join(EXPANSIONS)}"
    )

    @field_validator("expansions")
    @classmethod
    def _expansions_known(cls, value: list[str]) -> list[str]:
        try:  # the engine's check: canonical order, unknown and repeated names refused
            return list(check_expansions(value))
        except ConfigError as exc:
            raise ValueError(str(exc)) from None

    @field_validator("mode")
    @classmethod
    def _mode_known(cls, value: str) -> str:
        if value not in MODES:
            raise ValueError(f"unknown mode {value!r}; valid modes: {', '.join(MODES)}")
        return value

    @model_validator(mode="after")
    def _mode_fits(self) -> Table:
        # rules.md §1: double_agent at 4 seats plays classic; a suite would mislabel its matches.
        if self.mode == "double_agent" and self.seats < 5:
            raise ValueError("mode 'double_agent' needs at least 5 seats (at 4 it plays classic)")
        return self

    def play_config(self) -> dict[str, Any]:
        """The table as it is played (lineup left out): for keys, records and exports.
        ``expansions`` only when there are some, so base tables keep their keys."""
        out: dict[str, Any] = {
            "seats": self.seats,
            "mode": self.mode,
            "max_rounds": self.max_rounds,
            "time_per_move": self.time_per_move,
            "model_time_per_move": self.model_time_per_move,
            "transcripts": self.transcripts,
        }
        if self.expansions:
            out["expansions"] = list(self.expansions)
        return out


class Budget(_Section):
    """``[budget]``: limits over the whole stored suite (all runs together)."""

    max_usd: float | None = Field(default=None, gt=0, allow_inf_nan=False)
    max_tokens: int | None = Field(default=None, ge=1)
    max_wall_s: float | None = Field(default=None, gt=0, allow_inf_nan=False)


class Concurrency(_Section):
    """``[concurrency]``: how much runs at once (never part of a match key)."""

    matches: int | None = Field(default=None, ge=1, le=100_000, description="matches in flight")
    per_provider: dict[str, int] = Field(
        default_factory=dict, description="requests in flight per provider"
    )

    @field_validator("per_provider")
    @classmethod
    def _providers_known(cls, value: dict[str, int]) -> dict[str, int]:
        for name, limit in value.items():
            if name not in PROVIDERS:
                raise ValueError(f"unknown provider {name!r}; valid: {', '.join(PROVIDERS)}")
            if limit < 1:
                raise ValueError(f"limit {limit} for {name!r} must be at least 1")
        return value


class SuiteFile(_Section):
    """A whole suite file."""

    model_config = ConfigDict(title="BangArena evaluation suite")

    suite: SuiteSection
    participants: list[Participant] = Field(min_length=1)
    tables: list[Table] = Field(min_length=1)
    budget: Budget | None = None
    concurrency: Concurrency | None = None

    @model_validator(mode="after")
    def _consistent(self) -> SuiteFile:
        ids: set[str] = set()
        for i, p in enumerate(self.participants):
            if p.id in ids:
                raise _Located(("participants", i, "id"), f"participant id {p.id!r} is repeated")
            ids.add(p.id)
        declared = ", ".join(p.id for p in self.participants)
        pool = self.suite.design == "pool"
        people = {p.id for p in self.participants if p.plan.kind == "human"}
        for t, table in enumerate(self.tables):
            seated = people if pool or table.lineup is None else people & set(table.lineup)
            if seated and table.time_per_move not in PEOPLE_TIMES_S:
                raise _Located(
                    ("tables", t, "time_per_move"),
                    f"a table with people ({', '.join(sorted(seated))}) gives "
                    f"{', '.join(map(str, PEOPLE_TIMES_S))} seconds per move (rules.md §3), "
                    f"not {table.time_per_move:g}",
                )
            if pool:
                if table.lineup is not None:
                    raise _Located(
                        ("tables", t, "lineup"),
                        "a pool suite draws its own lineups: remove `lineup` or use "
                        'design = "rotation"',
                    )
                if len(self.participants) <= table.seats:
                    raise _Located(
                        ("tables", t, "seats"),
                        f"a pool needs more participants than seats ({len(self.participants)} "
                        f'participants for {table.seats} seats); use design = "rotation"',
                    )
                continue
            if table.lineup is None:
                if len(self.participants) != table.seats:
                    raise _Located(
                        ("tables", t),
                        f"no lineup, and {len(self.participants)} participants for "
                        f"{table.seats} seats: give `lineup` (one participant id per seat)",
                    )
                continue
            for s, pid in enumerate(table.lineup):
                if pid not in ids:
                    raise _Located(
                        ("tables", t, "lineup", s),
                        f"participant {pid!r} is not declared (declared: {declared})",
                    )
            if len(table.lineup) != table.seats:
                raise _Located(
                    ("tables", t, "lineup"),
                    f"{len(table.lineup)} participants for a {table.seats}-seat table",
                )
            twice = sorted(p for p in seated if table.lineup.count(p) > 1)
            if twice:
                raise _Located(
                    ("tables", t, "lineup"),
                    f"person {twice[0]!r} is seated twice: a person plays one seat of a table",
                )
        return self

    @property
    def people(self) -> list[Participant]:
        """The participants a person plays (``human:NAME``)."""
        return [p for p in self.participants if p.plan.kind == "human"]

    def participant(self, pid: str) -> Participant:
        """The participant called ``pid``."""
        for p in self.participants:
            if p.id == pid:
                return p
        raise KeyError(pid)

    def lineup(self, table: int) -> list[str]:
        """A rotation table's lineup (the participants in order when it gives none)."""
        t = self.tables[table]
        return list(t.lineup) if t.lineup is not None else [p.id for p in self.participants]


class _Located(ValueError):
    """A cross-field problem with the place it belongs to (raised inside a validator)."""

    def __init__(self, loc: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.loc = loc
        self.message = message


@dataclass(frozen=True)
class Suite:
    """A checked suite: the parsed file, its text and where it came from."""

    file: SuiteFile
    text: str
    path: Path | None = None
    sha256: str = field(default="")

    @property
    def name(self) -> str:
        return self.file.suite.name

    @property
    def seed(self) -> int:
        return self.file.suite.seed


def _where(loc: tuple[str | int, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(file)"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _render(where: str, exc: ValidationError) -> str:
    problems: list[str] = []
    for err in exc.errors(include_url=False):
        loc = tuple(err["loc"])
        msg = err["msg"].removeprefix("Value error, ")
        ctx = err.get("ctx") or {}
        located = ctx.get("error")
        if isinstance(located, _Located):
            loc, msg = loc + located.loc, located.message
        elif err["type"] in ("missing",):
            msg = "missing required key"
        elif err["type"] == "extra_forbidden":
            msg = f"unknown key {loc[-1]!r}"
        elif err["type"] not in ("value_error", "assertion_error"):
            msg = f"{msg} (got {err.get('input')!r})"
        problems.append(f"{_where(loc)}: {msg}")
    return _one_line(f"{where}: " + "; ".join(problems))


def parse_suite(text: str, where: str = "<suite>", path: Path | None = None) -> Suite:
    """Check the TOML text of a suite; raises :class:`SuiteError`."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SuiteError(_one_line(f"{where}: not valid TOML: {exc}")) from None
    try:
        parsed = SuiteFile.model_validate(doc)
    except ValidationError as exc:
        raise SuiteError(_render(where, exc)) from None
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return Suite(file=parsed, text=text, path=path, sha256=digest)


def load_suite(path: str | Path) -> Suite:
    """Read and check a suite file; raises :class:`SuiteError`."""
    file = Path(path)
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise SuiteError(f"cannot read suite file {str(file)!r}: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SuiteError(f"suite file {str(file)!r} is not UTF-8 text") from None
    return parse_suite(text, where=str(file), path=file)


def check_api_keys(
    suite: Suite, environ: Mapping[str, str] | None = None, *, people: bool = False
) -> None:
    """The suite can run: every model participant has the API key it needs (or a local base
    URL), and unless ``people`` (the seat service seats them) no participant is a person
    (``human:NAME`` suites run at the web table, with ``bangarena serve --suite``); raises
    :class:`SuiteError` naming the first participant that cannot play."""
    for i, p in enumerate(suite.file.participants):
        plan = p.plan
        if plan.kind == "human" and not people:
            raise SuiteError(
                f"participants[{i}] ({p.id}): a person plays {plan.text!r}; run this suite "
                "with `bangarena serve --suite FILE` (people join at the web table)"
            )
        if plan.kind != "model" or plan.spec is None:
            continue
        try:
            api_key_for(plan.spec, plan.options, environ)
        except ModelSpecError as exc:
            raise SuiteError(_one_line(f"participants[{i}] ({p.id}): {exc}")) from None


def suite_json_schema() -> dict[str, Any]:
    """The JSON Schema (Draft 2020-12) of a suite file (as TOML maps onto JSON)."""
    body = SuiteFile.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **body}


__all__ = [
    "Budget",
    "Concurrency",
    "Participant",
    "Suite",
    "SuiteError",
    "SuiteFile",
    "SuiteSection",
    "Table",
    "check_api_keys",
    "load_suite",
    "parse_suite",
    "suite_json_schema",
]
