"""A random agent: connects to one seat of a match on the seat service and answers every
decision with a legal move chosen at random, until the match is over.

    python examples/agents/random_agent.py --url http://127.0.0.1:8000 --match M --token T

The token may come from ``BANGARENA_SEAT_TOKEN`` instead of ``--token`` (a command line is
visible to every user of the machine; the environment is not).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Sequence

from bangarena.client import Decision, SeatClient, ServiceError


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    p = argparse.ArgumentParser(description="Play one seat with uniformly random legal moves.")
    p.add_argument("--url", required=True, help="the service, e.g. http://127.0.0.1:8000")
    p.add_argument("--match", required=True, help="the match id")
    p.add_argument("--token", default=os.environ.get("BANGARENA_SEAT_TOKEN"),
                   help="the seat token (default: $BANGARENA_SEAT_TOKEN)")  # fmt: skip
    p.add_argument("--seed", type=int, default=None, help="seed of the agent's choices")
    p.add_argument("--wait", type=float, default=30.0, help="long-poll seconds (≤ 60)")
    args = p.parse_args(argv)
    if not args.token:
        p.error("a seat token is needed: --token or BANGARENA_SEAT_TOKEN")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Play until the match is over; print the result as one JSON line. Exit 0, or 1 when the
    service refused the seat (a bad token, an unknown match)."""
    args = parse_args(argv)
    rng = random.Random(args.seed)

    def policy(decision: Decision) -> str:
        return rng.choice(decision.move_ids)

    try:
        with SeatClient(args.url, args.token, match_id=args.match) as seat:
            # only the legal ids matter here: none of the service's prompts (a lighter poll)
            result = seat.play(policy, wait=args.wait, prompt="none")
    except ServiceError as exc:
        print(f"random_agent: {exc}", file=sys.stderr)
        return 1
    print(json.dumps({"match_id": args.match, "result": result}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
