"""The leaderboard: role-adjusted ratings with honest intervals, computed only from the stored
match records of the evals store (docs/leaderboard.md).

```python
from bangarena.evals.store import open_store
from bangarena.leaderboard import build_boards

boards = build_boards(open_store("quickstart.db"))   # one Board per rules version
print(boards[0].model_dump_json(indent=1))            # what leaderboard.json holds
```

Modules: :mod:`.data` (reading a store), :mod:`.ratings` (the global fit), :mod:`.bootstrap`
(cluster bootstrap over deals), :mod:`.stats` (Wilson intervals, head to head, split-half
stability), :mod:`.online` (openskill, order-dependent), :mod:`.board` (the ``Board`` model and
``build_boards``), :mod:`.synthetic` (outcomes drawn from the model, for tests and benchmarks).

Importing this package imports none of them (numpy, scipy, SQLAlchemy load on first use). The
names below are re-exported lazily; the modules keep their own names (``bootstrap.bootstrap``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS: dict[str, str] = {
    "Board": "board",
    "ParticipantEntry": "board",
    "HeadToHeadEntry": "board",
    "board_json_schema": "board",
    "boards_json": "board",
    "build_board": "board",
    "build_boards": "board",
    "write_board_schema": "board",
    "LeaderboardError": "data",
    "UnknownSuiteError": "data",
    "RatedMatch": "data",
    "load_store": "data",
    "MatchShapeError": "ratings",
    "SCALE": "ratings",
    "fit_ratings": "ratings",
    "online_ratings": "online",
    "head_to_head": "stats",
    "split_half": "stats",
    "wilson": "stats",
}

__all__ = [
    "Board",
    "HeadToHeadEntry",
    "LeaderboardError",
    "MatchShapeError",
    "ParticipantEntry",
    "RatedMatch",
    "SCALE",
    "UnknownSuiteError",
    "board_json_schema",
    "boards_json",
    "build_board",
    "build_boards",
    "fit_ratings",
    "head_to_head",
    "load_store",
    "online_ratings",
    "split_half",
    "wilson",
    "write_board_schema",
]

if TYPE_CHECKING:
    from .board import (
        Board,
        HeadToHeadEntry,
        ParticipantEntry,
        board_json_schema,
        boards_json,
        build_board,
        build_boards,
        write_board_schema,
    )
    from .data import LeaderboardError, RatedMatch, UnknownSuiteError, load_store
    from .online import online_ratings
    from .ratings import SCALE, MatchShapeError, fit_ratings
    from .stats import head_to_head, split_half, wilson


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
