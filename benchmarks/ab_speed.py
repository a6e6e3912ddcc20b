"""Two versions of the engine measured at the same time, one core each, the cores swapped every
round: an A/B comparison that a busy or shared machine does not distort.

Runs taken one after the other on a shared 2-core machine move by ±20 % (docs/speed.md), more
than most changes to the engine gain. Here both versions run at once, each pinned to its own
core, so whatever slows the machine slows both; swapping the cores every round cancels a faster
core. Each side is a git revision (a temporary worktree) or the working tree, imported with
``python -S`` and the venv's site-packages on ``PYTHONPATH``, so that ``bangarena`` is that
side's sources and not the editable install's. With ``--build compiled`` each side is compiled
first (``bangarena engine compile`` of that side, into a temporary folder, same options).

The workloads are ``benchmarks/bot_speed.py``'s (this script's own copy, run against each
side's engine): random-legal play, engine alone, for ``--seconds`` of CPU time; and rule bots in
every seat for ``--games`` games, under the side's own ``batch_gc`` as ``bot_speed.py`` plays
them. ``service`` (not in the default list) is ``benchmarks/service_decisions.py``'s: the seat
service's own work per remote decision, in process, for ``--matches`` five-remote-seat matches
(decisions per CPU-second). Printed: each round's rates and the head/base ratio, then the median
ratio.

    .venv/bin/python benchmarks/ab_speed.py --base HEAD~1                     # pure, working tree
    .venv/bin/python benchmarks/ab_speed.py --base 1396515 --build compiled --rounds 6
    .venv/bin/python benchmarks/ab_speed.py --base v1 --head v2 --workloads random
    .venv/bin/python benchmarks/ab_speed.py --base 983913f --head-build compiled --pgo --workloads bots

``--base-build`` and ``--head-build`` set one side's build apart from ``--build``: the last line
above is issue #17's first figure, the compiled build of the working tree against the pure
sources of 983913f (before the speed work), measured at the same time.

``--alternate`` runs one side at a time on one core instead, the order swapped every round: on
this 2-core machine the two cores slow each other when both are busy (shared caches, or two
threads of one physical core), and the compiled side loses more to that than the interpreter
does (docs/speed.md, "Comparing two versions"). Use it on an otherwise idle machine; the
default is the better choice when other tenants are busy.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
WORKLOADS = ("random", "bots", "service")


@dataclass(frozen=True)
class Side:
    """One version: its label, its sources and what its subprocesses need."""

    label: str
    root: Path
    env: dict[str, str]


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(REPO), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def prepare(label: str, rev: str | None, tmp: Path, build: str, opt: int, pgo: bool) -> Side:
    """A side from ``rev`` (None: the working tree): a worktree, a ``bangarena`` folder that
    points at it, and, for the compiled build, its extension modules."""
    if rev is None:
        root = REPO
    else:
        root = tmp / label
        _git("worktree", "add", "--detach", "--quiet", str(root), _git("rev-parse", rev))
    shim = tmp / f"{label}-path"
    shim.mkdir()
    (shim / "bangarena").symlink_to(root, target_is_directory=True)
    packages = dict.fromkeys((sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]))
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join((str(shim), *packages)),
        "BANGARENA_ENGINE": build,
        "BANGARENA_BUILD_DIR": str(tmp / f"{label}-build"),
    }
    if build == "compiled":
        t0 = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-S", "-m", "bangarena.cli", "engine", "compile",
             "--out", env["BANGARENA_BUILD_DIR"], "--opt", str(opt), *(["--pgo"] if pgo else [])],
            env=env, capture_output=True, text=True, cwd=tmp,
        )  # fmt: skip
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).splitlines()[-25:])
            raise SystemExit(f"{label}: the compile failed (exit {done.returncode}):\n{tail}")
        print(f"{label}: compiled in {time.monotonic() - t0:.0f} s", flush=True)
    return Side(f"{label} ({rev or 'working tree'})", root, env)


def start(side: Side, workload: str, cpu: int, args: argparse.Namespace) -> subprocess.Popen:
    """One measurement of ``side`` on core ``cpu``, in its own process."""
    cmd = [
        sys.executable, "-S", __file__, "--worker", workload, "--cpu", str(cpu),
        "--seconds", str(args.seconds), "--games", str(args.games), "--seats", str(args.seats),
        "--matches", str(args.matches),
    ]  # fmt: skip
    # The side's working directory is neutral: nothing of the other side on sys.path.
    return subprocess.Popen(cmd, env=side.env, stdout=subprocess.PIPE, text=True, cwd="/")


def worker(workload: str, cpu: int, seconds: float, games: int, seats: int, matches: int) -> None:
    """Run one workload pinned to ``cpu`` and print its rate as JSON."""
    os.sched_setaffinity(0, {cpu})
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if workload == "service":
        import asyncio
        import gc

        from service_decisions import GC_THRESHOLD, play

        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLD)
        with tempfile.TemporaryDirectory(prefix="ab-speed-service-") as tmp:
            asyncio.run(play(3, 3, f"{tmp}/warm.db"))  # warm: imports, prompts, schemas
            # The best of five runs: a shared machine only ever adds time to a run, and this
            # workload (allocations, many small objects) feels the other tenants most.
            best = 0.0
            for k in range(5):
                decisions, cpu_s = asyncio.run(play(max(1, matches // 5), 13, f"{tmp}/{k}.db"))
                best = max(best, decisions / cpu_s)
        print(json.dumps({"rate": best, "unit": "decisions/s (best of 5 runs)"}))
        return
    from bot_speed import random_games, rule_games

    from bangarena.engine import GameConfig

    config = GameConfig(seats=seats, mode="classic")
    if workload == "random":
        random_games(config, 5, views=False)  # warm: imports, tables, caches
        decisions, cpu_s = 0, 0.0
        while cpu_s < seconds:
            r = random_games(config, 20, views=False)
            decisions += r["decisions"]
            cpu_s += r["cpu"]
        print(json.dumps({"rate": decisions / cpu_s, "unit": "decisions/s"}))
    else:
        # As bot_speed.py (at 983913f too) and `bangarena simulate` play them: under the side's
        # own collector settings for batches.
        from bangarena.harness.simulate import batch_gc

        with batch_gc():
            rule_games(config, 3)
            r = rule_games(config, games)
        print(json.dumps({"rate": games / r["cpu"], "unit": "games/s"}))


def measure(runs: list[subprocess.Popen], workload: str) -> list[dict[str, Any]]:
    """The JSON each run printed (exits if one failed)."""
    out = []
    for p in runs:
        text, _ = p.communicate()
        if p.returncode != 0:
            sys.exit(f"a {workload} run failed (exit {p.returncode})")
        out.append(json.loads(text))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", help="the reference revision (git rev)")
    ap.add_argument(
        "--head", default=None, help="the revision to compare (default: the working tree)"
    )
    ap.add_argument("--build", choices=("pure", "compiled"), default="pure")
    ap.add_argument(
        "--base-build", choices=("pure", "compiled"), help="the base's (default --build)"
    )
    ap.add_argument(
        "--head-build", choices=("pure", "compiled"), help="the head's (default --build)"
    )
    ap.add_argument("--opt", type=int, default=2, help="gcc -O level of the compiled builds")
    ap.add_argument(
        "--pgo", action="store_true", help="compile the compiled builds with `--pgo` (gcc's PGO)"
    )
    ap.add_argument("--rounds", type=int, default=4, help="pairs per workload (cores swapped)")
    ap.add_argument(
        "--alternate",
        action="store_true",
        help="one side at a time on one core, the other core idle, the order swapped every "
        "round (for an otherwise idle machine whose two cores slow each other)",
    )
    ap.add_argument("--workloads", default="random,bots", help=f"of {', '.join(WORKLOADS)}")
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds of random play")
    ap.add_argument("--games", type=int, default=150, help="rule-bot games per run")
    ap.add_argument("--seats", type=int, default=7)
    ap.add_argument("--matches", type=int, default=40, help="remote matches per service run")
    ap.add_argument("--worker", choices=WORKLOADS, help=argparse.SUPPRESS)
    ap.add_argument("--cpu", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker, args.cpu, args.seconds, args.games, args.seats, args.matches)
        return
    if not args.base:
        ap.error("--base is required")
    workloads = [w for w in args.workloads.split(",") if w]
    if unknown := set(workloads) - set(WORKLOADS):
        ap.error(f"unknown workloads {sorted(unknown)}; known: {', '.join(WORKLOADS)}")
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2 and not args.alternate:
        sys.exit("needs two cores: both sides run at the same time, one core each "
                 "(--alternate runs them one after the other)")  # fmt: skip
    tmp = Path(tempfile.mkdtemp(prefix="ab-speed-"))
    try:
        base_build = args.base_build or args.build
        head_build = args.head_build or args.build
        base = prepare("base", args.base, tmp, base_build, args.opt, args.pgo)
        head = prepare("head", args.head, tmp, head_build, args.opt, args.pgo)
        print(f"base = {base.label}, {base_build} · head = {head.label}, {head_build}")
        how = (
            f"core {cpus[0]}, one side at a time, the order swapped every round"
            if args.alternate
            else f"cores {cpus[0]} and {cpus[1]}, swapped every round"
        )
        print(f"{how}; load average {os.getloadavg()[0]:.1f} at the start")
        for workload in workloads:
            ratios = []
            for k in range(args.rounds):
                if args.alternate:
                    first = k % 2 == 0  # the base runs first in even rounds
                    order = (base, head) if first else (head, base)
                    got = [measure([start(s, workload, cpus[0], args)], workload)[0] for s in order]
                    out = got if first else got[::-1]
                else:
                    a, b = (cpus[0], cpus[1]) if k % 2 == 0 else (cpus[1], cpus[0])
                    runs = [start(base, workload, a, args), start(head, workload, b, args)]
                    out = measure(runs, workload)
                ratio = out[1]["rate"] / out[0]["rate"]
                ratios.append(ratio)
                unit = out[0]["unit"]
                print(f"{workload:6} round {k + 1}: base {out[0]['rate']:>9,.1f}  "
                      f"head {out[1]['rate']:>9,.1f} {unit}  head/base {ratio:.3f}")  # fmt: skip
            lo, hi = min(ratios), max(ratios)
            print(f"{workload:6} head/base median {statistics.median(ratios):.3f} "
                  f"(range {lo:.3f}–{hi:.3f}, {args.rounds} rounds)")  # fmt: skip
    finally:
        for label in ("base", "head"):
            if (tmp / label).exists():
                _git("worktree", "remove", "--force", str(tmp / label))
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
