"""The seat service's memory over a long run: does it stay flat once the finished matches it
keeps (``keep_finished``) reach their bound?

One ``bangarena serve`` on loopback; in each round, N matches (two remote seats polling our full
prompts and answering at random, three rule bots: ``service_load.py``'s finished-matches load)
are played to their end and stored. After each round: the matches the service holds and its
RSS. Past the first rounds the service holds ``keep_finished`` (200) matches, so the RSS should
stop growing; a leak shows as growth round after round.

    .venv/bin/python benchmarks/service_soak.py                     # 8 rounds of 100 matches
    .venv/bin/python benchmarks/service_soak.py --rounds 20 --matches 200
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from service_load import HOST, finished_matches, free_port, rss_bytes, server  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=8)
    p.add_argument("--matches", type=int, default=100, help="matches played out per round")
    p.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = p.parse_args(argv)
    token = secrets.token_urlsafe(32)
    env = os.environ | {"BANGARENA_ADMIN_TOKEN": token}
    exe = shutil.which("bangarena") or str(Path(sys.executable).with_name("bangarena"))
    rows = []
    with tempfile.TemporaryDirectory(prefix="bangarena-soak-") as tmp:
        port = free_port()
        argv_ = [exe, "serve", "--host", HOST, "--port", str(port), "--db", f"{tmp}/soak.db",
                 "--log-level", "warning"]  # fmt: skip
        with server(argv_, port, env, Path(tmp) / "serve.log") as proc:
            base = f"http://{HOST}:{port}"
            start = rss_bytes(proc.pid)
            print(f"RSS at start {start / 2**20:.0f} MiB; {args.rounds} rounds of "
                  f"{args.matches} matches played out")  # fmt: skip
            for r in range(args.rounds):
                t0 = time.perf_counter()
                asyncio.run(finished_matches(base, token, args.matches))
                held = httpx.get(f"{base}/healthz").json()["live_matches"]
                rss = rss_bytes(proc.pid)
                row = {"round": r, "seconds": round(time.perf_counter() - t0, 1),
                       "played": (r + 1) * args.matches, "held": held,
                       "rss_mib": round(rss / 2**20, 1)}  # fmt: skip
                rows.append(row)
                print(
                    f"round {r}: {row['played']} matches played, {held} held, "
                    f"RSS {row['rss_mib']:.0f} MiB ({row['seconds']:.0f} s)",
                    flush=True,
                )
    if len(rows) >= 4:
        half = rows[len(rows) // 2]
        growth = rows[-1]["rss_mib"] - half["rss_mib"]
        per = growth * 1024 / max(1, rows[-1]["played"] - half["played"])
        print(f"second half: RSS {half['rss_mib']:.0f} → {rows[-1]['rss_mib']:.0f} MiB "
              f"({per:.1f} KiB per match played)")  # fmt: skip
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
