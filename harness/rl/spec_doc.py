"""The generated tables of ``docs/research.md``: the observation encoding and the action
enumeration, as Markdown (``python -m bangarena.harness.rl.spec_doc``). A test checks that the
document holds exactly these tables, so the documentation cannot drift from the code."""

from __future__ import annotations

from .actions import action_table
from .encoding import encoding_spec, observation_size


def encoding_markdown() -> str:
    """The global fields, then one player block (every seat's block has the same layout)."""
    spec = encoding_spec()
    rows = [
        f"Vector of {observation_size()} `float32` (round cap 40). Global fields, then "
        "`player_0` … `player_7` blocks of the same layout (`player_0` shown; block `s` starts "
        "at the offset of `player_s.present`):",
        "",
        "| field | offset | size | upper bound | meaning | labels |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for f in spec:
        if f.name.startswith("player_") and not f.name.startswith("player_0."):
            continue
        labels = ", ".join(f.labels) if f.labels else ""
        rows.append(f"| `{f.name}` | {f.offset} | {f.size} | {f.high:g} | {f.meaning} | {labels} |")
    return "\n".join(rows)


def actions_markdown() -> str:
    """The enumeration, as runs of consecutive indexes offered by the same decision kinds."""
    table = action_table()
    rows = [
        f"{len(table)} actions. Runs of consecutive indexes (first … last id of each run):",
        "",
        "| indexes | ids | offered by |",
        "| --- | --- | --- |",
    ]
    start = 0
    for i in range(1, len(table) + 1):
        if i < len(table) and _family(table[i]) == _family(table[start]):
            continue
        first, last = table[start], table[i - 1]
        ids = f"`{first['id']}`" if i - 1 == start else f"`{first['id']}` … `{last['id']}`"
        span = f"{start}" if i - 1 == start else f"{start}–{i - 1}"
        rows.append(f"| {span} | {ids} | {', '.join(first['decisions'])} |")
        start = i
    return "\n".join(rows)


def _family(row: dict) -> tuple:
    """Ids of one run: the same decisions and the same shape (the part before ``@``/``:``)."""
    mid = row["id"]
    shape = mid.split("@")[0] if "@" in mid else mid.split(":")[0] if ":" in mid else "plain"
    if "@" in mid:
        shape = "@" + shape
    return (tuple(row["decisions"]), shape if ("@" in mid or ":" in mid) else "plain")


if __name__ == "__main__":
    print(encoding_markdown())
    print()
    print(actions_markdown())
