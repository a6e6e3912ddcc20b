"""Store figures: bytes per stored 7-seat match (JSON vs compressed) and store time per match
(preparing the rows, inserting them), for all-scripted matches with transcripts (what a model
match costs) and for rule-bot matches.

    python benchmarks/eval_store.py [--matches 20] [--db URL]

``--db`` defaults to a temporary SQLite file; give ``postgresql+psycopg://…`` for PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bangarena.evals import parse_suite, plan_suite
from bangarena.evals.store import open_store
from bangarena.evals.store.rows import prepare_match

SUITE = """
[suite]
name = "bench-{name}"
seed = {seed}
deals = {deals}

[[participants]]
id = "p"
spec = "{spec}"

[[tables]]
seats = 7
lineup = ["p", "p", "p", "p", "p", "p", "p"]
"""


def measure(url: str, spec: str, matches: int) -> dict[str, float]:
    name = spec.replace(":", "-")
    text = SUITE.format(name=name, seed=time.time_ns() % 10**9, deals=matches, spec=spec)
    suite = parse_suite(text)
    plan = plan_suite(suite)[::7][:matches]  # one rotation per deal: different games

    async def play() -> list:
        return [await m.play() for m in plan]

    records = asyncio.run(play())
    store = open_store(url)
    store.register_suite(suite, plan)
    prep, ins, raw, stored = [], [], [], []
    for m, rec in zip(plan, records, strict=True):
        t0 = time.perf_counter()
        prepared = prepare_match(m, rec)
        t1 = time.perf_counter()
        assert store.write_prepared(prepared)
        t2 = time.perf_counter()
        prep.append(t1 - t0)
        ins.append(t2 - t1)
        raw.append(prepared.match["record_bytes"])
        stored.append(len(prepared.match["record"]))
    store.close()
    return {
        "json_kb": statistics.mean(raw) / 1024,
        "stored_kb": statistics.mean(stored) / 1024,
        "prepare_ms": statistics.median(prep) * 1e3,
        "insert_ms": statistics.median(ins) * 1e3,
        "decisions": statistics.mean(len(r.moves) for r in records),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--db", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        print(f"store: {url.split('@')[-1]}, {args.matches} seven-seat matches per kind")
        for spec, label in (("scripted:rule", "7 scripted seats, transcripts"),
                            ("rule", "7 rule bots")):  # fmt: skip
            f = measure(url, spec, args.matches)
            print(
                f"{label:32s} {f['decisions']:5.0f} decisions  JSON {f['json_kb']:7.1f} KB  "
                f"stored {f['stored_kb']:6.1f} KB ({f['json_kb'] / f['stored_kb']:4.1f}x)  "
                f"prepare {f['prepare_ms']:5.2f} ms  insert {f['insert_ms']:5.2f} ms"
            )


if __name__ == "__main__":
    main()
