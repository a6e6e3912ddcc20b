"""Events read back from their full JSON form (a saved state's log) are the events written:
every event class, every slot set, the private ones still private, no rendered form kept."""

from __future__ import annotations

from dataclasses import fields

import pytest

from bangarena.engine import GameConfig
from bangarena.engine.conformance import play_random_game
from bangarena.engine.events import ALL_EVENT_TYPES, event_dict, event_fields, event_from_dict
from bangarena.engine.state import state_from_dict, state_to_dict


@pytest.mark.parametrize("cls", ALL_EVENT_TYPES, ids=lambda c: c.KIND)
@pytest.mark.parametrize("private_to", [None, [2, 5]])
def test_every_event_class_reads_back_what_was_written(cls: type, private_to: list | None) -> None:
    values = {name: [i, i + 1] if i % 2 else f"v{i}" for i, name in enumerate(event_fields(cls))}
    ev = cls.make(private_to=private_to, **values)
    back = event_from_dict(event_dict(ev, None, full=True))
    assert type(back) is cls and back == ev
    assert back.private_to == private_to and back.forms is None
    for f in fields(cls):  # every slot set (an unset slot raises AttributeError)
        assert getattr(back, f.name) == getattr(ev, f.name)


@pytest.mark.parametrize("expansions", [(), ("armed_dangerous",)])
def test_a_played_log_reads_back_event_for_event(expansions: tuple[str, ...]) -> None:
    game, _ = play_random_game(GameConfig(seats=6, expansions=expansions), 11, check=False)
    d = state_to_dict(game.state)
    assert d["log"] == [event_dict(e, None, full=True) for e in game.state.log]
    back = state_from_dict(d)
    assert back.log == game.state.log
    assert [type(e) for e in back.log] == [type(e) for e in game.state.log]
    assert state_to_dict(back) == d
