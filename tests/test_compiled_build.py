"""The switch to the optional compiled build (``BANGARENA_ENGINE=compiled``; docs/speed.md).

The switch itself is checked everywhere: an unknown value, a missing build, a build from
other sources or for another Python are each refused with a message that says how to rebuild,
and ``bangarena simulate`` reports it on one line. When a fresh build exists (``bangarena
engine compile``), a short pure-vs-compiled comparison runs too; otherwise that one test skips
and says why. ``.ci/compiled.sh`` builds it and runs the conformance suite on it with the
1,000-game comparison (``tests/compiled_support.py``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import bangarena.engine as engine_pkg
from bangarena.cli.app import app
from bangarena.cli.engine_build import (
    BOT_MODULES,
    ENGINE_MODULES,
    PGO_TRAINING,
    TYPED_MODULES,
    drop_slots,
    fast_str_equality,
    gcc_compiler,
    module_plan,
)
from bangarena.engine.compiled import (
    BUILD_DIR_ENV,
    ENV,
    MANIFEST,
    MANIFEST_FORMAT,
    CompiledBuildError,
    activate,
    build_dir,
    ext_suffix,
    read_manifest,
    requested_build,
    source_digest,
    source_root,
    stale_modules,
)

ENGINE_SRC = Path(engine_pkg.__file__).parent
HERE = Path(__file__).resolve().parent
runner = CliRunner()


def _manifest(folder: Path, modules: dict[str, str], suffix: str | None = None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    data = {
        "format": MANIFEST_FORMAT,
        "cython": "3.x",
        "ext_suffix": suffix or ext_suffix(),
        "packages": {"bangarena.engine": {"modules": modules}},
    }
    (folder / MANIFEST).write_text(json.dumps(data), encoding="utf-8")


def test_pure_is_the_default_and_unknown_builds_are_refused() -> None:
    assert requested_build({}) == "pure"
    assert requested_build({ENV: ""}) == "pure"
    assert requested_build({ENV: "compiled"}) == "compiled"
    with pytest.raises(CompiledBuildError, match="pure, compiled"):
        requested_build({ENV: "fast"})


def test_pure_activates_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    assert activate("bangarena.engine", ENGINE_SRC) is False


def test_a_missing_build_says_how_to_build_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(ENV, "compiled")
    monkeypatch.setenv(BUILD_DIR_ENV, str(tmp_path / "nowhere"))
    assert build_dir() == (tmp_path / "nowhere").resolve()
    with pytest.raises(CompiledBuildError, match="no compiled build at .*bangarena engine compile"):
        activate("bangarena.engine", ENGINE_SRC)


def test_a_build_from_other_sources_is_stale(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    good = source_digest(ENGINE_SRC / "events.py")  # a compiled module without a .pxd
    _manifest(tmp_path, {"events": good, "turn": "0" * 64, "gone": good})
    assert stale_modules(read_manifest(tmp_path)["packages"]["bangarena.engine"], ENGINE_SRC) == [
        "gone.py",
        "turn.py",
    ]
    monkeypatch.setenv(ENV, "compiled")
    monkeypatch.setenv(BUILD_DIR_ENV, str(tmp_path))
    with pytest.raises(CompiledBuildError, match=r"other sources .*\(gone\.py, turn\.py changed"):
        activate("bangarena.engine", ENGINE_SRC)


def test_a_changed_new_or_gone_pxd_makes_a_build_stale(tmp_path: Path) -> None:
    # The .pxd gives a module's classes and names their C types: a build is of both files.
    src = tmp_path / "src"
    src.mkdir()
    for name in ("a", "b", "c", "d"):
        (src / f"{name}.py").write_text(f"X = {name!r}\n", encoding="utf-8")
    (src / "a.pxd").write_text("cdef class A:\n    cdef public int n\n", encoding="utf-8")
    (src / "b.pxd").write_text("cdef class B:\n    pass\n", encoding="utf-8")
    (src / "d.pxd").write_text("cdef class D:\n    pass\n", encoding="utf-8")
    entry = {
        "modules": {n: source_digest(src / f"{n}.py") for n in ("a", "b", "c", "d")},
        "declarations": {n: source_digest(src / f"{n}.pxd") for n in ("a", "b", "d")},
    }
    assert stale_modules(entry, src) == []
    (src / "a.pxd").write_text("cdef class A:\n    cdef public long n\n", encoding="utf-8")
    (src / "b.pxd").unlink()
    (src / "c.pxd").write_text("cdef class C:\n    pass\n", encoding="utf-8")
    assert stale_modules(entry, src) == ["a.pxd", "b.pxd", "c.pxd"]


def test_the_build_drops_slots_only_for_the_cdef_classes_of_the_pxd() -> None:
    source = (
        "@dataclass(slots=True)\nclass Player:\n    seat: int\n\n"
        "@dataclass(frozen=True, slots=True)\nclass Move:\n    id: str\n\n"
        "@dataclass(slots=True, kw_only=True)\nclass Event:\n    seq: int\n\n"
        "@dataclass(slots=True)\nclass PlayerView:\n    seat: int\n"
    )
    pxd = "cdef class Player:\n    pass\ncdef class Move:\n    pass\ncdef class Event:\n    pass\n"
    out = drop_slots(source, pxd)
    assert "@dataclass()\nclass Player:" in out
    assert "@dataclass(frozen=True)\nclass Move:" in out
    assert "@dataclass(kw_only=True)\nclass Event:" in out
    assert "@dataclass(slots=True)\nclass PlayerView:" in out  # not declared: left as it is
    assert drop_slots(source, "") == source


# Cython 3.3's string equality helper as it generates it (Optimize.c's PyObjectCompare).
CYTHON_STR_EQ = """static CYTHON_INLINE int __Pyx_PyObject_CompareStrStrBoolEq(PyObject* s1, PyObject* s2) {
    #if __PYX_LIMITED_VERSION_HEX >= 0x030e0000
    int result = PyUnicode_Equal(s1, s2);
    #if !CYTHON_COMPILING_IN_CPYTHON
    if (unlikely(result == -1)) return -1;
    #endif
    if (result == 0) goto __pyx_return_false; else goto __pyx_return_true;
    #else
    int result = PyUnicode_Compare(s1, s2);
    if (unlikely((result == -1) && PyErr_Occurred())) return -1;
    if (result == 0) goto __pyx_return_true; else goto __pyx_return_false;
    #endif
"""


def test_the_build_takes_the_equality_branch_of_cythons_string_comparisons() -> None:
    out, n = fast_str_equality(CYTHON_STR_EQ + CYTHON_STR_EQ.replace("BoolEq", "BoolNe"))
    assert n == 2
    assert out.count("int result = _PyUnicode_Equal(s1, s2);") == 2
    assert out.count("PY_VERSION_HEX < 0x030c0000") == 2  # 3.12 and 3.13: as it was
    assert out.count("int result = PyUnicode_Equal(s1, s2);") == 2  # 3.14's own, kept
    assert out.count("int result = PyUnicode_Compare(s1, s2);") == 2  # 3.12's and 3.13's
    other = CYTHON_STR_EQ.replace("PyUnicode_Equal", "PyUnicode_Eq")
    assert fast_str_equality(other) == (other, 0)  # another Cython: left alone


def test_the_installed_cython_still_writes_the_helper_the_build_rewrites(tmp_path: Path) -> None:
    # A Cython upgrade that changes the helper would leave the build correct but slower: this
    # says so (the build's manifest counts the rewritten tests too).
    pytest.importorskip("Cython")
    src = tmp_path / "cmp.py"
    src.write_text("def same(a, b):\n    return a == b, a != b\n", encoding="utf-8")
    subprocess.run(
        [sys.executable, "-m", "cython", "-3", str(src)], check=True, capture_output=True
    )
    assert fast_str_equality((tmp_path / "cmp.c").read_text(encoding="utf-8"))[1] >= 2


def test_a_fresh_manifest_without_its_modules_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _manifest(tmp_path, {"events": source_digest(ENGINE_SRC / "events.py")})
    monkeypatch.setenv(ENV, "compiled")
    monkeypatch.setenv(BUILD_DIR_ENV, str(tmp_path))
    with pytest.raises(CompiledBuildError, match="lacks .*events"):
        activate("bangarena.engine", ENGINE_SRC)


def test_a_build_for_another_python_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _manifest(tmp_path, {}, suffix=".cpython-39-x86_64-linux-gnu.so")
    monkeypatch.setenv(ENV, "compiled")
    monkeypatch.setenv(BUILD_DIR_ENV, str(tmp_path))
    with pytest.raises(CompiledBuildError, match="cpython-39"):
        activate("bangarena.engine", ENGINE_SRC)
    (tmp_path / MANIFEST).write_text("{not json", encoding="utf-8")
    with pytest.raises(CompiledBuildError, match="unreadable"):
        activate("bangarena.engine", ENGINE_SRC)


def test_a_package_left_pure_in_the_build_stays_pure(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _manifest(tmp_path, {})
    monkeypatch.setenv(ENV, "compiled")
    monkeypatch.setenv(BUILD_DIR_ENV, str(tmp_path))
    assert activate("bangarena.harness.bots", HERE) is False


@pytest.mark.parametrize(
    "command", [["simulate", "--games", "1"], ["play", "--seats", "4", "--fill", "random"]]
)
def test_a_missing_build_is_one_line_in_every_command(tmp_path: Path, command: list[str]) -> None:
    env = dict(os.environ, **{ENV: "compiled", BUILD_DIR_ENV: str(tmp_path)})
    done = subprocess.run(
        [sys.executable, "-m", "bangarena.cli", *command],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert "bangarena engine compile" in lines[0]


def test_info_and_simulate_name_the_build() -> None:
    r = runner.invoke(app, ["engine", "info"])
    assert r.exit_code == 0, r.output
    info = json.loads(r.stdout)
    assert info["build"] in ("pure", "compiled")
    if info["build"] == "compiled":  # and whether it is the profile-guided build
        manifest = read_manifest(Path(info["build_dir"]))
        assert info["pgo"] is bool(manifest.get("pgo_training"))
    r = runner.invoke(app, ["simulate", "--games", "2", "--seats", "4", "--no-check"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["engine_build"] == info["build"]


def test_the_plan_compiles_hot_modules_that_exist() -> None:
    plan = module_plan(source_root())
    engine = plan["bangarena.engine"]
    assert engine and set(engine) <= set(ENGINE_MODULES)
    for name in ("game", "flow", "legal", "views"):
        assert name in engine
    # The switch and the module that finds its data beside its own file stay pure.
    assert not {"__init__", "compiled", "texts"} & set(engine)
    assert all((ENGINE_SRC / f"{m}.py").is_file() for m in engine)
    assert "rule_bot" in plan["bangarena.harness.bots"]
    # Typed (annotations as C types): internal modules only, each with the .pxd that gives
    # them the engine's classes (or, for the rule bot, its own); the public API (game, views,
    # moves, events) keeps Python's argument rules.
    assert set(ENGINE_MODULES) | set(BOT_MODULES) >= TYPED_MODULES
    assert not {"game", "views", "moves", "events"} & TYPED_MODULES
    bots_src = ENGINE_SRC.parent / "harness" / "bots"
    for m in TYPED_MODULES:
        assert (ENGINE_SRC / f"{m}.pxd").is_file() or (bots_src / f"{m}.pxd").is_file(), m
    assert "bangarena.harness.bots" not in module_plan(source_root(), bots=False)


def test_the_kinds_fit_the_bit_set_of_legal_pxd() -> None:
    # legal.pxd keeps the play step's card categories as C integers and the discard step's
    # kinds seen as a bit set in an unsigned 64-bit integer: the kinds' table orders must stay
    # below 64, with every expansion's kinds (read from the dict that numbers them: the pxd's
    # C globals are no module attributes in the compiled build).
    from bangarena.engine import legal

    assert sorted(legal._ALL_ORDER.values()) == list(range(len(legal._ALL_ORDER)))
    assert len(legal._ALL_ORDER) <= 64


def _fresh_build() -> str | None:
    """Why the compiled build cannot be compared here, or None when it is fresh."""
    folder = build_dir()
    try:
        manifest = read_manifest(folder)
    except CompiledBuildError as e:
        return str(e)
    for package, entry in manifest["packages"].items():
        src = source_root().joinpath(*package.split(".")[1:])
        stale = stale_modules(entry, src)
        if stale:
            return f"the compiled build at {folder} is stale ({package}: {', '.join(stale)})"
    return None


def test_the_compiled_build_plays_the_pure_games() -> None:
    reason = _fresh_build()
    if reason is not None:
        pytest.skip(f"no fresh compiled build to compare ({reason}); .ci/compiled.sh builds one")
    sys.path.insert(0, str(HERE))
    from compiled_support import compare

    assert compare(games=40, seed=7) == []


@pytest.mark.slow
def test_the_compiled_build_plays_1000_pure_games() -> None:
    reason = _fresh_build()
    if reason is not None:
        pytest.skip(f"no fresh compiled build to compare ({reason}); .ci/compiled.sh builds one")
    sys.path.insert(0, str(HERE))
    from compiled_support import compare

    assert compare(games=1000, seed=0) == []


def test_the_switch_decides_where_the_hot_modules_load_from() -> None:
    """Compiled extension modules under BANGARENA_ENGINE=compiled (.ci/compiled.sh), the .py
    sources otherwise; texts.py is pure in both (it reads its data files beside itself)."""
    import bangarena.engine.game as game_module
    import bangarena.engine.texts as texts_module
    import bangarena.harness.bots.rule_bot as rule_bot_module

    want = ext_suffix() if os.environ.get(ENV) == "compiled" else ".py"
    assert game_module.__file__.endswith(want)
    assert rule_bot_module.__file__.endswith(want)
    assert texts_module.__file__.endswith(".py")


@pytest.mark.parametrize("args", [["--opt", "9"], ["--jobs", "-1"], ["--jobs", "x"]])
def test_compile_refuses_bad_options_before_building(args: list[str], tmp_path: Path) -> None:
    r = runner.invoke(app, ["engine", "compile", "--out", str(tmp_path / "b"), *args])
    assert r.exit_code == 2, r.output
    assert not (tmp_path / "b").exists()


def _fake_cc(tmp_path: Path, banner: str) -> str:
    cc = tmp_path / "cc"
    cc.write_text(f"#!/bin/sh\necho '{banner}'\n", encoding="utf-8")
    cc.chmod(0o755)
    return str(cc)


def test_pgo_is_refused_before_building_when_the_compiler_is_not_gcc(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--pgo passes gcc's -fprofile-generate/-use: another compiler is told so at once."""
    monkeypatch.setenv("CC", _fake_cc(tmp_path, "Debian clang version 16.0.6"))
    assert not gcc_compiler()
    r = runner.invoke(app, ["engine", "compile", "--pgo", "--out", str(tmp_path / "b")])
    assert r.exit_code != 0
    assert "--pgo needs gcc" in r.output
    assert not (tmp_path / "b").exists()
    gcc_banner = "cc (Debian 12.2.0-14) 12.2.0\nCopyright (C) 2022 Free Software Foundation, Inc."
    monkeypatch.setenv("CC", _fake_cc(tmp_path, gcc_banner))
    assert gcc_compiler()


@pytest.mark.parametrize("args", PGO_TRAINING, ids=" ".join)
def test_the_pgo_training_runs_are_valid_simulate_commands(args: tuple[str, ...]) -> None:
    """Each training run of --pgo, shortened to one game, is a simulate command that plays
    (a renamed option would otherwise surface only in a --pgo build, minutes in)."""
    short = list(args)
    short[short.index("--games") + 1] = "1"
    r = runner.invoke(app, ["simulate", "--no-check", *short])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["games"] == 1
