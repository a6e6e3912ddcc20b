"""Prompt sizes in real tokens (o200k_base, offline through ``bpe-openai``).

Turn prompts: seeded games played by rule bots at ``--seats``; at every decision the deciding
seat's turn prompt is rendered as a model seat would send it (notes on, with prose notes as long
as ``--notes-chars``); prints the distribution over all decisions. System prompts: one per seat of
each game's deal (rules for AI + seat + answer contract), per language.

    .venv/bin/python benchmarks/prompt_tokens.py [--games 6] [--seats 7] [--lang en]
"""

from __future__ import annotations

import argparse
import json
import statistics

from bangarena.engine import GameConfig, new_game
from bangarena.harness.bots import make_bot
from bangarena.prompts.catalog import LANGS
from bangarena.prompts.memory import PromptMemory
from bangarena.prompts.render import PROMPT_VERSION, render_system, render_turn
from bangarena.rules_machine.tokens import count_tokens

# Notes as a model writes them (a repeated letter would tokenise far worse than prose).
NOTES = "#3 shot me twice, likely Outlaw; #1 helped the Sheriff; keep Ricochets for #4's Duel. "


def distribution(values: list[int]) -> dict[str, float]:
    v = sorted(values)
    q = lambda p: v[min(len(v) - 1, int(p * len(v)))]  # noqa: E731
    return {"n": len(v), "min": v[0], "p10": q(0.1), "median": statistics.median(v),
            "p90": q(0.9), "p99": q(0.99), "max": v[-1]}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seats", type=int, default=7)
    ap.add_argument("--mode", default="classic")
    ap.add_argument("--lang", default="en")
    ap.add_argument("--notes-chars", type=int, default=200)
    args = ap.parse_args()
    count = count_tokens

    turn: list[int] = []
    for seed in range(args.games):
        game = new_game(GameConfig(seats=args.seats, mode=args.mode), seed)
        bots = [make_bot("rule", seed * 16 + s, s) for s in range(args.seats)]
        memories = [PromptMemory() for _ in range(args.seats)]
        cursors = [0] * args.seats
        notes = (NOTES * 10)[: args.notes_chars]
        while not game.over:
            d = game.decision
            s = d.seat
            view = game.view(s, since=cursors[s])
            cursors[s] = view.cursor
            text = render_turn(view, d, memories[s], args.lang, notes=notes, notes_enabled=True)
            turn.append(count(text))
            game.apply(s, bots[s].choose(view, d))
    print(json.dumps({"prompt_version": PROMPT_VERSION, "turn_prompt_tokens": distribution(turn),
                      "seats": args.seats, "mode": args.mode, "lang": args.lang,
                      "notes_chars": args.notes_chars, "games": args.games}))  # fmt: skip

    try:
        from bangarena.rules_machine import rules_text  # noqa: F401
    except ImportError:
        print(json.dumps({"system_prompt_tokens": "rules_machine.rules_text not available yet"}))
        return
    for lang in LANGS:
        sizes = []
        for seed in range(args.games):
            game = new_game(GameConfig(seats=args.seats, mode=args.mode), seed)
            for s in range(args.seats):
                for mode in ("json_schema", "tool", "text"):
                    sizes.append(
                        count(render_system(game.view(s), lang, answer_mode=mode, notes=True))
                    )
        print(json.dumps({"system_prompt_tokens": distribution(sizes), "lang": lang}))


if __name__ == "__main__":
    main()
