"""From boards to pages: the rows, plots, pairs and texts the templates show, read off the
:class:`~bangarena.leaderboard.board.Board` models (the only place that knows their fields),
and what the site says about the store (no match yet, an unknown suite, rules versions rated
apart)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from bangarena.evals.store import Store

from .pages import participant_path

ROLE_ORDER: Final = ("sheriff", "deputy", "outlaw", "renegade", "double_agent")
ROLE_NAMES: Final = {
    "sheriff": "Sheriff",
    "deputy": "Deputy",
    "outlaw": "Outlaw",
    "renegade": "Renegade",
    "double_agent": "Double Agent",
}
METHOD_DOC: Final = Path(__file__).resolve().parents[2] / "docs" / "leaderboard.md"
"""The methodology's text in a source checkout (an installed package falls back to the
ratings modules' own descriptions)."""


def load_boards(
    store: Store, suite: str | None, resamples: int, seed: int
) -> tuple[list[Any], list[str], list[str]]:
    """(boards newest rules version first, problems, notices) for ``suite`` of ``store``. A
    problem is what was asked for and is not there (an unknown suite); a notice is what the
    reader should know about what is there. Never raises for what the store holds."""
    from bangarena.leaderboard.board import build_boards
    from bangarena.leaderboard.data import LeaderboardError, UnknownSuiteError

    problems: list[str] = []
    notices: list[str] = []
    try:
        boards = build_boards(store, suite=suite, resamples=resamples, seed=seed)
    except UnknownSuiteError as e:
        problems.append(str(e))
        return [], problems, notices
    except LeaderboardError as e:
        problems.append(f"the board cannot be built: {e}")
        return [], problems, notices
    if len(boards) > 1:
        notices.append(
            f"the store holds matches of {len(boards)} rules versions "
            f"({', '.join(b.rules_version for b in boards)}): each is rated apart, on its own "
            "board, newest first"
        )
    return boards, problems, notices


@dataclass
class Row:
    """One participant on one board, as the pages show it."""

    id: str
    href: str
    spec: str
    kind: str
    anchor: bool
    rating: float | None
    lo: float | None
    hi: float | None
    rank_best: int | None
    rank_worst: int | None
    matches: int
    deals: int
    seats: int
    win_rate: float | None
    win_lo: float | None
    win_hi: float | None
    first_try_valid: float | None
    retries_per_decision: float | None
    autopilot_rate: float | None
    cost_usd: float | None
    cost_per_match: float | None
    cost_per_win: float | None
    tokens_per_decision: float | None
    latency_per_decision: float | None
    input_per_decision: float | None
    output_per_decision: float | None
    priced: bool
    rule_following: bool
    answered: int
    decisions: int
    failures: list[tuple[str, int]]
    transport: int
    autopilot: list[tuple[str, int]]
    by_role: list[dict[str, Any]]
    online: dict[str, Any] | None

    @property
    def rank_text(self) -> str:
        if self.rank_best is None:
            return "—"
        if self.rank_best == self.rank_worst:
            return str(self.rank_best)
        return f"{self.rank_best}–{self.rank_worst}"


@dataclass(frozen=True)
class Scale:
    """Maps ratings to 0–100 % of a whisker's width (one scale per board)."""

    low: float
    high: float

    @property
    def span(self) -> float:
        return self.high - self.low

    def x(self, value: float | None) -> float:
        if value is None or self.span <= 0:
            return 0.0
        return round(100.0 * (value - self.low) / self.span, 2)


@dataclass
class BoardView:
    """One board, as the pages show it."""

    rules_version: str
    suite: str | None
    matches: int
    deals: int
    void: int
    draws: int
    resamples: int | None
    anchor: str | None
    anchor_rating: float | None
    split_half: float | None
    split_half_splits: int | None
    rows: list[Row]
    notes: list[str]
    pairs: list[dict[str, Any]]
    online: list[dict[str, Any]]
    scale: Scale
    extra_validity: list[tuple[str, str]]
    plots: dict[str, str] = field(default_factory=dict)

    @property
    def anchor_id(self) -> str:
        return f"rules-{self.rules_version}"

    @property
    def caption(self) -> str:
        parts = [f"{self.matches} matches", f"{self.deals} deals"]
        if self.split_half is not None:
            parts.append(f"split-half ρ {self.split_half:.2f}")
        if self.anchor:
            parts.append(f"anchor {self.anchor} = {self.anchor_rating:g}")
        return " · ".join(parts)


def _per(num: float, den: float) -> float | None:
    return num / den if den else None


