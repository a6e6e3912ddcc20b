"""What a seat's prompts remember between its decisions, built only from the views the seat was
given: the lines of the events since its last decision (bounded) and a bounded public summary
of the whole game so far (who attacked whom, who was eliminated by whom)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from .catalog import Catalog
from .events import shared_event_facts

RECENT_MAX_LINES: Final = 18
"""At most this many event lines per prompt; older ones are counted, not shown."""


@dataclass(slots=True)
class PromptMemory:
    """The summary state of one seat's prompts. Feed it every view's ``events`` in order."""

    attacks: dict[tuple[int, int], int] = field(default_factory=dict)
    kills: list[tuple[int, int | None]] = field(default_factory=list)
    decisions: int = 0
    # Caches of rendered text, not memory: most decisions change neither the summary nor most
    # table lines, and re-rendering them was half of a turn prompt's cost. ``summary_text``:
    # (catalog, line) until an attack or an elimination; ``player_lines``: per seat
    # (PlayerView, catalog, line), reused while the view hands out the same PlayerView object
    # (views are read-only and share a seat's unchanged PlayerViews between successive views).
    summary_text: tuple[Catalog, str] | None = field(default=None, repr=False, compare=False)
    player_lines: dict[int, tuple[Any, Catalog, str]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def observe(self, events: Iterable[dict[str, Any]], cat: Catalog) -> tuple[list[str], int]:
        """Take the events since the previous call; returns (the last event lines, how many
        lines were left out)."""
        lines: list[str] = []
        for e in events:
            _, _, line, pair, kill = shared_event_facts(e, cat)
            if pair is not None:
                self.attacks[pair] = self.attacks.get(pair, 0) + 1
                self.summary_text = None
            elif kill is not None:
                self.kills.append(kill)
                self.summary_text = None
            if line is not None:
                lines.append(line)
        self.decisions += 1
        omitted = max(0, len(lines) - RECENT_MAX_LINES)
        return lines[omitted:], omitted

    def summary(self, cat: Catalog) -> str:
        """One line: attack counts by pair (``#0→2×3,5``: seat 0 attacked seat 2 three times and
        seat 5 once) and eliminations (empty before anything happened).
        Bounded by the number of seat pairs."""
        kept = self.summary_text
        if kept is not None and kept[0] is cat:
            return kept[1]
        text = self._summary(cat)
        self.summary_text = (cat, text)
        return text

    def _summary(self, cat: Catalog) -> str:
        items = []
        if self.attacks:
            by: dict[int, list[str]] = {}
            for (a, b), n in sorted(self.attacks.items()):
                by.setdefault(a, []).append(f"{b}×{n}" if n > 1 else str(b))
            pairs = "; ".join(f"#{a}→{','.join(targets)}" for a, targets in by.items())
            items.append(cat.turn["attacks"].format(pairs=pairs))
        if self.kills:
            kills = ", ".join(
                cat.turn["kill_nobody" if k is None else "kill"].format(seat=s, killer=k)
                for s, k in self.kills
            )
            items.append(cat.turn["kills"].format(list=kills))
        return cat.turn["summary"].format(items="; ".join(items)) if items else ""
