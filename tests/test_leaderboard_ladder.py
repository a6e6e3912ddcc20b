"""The bot ladder: graded rule bots whose order of strength is known before a match is played
(rule > rule:eps=0.25 > rule:eps=0.5 > rule:eps=0.75 > random) are played as a real fixed-seed
suite through the runner and the store, and the fitted ratings must find that order.

CI plays the first 60 deals of ``examples/ladder.toml`` (300 matches). At that size the rungs
next to each other are 100–200 points apart with intervals ±100–200 wide, so what is
statistically sound — and asserted — is: the end points' intervals are apart, every pair whose
intervals are apart is in the known order, and the fitted order is the known one but for at
most one swap of neighbours (Spearman ≥ 0.9). The full 600-deal ladder separates every rung
(docs/leaderboard.md, "The bot ladder")."""

from __future__ import annotations

from pathlib import Path

import pytest
from scipy.stats import spearmanr

from bangarena.evals import parse_suite
from bangarena.evals.runner import RunOptions, run_suite
from bangarena.evals.store import open_store
from bangarena.leaderboard import Board, build_boards

LADDER = Path(__file__).resolve().parents[1] / "examples" / "ladder.toml"
KNOWN_ORDER = ("rule", "rule-eps0.25", "rule-eps0.5", "rule-eps0.75", "random")
CI_DEALS = 60


def test_the_bot_ladder(tmp_path: Path) -> None:
    """One test, so that pytest-xdist plays the ladder once (a fixture would play it again on
    every worker that runs one of its tests)."""
    boards = _ladder_boards(tmp_path)
    _the_fitted_order_is_the_known_one(boards)
    _the_end_points_intervals_are_apart(boards)
    _every_separated_pair_is_in_the_known_order(boards)
    _ladder_validity_figures(boards)


def _ladder_boards(tmp_path: Path) -> tuple[Board, Board]:
    """The CI-sized ladder played once, rated anchored on the rule bot and on the mean."""
    text = LADDER.read_text(encoding="utf-8")
    assert "deals = 600" in text
    suite = parse_suite(text.replace("deals = 600", f"deals = {CI_DEALS}"), where="ladder.toml")
    db = tmp_path / "ladder.db"
    result = run_suite(suite, RunOptions(db=str(db)))
    assert result.exit_code == 0 and result.matches_done == CI_DEALS * 5
    with open_store(db) as store:
        (anchored,) = build_boards(store, "ladder", resamples=1000, seed=0, splits=50)
        (mean,) = build_boards(store, "ladder", resamples=1000, seed=0, splits=0, anchor_spec=None)
    return anchored, mean


def _known_rank(pid: str) -> int:
    return KNOWN_ORDER.index(pid)


def _the_fitted_order_is_the_known_one(ladder_boards: tuple[Board, Board]) -> None:
    board, _ = ladder_boards
    fitted = [p.id for p in board.participants]  # by rating, best first
    assert set(fitted) == set(KNOWN_ORDER)
    assert fitted[0] == "rule" and fitted[-1] == "random"
    rho = spearmanr([_known_rank(p) for p in fitted], range(len(fitted))).statistic
    assert rho >= 0.9, fitted
    assert board.matches == CI_DEALS * 5 and board.deals == CI_DEALS
    assert all(p.deals == CI_DEALS for p in board.participants)


def _the_end_points_intervals_are_apart(ladder_boards: tuple[Board, Board]) -> None:
    for board in ladder_boards:
        top, bottom = board.participant("rule"), board.participant("random")
        assert bottom.ci[1] < top.ci[0], (top.ci, bottom.ci)
        assert top.rank[1] < bottom.rank[0]
    anchored, _ = ladder_boards
    assert anchored.participant("rule").rating == 1000.0


def _every_separated_pair_is_in_the_known_order(ladder_boards: tuple[Board, Board]) -> None:
    for board in ladder_boards:
        entries = board.participants
        for a in entries:
            for b in entries:
                if a.ci[0] > b.ci[1]:  # a's interval wholly above b's
                    assert _known_rank(a.id) < _known_rank(b.id), (a.id, a.ci, b.id, b.ci)


def _ladder_validity_figures(ladder_boards: tuple[Board, Board]) -> None:
    board, mean = ladder_boards
    assert board.split_half.splits == 50 and board.split_half.mean_spearman is not None
    assert board.split_half.mean_spearman >= 0.8
    # Both anchorings are the same fit: only the location differs.
    gaps = [board.participant(p).rating - board.participant("random").rating for p in KNOWN_ORDER]
    mean_gaps = [
        mean.participant(p).rating - mean.participant("random").rating for p in KNOWN_ORDER
    ]
    assert gaps == pytest.approx(mean_gaps, abs=0.15)
    # The rule bot wins its duplicate seats more often than random does on the same cards.
    h2h = {(h.a, h.b): h for h in board.head_to_head}
    rule_random = h2h[("rule", "random")]
    assert rule_random.units == CI_DEALS * 5 and rule_random.diff > 0
    assert rule_random.ci is not None and rule_random.ci[0] > 0