def _row(p: Any) -> Row:
    rf, usage = p.rule_following, p.usage
    failures = [(k, v) for k, v in rf.failures.items() if v and k != "transport"]
    timed = rf.decisions or 0
    return Row(
        id=p.id,
        href=participant_path(p.id),
        spec=p.spec,
        kind=p.kind,
        anchor=p.anchor,
        rating=p.rating,
        lo=p.ci[0],
        hi=p.ci[1],
        rank_best=p.rank[0],
        rank_worst=p.rank[1],
        matches=p.matches,
        deals=p.deals,
        seats=p.seats,
        win_rate=p.win_rate,
        win_lo=p.win_rate_ci[0] if p.win_rate_ci else None,
        win_hi=p.win_rate_ci[1] if p.win_rate_ci else None,
        first_try_valid=p.first_try_valid,
        retries_per_decision=p.retries_per_decision,
        autopilot_rate=p.autopilot_rate,
        cost_usd=p.cost_usd,
        cost_per_match=p.cost_per_match,
        cost_per_win=p.cost_per_win,
        tokens_per_decision=p.tokens_per_decision,
        latency_per_decision=p.latency_s_per_decision,
        input_per_decision=_per(usage.input_tokens, timed) if usage.input_tokens else None,
        output_per_decision=_per(usage.output_tokens, timed) if usage.output_tokens else None,
        priced=p.cost_usd is not None,
        rule_following=rf.applies,
        answered=rf.answered,
        decisions=rf.decisions,
        failures=failures,
        transport=rf.failures.get("transport", 0),
        autopilot=sorted(rf.autopilot.items()),
        by_role=[
            {
                "role": role,
                "name": ROLE_NAMES.get(role, role),
                "seats": rec.played,
                "wins": rec.wins,
                "rate": rec.rate,
                "lo": rec.ci[0] if rec.ci else None,
                "hi": rec.ci[1] if rec.ci else None,
            }
            for role, rec in p.by_role.items()
        ],
        online=(
            None
            if p.openskill is None
            else {"mu": p.openskill.mu, "sigma": p.openskill.sigma, "ordinal": p.openskill.ordinal}
        ),
    )


def _pair_class(lo: float | None, hi: float | None) -> str:
    if lo is None or hi is None:
        return ""
    return "good" if lo > 0 else "bad" if hi < 0 else ""


def _pairs(board: Any) -> list[dict[str, Any]]:
    out = []
    for h in board.head_to_head:
        lo, hi = (h.ci[0], h.ci[1]) if h.ci else (None, None)
        out.append(
            {
                "a": h.a,
                "b": h.b,
                "a_href": participant_path(h.a),
                "b_href": participant_path(h.b),
                "n": h.units,
                "deals": h.deals,
                "diff": h.diff,
                "lo": lo,
                "hi": hi,
                "cls": _pair_class(lo, hi),
            }
        )
    return out


def _scale(rows: Sequence[Row]) -> Scale:
    values = [v for r in rows for v in (r.lo, r.hi, r.rating) if v is not None]
    if not values:
        return Scale(0.0, 0.0)
    low, high = min(values), max(values)
    pad = max((high - low) * 0.05, 1.0)
    return Scale(low - pad, high + pad)


def _plots(board: Any, rows: Sequence[Row]) -> dict[str, str]:
    from .plots import CostRow, RatingRow, cost_rating_svg, ratings_svg, role_heatmap_svg

    ratings = [
        RatingRow(r.id, r.rating, r.lo, r.hi, r.anchor) for r in rows if r.rating is not None
    ]
    roles = [x for x in ROLE_ORDER if any(x in p.by_role for p in board.participants)]
    roles += sorted({x for p in board.participants for x in p.by_role} - set(roles))
    ordered = sorted(board.participants, key=lambda p: p.position)
    rates = [[p.by_role[x].rate if x in p.by_role else None for x in roles] for p in ordered]
    counts = [[p.by_role[x].played if x in p.by_role else 0 for x in roles] for p in ordered]
    costs = [
        CostRow(r.id, r.rating, r.lo, r.hi, r.cost_per_match) for r in rows if r.rating is not None
    ]
    return {
        "ratings": ratings_svg(ratings),
        "roles": role_heatmap_svg(
            [p.id for p in ordered], [ROLE_NAMES.get(x, x) for x in roles], rates, counts
        ),
        "cost": cost_rating_svg(costs),
    }


def board_views(
    boards: Sequence[Any], links: dict[str, str] | None = None, plots: bool = False
) -> list[BoardView]:
    """What the pages (and ``leaderboard show``) show of each board; ``plots`` draws them."""
    views = []
    for b in boards:
        rows = [_row(p) for p in sorted(b.participants, key=lambda p: p.position)]
        if links:
            for r in rows:
                r.href = links.get(r.id, r.href)
        sh = b.split_half
        extra = [
            ("Draws at the round cap", str(b.draws)),
            ("Matches that could not be rated", str(b.excluded)),
            ("Fit", f"log-likelihood {b.model.log_likelihood:.2f}, converged: "
             f"{'yes' if b.model.converged else 'no'}"),
            ("Bootstrap refits by L-BFGS", str(b.model.bootstrap_fallbacks)),
        ]  # fmt: skip
        if sh.ci is not None:
            extra.append(("Split-half ρ, 2.5–97.5 %", f"{sh.ci[0]:.3f} – {sh.ci[1]:.3f}"))
        for e in b.model.effects:
            ci = f" [{e.ci[0]:+.2f}, {e.ci[1]:+.2f}]" if e.ci else ""
            extra.append((f"Effect {e.outcome} at {e.table}", f"{e.value:+.3f} log-odds{ci}"))
        view = BoardView(
            rules_version=b.rules_version,
            suite=b.suite,
            matches=b.matches,
            deals=b.deals,
            void=b.void_matches,
            draws=b.draws,
            resamples=b.model.resamples,
            anchor=b.model.anchor.id,
            anchor_rating=b.model.anchor.rating,
            split_half=sh.mean_spearman,
            split_half_splits=sh.splits or None,
            rows=rows,
            notes=list(b.notes),
            pairs=_pairs(b),
            online=sorted(
                ({"id": r.id, **r.online} for r in rows if r.online is not None),
                key=lambda o: -o["ordinal"],
            ),
            scale=_scale(rows),
            extra_validity=extra,
        )
        if plots:
            view.plots = _plots(b, rows)
        views.append(view)
    return views


