"""How long the answer parser takes on hostile replies: 1 MB of one character, adversarial
repeated patterns at the reply limit (64 KiB) and at 1 MB, and a normal answer. Best of
``--repeat`` runs per case, in milliseconds; with ``--old`` also the parser this replaced
(``raw_decode`` at every ``{``), on inputs small enough for it to finish.

    .venv/bin/python benchmarks/answer_parse.py [--repeat 3] [--old]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
from collections.abc import Callable

from bangarena.harness.answers import MAX_REPLY_CHARS, parse_answer
from bangarena.harness.json_scan import last_json_object

MB = 1_000_000
PATTERNS = ["{", "[", '"', '{"', '{""', "{}", "{{}", "{]", '\n"{', '{"a":', '"{"{"move": "x"}']


def old_last_json_object(text: str) -> dict | None:
    """The parser before issue 9: raw_decode tried at every brace (quadratic, recursive)."""
    decoder = json.JSONDecoder()
    found, i, n = None, text.find("{"), len(text)
    while 0 <= i < n:
        try:
            obj, end = decoder.raw_decode(text, i)
        except ValueError:
            i = text.find("{", i + 1)
            continue
        if isinstance(obj, dict):
            found = obj
        i = text.find("{", end)
    return found


def best_ms(fn: Callable[[str], object], text: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        with contextlib.suppress(RecursionError):  # the old parser on deep input
            fn(text)
        times.append(time.perf_counter() - t)
    return min(times) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--old", action="store_true", help="also time the old parser (100 kB)")
    args = ap.parse_args()
    rows = []
    answer = json.dumps({"reason": "the sheriff is far", "notes": None, "move": "shot@3"})
    rows.append(("normal answer", len(answer), best_ms(last_json_object, answer, 1000)))
    for size in (MAX_REPLY_CHARS, MB):
        for unit in PATTERNS:
            text = (unit * (size // len(unit) + 1))[:size]
            rows.append((repr(unit), size, best_ms(last_json_object, text, args.repeat)))
    text = '{"a":' + "[" * 3000 + "]" * 3000 + "}"
    rows.append(("issue 9 deep reply", len(text), best_ms(last_json_object, text, args.repeat)))
    big = "{" * MB
    rows.append(("parse_answer, 1 MB", MB, best_ms(lambda t: parse_answer(t, ["x"]), big, 3)))
    for name, size, ms in rows:
        print(f"{name:24s} {size:>9,} chars  {ms:9.2f} ms")
    if args.old:
        for unit in ("{", '{"a":['):
            text = unit * (100_000 // len(unit))
            print(f"old parser {unit!r:12s} {len(text):>9,} chars  "
                  f"{best_ms(old_last_json_object, text, 1):9.2f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
