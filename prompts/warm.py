"""The one-time costs of a process's first prompt, paid before any clock starts.

The first decision a process renders for a model or an outside agent builds what every later
one reuses: the answer schema's pydantic models (``rules_machine.models``, ~40 ms), the prompt
templates and the language's catalog and rules text (~30 ms), more on a loaded machine or
without a bytecode cache. Done inside a decision, that time would count against the seat's
clock, so the seats that render prompts call :func:`warm_prompts` when they are built, which is
before their match starts.
"""

from __future__ import annotations

from functools import cache

from bangarena.engine import GameConfig, new_game

from .memory import PromptMemory
from .render import render_system, render_turn


@cache
def warm_prompts(lang: str = "en") -> None:
    """Render one throwaway decision's prompts in ``lang`` and build the answer schemas (once
    per process and language; later calls return at once)."""
    from bangarena.rules_machine.schemas import answer_schema

    game = new_game(GameConfig(4), 0)
    decision = game.decision
    view = game.view(decision.seat)
    render_system(view, lang)
    render_turn(view, decision, PromptMemory(), lang)
    for notes in (False, True):
        answer_schema(None, notes=notes)
        answer_schema(decision.ids, notes=notes)


__all__ = ["warm_prompts"]
