"""Budgets count the whole stored suite: a ``max_usd`` suite stops starting matches once the
cost passes it, finishes (and stores) the matches in flight, says which budget stopped it, stays
stopped on a re-run with the same budget, and completes on a re-run with a larger one."""

from __future__ import annotations

from pathlib import Path

import pytest
from evals_runner_support import run, runner_suite
from evals_support import store_url  # noqa: F401
from typer.testing import CliRunner

from bangarena.cli.app import app
from bangarena.evals.budget import BudgetState
from bangarena.evals.store import SuiteTotals, open_store
from bangarena.evals.suite import Budget

PRICED = """
[suite]
name = "priced"
seed = 5
deals = 2

[[participants]]
id = "paid"
spec = "scripted:rule"
options = { price_input_per_mtok = 1.0, price_output_per_mtok = 4.0 }

[[participants]]
id = "rule"
spec = "rule"

[[participants]]
id = "random"
spec = "random"

[[tables]]
seats = 4
time_per_move = 30
transcripts = false
lineup = ["paid", "rule", "random", "rule"]

[budget]
max_usd = 0.3

[concurrency]
matches = 2
"""


def stored_cost(url: str) -> tuple[float, int]:
    store = open_store(url)
    try:
        t = store.totals("priced")
        return t.cost_usd, t.matches_done + t.matches_void
    finally:
        store.close()


def test_max_usd_stops_new_matches_finishes_in_flight_and_a_larger_budget_completes(
    store_url: str,  # noqa: F811
) -> None:
    url = store_url
    first = run(runner_suite(PRICED), url)
    assert first.stopped == "max_usd" and first.exit_code == 4
    assert "max_usd" in (first.stop_detail or "")
    cost, stored = stored_cost(url)
    assert cost >= 0.3  # it stopped because the cost passed the budget …
    assert 2 < first.matches_run_now < first.matches_planned
    # … and every match it started was finished and stored, none cut short.
    assert stored == first.matches_run_now == first.matches_done
    assert all(o.status == "done" for o in first.outcomes)

    # Budgets are cumulative: the same budget again starts nothing.
    again = run(runner_suite(PRICED), url)
    assert again.stopped == "max_usd" and again.matches_run_now == 0

    larger = runner_suite(PRICED, **{"max_usd = 0.3": "max_usd = 100.0"})
    last = run(larger, url)
    assert last.exit_code == 0 and last.stopped is None and last.complete
    assert last.matches_reused == first.matches_run_now
    assert last.matches_run_now == last.matches_planned - first.matches_run_now


def test_the_command_says_which_budget_stopped_the_suite(tmp_path: Path) -> None:
    path = tmp_path / "priced.toml"
    path.write_text(PRICED, encoding="utf-8")
    r = CliRunner().invoke(app, ["eval", str(path), "--db", str(tmp_path / "c.db")])
    assert r.exit_code == 4
    assert "stopped: max_usd: the cost budget is spent" in r.stderr


def test_budget_state_counts_earlier_runs_and_matches_in_flight() -> None:
    before = SuiteTotals(
        cost_usd=0.5, tokens=900, input_tokens=800, output_tokens=100, wall_s=50.0,
        matches_done=3, matches_void=1,
    )  # fmt: skip
    b = BudgetState(Budget(max_usd=1.0, max_tokens=1000, max_wall_s=60.0), None, before)
    assert b.reached() is None
    assert b.reached(live_cost=0.6) == "max_usd"  # in-flight spending counts at once
    assert b.reached(live_tokens=100) == "max_tokens"
    b.add_stored(0.2, 50)
    assert b.spent() == (0.7, 950)
    b.started_at -= 11.0
    assert b.reached() == "max_wall_s"
    m = BudgetState(None, 2, before)
    m.started = 2
    assert m.reached() == "max_matches" and "--max-matches 2" in m.describe("max_matches")


def test_the_dry_run_prices_the_expected_tokens() -> None:
    from bangarena.evals import plan_suite
    from bangarena.evals.plan_estimate import estimate_plan

    suite = runner_suite(PRICED)
    plan = plan_suite(suite)
    est = estimate_plan(suite, plan, {plan[0].key}, "sqlite:///x.db")
    data = est.to_json()
    assert (data["matches_planned"], data["matches_reused"], data["matches_to_run"]) == (8, 1, 7)
    paid = next(p for p in data["participants"] if p["participant"] == "paid")
    expected = (paid["expected_input_tokens"] * 1.0 + paid["expected_output_tokens"] * 4.0) / 1e6
    assert paid["expected_cost_usd"] == pytest.approx(expected, rel=1e-3) and expected > 0
    assert paid["seats"] == 7 and data["expected_cost_usd"] == pytest.approx(expected, rel=1e-3)
    assert data["budget"] == {"max_usd": 0.3}
