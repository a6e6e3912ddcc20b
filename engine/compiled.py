"""The switch to the optional compiled build (Cython, pure-Python mode; docs/speed.md).

Pure Python is the default and the reference. With ``BANGARENA_ENGINE=compiled`` in the
environment, a package that calls :func:`activate` at import (``bangarena.engine``, the bots)
loads the modules listed in the build's manifest from their compiled extension modules instead
of their ``.py`` sources; the rest of the package stays pure. A build made from other sources
than the ones on disk, for another Python, or missing altogether, is refused with a
:class:`CompiledBuildError` that says how to rebuild: a stale build would silently play other
rules.

This module is only about finding files at import; the build itself is ``bangarena engine
compile`` (``bangarena.cli.engine_build``), outside the engine.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any, Final

ENV: Final = "BANGARENA_ENGINE"
"""``pure`` (the default) or ``compiled``."""
BUILD_DIR_ENV: Final = "BANGARENA_BUILD_DIR"
"""Where the build lives, when not in the default place (:func:`build_dir`)."""
MANIFEST: Final = "manifest.json"
MANIFEST_FORMAT: Final = 2
BUILDS: Final = ("pure", "compiled")
REBUILD_HINT: Final = (
    "run `bangarena engine compile` (needs the fast extra: pip install -e '.[fast]')"
)


class CompiledBuildError(ImportError):
    """The compiled build was asked for but is missing, stale or made for another Python."""


def requested_build(environ: Any = None) -> str:
    """The build the environment asks for: ``pure`` or ``compiled``; raises on anything else."""
    value = (os.environ if environ is None else environ).get(ENV, "") or "pure"
    if value not in BUILDS:
        raise CompiledBuildError(f"{ENV}={value!r}: use one of {', '.join(BUILDS)}")
    return value


def source_root() -> Path:
    """The folder that holds the source packages (``engine/``, ``harness/``)."""
    return Path(__file__).resolve().parent.parent


def build_dir() -> Path:
    """The compiled build's folder: ``$BANGARENA_BUILD_DIR``, else ``build/compiled`` beside the
    sources (gitignored)."""
    env = os.environ.get(BUILD_DIR_ENV)
    return Path(env).resolve() if env else source_root() / "build" / "compiled"


def ext_suffix() -> str:
    """The extension-module suffix of this interpreter (``.cpython-311-x86_64-linux-gnu.so``)."""
    return importlib.machinery.EXTENSION_SUFFIXES[0]


def source_digest(path: Path) -> str:
    """The SHA-256 of a source file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of the build in ``folder``; a missing or unreadable one is a
    :class:`CompiledBuildError`."""
    path = folder / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CompiledBuildError(
            f"there is no compiled build at {folder} ({ENV}=compiled needs one): {REBUILD_HINT}"
        ) from None
    except (OSError, ValueError) as e:
        raise CompiledBuildError(f"unreadable compiled-build manifest {path}: {e}") from None
    if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
        raise CompiledBuildError(f"compiled build at {folder} has another format: {REBUILD_HINT}")
    return data


def stale_modules(entry: dict[str, Any], source_dir: Path) -> list[str]:
    """The source files (``turn.py``, ``state.pxd``) of one package's manifest entry that differ
    from the ones compiled: changed, gone, or a module's .pxd new since."""
    out = []
    declared = entry.get("declarations", {})
    for name, digest in sorted(entry.get("modules", {}).items()):
        src = source_dir / f"{name}.py"
        if not src.is_file() or source_digest(src) != digest:
            out.append(f"{name}.py")
            continue
        # Its .pxd (the C types of its classes and names) as built: changed, new or gone
        pxd = source_dir / f"{name}.pxd"
        built = declared.get(name)
        if (source_digest(pxd) if pxd.is_file() else None) != built:
            out.append(f"{name}.pxd")
    return out


class _CompiledFinder:
    """A meta-path finder that serves the compiled modules of the build before any other finder
    (an editable install's finder maps a package's children straight to its source folder, so
    changing ``__path__`` would not be enough)."""

    def __init__(self, modules: dict[str, Path]) -> None:
        self.modules = modules

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        so = self.modules.get(fullname)
        if so is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(so))
        return importlib.util.spec_from_file_location(fullname, so, loader=loader)

    def invalidate_caches(self) -> None:
        return None


_FINDER: _CompiledFinder | None = None
_ACTIVE: dict[str, dict[str, Any]] = {}


def activate(package: str, source_dir: str | Path) -> bool:
    """At the import of ``package`` (whose sources are in ``source_dir``): when the environment
    asks for the compiled build, load the package's compiled modules from the build. Returns
    whether it did; raises :class:`CompiledBuildError` when the build is missing or stale."""
    if requested_build() != "compiled":
        return False
    folder = build_dir()
    manifest = read_manifest(folder)
    if manifest.get("ext_suffix") != ext_suffix():
        raise CompiledBuildError(
            f"the compiled build at {folder} is for {manifest.get('ext_suffix')}, this Python "
            f"needs {ext_suffix()}: {REBUILD_HINT}"
        )
    entry = manifest.get("packages", {}).get(package)
    if entry is None:
        if package == "bangarena.engine":
            raise CompiledBuildError(
                f"the compiled build at {folder} has no engine: {REBUILD_HINT}"
            )
        return False  # this package was left pure in the build
    stale = stale_modules(entry, Path(source_dir))
    if stale:
        raise CompiledBuildError(
            f"the compiled build at {folder} was built from other sources of {package} "
            f"({', '.join(stale)} changed since): {REBUILD_HINT}"
        )
    pkg_dir = folder.joinpath(*package.split("."))
    modules = {}
    for name in entry["modules"]:
        so = pkg_dir / f"{name}{ext_suffix()}"
        if not so.is_file():
            raise CompiledBuildError(f"the compiled build lacks {so}: {REBUILD_HINT}")
        modules[f"{package}.{name}"] = so
    global _FINDER
    if _FINDER is None:
        _FINDER = _CompiledFinder({})
        sys.meta_path.insert(0, _FINDER)
    _FINDER.modules.update(modules)
    _ACTIVE[package] = {"modules": sorted(entry["modules"]), "build_dir": str(folder)}
    return True


def build_info() -> dict[str, Any]:
    """Which build is running: ``{"build": "pure"}`` or ``{"build": "compiled", "cython": …,
    "pgo": whether it is profile-guided (``engine compile --pgo``), "build_dir": …,
    "packages": {package: [compiled modules]}}``."""
    if not _ACTIVE:
        return {"build": "pure"}
    folder = next(iter(_ACTIVE.values()))["build_dir"]
    try:
        manifest = read_manifest(Path(folder))
    except CompiledBuildError:
        manifest = {}
    return {
        "build": "compiled",
        "cython": manifest.get("cython"),
        "pgo": bool(manifest.get("pgo_training")),
        "build_dir": folder,
        "packages": {p: a["modules"] for p, a in sorted(_ACTIVE.items())},
    }
