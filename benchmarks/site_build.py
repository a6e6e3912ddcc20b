"""Site build figures: ``build_site`` on a store of 10,000 matches and 12 participants with the
default 200 replay pages (the issue's bound: ≤ 60 s), with the time of each phase, the bytes of
the site and of the largest replay, and the largest 7-seat replay page.

    python benchmarks/site_build.py [--db PATH] [--matches 10000] [--replays 200] [--workers N]

The store is made once (a pool suite of 12 participants — graded rule bots, random, scripted
seats answering through the text path with transcripts, one of them with injected faults — at
5- and 7-seat tables, played by ``bangarena eval``'s runner with worker processes) and reused
by later runs: ``--db`` defaults to a file in the system's temporary folder. Making it takes a
while (~10 minutes on 2 cores); the build itself is what is timed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from bangarena.evals import parse_suite
from bangarena.evals.runner import RunOptions, run_suite
from bangarena.evals.store import open_store

PARTICIPANTS = (
    ("rule", "rule", ""),
    ("rule-eps-0.1", "rule:eps=0.1", ""),
    ("rule-eps-0.25", "rule:eps=0.25", ""),
    ("rule-eps-0.5", "rule:eps=0.5", ""),
    ("rule-eps-0.75", "rule:eps=0.75", ""),
    ("rule-eps-0.9", "rule:eps=0.9", ""),
    ("random", "random", ""),
    ("scripted-rule", "scripted:rule", ""),
    ("scripted-random", "scripted:random", ""),
    (
        "scripted-faulty",
        "scripted:rule",
        "options = { faults = { invalid_json = 0.1, illegal_id = 0.1, truncated = 0.05 }, "
        "price_input_per_mtok = 0.15, price_output_per_mtok = 0.6 }",
    ),
    (
        "scripted-priced",
        "scripted:rule",
        "options = { price_input_per_mtok = 2.5, price_output_per_mtok = 10.0 }",
    ),
    ("rule-eps-0.05", "rule:eps=0.05", ""),
)
TABLES = (5, 7)


def suite_text(matches: int) -> str:
    """The pool suite: enough deals for ``matches`` matches over the tables' rotations."""
    per_deal = sum(TABLES)
    deals = math.ceil(matches / per_deal)
    parts = [
        "[suite]",
        'name = "site-bench"',
        "seed = 5",
        f"deals = {deals}",
        'design = "pool"',
        "",
    ]
    for pid, spec, extra in PARTICIPANTS:
        parts += ["[[participants]]", f'id = "{pid}"', f'spec = "{spec}"']
        if extra:
            parts.append(extra)
        parts.append("")
    for seats in TABLES:
        parts += ["[[tables]]", f"seats = {seats}", "time_per_move = 30", ""]
    parts += ["[concurrency]", "matches = 32", ""]
    return "\n".join(parts)


def ensure_store(db: Path, matches: int, workers: int) -> int:
    """Make (or finish) the benchmark store; returns its done matches."""
    suite = parse_suite(suite_text(matches), where="site-bench.toml")
    t0 = time.perf_counter()
    store = open_store(db)
    try:
        done = len(store.done_keys(suite.name))
    finally:
        store.close()
    if done < matches:
        print(f"making the store at {db}: {done} of ~{matches} matches there…", file=sys.stderr)
        run_suite(suite, RunOptions(db=str(db), backend="processes", workers=workers))
        print(f"store made in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    store = open_store(db)
    try:
        return len(store.done_keys(suite.name))
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default_db = Path(tempfile.gettempdir()) / "bangarena-site-bench.db"
    parser.add_argument("--db", type=Path, default=default_db)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--replays", type=int, default=200)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path, default=None, help="keep the site here")
    parser.add_argument("--make-only", action="store_true", help="only make the store")
    args = parser.parse_args()
    done = ensure_store(args.db, args.matches, args.workers)
    if args.make_only:
        print(json.dumps({"db": str(args.db), "matches": done}))
        return
    from bangarena.leaderboard.site import build_site

    out = args.out or Path(tempfile.mkdtemp(prefix="bangarena-site-"))
    if out.exists() and args.out is None:
        shutil.rmtree(out)
    t0 = time.perf_counter()
    report = build_site(
        args.db, out, replays=args.replays, resamples=args.resamples, workers=args.workers
    )
    wall = time.perf_counter() - t0
    site_bytes = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    figures = {
        "matches": done,
        "participants": report.participants,
        "replays": report.replays,
        "resamples": args.resamples,
        "workers": args.workers,
        "wall_s": round(wall, 2),
        "phases_s": {k: round(v, 2) for k, v in report.seconds.items()},
        "site_mb": round(site_bytes / 2**20, 1),
        "largest_replay": report.largest_replay,
        "largest_7_seat_replay": report.largest_replay_of(7),
        "within_60_s": wall <= 60.0,
    }
    print(json.dumps(figures, indent=2))
    if args.out is None:
        shutil.rmtree(out)


if __name__ == "__main__":
    main()
