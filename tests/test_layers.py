"""Imports go one way: engine → rules_machine → prompts → harness → evals → leaderboard →
service → cli. Every module of every package is parsed (not imported), and each import of a
project package — absolute, relative, or inside a function — must name a layer below its own
(or its own). ``bangarena.client``, for remote agents, imports no other project package."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS: tuple[str, ...] = (
    "engine",
    "rules_machine",
    "prompts",
    "harness",
    "evals",
    "leaderboard",
    "service",
    "cli",
)
ISOLATED: tuple[str, ...] = ("client",)
"""Packages that import nothing else of the project."""


def _modules() -> list[tuple[str, Path]]:
    out = []
    for package in (*LAYERS, *ISOLATED):
        folder = ROOT / package
        if folder.is_dir():
            out.extend((package, path) for path in sorted(folder.rglob("*.py")))
    return out


def imported_packages(path: Path, package: str, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, top-level project package) for every import of the project in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = path.relative_to(root / package).parent.parts  # sub-package of ``package``
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                # A relative import climbs ``level - 1`` folders from this module's folder.
                depth = len(here) - (node.level - 1)
                if depth < 0:
                    names = [f"bangarena.{node.module or ''}"]
                else:
                    names = [f"bangarena.{package}"]
            else:
                names = [node.module or ""]
        for name in names:
            parts = name.split(".")
            if parts[0] == "bangarena" and len(parts) > 1 and parts[1]:
                found.append((node.lineno, parts[1]))
    return found


def test_every_layer_exists_or_is_planned() -> None:
    for package in ("engine", "rules_machine", "prompts", "harness", "evals", "cli"):
        assert (ROOT / package / "__init__.py").is_file(), package


@pytest.mark.parametrize(("package", "path"), _modules(), ids=lambda v: str(v))
def test_imports_go_one_way(package: str, path: Path) -> None:
    wrong = []
    for line, target in imported_packages(path, package):
        if package in ISOLATED:
            if target != package:
                wrong.append((line, target))
        elif target in ISOLATED or target not in LAYERS:
            if target not in ISOLATED or package != "cli":
                wrong.append((line, target))
        elif LAYERS.index(target) > LAYERS.index(package):
            wrong.append((line, target))
    rel = path.relative_to(ROOT)
    assert not wrong, f"{rel} imports upward or across: " + ", ".join(
        f"line {n}: bangarena.{t}" for n, t in wrong
    )


def test_the_checker_sees_a_wrong_import(tmp_path: Path) -> None:
    """A control: engine modules importing the harness are caught, relative or absolute, and
    a relative import inside the package is not."""
    (tmp_path / "engine" / "sub").mkdir(parents=True)
    probe = tmp_path / "engine" / "sub" / "probe.py"
    probe.write_text(
        "def f():\n    from bangarena.harness import match\n"
        "from ...harness import records\nfrom .. import cards\nfrom . import x\n",
        encoding="utf-8",
    )
    found = [t for _, t in imported_packages(probe, "engine", root=tmp_path)]
    assert sorted(found) == ["engine", "engine", "harness", "harness"]
