"""Writing the site's files: the jinja2 environment (autoescaped, strict), page paths and links
that work from ``file://`` (every link relative), safe file names for participant ids, the
static assets with the card and character names the replay viewer shows, and writes that
replace a file whole (a reader never sees half a page)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

import jinja2

STATIC_FILES: Final = ("site.css", "board.js", "replay.js")
NAV: Final = (
    ("index.html", "Board"),
    ("compare.html", "Head to head"),
    ("methodology.html", "Methodology"),
    ("replays/index.html", "Replays"),
    ("leaderboard.json", "leaderboard.json"),
)
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _package_dir(name: str) -> Path:
    return Path(str(resources.files("bangarena.leaderboard.site") / name))


@cache
def environment() -> jinja2.Environment:
    """The templates' environment: HTML autoescaped, an unknown name an error."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(_package_dir("templates")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    return env


def root_of(path: str) -> str:
    """The relative way back to the site's root from page ``path`` (``a/b.html`` → ``../``)."""
    return "../" * path.count("/")


def slug(participant: str) -> str:
    """A file-name-safe, case-safe stem for a participant id (ids may hold ``:``, ``/``, ``@``);
    an id that had to be changed gets a short hash, so two ids never share a page."""
    safe = _UNSAFE.sub("-", participant).strip("-.").lower() or "participant"
    if safe != participant:
        safe = f"{safe[:60]}-{hashlib.sha256(participant.encode()).hexdigest()[:8]}"
    return safe


def participant_path(participant: str) -> str:
    """The page of a participant, from the site's root."""
    return f"participants/{slug(participant)}.html"


def write_text(path: Path, text: str) -> int:
    """Write ``text`` to ``path`` whole (a temporary file renamed over it); returns the bytes."""
    data = text.encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return len(data)


def render(out_dir: Path, path: str, template: str, site: dict[str, Any], **context: Any) -> int:
    """Render ``template`` to ``out_dir/path`` with the site-wide context; returns the bytes."""
    context.setdefault("wide", False)
    page = (
        environment()
        .get_template(template)
        .render(root=root_of(path), here=path, nav=NAV, site=site, **context)
    )
    return write_text(out_dir / path, page)


def names_script() -> str:
    """``static/names.js``: the public names the viewer shows (cards, labels, characters,
    roles, teams, decisions, upgrades), from the engine's own texts."""
    from bangarena.prompts.catalog import catalog

    c = catalog("en")
    names = {
        "cards": c.card,
        "labels": c.label,
        "characters": {k: [v, c.ability.get(k)] for k, v in c.character.items()},
        "roles": c.role,
        "teams": c.team,
        "decisions": c.decision,
        "upgrades": c.upgrade,
    }
    return "window.BA_NAMES = " + json.dumps(names, ensure_ascii=False, sort_keys=True) + ";\n"


def write_static(out_dir: Path) -> None:
    """Copy the stylesheet and scripts into ``out_dir/static`` and write ``names.js``."""
    static = out_dir / "static"
    static.mkdir(parents=True, exist_ok=True)
    source = _package_dir("static")
    for name in STATIC_FILES:
        shutil.copyfile(source / name, static / name)
    write_text(static / "names.js", names_script())


def script_json(value: Any) -> str:
    """JSON to embed in a ``<script type="application/json">``: ``<`` escaped, so no text in
    it (a participant id, a spec) can close the script."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


__all__ = [
    "NAV",
    "environment",
    "names_script",
    "participant_path",
    "render",
    "root_of",
    "script_json",
    "slug",
    "write_static",
    "write_text",
]
