"""Token counts of the rules for AI and of the answer schemas, with OpenAI's o200k_base
tokenizer (the offline ``bpe-openai`` package; tiktoken-compatible ids).

    .venv/bin/python benchmarks/rules_tokens.py [--games 20]

Prints the compact and full rules text of every language, the fixed answer schemas, and the
constrained answer schemas of the decisions met in a few seeded random games (median and
maximum), each schema serialized as compact JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics

from bangarena.engine import GameConfig, new_game
from bangarena.engine.roles import MODES
from bangarena.rules_machine import LANGS, answer_schema, count_tokens, rules_text


def schema_tokens(doc: dict) -> int:
    return count_tokens(json.dumps(doc, separators=(",", ":"), ensure_ascii=False))


def constrained_tokens(games: int) -> tuple[list[int], list[int]]:
    """Tokens of the constrained schema (and its number of ids) at every decision."""
    tokens, sizes = [], []
    for i in range(games):
        game = new_game(GameConfig(seats=4 + i % 5, mode=MODES[i % len(MODES)]), seed=i)
        chooser = random.Random(i)
        while not game.over:
            ids = game.decision.ids
            tokens.append(schema_tokens(answer_schema(ids)))
            sizes.append(len(ids))
            moves = game.legal_moves
            game.apply_fast(moves[chooser.randrange(len(moves))])
    return tokens, sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games for the constrained schemas")
    args = parser.parse_args()

    print("rules for AI, o200k_base tokens")
    print(f"{'lang':<6}{'compact':>9}{'full':>8}")
    for lang in LANGS:
        compact = count_tokens(rules_text(lang, compact=True))
        full = count_tokens(rules_text(lang, compact=False))
        print(f"{lang:<6}{compact:>9,}{full:>8,}")
    print()
    print("answer schemas, o200k_base tokens (compact JSON)")
    print(f"{'fixed':<34}{schema_tokens(answer_schema()):>6}")
    print(f"{'fixed, with notes':<34}{schema_tokens(answer_schema(notes=True)):>6}")
    tokens, sizes = constrained_tokens(args.games)
    print(
        f"{'constrained, median decision':<34}{statistics.median(tokens):>6.0f}"
        f"   ({statistics.median(sizes):.0f} legal ids)"
    )
    print(
        f"{'constrained, largest decision':<34}{max(tokens):>6}"
        f"   ({max(sizes)} legal ids, {len(tokens):,} decisions in {args.games} games)"
    )


if __name__ == "__main__":
    main()
