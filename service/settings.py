"""The seat service's settings (``ServiceSettings``) and the model participants it offers.

Model participants are configured on the server, never by clients: a TOML file of
``[[participants]]`` tables as in a suite file (``id``, ``spec``, ``options``), passed with
``bangarena serve --participants FILE``. A client seats one by its ``id`` only, so nobody can
spend the server's API keys on a host of their choosing.

```toml
[[participants]]
id = "gpt-mini"
spec = "openai:gpt-4.1-mini"
options = { temperature = 0.2 }
```
"""

from __future__ import annotations

import os
import secrets
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from bangarena.evals.suite import Participant
from bangarena.harness.seats.remote_seat import DISCONNECT_GRACE_S

ADMIN_TOKEN_ENV: Final = "BANGARENA_ADMIN_TOKEN"
DEFAULT_DB: Final = "bangarena-live.db"
MIN_TOKEN_CHARS: Final = 22
"""An admin token given in the environment must carry at least 128 bits (22 url-safe chars)."""


class SettingsError(ValueError):
    """Settings that cannot serve (``str()`` is one line)."""


TOKEN_PREFIX = "ba_"
"""What every token the service makes begins with: a token never begins with ``-`` (which a
command line takes for an option: ``--token -AN…``), and a leaked one is recognisable."""


def new_token() -> str:
    """A fresh token: 256 random bits, URL-safe text after :data:`TOKEN_PREFIX`."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


class ServiceSettings(BaseModel):
    """Everything ``create_app`` needs. ``admin_token`` None: taken from
    ``BANGARENA_ADMIN_TOKEN``, else generated (see :meth:`resolved`; ``bangarena serve`` prints
    a generated one once at start, nothing else ever logs it)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    db_url: str = Field(default=DEFAULT_DB, description="the store (SQLite path or URL)")
    admin_token: str | None = Field(default=None, repr=False)
    admin_token_generated: bool = Field(default=False, description="made at start, not given")
    participants: tuple[Participant, ...] = Field(
        default=(), description="the model participants clients may seat, by id"
    )
    cors_origins: tuple[str, ...] = Field(default=(), description="CORS is off unless set")
    max_body_bytes: int = Field(default=64 * 1024, ge=1024, le=16 * 1024 * 1024)
    max_wait_s: float = Field(default=60.0, gt=0, le=60.0, description="longest long-poll")
    max_waits_per_token: int = Field(default=4, ge=1, le=1000)
    max_streams_per_token: int = Field(default=4, ge=1, le=1000)
    disconnect_grace_s: float = Field(default=DISCONNECT_GRACE_S, gt=0, le=3600)
    max_live_matches: int = Field(default=1000, ge=1, description="unfinished matches at once")
    waiting_timeout_s: float = Field(
        default=3600.0, gt=0, le=7 * 86400,
        description="a match made through the API that has not started within this (a remote or "
        "human seat never connected) is cancelled: it ends aborted and frees its place",
    )  # fmt: skip
    keep_finished: int = Field(
        default=200, ge=0, description="finished matches kept in memory (status, 410s)"
    )
    store_matches: bool = Field(default=True, description="store finished matches (suite live)")
    store_retry_s: float = Field(
        default=1.0, gt=0, le=60.0,
        description="the first wait before storing a match again after the database failed "
        "(a lost connection, a locked file); it doubles up to 60 s, for as long as the service runs",
    )  # fmt: skip
    leaderboard_resamples: int = Field(default=200, ge=1, le=10_000)
    sse_ping_s: float = Field(default=15.0, gt=0)
    docs_path: Path | None = Field(
        default=None, description="docs/for-ai-developers.md (default: the repository's)"
    )
    cookie_secure: bool = Field(default=False, description="mark the token cookie Secure")

    @field_validator("admin_token")
    @classmethod
    def _strong(cls, value: str | None) -> str | None:
        if value is not None and len(value.strip()) < MIN_TOKEN_CHARS:
            raise ValueError(f"the admin token must have at least {MIN_TOKEN_CHARS} characters")
        return value.strip() if value is not None else None

    def resolved(self, environ: Mapping[str, str] | None = None) -> ServiceSettings:
        """These settings with the admin token filled in: the given one, the environment's
        (``BANGARENA_ADMIN_TOKEN``), or a new random one (``admin_token_generated``)."""
        if self.admin_token is not None:
            return self
        env = os.environ if environ is None else environ
        given = env.get(ADMIN_TOKEN_ENV, "").strip()
        if given:
            try:
                return self.model_copy(update={"admin_token": self._strong(given)})
            except ValueError as exc:
                raise SettingsError(f"{ADMIN_TOKEN_ENV}: {exc}") from None
        return self.model_copy(update={"admin_token": new_token(), "admin_token_generated": True})

    def participant(self, pid: str) -> Participant | None:
        """The configured model participant called ``pid``."""
        return next((p for p in self.participants if p.id == pid), None)


class _ParticipantsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    participants: list[Participant] = Field(default_factory=list)


def parse_participants(text: str, where: str = "<participants>") -> tuple[Participant, ...]:
    """The ``[[participants]]`` of a TOML text (ids unique, specs checked as a suite checks
    them); raises :class:`SettingsError` with one line."""
    try:
        doc: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{where}: not valid TOML: {exc}") from None
    try:
        parsed = _ParticipantsFile.model_validate(doc)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        loc = ".".join(str(x) for x in first["loc"])
        msg = str(first["msg"]).removeprefix("Value error, ")
        raise SettingsError(" ".join(f"{where}: {loc}: {msg}".split())) from None
    seen: set[str] = set()
    for p in parsed.participants:
        if p.id in seen:
            raise SettingsError(f"{where}: participant id {p.id!r} is repeated")
        if p.plan.kind not in ("model", "scripted"):
            raise SettingsError(
                f"{where}: participant {p.id!r} is a {p.plan.kind!r} bot: seat bots by spec "
                '({"kind": "bot", "spec": ...}); this file is for model participants'
            )
        seen.add(p.id)
    return tuple(parsed.participants)


def load_participants(path: str | Path) -> tuple[Participant, ...]:
    """Read a participants file (see :func:`parse_participants`)."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"cannot read participants file {str(file)!r}: {exc}") from None
    return parse_participants(text, str(file))


__all__ = [
    "ADMIN_TOKEN_ENV",
    "DEFAULT_DB",
    "ServiceSettings",
    "SettingsError",
    "TOKEN_PREFIX",
    "load_participants",
    "new_token",
    "parse_participants",
]
