"""The rule bot's strength table: per seat count and team, the team's win rate when its seats are
rule bots and every other seat is a random bot, against the same team played by random bots
(the baseline), over the same seeded deals, with 95 % Wilson intervals; plus the sanity metrics
of the rule seats. Prints Markdown (the tables of docs/bots.md).

Usage: python benchmarks/bot_strength.py [--games 2000] [--seed 1] [--seats 4,5,7]
           [--mode classic] [--json out.json] [--ladder-games N]

Each cell is exactly ``bangarena simulate --games N --seed S --seats K --mode classic
--players TEAM=rule --no-check`` (baseline: ``--players random``).

The search bot (``--deals N``, which runs this section instead of the rule tables): paired
duplicate deals. For each team (law, outlaws, renegade) and each deal seed, the first seat of
that team is a ``search:sims=S`` bot and every other seat a rule bot; the pair is the same deal
(same seed, same bot seeds) with the rule bot in that seat. Per team it prints both win rates,
the paired win-rate difference with its 95 % interval (mean ± 1.96 standard errors of the
per-deal differences) and the search bot's CPU time per decision (mean and worst):

    python benchmarks/bot_strength.py --deals 500 --sims 50 --workers 2 [--seats 5]
           [--pairs pairs.jsonl]

With ``--pairs FILE`` every finished pair is appended to FILE as one JSON line as soon as it
ends, and pairs already in FILE (same seats, mode, sims, seed and team) are not played again:
a long run that is stopped resumes where it was, and the table covers every pair in FILE. Deals
run in seed order with the three teams interleaved, so a run cut short stays balanced.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from bangarena.engine import GameConfig, new_game
from bangarena.engine.roles import TEAM_OF
from bangarena.harness.bots import SearchBot, make_bot
from bangarena.harness.bots.information_set import information_set_sampler
from bangarena.harness.simulate import TEAM_CHOICES, batch_gc, bot_seed, simulate

Z95 = 1.959963984540054


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def fmt(wins: int, n: int) -> str:
    lo, hi = wilson(wins, n)
    return f"{100 * wins / n:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seats", default="4,5,7")
    ap.add_argument("--mode", default="classic")
    ap.add_argument("--json", default=None, help="also write the raw figures here")
    ap.add_argument(
        "--ladder-games",
        type=int,
        default=None,
        help="games per cell of the rule-table ladder (default: --games; 0 skips it)",
    )
    ap.add_argument(
        "--deals",
        type=int,
        default=0,
        help="search bot: paired duplicate deals per team (runs that section only)",
    )
    ap.add_argument("--sims", type=int, default=50, help="search bot: simulations per decision")
    ap.add_argument("--workers", type=int, default=1, help="search bot: worker processes")
    ap.add_argument(
        "--pairs", default=None, help="search bot: append finished pairs here and resume from it"
    )
    ap.add_argument(
        "--teams",
        default=",".join(TEAM_CHOICES),
        help="search bot: the teams whose first seat searches (comma-separated; default all)",
    )
    args = ap.parse_args()
    if args.deals > 0:
        # the issue's table is 5 seats: the rule tables' default list does not apply here
        seats = 5 if args.seats == ap.get_default("seats") else int(args.seats.split(",")[0])
        teams = [t.strip() for t in args.teams.split(",") if t.strip()]
        unknown = sorted(set(teams) - set(TEAM_CHOICES))
        if unknown or not teams:
            ap.error(f"--teams: choose among {', '.join(TEAM_CHOICES)} (got {args.teams!r})")
        print(
            search_strength(
                seats,
                args.mode,
                args.deals,
                args.seed,
                args.sims,
                args.workers,
                args.pairs,
                teams,
            )  # fmt: skip
        )
        return
    seat_counts = [s.strip() for s in args.seats.split(",")]
    raw: dict[str, dict] = {}
    rows = []
    sanity_rows = []
    t0 = time.perf_counter()
    for seats in seat_counts:
        base = simulate(args.games, args.seed, seats, args.mode, check=False, players="random")
        raw[f"{seats}/baseline"] = base.to_dict()
        for team in TEAM_CHOICES:
            cell = simulate(
                args.games, args.seed, seats, args.mode, check=False, players=f"{team}=rule"
            )
            d = cell.to_dict()
            raw[f"{seats}/{team}=rule"] = d
            w, b = cell.wins[team], base.wins[team]
            lo_rule, _ = wilson(w, cell.games)
            _, hi_base = wilson(b, base.games)
            verdict = "yes" if lo_rule > hi_base else "no"
            rows.append(
                f"| {seats} | {team} | {fmt(w, cell.games)} | {fmt(b, base.games)} | "
                f"{100 * (w - b) / cell.games:+.1f} | {verdict} | {d['games_per_s']:.0f} |"
            )
            s = d["sanity"].get("rule", {})
            sanity_rows.append(_sanity_row(seats, team, s))
    dt = time.perf_counter() - t0
    print(f"games per cell: {args.games}, seeds {args.seed}..{args.seed + args.games - 1}, "
          f"mode {args.mode}, {dt:.0f} s in all\n")  # fmt: skip
    print("| seats | team | rule team vs random others | all random (baseline) | "
          "gain (points) | interval above baseline | games/s |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    print()
    print("Sanity metrics of the rule seats (counts over the cell's games; rate in brackets):\n")
    print("| seats | rule team | deputy Shots at the sheriff | outlaw Saloons healing the "
          "sheriff | Canteens at full life | outlaw turns ended with a Shot at the sheriff "
          "in hand and in range | outlaw Shots at outlaws |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(sanity_rows))
    base_rows = []
    for seats in seat_counts:
        s = raw[f"{seats}/baseline"]["sanity"].get("random", {})
        base_rows.append(_sanity_row(seats, "all random", s))
    print("\nThe same metrics for random seats (all-random baseline games):\n")
    print("| seats | players | deputy Shots at the sheriff | outlaw Saloons healing the "
          "sheriff | Canteens at full life | outlaw turns ended with a Shot at the sheriff "
          "in hand and in range | outlaw Shots at outlaws |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(base_rows))
    ladder_games = args.games if args.ladder_games is None else args.ladder_games
    if ladder_games:
        print(_ladder(seat_counts, ladder_games, args.seed, args.mode, raw))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(raw, f, indent=1)


def _ladder(seat_counts: list[str], games: int, seed: int, mode: str, raw: dict) -> str:
    """A harder yardstick: every seat a rule bot, against the same table with one team's seats
    turned random (``--players TEAM=random`` over a rule table)."""
    lines = [
        f"\nRule table ladder ({games} games per cell): each team's win rate with every seat a "
        "rule bot, against the same team played by random bots among rule bots:\n",
        "| seats | team | all rule | team random, others rule | gain (points) | "
        "interval above | games/s (all rule) |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for seats in seat_counts:
        full = simulate(games, seed, seats, mode, check=False, players="rule")
        raw[f"{seats}/rule"] = full.to_dict()
        for team in TEAM_CHOICES:
            others = ",".join(f"{t}=rule" for t in TEAM_CHOICES if t != team)
            cell = simulate(
                games, seed, seats, mode, check=False, players=f"{team}=random,{others}"
            )
            raw[f"{seats}/{team}=random,{others}"] = cell.to_dict()
            w, b = full.wins[team], cell.wins[team]
            verdict = "yes" if wilson(w, games)[0] > wilson(b, games)[1] else "no"
            lines.append(
                f"| {seats} | {team} | {fmt(w, games)} | {fmt(b, games)} | "
                f"{100 * (w - b) / games:+.1f} | {verdict} | {full.games / full.seconds:.0f} |"
            )
    return "\n".join(lines)


def duplicate_pair(seats: int, mode: str, seed: int, team: str, sims: int) -> dict:
    """One paired deal: the first seat of ``team`` as a search bot, then the same deal with the
    rule bot there (every other seat a rule bot, the same bot seeds). The search bot's sampler
    comes from the driver, as in ``simulate``."""
    config = GameConfig(seats, mode)
    out: dict = {"seed": seed, "team": team, "times": []}
    for search in (True, False):
        game = new_game(config, seed)
        roles = [game.view(s).role or "" for s in range(seats)]
        seat = next(s for s in range(seats) if TEAM_OF[roles[s]] == team)
        bots = [make_bot("rule", bot_seed(seed, s), s) for s in range(seats)]
        if search:
            bots[seat] = SearchBot(bot_seed(seed, seat), seat, sims=sims)
        cursors = [0] * seats
        while not game.over:
            d = game.decision
            s = d.seat
            view = game.view(s, since=cursors[s])
            cursors[s] = view.cursor
            if search and s == seat:
                t0 = time.process_time()
                bots[s].sampler = information_set_sampler(game, s)  # type: ignore[attr-defined]
                move = bots[s].choose(view, d)
                out["times"].append(time.process_time() - t0)
            else:
                move = bots[s].choose(view, d)
            game.apply(s, move)
        won = game.state.winning_team == team
        out["search_win" if search else "rule_win"] = int(won)
        out["role"] = roles[seat]
    return out


def _keep(done: dict, r: dict, seats: int, mode: str, sims: int, sink) -> None:
    r.update(seats=seats, mode=mode, sims=sims)
    done[_pair_key(seats, mode, sims, r["seed"], r["team"])] = r
    if sink is not None:
        sink.write(json.dumps(r) + "\n")
        sink.flush()


def _pair_task(task: tuple) -> dict:
    with batch_gc():
        return duplicate_pair(*task)


def _pair_key(seats: int, mode: str, sims: int, seed: int, team: str) -> tuple:
    return (seats, mode, sims, seed, team)


def _load_pairs(path: str | None) -> dict[tuple, dict]:
    """The pairs already played and appended to ``path`` (a missing file holds none; a line
    cut by a stop mid-write is ignored)."""
    done: dict[tuple, dict] = {}
    if path is None:
        return done
    try:
        with open(path) as f:
            for line in f:
                try:
                    r = json.loads(line)
                except json.JSONDecodeError:
                    continue
                done[_pair_key(r["seats"], r["mode"], r["sims"], r["seed"], r["team"])] = r
    except FileNotFoundError:
        pass
    return done


def search_strength(
    seats: int,
    mode: str,
    deals: int,
    seed: int,
    sims: int,
    workers: int,
    pairs_path: str | None = None,
    teams: list[str] | None = None,
) -> str:
    """The paired duplicate-deal table of the search bot against the rule bot (Markdown), for
    ``teams`` (default every team)."""
    teams = list(TEAM_CHOICES) if teams is None else teams
    done = _load_pairs(pairs_path)
    wanted = [(seats, mode, seed + k, team, sims) for k in range(deals) for team in teams]
    tasks = [t for t in wanted if _pair_key(t[0], t[1], t[4], t[2], t[3]) not in done]
    t0 = time.perf_counter()
    sink = open(pairs_path, "a") if pairs_path else None  # noqa: SIM115 - closed below
    try:
        if workers > 1:
            with ProcessPoolExecutor(workers) as pool:
                for r in pool.map(_pair_task, tasks, chunksize=1):
                    _keep(done, r, seats, mode, sims, sink)
        else:
            for t in tasks:
                _keep(done, _pair_task(t), seats, mode, sims, sink)
    finally:
        if sink is not None:
            sink.close()
    wall = time.perf_counter() - t0
    results = [done[_pair_key(t[0], t[1], t[4], t[2], t[3])] for t in wanted]
    lines = [
        f"search:sims={sims} in one seat, rule bots elsewhere, against the same deals with the "
        f"rule bot in that seat: {seats} seats, {mode}, {deals} paired deals per team (seeds "
        f"{seed}..{seed + deals - 1}), {wall:.0f} s wall with {workers} worker(s) for the "
        f"{len(tasks)} pairs not already in the pairs file\n",
        "| team | search seat's team wins | rule seat's team wins | paired difference "
        "[95 % interval] | above 0 | CPU s/decision (mean, worst) | search decisions |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for team in teams:
        rows = [r for r in results if r["team"] == team]
        n = len(rows)
        diffs = [r["search_win"] - r["rule_win"] for r in rows]
        mean = sum(diffs) / n
        half = Z95 * (statistics.stdev(diffs) / math.sqrt(n) if n > 1 else 1.0)
        times = [t for r in rows for t in r["times"]]
        w_s, w_r = sum(r["search_win"] for r in rows), sum(r["rule_win"] for r in rows)
        mean_t = sum(times) / len(times) if times else 0.0
        lines.append(
            f"| {team} | {fmt(w_s, n)} | {fmt(w_r, n)} | {100 * mean:+.1f} points "
            f"[{100 * (mean - half):+.1f}, {100 * (mean + half):+.1f}] | "
            f"{'yes' if mean - half > 0 else 'no'} | {mean_t:.3f}, "
            f"{max(times, default=0.0):.3f} | {len(times)} |"
        )
    return "\n".join(lines)


def _pair(s: dict, num: str, den: str) -> str:
    if not s.get(den):
        return "–"
    return f"{s[num]} / {s[den]} ({100 * s[num] / s[den]:.2f} %)"


def _sanity_row(seats: str, team: str, s: dict) -> str:
    return (
        f"| {seats} | {team} | {_pair(s, 'deputy_shots_at_sheriff', 'deputy_shots')} | "
        f"{_pair(s, 'outlaw_saloons_healing_sheriff', 'outlaw_saloons')} | "
        f"{_pair(s, 'canteens_at_full_life', 'canteens')} | "
        f"{_pair(s, 'outlaw_turns_ended_with_shot_at_sheriff', 'outlaw_turns')} | "
        f"{_pair(s, 'outlaw_shots_at_outlaws', 'outlaw_shots')} |"
    )


if __name__ == "__main__":
    main()
