"""``bangarena engine compile|info``: the optional compiled build (Cython, pure-Python mode).

``compile`` cythonizes the engine's hot modules (and the rule bot's) as they are on disk into
``build/compiled`` (or ``$BANGARENA_BUILD_DIR``), beside a manifest that holds the SHA-256 of
every compiled source; ``BANGARENA_ENGINE=compiled`` then loads them
(:mod:`bangarena.engine.compiled`), refusing a build whose sources have changed. ``info``
says which build a process with this environment runs. See docs/speed.md.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Final

import typer

from .support import fail

ENGINE_HELP = "The engine's optional compiled build (Cython): compile it, or say which one runs."

ENGINE_MODULES: Final = (
    "armed",
    "armed_legal",
    "combat",
    "deck_ops",
    "elimination",
    "events",
    "flow",
    "game",
    "legal",
    "loads",
    "moves",
    "plays",
    "rng",
    "state",
    "table",
    "turn",
    "victory",
    "views",
)
"""The engine's hot modules: a game's moves, views and events. The others stay pure: their
time is spent once at import (card, character and role tables, texts, versions), outside play
(scenarios, the conformance checks) or in finding files (``texts.py`` reads its data beside its
own ``__file__``; ``compiled.py`` is the switch itself). Compiling them would only lengthen the
build: gcc's time is most of it."""
TYPED_MODULES: Final = frozenset(
    {"armed", "armed_legal", "combat", "deck_ops", "elimination", "flow", "legal", "loads",
     "plays", "table", "turn", "victory", "rule_bot"}
)  # fmt: skip
"""The engine's internal modules, compiled with ``annotation_typing``: their ``g: GameState``
and ``p: Player`` annotations (cimported by each module's .pxd) become C types,
so attribute reads are struct reads, and ``list`` and ``int`` annotations are checked as such.
Only the engine calls them, always with exact lists; the public API (``game``, ``views``,
``moves``, ``events``) keeps Python's rules for its arguments (a bad argument gets the
engine's own errors, not Cython's TypeError). And the rule bot's ``rule_bot``, whose helpers'
``sit: Situation`` arguments become its .pxd's extension type (its public ``RuleBot`` is a
Python class: annotations of Python classes stay plain objects)."""
BOT_MODULES: Final = ("card_sense", "inference", "rule_bot", "rule_bot_armed")
"""The rule bot's modules (the ones a rule-bot game spends its time in)."""
PACKAGES: Final = {"bangarena.engine": "engine", "bangarena.harness.bots": "harness/bots"}
COMPILER_DIRECTIVES: Final[dict[str, Any]] = {
    "language_level": 3,
    # Annotations stay documentation outside TYPED_MODULES: typed as C values they would
    # change what a public function accepts (a list argument refuses None and subclasses).
    "annotation_typing": False,
    "binding": True,
    "embedsignature": False,
}
TYPED_DIRECTIVES: Final[dict[str, Any]] = COMPILER_DIRECTIVES | {"annotation_typing": True}


def drop_slots(source: str, declarations: str) -> str:
    """``source`` with ``slots=True`` taken out of the ``@dataclass(...)`` of every class that
    ``declarations`` (its .pxd) makes a ``cdef class``. Such a class is an extension type, with
    no ``__dict__`` already; Cython's dataclass refuses the argument, and the pure engine keeps
    it (the same attributes and nothing else, in both builds)."""
    for name in re.findall(r"^cdef class (\w+)", declarations, flags=re.M):
        source = re.sub(
            rf"^@dataclass\((.*?)\bslots=True(?:, )?(.*?)\)\n(class {name}\b)",
            lambda m: f"@dataclass({(m[1] + m[2]).rstrip(', ')})\n{m[3]}",
            source,
            flags=re.M,
        )
    return source


# Cython 3.3's string ``==`` and ``!=`` (``__Pyx_PyObject_CompareStrStrBool{Eq,Ne}``) call
# ``PyUnicode_Compare`` before Python 3.14: a full ordering comparison with no identity or
# length test, ~90 instructions where the interpreter's own ``==`` on two strings takes ~15.
# Its 3.14 branch calls ``PyUnicode_Equal``, which CPython 3.11's public headers declare as
# ``_PyUnicode_Equal`` (identity, then length and kind, then memcmp; 3.12 moved it out of
# them): the build takes that branch on 3.11 too. The engine compares card kinds, task names
# and characters as strings about ten times a decision.
_STR_EQUAL_BRANCH: Final = (
    "    #if __PYX_LIMITED_VERSION_HEX >= 0x030e0000\n    int result = PyUnicode_Equal(s1, s2);\n"
)
_STR_EQUAL_FAST: Final = (
    "    #if __PYX_LIMITED_VERSION_HEX >= 0x030e0000 || "
    "(CYTHON_COMPILING_IN_CPYTHON && PY_VERSION_HEX < 0x030c0000)\n"
    "    #if __PYX_LIMITED_VERSION_HEX >= 0x030e0000\n"
    "    int result = PyUnicode_Equal(s1, s2);\n"
    "    #else\n"
    "    int result = _PyUnicode_Equal(s1, s2);  /* bangarena: cli/engine_build.py */\n"
    "    #endif\n"
)


