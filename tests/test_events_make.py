"""``Cls.make(...)``, the engine's fast way to make an event (``events._maker``), gives the event
``Cls(...)`` gives, for every event class: the same fields, defaults and errors."""

from __future__ import annotations

from dataclasses import MISSING, fields

import pytest

from bangarena.engine.events import ALL_EVENT_TYPES, Event


def _sample(cls: type[Event]) -> dict[str, object]:
    """A value for every field without a default (distinct, so a field set from another's
    argument shows)."""
    return {
        f.name: [k, f.name] if "list" in str(f.type) else f"{f.name}-{k}"
        for k, f in enumerate(fields(cls))
        if f.default is MISSING and f.default_factory is MISSING
    }


@pytest.mark.parametrize("cls", ALL_EVENT_TYPES, ids=lambda c: c.KIND)
def test_make_gives_the_event_the_class_gives(cls: type[Event]) -> None:
    values = _sample(cls)
    made, built = cls.make(**values), cls(**values)
    assert type(made) is cls
    assert made == built
    for f in fields(cls):  # ``forms`` too, which equality leaves out
        assert getattr(made, f.name) == getattr(built, f.name), f.name
    private = cls.make(**values, private_to=[2])
    assert private == cls(**values, private_to=[2])
    assert private.private_to == [2] and private.forms is None


@pytest.mark.parametrize("cls", ALL_EVENT_TYPES, ids=lambda c: c.KIND)
def test_make_refuses_what_the_class_refuses(cls: type[Event]) -> None:
    values = _sample(cls)
    with pytest.raises(TypeError):
        cls.make(**values, not_a_field=1)
    with pytest.raises(TypeError):
        cls.make(*values.values())  # keywords only, as the class
    if values:
        missing = dict(values)
        missing.pop(next(iter(missing)))
        with pytest.raises(TypeError):
            cls.make(**missing)