def participant_pages(
    views: Sequence[BoardView], replays: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """One page context per participant: a section per board it is on, its head-to-head
    pairs (from its side) and the replays it sat in."""
    pages: dict[str, dict[str, Any]] = {}
    for b in views:
        for r in b.rows:
            page = pages.setdefault(
                r.id,
                {"id": r.id, "spec": r.spec, "kind": r.kind, "suites": [], "sections": []},
            )
            pairs = []
            for h in b.pairs:
                if r.id not in (h["a"], h["b"]):
                    continue
                mine = h["a"] == r.id
                lo, hi = h["lo"], h["hi"]
                if not mine:
                    lo, hi = (None, None) if lo is None else (-hi, -lo)
                pairs.append(
                    {
                        "other": h["b"] if mine else h["a"],
                        "other_href": h["b_href"] if mine else h["a_href"],
                        "n": h["n"],
                        "diff": h["diff"] if mine else -h["diff"],
                        "lo": lo,
                        "hi": hi,
                        "cls": _pair_class(lo, hi),
                    }
                )
            page["sections"].append(
                {"rules_version": b.rules_version, "row": r, "of": len(b.rows), "pairs": pairs}
            )
    for page in pages.values():
        page["replays"] = [x for x in replays if page["id"] in x["participants"]][:50]
    return list(pages.values())


def replay_rows(results: Sequence[Any]) -> list[dict[str, Any]]:
    """The replays list: one row per built replay, newest first."""
    rows = []
    for r in results:
        j = r.job
        rows.append(
            {
                "key": j.key,
                "href": j.path[len("replays/") :],
                "page": j.path,
                "suite": j.suite,
                "seats": j.seats,
                "mode": j.mode,
                "lineup": list(j.lineup),
                "participants": set(j.lineup),
                "decisions": j.decisions,
                "when": j.finished_at,
                "title": f"{j.seats} seats, {j.mode}: {', '.join(j.lineup)}",
            }
        )
    return rows


def board_schema() -> dict[str, Any]:
    """The JSON Schema of ``leaderboard.json`` (a list of boards), from the board model's."""
    from bangarena.leaderboard.board import board_json_schema

    one = dict(board_json_schema())
    defs = one.pop("$defs", {})
    dialect = one.pop("$schema", "https://json-schema.org/draft/2020-12/schema")
    return {
        "$schema": dialect,
        "title": "leaderboard.json",
        "description": "One board per rules version, newest first (bangarena leaderboard build)",
        "type": "array",
        "items": one,
        "$defs": defs,
    }


def _docstring_markdown() -> str:
    """The methodology from the ratings modules' own descriptions (no docs folder installed)."""
    from bangarena.leaderboard import bootstrap, online, ratings, stats

    parts = []
    for title, module in (
        ("The model", ratings),
        ("The bootstrap", bootstrap),
        ("Validity, head to head", stats),
        ("The provisional online rating", online),
    ):
        text = re.sub(r"``([^`]+)``", r"`\1`", (module.__doc__ or "").strip())
        text = re.sub(r":(?:func|mod|class|meth|data):`~?\.?([^`]+)`", r"`\1`", text)
        parts.append(f"## {title}\n\n{text}")
    return "\n\n".join(parts)


def method_html() -> str:
    """The methodology page's text as HTML: ``docs/leaderboard.md`` when the source tree has it,
    else the ratings modules' descriptions. Raw HTML in the Markdown is not passed through."""
    from markdown_it import MarkdownIt

    try:
        text = METHOD_DOC.read_text(encoding="utf-8")
    except OSError:
        text = _docstring_markdown()
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(text)
    for tok in tokens:
        # The page has its own title: the document's headings go one level down.
        if tok.type in ("heading_open", "heading_close"):
            tok.tag = f"h{min(int(tok.tag[1]) + 1, 6)}"
    return md.renderer.render(tokens, md.options, {})


__all__ = [
    "BoardView",
    "Row",
    "Scale",
    "board_schema",
    "board_views",
    "load_boards",
    "method_html",
    "participant_pages",
    "replay_rows",
]