def fast_str_equality(c_source: str) -> tuple[str, int]:
    """Cython's generated C with its string equality tests on ``_PyUnicode_Equal`` (see
    ``_STR_EQUAL_BRANCH``); returns the new text and how many tests changed. A Cython whose
    helpers read otherwise is left as it is (0 changed): the build stays correct, only slower."""
    return c_source.replace(_STR_EQUAL_BRANCH, _STR_EQUAL_FAST), c_source.count(_STR_EQUAL_BRANCH)


def module_plan(root: Path, bots: bool = True) -> dict[str, list[str]]:
    """The modules to compile per package (names without ``.py``) that exist on disk."""
    plan = {
        "bangarena.engine": [m for m in ENGINE_MODULES if (root / "engine" / f"{m}.py").is_file()]
    }
    if bots:
        folder = root / "harness" / "bots"
        plan["bangarena.harness.bots"] = [m for m in BOT_MODULES if (folder / f"{m}.py").is_file()]
    return plan


def switch_module() -> ModuleType:
    """``bangarena.engine.compiled`` loaded on its own, without importing ``bangarena.engine``:
    the package's import is where the switch acts, and a stale build must not stop its own
    rebuild (nor must the build change the switch in this process's environment)."""
    spec = importlib.util.find_spec("bangarena.engine")
    if spec is None or not spec.submodule_search_locations:
        raise fail("the bangarena.engine package is not installed")
    path = Path(next(iter(spec.submodule_search_locations))) / "compiled.py"
    loaded = importlib.util.spec_from_file_location("_bangarena_build_switch", path)
    assert loaded is not None and loaded.loader is not None
    module = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(module)
    return module


