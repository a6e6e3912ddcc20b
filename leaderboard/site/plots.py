"""The board's plots, drawn by matplotlib (Agg, no display) as SVG text to inline in a page:
ratings with their 95 % intervals, a participant × role win-rate heatmap, and cost against
rating. Text stays text (``svg.fonttype = none``: smaller, selectable, the page's font) and the
output is reproducible (a fixed hash salt, no date), so a rebuild from the same store gives the
same bytes.

Every function takes plain rows, not the board model, and returns one ``<svg>`` element with a
``role="img"`` and an ``aria-label``; an empty input still gives a figure that says so.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

WIDTH_IN: Final = 7.5
ROW_IN: Final = 0.34
MAX_LABEL: Final = 28
INK: Final = "#1f2937"
MUTED: Final = "#6b7280"
ACCENT: Final = "#b45309"
ANCHOR: Final = "#2563eb"


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One participant on the ratings plot (``lo``/``hi``: its 95 % interval)."""

    id: str
    rating: float
    lo: float
    hi: float
    anchor: bool = False


@dataclass(frozen=True, slots=True)
class CostRow:
    """One participant on the cost plot: its cost per match (None: no price known)."""

    id: str
    rating: float
    lo: float
    hi: float
    cost_per_match: float | None


@cache
def _pyplot() -> Any:
    """pyplot on the Agg backend, set up once (imported late: it costs ~0.3 s)."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    matplotlib.rcParams.update(
        {
            "svg.fonttype": "none",
            "svg.hashsalt": "bangarena-leaderboard",
            "font.family": "sans-serif",
            "font.size": 9,
            "axes.edgecolor": MUTED,
            "axes.labelcolor": INK,
            "xtick.color": INK,
            "ytick.color": INK,
            "axes.spines.top": False,
            "axes.spines.right": False,
        }
    )
    return plt


def _short(label: str) -> str:
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


_SVG_START = re.compile(r"^.*?(<svg\b)", re.S)


def _svg(fig: Any, label: str) -> str:
    """The figure as one inline ``<svg>`` element (no XML prolog, no fixed size: the page
    scales it), labelled for screen readers."""
    plt = _pyplot()
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = _SVG_START.sub(r"\1", buf.getvalue(), count=1)
    text = re.sub(r'\s(width|height)="[^"]*pt"', "", text, count=2)
    safe = label.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    return text.replace("<svg ", f'<svg role="img" aria-label="{safe}" class="plot" ', 1)


def _empty(message: str, label: str) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(WIDTH_IN, 1.2))
    ax.axis("off")
    ax.text(0.5, 0.5, message, ha="center", va="center", color=MUTED, transform=ax.transAxes)
    return _svg(fig, label)


def ratings_svg(rows: Sequence[RatingRow], unit: str = "rating") -> str:
    """Each participant's rating with its 95 % interval as whiskers, best at the top; the
    anchor participant (whose rating is fixed) is drawn in another colour."""
    label = "Ratings with 95 % bootstrap intervals"
    if not rows:
        return _empty("No rated participant yet", label)
    plt = _pyplot()
    ordered = sorted(rows, key=lambda r: r.rating)
    fig, ax = plt.subplots(figsize=(WIDTH_IN, 0.8 + ROW_IN * len(ordered)))
    ys = list(range(len(ordered)))
    for y, r in zip(ys, ordered, strict=True):
        color = ANCHOR if r.anchor else ACCENT
        ax.errorbar(
            r.rating,
            y,
            xerr=[[max(r.rating - r.lo, 0.0)], [max(r.hi - r.rating, 0.0)]],
            fmt="o",
            color=color,
            ecolor=color,
            elinewidth=1.6,
            capsize=3,
            markersize=5,
        )
    ax.set_yticks(ys, [_short(r.id) for r in ordered])
    ax.set_xlabel(f"{unit} (95 % interval)")
    ax.grid(axis="x", color="#e5e7eb", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.set_ylim(-0.6, len(ordered) - 0.4)
    return _svg(fig, label)


def role_heatmap_svg(
    participants: Sequence[str],
    roles: Sequence[str],
    rates: Sequence[Sequence[float | None]],
    counts: Sequence[Sequence[int]],
) -> str:
    """Win rate per participant (rows) and role (columns); each cell says its rate and how
    many seats it rests on; a role never played is left blank."""
    label = "Win rate by participant and role"
    if not participants or not roles:
        return _empty("No seats played yet", label)
    plt = _pyplot()
    import numpy as np

    data = np.array(
        [[math.nan if v is None else float(v) for v in row] for row in rates], dtype=float
    )
    fig, ax = plt.subplots(
        figsize=(min(WIDTH_IN, 2.2 + 1.1 * len(roles)), 0.9 + ROW_IN * len(participants))
    )
    cmap = plt.get_cmap("YlOrBr").with_extremes(bad="#f3f4f6")
    image = ax.imshow(np.ma.masked_invalid(data), cmap=cmap, vmin=0.0, vmax=1.0, aspect="auto")
    for i in range(len(participants)):
        for j in range(len(roles)):
            v, n = data[i, j], counts[i][j]
            if n and not math.isnan(v):
                color = "white" if v > 0.6 else INK
                ax.text(j, i, f"{v:.0%}\n{n}", ha="center", va="center", fontsize=7, color=color)
    ax.set_xticks(range(len(roles)), list(roles))
    ax.set_yticks(range(len(participants)), [_short(p) for p in participants])
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    bar = fig.colorbar(image, ax=ax, fraction=0.04, pad=0.02)
    bar.set_label("win rate (cell: rate, seats)")
    return _svg(fig, label)


def cost_rating_svg(rows: Sequence[CostRow], unit: str = "rating") -> str:
    """Rating (with its interval) against cost per match; participants without a known price
    are listed apart instead of being drawn at zero."""
    label = "Rating against cost per match"
    priced = [r for r in rows if r.cost_per_match is not None]
    unpriced = [r.id for r in rows if r.cost_per_match is None]
    if not priced:
        note = "No participant has a price: cost is unknown for " + (
            ", ".join(_short(u) for u in unpriced[:6]) + ("…" if len(unpriced) > 6 else "")
            if unpriced
            else "anyone"
        )
        return _empty(note, label)
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(WIDTH_IN, 3.6))
    costs = [float(r.cost_per_match or 0.0) for r in priced]
    for r, c in zip(priced, costs, strict=True):
        ax.errorbar(
            c,
            r.rating,
            yerr=[[max(r.rating - r.lo, 0.0)], [max(r.hi - r.rating, 0.0)]],
            fmt="o",
            color=ACCENT,
            ecolor=ACCENT,
            capsize=3,
            markersize=5,
        )
        ax.annotate(
            _short(r.id), (c, r.rating), textcoords="offset points", xytext=(5, 4), fontsize=8
        )
    positive = [c for c in costs if c > 0]
    if positive and max(positive) / min(positive) > 50:
        # Costs span orders of magnitude between a small model and a large one.
        ax.set_xscale("symlog", linthresh=min(positive))
    ax.set_xlabel("cost per match (USD)")
    ax.set_ylabel(f"{unit} (95 % interval)")
    ax.grid(color="#e5e7eb", linewidth=0.8)
    ax.set_axisbelow(True)
    if unpriced:
        ax.set_title(
            "no price known for: " + ", ".join(_short(u) for u in unpriced[:6]),
            fontsize=8,
            color=MUTED,
            loc="left",
        )
    return _svg(fig, label)


__all__ = [
    "CostRow",
    "RatingRow",
    "cost_rating_svg",
    "ratings_svg",
    "role_heatmap_svg",
]
