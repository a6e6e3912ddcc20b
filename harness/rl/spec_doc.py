"""The generated tables of ``docs/research.md``: the observation encoding and the action
enumeration, as Markdown (``python -m bangarena.harness.rl.spec_doc``), for the base game and for
each expansion. A test checks that the document holds exactly these tables, so the
documentation cannot drift from the code."""

from __future__ import annotations

from collections.abc import Sequence

from bangarena.engine import EXPANSIONS

from .actions import action_ids, action_table, expansions_key
from .encoding import encoding_spec, observation_size

_HEAD = ["| field | offset | size | upper bound | meaning | labels |", "| --- | --- | --- | --- | --- | --- |"]  # fmt: skip


def _row(f) -> str:
    labels = ", ".join(f.labels) if f.labels else ""
    return f"| `{f.name}` | {f.offset} | {f.size} | {f.high:g} | {f.meaning} | {labels} |"


def _shown(name: str) -> bool:
    """Global fields and ``player_0``'s block (every seat's block has the same layout)."""
    return not name.startswith("player_") or name.startswith("player_0.")


def encoding_markdown(expansions: Sequence[str] = ()) -> str:
    """The global fields, then one player block; with expansions, the upper bounds of the base
    layout that change and the expansion's own fields."""
    key = expansions_key(expansions)
    if not key:
        rows = [
            f"Vector of {observation_size()} `float32` (round cap 40). Global fields, then "
            "`player_0` … `player_7` blocks of the same layout (`player_0` shown; block `s` "
            "starts at the offset of `player_s.present`):",
            "",
            *_HEAD,
        ]
        rows += [_row(f) for f in encoding_spec() if _shown(f.name)]
        return "\n".join(rows)
    base = encoding_spec()
    spec = encoding_spec(expansions=key)
    start = len(base)
    changed = [
        f"`{f.name}` {f.high:g}"
        for b, f in zip(base, spec[:start], strict=True)
        if f.high != b.high and _shown(f.name)
    ]
    first = spec[start]
    block = next(f for f in spec[start:] if f.name.startswith("player_0."))
    rows = [
        f"Vector of {observation_size(expansions=key)} `float32` (round cap 40, "
        f"`expansions={key!r}`). Offsets 0–{first.offset - 1}: the base layout above, the same "
        "fields at the same offsets, holding the base game's cards, characters and decision "
        f"kinds; upper bounds that differ: {', '.join(changed)}. Then the expansion's global "
        f"fields from offset {first.offset}, and `player_0` … `player_7` expansion blocks of the "
        f"same layout (`player_0` shown; block `s` starts at the offset of "
        f"`player_s.{block.name.split('.', 1)[1]}`):",
        "",
        *_HEAD,
    ]
    rows += [_row(f) for f in spec[start:] if _shown(f.name)]
    return "\n".join(rows)


def actions_markdown(expansions: Sequence[str] = ()) -> str:
    """The enumeration, as runs of consecutive indexes offered by the same decision kinds
    (with expansions: the ids they add after the base ones, and the base ids their decision
    kinds also offer)."""
    key = expansions_key(expansions)
    table = action_table(key)
    if not key:
        head = f"{len(table)} actions. Runs of consecutive indexes (first … last id of each run):"
        return "\n".join([head, "", *_runs(table, 0)])
    n = len(action_ids())
    base = action_table()
    also: dict[tuple[str, ...], list[str]] = {}
    for b, row in zip(base, table, strict=False):
        more = tuple(k for k in row["decisions"] if k not in b["decisions"])  # type: ignore[attr-defined]
        if more:
            also.setdefault(more, []).append(str(row["id"]))
    notes = [
        f"`{ids[0]}` … `{ids[-1]}`" if len(ids) > 1 else f"`{ids[0]}`" for ids in also.values()
    ]
    offered = [f"{', '.join(kinds)} ({note})" for kinds, note in zip(also, notes, strict=True)]
    head = (
        f"{len(table)} actions (`expansions={key!r}`): indexes 0–{n - 1} are the base "
        f"enumeration above, the same ids in the same order (in these games also offered by "
        f"{'; '.join(offered) or 'no other decision'}); the expansion's ids follow. Runs of "
        "consecutive indexes:"
    )
    return "\n".join([head, "", *_runs(table, n)])


def _runs(table: list[dict], start: int) -> list[str]:
    rows = ["| indexes | ids | offered by |", "| --- | --- | --- |"]
    for i in range(start + 1, len(table) + 1):
        if i < len(table) and _family(table[i]) == _family(table[start]):
            continue
        first, last = table[start], table[i - 1]
        ids = f"`{first['id']}`" if i - 1 == start else f"`{first['id']}` … `{last['id']}`"
        span = f"{start}" if i - 1 == start else f"{start}–{i - 1}"
        rows.append(f"| {span} | {ids} | {', '.join(first['decisions'])} |")
        start = i
    return rows


def _family(row: dict) -> tuple:
    """Ids of one run: the same decisions and the same shape (the part before ``@``/``:``)."""
    mid = row["id"]
    shape = mid.split("@")[0] if "@" in mid else mid.split(":")[0] if ":" in mid else "plain"
    if "@" in mid:
        shape = "@" + shape
    return (tuple(row["decisions"]), shape if ("@" in mid or ":" in mid) else "plain")


if __name__ == "__main__":
    for exp in ((), *((e,) for e in EXPANSIONS)):
        print(encoding_markdown(exp))
        print()
        print(actions_markdown(exp))
        print()