def compile_build(
    out: Path,
    jobs: int,
    bots: bool = True,
    opt: str = "2",
    quiet: bool = True,
    pgo: bool = False,
) -> dict[str, Any]:
    """Compile the plan into ``out`` (replaced whole, so no module of an older build lingers)
    with gcc ``-O{opt}`` and write its manifest; returns the manifest. With ``pgo``, gcc's
    profile-guided optimisation: an instrumented build plays :data:`PGO_TRAINING`, then the
    modules are compiled again with the profile it wrote.

    The sources are copied first and the copies are hashed and compiled: the tree may change
    while gcc runs (others edit it), and the manifest must describe exactly what was built."""
    try:
        import Cython  # noqa: F401 - the build's requirement, checked here
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError as e:
        raise fail(
            f"the compiled build needs Cython and setuptools ({e.name} is missing): "
            "pip install -e '.[fast]'"
        ) from None
    switch = switch_module()
    ext_suffix, source_digest = switch.ext_suffix, switch.source_digest
    root = switch.source_root()
    plan = module_plan(root, bots)
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".compiled-", dir=out.parent))
    try:
        extensions = []
        digests: dict[str, dict[str, str]] = {}
        declarations: dict[str, dict[str, str]] = {}
        for package, names in plan.items():
            copy = staging.joinpath("src", *package.split("."))
            copy.mkdir(parents=True)
            # Package markers, so that the .pxd files' relative cimports resolve (not compiled)
            for folder in (copy, *copy.parents):
                if folder == staging / "src":
                    break
                (folder / "__init__.py").touch()
            digests[package], declarations[package] = {}, {}
            for name in names:
                src = copy / f"{name}.py"
                shutil.copyfile(root / PACKAGES[package] / f"{name}.py", src)
                digests[package][name] = source_digest(src)
                pxd = root / PACKAGES[package] / f"{name}.pxd"
                if pxd.is_file():
                    shutil.copyfile(pxd, copy / f"{name}.pxd")
                    declarations[package][name] = source_digest(copy / f"{name}.pxd")
                    declared = (copy / f"{name}.pxd").read_text(encoding="utf-8")
                    src.write_text(
                        drop_slots(src.read_text(encoding="utf-8"), declared), encoding="utf-8"
                    )
                extensions.append(Extension(f"{package}.{name}", [str(src)]))
        # No debug info: gcc's time is most of the build's. -fno-plt (ELF): the modules call
        # libpython's C API thousands of times a decision, each through the GOT instead of a
        # PLT stub's extra jump (docs/speed.md: ~4 % of a rule-bot game).
        cflags = f"-O{opt} -g0" + (" -fno-plt" if sys.platform.startswith("linux") else "")
        typed = [e for e in extensions if e.name.rsplit(".", 1)[1] in TYPED_MODULES]
        plain = [e for e in extensions if e not in typed]
        modules = []
        for group, directives in ((plain, COMPILER_DIRECTIVES), (typed, TYPED_DIRECTIVES)):
            if group:
                modules += cythonize(
                    group,
                    compiler_directives=directives,
                    build_dir=str(staging / "c"),
                    nthreads=jobs,
                    quiet=quiet,
                    force=True,
                )
        str_tests = 0
        for module in modules:
            for c_file in module.sources:
                path = Path(c_file)
                if path.suffix == ".c":
                    text, n = fast_str_equality(path.read_text(encoding="utf-8"))
                    if n:
                        path.write_text(text, encoding="utf-8")
                    str_tests += n
        final_flags = cflags
        if pgo:
            # Both passes compile the same .c files into the same object paths (staging/tmp),
            # which is how gcc finds each object's profile in the second pass.
            profile = staging / "profile"
            gen = staging / "gen"
            gen_flags = f"{cflags} -fprofile-generate={profile} -fprofile-update=single"
            _build_ext(modules, gen, staging / "tmp", jobs, gen_flags)
            _write_manifest(gen, switch, digests, declarations, typed, gen_flags, str_tests, None)
            _train(gen)
            # Partial training: a function the games never ran keeps -O's code (not -Os).
            final_flags = (
                f"{cflags} -fprofile-use={profile} -fprofile-partial-training -Wno-missing-profile"
            )
        lib = staging / "lib"
        _build_ext(modules, lib, staging / "tmp", jobs, final_flags)
        for package, names in plan.items():
            for name in names:
                so = lib.joinpath(*package.split(".")) / f"{name}{ext_suffix()}"
                if not so.is_file():
                    raise fail(f"the build made no {so.name} for {package}.{name}")
        manifest = _write_manifest(
            lib, switch, digests, declarations, typed, final_flags, str_tests,
            PGO_TRAINING if pgo else None,
        )  # fmt: skip
        if out.exists():
            shutil.rmtree(out)
        lib.rename(out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return manifest


PGO_TRAINING: Final = (
    ("--games", "240", "--players", "random"),
    ("--games", "80", "--players", "rule"),
    ("--games", "120", "--players", "random", "--expansions", "armed_dangerous"),
    ("--games", "40", "--players", "rule", "--expansions", "armed_dangerous"),
)
"""``--pgo``'s training games: ``bangarena simulate`` runs (every seat count and mode, seeded
as always) on the instrumented build, random-legal and rule-bot play, classic and with the
expansion, so that gcc lays out the code for the branches games take (~10 s)."""


def _build_ext(modules: list[Any], lib: Path, temp: Path, jobs: int, cflags: str) -> None:
    """Compile and link the cythonized ``modules`` into ``lib`` with ``cflags``."""
    from setuptools import Distribution

    # setuptools reads CFLAGS from the environment only (and adds them to the link line too,
    # where -fprofile-* must also be); it is put back afterwards.
    saved = os.environ.get("CFLAGS")
    os.environ["CFLAGS"] = cflags
    try:
        dist = Distribution({"name": "bangarena-compiled", "ext_modules": modules})
        cmd = dist.get_command_obj("build_ext")
        cmd.build_lib = str(lib)  # type: ignore[attr-defined]
        cmd.build_temp = str(temp)  # type: ignore[attr-defined]
        cmd.parallel = jobs  # type: ignore[attr-defined]
        cmd.force = True  # type: ignore[attr-defined]  # a second pass recompiles every object
        cmd.ensure_finalized()
        cmd.run()
    finally:
        if saved is None:
            os.environ.pop("CFLAGS", None)
        else:
            os.environ["CFLAGS"] = saved


def _write_manifest(
    lib: Path,
    switch: ModuleType,
    digests: dict[str, dict[str, str]],
    declarations: dict[str, dict[str, str]],
    typed: list[Any],
    cflags: str,
    str_tests: int,
    training: tuple[tuple[str, ...], ...] | None,
) -> dict[str, Any]:
    """Write the build's manifest into ``lib`` (what the switch checks before loading it)."""
    import Cython

    manifest = {
        "format": switch.MANIFEST_FORMAT,
        "cython": Cython.__version__,
        "python": sys.version.split()[0],
        "ext_suffix": switch.ext_suffix(),
        "directives": dict(COMPILER_DIRECTIVES),
        "typed_modules": sorted(e.name for e in typed),
        "cflags": cflags,
        "pgo_training": [list(t) for t in training] if training else None,
        "fast_str_equality": str_tests,
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "packages": {
            p: {"modules": d, "declarations": declarations[p]} for p, d in digests.items()
        },
    }
    (lib / switch.MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def gcc_compiler() -> bool:
    """Whether extension modules are compiled by gcc here (``$CC``, else Python's own)."""
    import sysconfig

    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or ""
    probe = subprocess.run(
        [*cc.split()[:1], "--version"], capture_output=True, text=True, check=False
    )
    # gcc says so in its copyright line, whatever it is called (cc, gcc-12, a cross gcc)
    return probe.returncode == 0 and "Free Software Foundation" in probe.stdout


def _train(build: Path) -> None:
    """Play :data:`PGO_TRAINING` on the instrumented build at ``build`` (its profile is written
    as each process exits)."""
    env = dict(os.environ, BANGARENA_ENGINE="compiled", BANGARENA_BUILD_DIR=str(build))
    # -S as this process (benchmarks/ab_speed.py compiles a revision from its own sys.path)
    site = ["-S"] if sys.flags.no_site else []
    for args in PGO_TRAINING:
        cmd = [sys.executable, *site, "-m", "bangarena.cli", "simulate", "--no-check", *args]
        done = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            tail = "\n".join(done.stderr.strip().splitlines()[-5:])
            raise fail(f"--pgo: the training run {' '.join(args)} failed:\n{tail}")


def compile_command(
    jobs: int = typer.Option(
        0, "--jobs", "-j", min=0, help="Parallel compile jobs (0: one per core)."
    ),
    out: Path | None = typer.Option(
        None,
        "--out",
        help="Build folder (default: $BANGARENA_BUILD_DIR, else build/compiled beside the sources).",
    ),
    no_bots: bool = typer.Option(
        False, "--no-bots", help="Compile the engine only, not the rule bot's modules."
    ),
    opt: str = typer.Option(
        "2",
        "--opt",
        help="gcc optimisation level: 0, 1, 2 or 3 (1 takes about 60 % of 2's build time).",
    ),
    pgo: bool = typer.Option(
        False,
        "--pgo",
        help="Profile-guided: compile, play training games, compile again with their profile "
        "(gcc; about twice the build time, the fastest build).",
    ),
) -> None:
    """Compile the engine's modules (and the rule bot's) with Cython into the build folder;
    BANGARENA_ENGINE=compiled then runs them (docs/speed.md)."""
    if opt not in ("0", "1", "2", "3"):
        raise typer.BadParameter(f"{opt!r}; valid: 0, 1, 2, 3", param_hint="--opt")
    folder = out if out is not None else switch_module().build_dir()
    t0 = time.perf_counter()
    if pgo and not gcc_compiler():
        raise fail("--pgo needs gcc as the C compiler (its -fprofile-generate/-use)")
    manifest = compile_build(
        folder, jobs or (os.cpu_count() or 1), bots=not no_bots, opt=opt, pgo=pgo
    )
    count = sum(len(p["modules"]) for p in manifest["packages"].values())
    typer.echo(
        f"compiled {count} modules with Cython {manifest['cython']} into {folder} "
        f"in {time.perf_counter() - t0:.1f} s; run with BANGARENA_ENGINE=compiled",
        err=True,
    )


def info_command() -> None:
    """Print which engine build this environment runs, as one JSON object: "build" (pure or
    compiled) and, when compiled, the compiled modules and the Cython version."""
    try:
        import bangarena.engine  # noqa: F401  (the import is where the switch acts)
        import bangarena.harness.bots  # noqa: F401
    except ImportError as e:
        raise fail(str(e)) from None
    from bangarena.engine.compiled import build_info

    print(json.dumps(build_info()))


def register(app: typer.Typer) -> None:
    """Add the ``engine`` group to ``app``."""
    group = typer.Typer(help=ENGINE_HELP, no_args_is_help=True)
    group.command("compile")(compile_command)
    group.command("info")(info_command)
    app.add_typer(group, name="engine")
