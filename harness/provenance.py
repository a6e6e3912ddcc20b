"""Where a match record comes from: the command line (credentials redacted), the Python version,
the platform and, when the package runs from a git checkout, the commit.

The commit is read from ``.git`` directly (HEAD, loose refs, packed refs, worktree links): no
subprocess, nothing on failure.
"""

from __future__ import annotations

import functools
import platform
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from .records import Provenance

REDACTED = "***"
SECRET_PARAMS = (
    "key",
    "api_key",
    "apikey",
    "api-key",
    "access_token",
    "token",
    "auth",
    "secret",
    "password",
    "sig",
    "signature",
)
# user:pass@ (or a bare token@) right after a URL scheme
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/@\s?#]+@")
# ?key=… / &token=… in a query string
_PARAM = re.compile(
    r"(?i)([?&;](?:" + "|".join(re.escape(p) for p in SECRET_PARAMS) + r")=)[^&;#\s]*"
)
# provider keys pasted into an argument (sk-…, sk-ant-…)
_KEY = re.compile(r"\bsk-[A-Za-z0-9_-]{8,}")
_SHA = re.compile(r"^[0-9a-f]{40}(?:[0-9a-f]{24})?$")


def redact_credentials(text: str) -> str:
    """``text`` with URL credentials (``user:pass@``, secret query parameters) and API-key-like
    tokens replaced by ``***``."""
    text = _USERINFO.sub(lambda m: f"{m.group(1)}{REDACTED}@", text)
    text = _PARAM.sub(lambda m: f"{m.group(1)}{REDACTED}", text)
    return _KEY.sub(REDACTED, text)


def _git_dir(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        if folder.name in ("site-packages", "dist-packages"):
            return None  # an installed copy: a checkout above it is some other project's
        dot = folder / ".git"
        if dot.is_dir():
            return dot
        if dot.is_file():  # a worktree or submodule: "gitdir: <path>"
            text = dot.read_text("utf-8", "replace").strip()
            if text.startswith("gitdir:"):
                target = Path(text.removeprefix("gitdir:").strip())
                return target if target.is_absolute() else (folder / target).resolve()
            return None
    return None


def _resolve_ref(git_dir: Path, ref: str) -> str | None:
    common = git_dir
    commondir = git_dir / "commondir"
    if commondir.is_file():
        common = (git_dir / commondir.read_text("utf-8").strip()).resolve()
    for base in (git_dir, common):
        loose = base / ref
        if loose.is_file():
            sha = loose.read_text("utf-8").strip()
            return sha if _SHA.match(sha) else None
    packed = common / "packed-refs"
    if packed.is_file():
        for line in packed.read_text("utf-8", "replace").splitlines():
            sha, _, name = line.partition(" ")
            if name.strip() == ref and _SHA.match(sha):
                return sha
    return None


def git_commit(start: Path | None = None) -> str | None:
    """The commit checked out in the git repository holding ``start`` (default: this package's
    source), or None when there is none or it cannot be read."""
    try:
        git_dir = _git_dir((start or Path(__file__)).resolve().parent)
        if git_dir is None:
            return None
        head = (git_dir / "HEAD").read_text("utf-8").strip()
        if _SHA.match(head):  # a detached HEAD
            return head
        if head.startswith("ref:"):
            return _resolve_ref(git_dir, head.removeprefix("ref:").strip())
    except OSError:
        return None
    return None


@functools.cache
def _this_process() -> tuple[str, str, str | None]:
    # read once: a process running many matches need not ask the system for each of them
    return platform.python_version(), platform.platform(), git_commit()


def current_provenance(command: Sequence[str] | None = None) -> Provenance:
    """The provenance of a record made now by ``command`` (default ``sys.argv``)."""
    argv = list(sys.argv if command is None else command)
    if argv:
        argv[0] = Path(argv[0]).name  # the program, not where it is installed
    python, system, commit = _this_process()
    return Provenance(
        command=[redact_credentials(a) for a in argv], python=python, platform=system,
        commit=commit,
    )  # fmt: skip
